"""Issue 29: the statements of a phase's transaction build no temporary b-tree in SQLite, but the run row's
``RETURNING``. SQLite evaluates ``x IN ('a', 'b', 'c')`` (more than two constants, in a WHERE or a CHECK) by
building a b-tree of the constants each time (~33 k instructions a row); the store compares with ORs instead
(``columns.in_list``, ``move_sql.move_statement``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from test_phase_transactions import in_process_run, loop


def ephemeral_tables(database: Path, sql: str) -> int:
    """How many temporary b-trees SQLite's plan of ``sql`` opens (``OpenEphemeral``), its parameters NULL."""
    connection = sqlite3.connect(database)
    try:
        plan = connection.execute(f"EXPLAIN {sql}", [None] * sql.count("?")).fetchall()
    finally:
        connection.close()
    return sum(1 for row in plan if row[1] == "OpenEphemeral")


def test_a_phase_s_writes_build_no_temporary_b_tree_but_for_the_run_row_s_returning(repo: Path) -> None:
    writes: set[str] = set()

    def attach(engine: Any) -> None:
        from sqlalchemy import event

        @event.listens_for(engine, "before_cursor_execute")
        def _seen(_conn: Any, _cursor: Any, sql: str, *_args: Any) -> None:
            if sql.lstrip().startswith(("INSERT INTO run_", "INSERT INTO phase_", "INSERT INTO routing", "UPDATE")):
                writes.add(sql)

    with in_process_run(repo, loop(5), attach) as (_store, record):
        assert record.status.value == "completed"
    database = repo / ".alphred" / "alphred.db"
    tables = {"run_nodes", "run_node_stream_events", "run_node_diagnostics", "routing_decisions", "phase_artifacts"}
    seen = {table for table in tables if any(f" {table} " in sql for sql in writes)}
    assert seen == tables
    for sql in writes:
        assert ephemeral_tables(database, sql) == (1 if " RETURNING " in sql else 0), sql
