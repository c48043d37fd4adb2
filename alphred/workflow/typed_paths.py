"""Static typing of guard and template paths into typed reports (SPEC §12): ``report.x`` and
``phases.<key>.report.x`` are checked at ``validate`` against the ``output:`` schema of the phase whose report
they read: an unknown property (with a did-you-mean), a comparison with a value outside an ``enum``, a
comparison that cannot hold for the path's type (a list compared with a string). Inside a ``for_each``
branch (SPEC §13), the item's path (``task.title`` for ``as: task``) is checked the same way against the
``items`` schema of the list, when the list is a field of a typed report; an untyped list stays unchecked."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from alphred.guards import guard_nodes
from alphred.guards.ast import Compare, Expr, ListExpr, Literal, Path
from alphred.workflow.model import Phase, Workflow
from alphred.workflow.output import TYPE_NAMES, PathType, accepts, literal_type, path_type, schema_at
from alphred.workflow.yaml_source import did_you_mean


def report_owners(workflow: Workflow, path: tuple[str, ...], reader: Phase | None, guard: bool) -> list[Phase]:
    """The phases whose report ``path`` reads (empty when it reads no report).

    ``report`` in a guard is the report of the phase whose transition it guards; in a template, that of the
    phase that routed into ``reader`` (any of its predecessors). ``phases.<key>.report`` is phase ``key``'s.
    """
    if path[0] == "report" and reader is not None:
        if guard:
            return [reader]
        return [workflow.phase(k) for k in workflow.predecessors(reader.key)]
    if path[0] == "phases" and len(path) >= 3 and path[2] == "report" and path[1] in workflow.phase_keys:
        return [workflow.phase(path[1])]
    return []


def _split(path: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """(how the report is written, the parts inside it)."""
    if path[0] == "report":
        return "report", path[1:]
    return ".".join(path[:3]), path[3:]


def typed_problem(workflow: Workflow, path: tuple[str, ...], reader: Phase | None, guard: bool) -> str | None:
    """Why ``path`` cannot be read from the typed report(s) it reads into, or None (also for untyped ones)."""
    owners = report_owners(workflow, path, reader, guard)
    if not owners or any(owner.output is None for owner in owners):
        return None
    prefix, parts = _split(path)
    for owner in owners:
        assert owner.output is not None
        _, problem = path_type(owner.output, parts, prefix, f"'{owner.key}'")
        if problem is not None:
            return problem
    return None


def item_schema(workflow: Workflow, reader: Phase) -> tuple[Mapping[str, Any], str] | None:
    """The schema of one item of the ``for_each`` list whose branch holds ``reader``, and words naming it
    (``an item of 'report.tasks' of 'plan'``); None when the list is not a field of a typed report, or its
    ``items`` is not a schema this follows."""
    found = workflow.item_source(reader.key)
    if found is None or found[1].for_each is None:
        return None
    source, path = found[0], found[1].for_each
    owners = report_owners(workflow, path, source, True)
    if len(owners) != 1 or owners[0].output is None:
        return None
    prefix, parts = _split(path)
    node, _ = schema_at(owners[0].output, parts, prefix, "")
    items = node.get("items") if node is not None else None
    if not isinstance(items, Mapping):
        return None
    return items, f"an item of '{'.'.join(path)}' of '{source.key}'"


def item_type(
    workflow: Workflow, path: tuple[str, ...], reader: Phase | None
) -> tuple[PathType | None, str | None] | None:
    """For the item's path inside a ``for_each`` branch (``task.title``): (its type, why it is unknown) from
    the list's item schema; None when ``path`` is not the item's or the list is untyped."""
    if reader is None or path[0] != workflow.item_alias(reader.key):
        return None
    found = item_schema(workflow, reader)
    if found is None:
        return None
    schema, whose = found
    return path_type(schema, path[1:], path[0], whose=whose)


def untyped_owner(workflow: Workflow, path: tuple[str, ...], reader: Phase | None, guard: bool) -> Phase | None:
    """The phase without ``output:`` whose report ``path`` reads a field of (for ``validate --strict``)."""
    parts = _split(path)[1] if path[0] in ("report", "phases") else ()
    if not parts:
        return None
    return next((o for o in report_owners(workflow, path, reader, guard) if o.output is None), None)


def declared_type(workflow: Workflow, path: tuple[str, ...], reader: Phase | None) -> PathType | None:
    """The type a guard of ``reader`` reads at ``path`` when it lies in a typed report (or is a typed list's
    item inside a ``for_each`` branch), else None."""
    item = item_type(workflow, path, reader)
    if item is not None:
        return item[0]
    owners = report_owners(workflow, path, reader, True)
    if len(owners) != 1 or owners[0].output is None:
        return None
    prefix, parts = _split(path)
    if not parts:
        return None
    found, _ = path_type(owners[0].output, parts, prefix)
    return found


def comparison_problems(workflow: Workflow, guard: Expr, reader: Phase) -> Iterator[str]:
    """Every comparison of ``guard`` that cannot hold for the declared type (or enum) of its path."""
    for node in guard_nodes(guard):
        if not isinstance(node, Compare):
            continue
        for mine, other, on_left in ((node.left, node.right, True), (node.right, node.left, False)):
            if not isinstance(mine, Path):
                continue
            declared = declared_type(workflow, mine.parts, reader)
            if declared is None:
                continue
            problem = _compare_problem(mine.dotted, declared, node.op, other, on_left)
            if problem is not None:
                yield problem


def _compare_problem(dotted: str, declared: PathType, op: str, other: Any, on_left: bool) -> str | None:
    if op in ("==", "!=") and isinstance(other, Literal):
        return _value_problem(dotted, declared, other.value)
    if op == "in" and on_left and isinstance(other, ListExpr):
        for item in other.items:
            if isinstance(item, Literal):
                problem = _value_problem(dotted, declared, item.value)
                if problem is not None:
                    return problem
        return None
    if op == "in" and not on_left and declared.types and not declared.types & {"array", "string"}:
        return f"'{dotted}' is {declared.shown}: 'in {dotted}' is always false (it tests a list or a string)"
    if op in (">", "<", ">=", "<=") and isinstance(other, Literal) and other.value is not None:
        kind = literal_type(other.value)
        if kind in ("number", "string") and not accepts(declared, kind):
            return f"'{dotted}' is {declared.shown}: ordering it against {TYPE_NAMES[kind]} is always false"
    return None


def _value_problem(dotted: str, declared: PathType, value: Any) -> str | None:
    if value is None:  # a property that is not required may be missing: null
        return None
    kind = literal_type(value)
    if not accepts(declared, kind):
        return f"'{dotted}' is {declared.shown}: comparing it with {TYPE_NAMES[kind]} is always false"
    if declared.enum is not None and not any(_same(value, allowed) for allowed in declared.enum):
        listed = ", ".join(_shown(v) for v in declared.enum)
        hint = did_you_mean(value, [v for v in declared.enum if isinstance(v, str)]) if isinstance(value, str) else ""
        return f"'{dotted}' is one of {listed}; {_shown(value)} is not{hint}"
    return None


def _same(left: Any, right: Any) -> bool:
    if isinstance(left, bool) or isinstance(right, bool):
        return left is right
    return bool(left == right)


def _shown(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)
