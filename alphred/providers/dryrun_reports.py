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
        typed = sample(phase.output) if phase.output is not None else None  # SPEC §12: its required fields
        if isinstance(typed, dict):
            typed.pop("decision", None)
            reports[phase.key] = typed
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
            report: dict[str, Any] = dict(typed) if isinstance(typed, dict) else {}
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


def _item(schema: Mapping[str, Any], index: int) -> Any:
    """Stub item ``index``: a sample of the item schema, with a ``title`` naming it where one fits."""
    item = sample(schema) if schema else {}
    if isinstance(item, dict) and (not schema.get("properties") or "title" in item):
        item["title"] = f"dry-run item {index + 1}"
    return item


def sample(schema: Mapping[str, Any]) -> Any:
    """A small value of a typed report's schema: an object with its required properties, each the first of
    its ``enum``, its ``const``, or an empty value of its type (the stand-in's report under ``--dry-run``)."""
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    declared = schema.get("type")
    kinds = [declared] if isinstance(declared, str) else [t for t in declared or () if t != "null"] or [None]
    kind = kinds[0] if kinds else None
    if kind == "object" or (kind is None and isinstance(schema.get("properties"), Mapping)):
        properties = schema.get("properties") or {}
        return {
            name: sample(properties[name]) if isinstance(properties.get(name), Mapping) else None
            for name in schema.get("required") or ()
        }
    empty: dict[str, Any] = {"array": [], "string": "", "integer": 0, "number": 0, "boolean": False}
    if kind in ("integer", "number") and isinstance(schema.get("minimum"), int | float):
        return schema["minimum"]
    if kind == "string" and isinstance(schema.get("minLength"), int):
        return "x" * schema["minLength"]
    return empty.get(str(kind))


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
