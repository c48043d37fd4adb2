"""Reports for ``--dry-run`` stubs that let a phase's guards on ``report.x`` route as they would for real.

For each agent phase whose transitions read ``report.<path>``, the first transition (in priority order, not
to ``$fail``) whose guard can be met by setting report fields is chosen, and a report holding those fields is
built: ``report.x == V`` sets ``x`` to ``V``, ``report.x in [V, ...]`` to the first ``V``, ``report.x > N`` to
``N + 1`` (``>=`` to ``N``, ``<``/``<=`` likewise), ``report.x`` alone to ``true``; ``or`` takes its left side.
The built report is checked with the guard evaluator itself: a guard it does not meet (``not``, comparisons
between two paths, ...) gets no report, and the run says which transition sent it to ``$fail``. A
``for_each: report.<path>`` (SPEC §13) gets a list of ``DRY_RUN_ITEMS`` stub items at that path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alphred.guards import Expr
from alphred.guards.ast import And, Compare, ListExpr, Literal, Or, Path
from alphred.guards.evaluate import evaluate_guard, guard_paths
from alphred.workflow import PhaseType, Workflow

DRY_RUN_ITEMS = 2


def stub_reports(workflow: Workflow) -> dict[str, dict[str, Any]]:
    """Phase key -> the structured report its dry-run stub returns (only phases whose guards need one)."""
    reports: dict[str, dict[str, Any]] = {}
    for phase in workflow.phases:
        if phase.type is not PhaseType.AGENT:
            continue
        for t in phase.transitions:
            if t.for_each is not None and t.for_each[:1] == ("report",) and len(t.for_each) > 1:
                shape = _item_schema(phase.output, t.for_each[1:])
                items = [_item(shape, i) for i in range(DRY_RUN_ITEMS)]
                _set(reports.setdefault(phase.key, {}), t.for_each[1:], items)
        guards = [t for t in phase.transitions if t.guard is not None and t.target != "$fail"]
        if not any(path[:1] == ("report",) for t in guards for path in guard_paths(t.guard)):  # type: ignore[arg-type]
            continue
        decision = phase.decisions[0] if phase.decisions else None
        for transition in sorted(guards, key=lambda t: t.priority):
            assert transition.guard is not None
            report: dict[str, Any] = {}
            _require(transition.guard, report)
            context = {"decision": decision, "report": report, "exit_code": None}
            if report and _holds(transition.guard, context):
                reports[phase.key] = {**reports.get(phase.key, {}), **report}
                break
    return reports


def _item_schema(output: Mapping[str, Any] | None, parts: tuple[str, ...]) -> Mapping[str, Any]:
    """The schema of one item of the list at ``parts`` of a typed report (empty when untyped)."""
    node: Any = output or {}
    for part in parts:
        node = (node.get("properties") or {}).get(part) if isinstance(node, Mapping) else None
    items = node.get("items") if isinstance(node, Mapping) else None
    return items if isinstance(items, Mapping) else {}


def _item(schema: Mapping[str, Any], index: int) -> dict[str, Any]:
    """Stub item ``index``: the item schema's required fields, with a ``title`` naming it where it fits."""
    item = _example(schema)
    if "title" in item or not schema.get("properties"):
        item["title"] = f"dry-run item {index + 1}"
    return item


def _example(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The required properties of an object schema, each filled with a plain value of its type."""
    plain = {"string": "dry run", "integer": 0, "number": 0, "boolean": False, "array": [], "null": None}
    found: dict[str, Any] = {}
    properties = schema.get("properties") or {}
    for name in schema.get("required") or ():
        field = properties.get(name) or {}
        if isinstance(field, Mapping) and field.get("enum"):
            found[name] = field["enum"][0]
        elif isinstance(field, Mapping) and field.get("type") == "object":
            found[name] = _example(field)
        else:
            kind = field.get("type") if isinstance(field, Mapping) else None
            found[name] = plain.get(kind[0] if isinstance(kind, list) else kind or "string", "dry run")
    return found


def _holds(guard: Expr, context: Mapping[str, object]) -> bool:
    try:
        return evaluate_guard(guard, context)
    except Exception:  # a guard reading more than a stub knows (other phases, inputs): no report from it
        return False


def _require(expr: Expr, report: dict[str, Any]) -> None:
    """Set the report fields that make ``expr`` true, where a field alone decides it."""
    if isinstance(expr, And):
        _require(expr.left, report)
        _require(expr.right, report)
    elif isinstance(expr, Or):
        _require(expr.left, report)
    elif isinstance(expr, Path) and expr.parts[:1] == ("report",) and len(expr.parts) > 1:
        _set(report, expr.parts[1:], True)
    elif isinstance(expr, Compare):
        path, value, op = _path_and_value(expr)
        if path is None:
            return
        wanted = _satisfying(op, value)
        if wanted is not _NOTHING:
            _set(report, path, wanted)


_NOTHING = object()
_FLIPPED = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "==": "==", "!=": "!="}


def _path_and_value(expr: Compare) -> tuple[tuple[str, ...] | None, Any, str]:
    left, right = expr.left, expr.right
    op: str = expr.op
    if isinstance(right, Path) and isinstance(left, Literal | ListExpr) and op != "in":
        left, right, op = right, left, _FLIPPED[op]
    if not isinstance(left, Path) or left.parts[:1] != ("report",) or len(left.parts) < 2:
        return None, None, op
    if isinstance(right, Literal):
        return left.parts[1:], right.value, op
    if isinstance(right, ListExpr) and op == "in" and right.items and isinstance(right.items[0], Literal):
        return left.parts[1:], right.items[0].value, "=="
    return None, None, op


def _satisfying(op: str, value: Any) -> Any:
    if op == "==":
        return value
    numeric = isinstance(value, int | float) and not isinstance(value, bool)
    if op in (">=", "<=") and numeric:
        return value
    if op == ">" and numeric:
        return value + 1
    if op == "<" and numeric:
        return value - 1
    return _NOTHING


def _set(report: dict[str, Any], parts: tuple[str, ...], value: Any) -> None:
    node = report
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    node[parts[-1]] = value
