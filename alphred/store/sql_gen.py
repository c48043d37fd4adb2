"""Write ``sql_made.py``: the SQL text and parameters of the store's hot statements, compiled once, kept as source.

Every process compiled the ~15 statements a run writes with (``prepared.Prepared``: the run row's UPDATEs, a
phase's moves, the artifacts', diagnostics', routing and events' INSERTs), ~0.5-1 ms of SQLAlchemy's compiler each,
the same text in every process (issue 29, run start). ``sql_made.py`` holds what the compiler made of each, for
each set of parameter names a run uses: the SQL text and, in order, each positional parameter's name, the column
whose type binds it (its bind processor is the column type's: UTC timestamps, JSON), whether it must be given and
its value when not. ``prepared.prepare`` takes a statement from there when the statement is ``named`` and the
dialect has the fingerprint the module was written for (``prepared.dialect_fingerprint``: SQLAlchemy's version,
the dialect, its paramstyle, its RETURNING support); anything else is compiled as before (slower, never wrong).
Nothing is loaded from outside the package: the module is checked in, compiled with it.

``HOT`` lists the statements and parameter names; ``tests/integration/test_sql_made.py`` checks that
``sql_made.py`` is what this module writes now (SQLAlchemy's text of each) and that a run's writes find all of
theirs in it. Run ``python -m alphred.store.sql_gen`` after changing a named statement, a table it writes or the
fields a run writes with it (the test names what is missing).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.selectable import Select

from alphred.store import prepared
from alphred.store.prepared import Statement

TARGET = Path(__file__).with_name("sql_made.py")

_EVENTS = (
    "workflow_run_id", "run_node_id", "attempt", "sequence", "event_type", "timestamp", "content", "metadata",
)  # fmt: skip
_ARTIFACT = ("run_id", "run_node_id", "attempt", "kind", "content_text", "content_json", "sha256", "created_at")
_DIAGNOSTIC = (
    "run_id", "run_node_id", "attempt", "outcome", "reason", "error_code", "duration_ms", "tokens", "cost_usd",
    "event_count", "details", "created_at",
)  # fmt: skip
_ROUTING = (
    "run_id", "run_node_id", "attempt", "decision", "target", "priority", "edge_id", "reason", "created_at",
    "explanation",
)  # fmt: skip
_NODE = ("attempt", "visits", "decision", "exit_code", "tokens", "cost_usd", "_run_id", "_node_key")
_STATE = ("engine_state", "tokens", "cost_usd", "steps", "lease_expires_at", "updated_at", "_run_id", "_owner")

_RUN = ("tree_id", "status", "inputs", "base_sha", "head_sha", "base_ref", "repo_path", "tokens", "cost_usd", "steps")
_RUN_REST = ("created_at", "updated_at", "priority", "queued")
_PHASE = (
    "run_id", "tree_node_id", "node_key", "sequence_index", "status", "attempt", "visits", "tokens", "cost_usd",
    "updated_at",
)  # fmt: skip

HOT: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    # reads of a run's start: the tree's phases, the run with its phases, the run locked, a phase's row id
    ("runs.tree_nodes", ("_tree_id",), False),
    ("runs.run_by_id", ("_run_id",), False),
    ("runs.nodes_of_run", ("_run_id",), False),
    ("runs.locked_run", ("_run_id",), False),
    ("runs.node_id", ("_run_id", "_node_key"), False),
    # a run's creation (``alphred run``: leased to its process; unleased) and its phases (one, several)
    (
        "insert.WORKFLOW_RUNS",
        (*_RUN, "pause_requested", "cancel_requested", "lease_owner", "lease_expires_at", *_RUN_REST),
        False,
    ),
    ("insert.WORKFLOW_RUNS", (*_RUN, "pause_requested", "cancel_requested", *_RUN_REST), False),
    ("insert.RUN_NODES", _PHASE, False),
    ("insert.RUN_NODES", _PHASE, True),
    # a run's start: its state, its worktree, its status, its first phase's move and lease
    ("runs.update_run", ("engine_state", "updated_at", "_run_id"), False),
    ("runs.update_run", ("branch", "worktree_path", "updated_at", "_run_id"), False),
    ("runs.update_run", ("worktree_path", "updated_at", "_run_id"), False),
    ("runs.update_run", ("head_sha", "updated_at", "_run_id"), False),
    ("runs.update_run", ("wake_at", "updated_at", "_run_id"), False),
    ("runs.update_run", ("status", "reason", "updated_at", "completed_at", "started_at", "_run_id"), False),
    ("runs.update_run", ("status", "reason", "updated_at", "completed_at", "_run_id"), False),
    ("leases.leased_run", _STATE, False),
    ("leases.run.renew", ("_run_id", "_owner", "_expires"), False),  # the heartbeat's, as its timing falls
    ("leases.node.renew", ("_run_id", "_owner", "_expires", "_key"), False),
    ("leases.run.release", ("_run_id", "_owner"), False),
    ("move.running.-.010", (*_NODE, "_now", "_owner", "_expires"), False),
    ("move.running.-.011", (*_NODE, "_now", "_owner", "_expires", "_fresh"), False),
    ("move.running.pending.011", (*_NODE, "_now", "_owner", "_expires", "_fresh"), False),
    ("move.completed.-.000", (*_NODE, "_now"), False),
    ("move.failed.-.000", (*_NODE, "_now"), False),
    # each phase's outcome: what it leaves behind
    ("insert.PHASE_ARTIFACTS", _ARTIFACT, False),
    ("insert.PHASE_ARTIFACTS", _ARTIFACT, True),
    ("insert.RUN_NODE_DIAGNOSTICS", _DIAGNOSTIC, False),
    ("insert.ROUTING_DECISIONS", _ROUTING, False),
    ("insert.RUN_NODE_STREAM_EVENTS", _EVENTS, True),
)
"""The named statements with the parameter names (and executemany or not) that ``sql_made.py`` holds."""

_HEADER = '''"""The store's hot statements compiled for SQLite (generated: do not edit by hand).

Written by ``python -m alphred.store.sql_gen``: see ``sql_gen.py``. ``SQL`` maps (statement name, parameter
names, executemany) to the SQL text, each positional parameter's (name, column of its type, required, value when
not given) and a SELECT's result columns (name, position of the selected column of its type), None for a write.
"""
# fmt: off
# ruff: noqa

'''


def statement_named(name: str) -> Statement:
    """The statement ``prepared.named`` knows as ``name`` (built if it is built on first use)."""
    from alphred.store import event_rows, history, leases, move_sql, runs  # noqa: F401  (they name theirs)

    kind, _, rest = name.partition(".")
    if kind == "move":
        return move_sql.move_of_name(name)
    if kind == "insert":
        made: Statement = history._insert(rest)
        return made
    found: list[Statement] = [statement for statement, known in prepared._NAMES.items() if known == name]
    if not found:
        raise KeyError(f"no statement is named {name!r}")
    return found[0]


def entry(statement: Statement, dialect: Dialect, keys: tuple[str, ...], many: bool) -> tuple[Any, ...]:
    """What ``sql_made.py`` keeps of ``statement`` compiled for ``dialect`` and ``keys``: its SQL text, each
    positional parameter's (name, column whose type binds it or None for no bind processor, required, value) and
    a SELECT's result columns (name, the position among its selected columns of the one whose type processes it, or
    None for no result processor; None for a write)."""
    compiled = prepared.compile_prepared(statement, dialect, keys, many)
    columns = () if isinstance(statement, Select) else statement.table.c
    params: list[tuple[str, str | None, bool, Any]] = []
    for param in compiled.positiontup:
        bind = compiled.binds[param]
        column: str | None = None
        if bind.type.dialect_impl(dialect).bind_processor(dialect) is not None:
            found = [c.key for c in columns if c.type is bind.type]
            if not found:
                raise ValueError(f"parameter {param!r} of {statement_name(statement)} binds no column's type")
            column = found[0]
        value = None if bind.required else bind.effective_value
        if ast.literal_eval(repr(value)) != value:
            raise ValueError(f"parameter {param!r} has a value that is no literal: {value!r}")
        params.append((param, column, bool(bind.required), value))
    if not isinstance(statement, Select):
        return compiled.string, tuple(params), None
    selected = list(statement.selected_columns)
    read: list[tuple[str, int | None]] = []
    for result in compiled._result_columns:
        at: int | None = None
        if result.type._cached_result_processor(dialect, None) is not None:
            at = next((i for i, column in enumerate(selected) if column.type is result.type), None)
            if at is None:
                raise ValueError(f"result column {result.keyname!r} of {statement_name(statement)} has no type found")
        read.append((result.keyname, at))
    return compiled.string, tuple(params), tuple(read)


def statement_name(statement: Statement) -> str | None:
    """The name ``statement`` is known by, if any."""
    return prepared._NAMES.get(statement)


def sqlite_dialect() -> Dialect:
    """A SQLite dialect as a store's engine has it (initialized on a connection: its RETURNING support)."""
    engine = create_engine("sqlite://")
    with engine.connect():
        pass
    engine.dispose()
    return engine.dialect


def render() -> str:
    """The text of ``sql_made.py`` for ``HOT`` as SQLAlchemy compiles it now."""
    dialect = sqlite_dialect()
    lines = [_HEADER, f"FINGERPRINT = {prepared.dialect_fingerprint(dialect)!r}\n", "SQL = {"]
    for name, keys, many in HOT:
        sql, params, read = entry(statement_named(name), dialect, keys, many)
        lines.append(
            f"    ({name!r}, {keys!r}, {many!r}): (\n        {sql!r},\n        {params!r},\n        {read!r},\n    ),"
        )
    lines.append("}\n")
    return "\n".join(lines)


if __name__ == "__main__":
    TARGET.write_text(render(), encoding="utf-8")
    print(f"wrote {TARGET}")
