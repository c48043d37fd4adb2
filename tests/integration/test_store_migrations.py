"""Migrations: versioned, idempotent, never losing rows, safe when two processes open a new database at once."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.processes import start_together
from sqlalchemy import delete, func, insert, inspect, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from alphred.errors import StoreError
from alphred.store import SqlRunStore, migrate, open_engine
from alphred.store.migrations import LATEST_VERSION, MIGRATIONS, schema_version
from alphred.store.tables import TABLE_NAMES, SchemaMigration, TreeEdge, TreeNode, table
from alphred.workflow.model import Workflow

MIGRATION_ROWS = table(SchemaMigration)
REPO_ROOT = Path(__file__).resolve().parents[2]


def migration_rows(store: SqlRunStore) -> list[tuple[int, str]]:
    with store.engine.connect() as conn:
        return [(row.version, row.name) for row in conn.execute(select(MIGRATION_ROWS).order_by("version"))]


def test_migrate_creates_every_table_and_records_its_version(empty_db_url: str) -> None:
    engine = open_engine(empty_db_url)
    try:
        assert schema_version(engine) == 0
        assert migrate(engine) == LATEST_VERSION
        names = set(inspect(engine).get_table_names())
        assert set(TABLE_NAMES) | {"schema_migrations"} <= names
        indexes = {ix["name"] for ix in inspect(engine).get_indexes("workflow_runs")}
        assert {"ix_workflow_runs_status", "ix_workflow_runs_created_at"} <= indexes
        event_indexes = {ix["name"] for ix in inspect(engine).get_indexes("run_node_stream_events")}
        assert "ix_run_node_stream_events_run" in event_indexes
        assert migrate(engine) == LATEST_VERSION  # a second run is a no-op
        assert schema_version(engine) == LATEST_VERSION == MIGRATIONS[-1].version
    finally:
        engine.dispose()


def test_rerunning_migrations_keeps_every_row(empty_db_url: str, make_workflow: Callable[..., Workflow]) -> None:
    with SqlRunStore(empty_db_url) as store:
        tree_id, _ = store.compile(make_workflow())
        run_id = store.create_run(tree_id, inputs={"issue": "keep me"})
        store.add_artifact(run_id, "implement", 0, "report", text="kept")
        with store.engine.begin() as conn:  # forget that anything was applied: everything runs again
            conn.execute(delete(MIGRATION_ROWS))
        assert migrate(store.engine) == LATEST_VERSION
        assert migration_rows(store) == [(m.version, m.name) for m in MIGRATIONS]
    with SqlRunStore(empty_db_url) as reopened:
        run = reopened.get_run(run_id)
        assert run.inputs == {"issue": "keep me"}
        assert [n.node_key for n in run.nodes] == ["implement", "tests", "review"]
        artifact = reopened.latest_artifact(run_id, "implement", "report")
        assert artifact is not None and artifact.content_text == "kept"
        assert reopened.compile(make_workflow()) == (tree_id, 1)


def test_rerun_migration_keeps_the_same_tree_trigger(empty_db_url: str, make_workflow: Callable[..., Workflow]) -> None:
    with SqlRunStore(empty_db_url) as store:
        with store.engine.begin() as conn:
            conn.execute(delete(MIGRATION_ROWS))
        migrate(store.engine)  # triggers are created IF NOT EXISTS / replaced: no "already exists" error
        first, _ = store.compile(make_workflow(key="first"))
        second, _ = store.compile(make_workflow(key="second"))
        edges, nodes = table(TreeEdge), table(TreeNode)
        with store.engine.connect() as conn:
            foreign = conn.execute(select(nodes.c.id).where(nodes.c.tree_id == second)).scalars().first()
        with pytest.raises(IntegrityError), store.engine.begin() as conn:
            conn.execute(update(edges).where(edges.c.tree_id == first).values(target_node_id=foreign))


def test_a_database_newer_than_this_alphred_is_refused(empty_db_url: str) -> None:
    with SqlRunStore(empty_db_url) as store, store.engine.begin() as conn:
        conn.execute(insert(MIGRATION_ROWS).values(version=LATEST_VERSION + 1, name="from the future"))
    with pytest.raises(StoreError, match="newer"):
        SqlRunStore(empty_db_url)


_SETUP = """
import sys
from alphred.store import SqlRunStore
"""
_RACE = """
with SqlRunStore(sys.argv[1]) as store:
    print(store.schema_version, len(store.list_runs()))
"""


def test_two_processes_opening_a_new_database_at_once(empty_db_url: str) -> None:
    outputs = start_together(_SETUP, _RACE, [[empty_db_url]] * 3, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert [code for code, _, _ in outputs] == [0, 0, 0], outputs
    assert {out for _, out, _ in outputs} == {f"{LATEST_VERSION} 0\n"}
    with SqlRunStore(empty_db_url) as store:
        assert migration_rows(store) == [(m.version, m.name) for m in MIGRATIONS]
        with store.engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(MIGRATION_ROWS)).scalar_one() == len(MIGRATIONS)


def test_queue_migration_adds_its_columns_to_a_version_2_database_keeping_rows(
    empty_db_url: str, make_workflow: Callable[..., Workflow]
) -> None:
    """A database made before the queue (schema 2) gains priority, requirements, identity and ``workers``."""
    from sqlalchemy import text

    from alphred.store.tables import QUEUE_COLUMNS

    with SqlRunStore(empty_db_url) as store:
        tree_id, _ = store.compile(make_workflow())
        run_id = store.create_run(tree_id, repo_path="/somewhere")
        with store.engine.begin() as conn:  # back to schema 2: what migrations 3 and 4 add is gone
            conn.execute(text("DROP INDEX ix_workflow_runs_queue"))
            conn.execute(text("DROP INDEX ix_workflow_runs_wake"))  # and what migration 4 adds (SPEC §15)
            conn.execute(text("DROP TABLE workers"))
            for name in (*QUEUE_COLUMNS, "wake_at"):
                conn.execute(text(f"ALTER TABLE workflow_runs DROP COLUMN {name}"))
            conn.execute(text("ALTER TABLE routing_decisions DROP COLUMN explanation"))
            conn.execute(delete(MIGRATION_ROWS).where(MIGRATION_ROWS.c.version >= 3))
        engine = store.engine
        assert schema_version(engine) == 2
        assert migrate(engine) == LATEST_VERSION
        columns = {c["name"] for c in inspect(engine).get_columns("workflow_runs")}
        assert set(QUEUE_COLUMNS) <= columns and inspect(engine).has_table("workers")
        assert "wake_at" in columns and "paused" in {c["name"] for c in inspect(engine).get_columns("workers")}
        assert "ix_workflow_runs_wake" in {i["name"] for i in inspect(engine).get_indexes("workflow_runs")}
        record = store.get_run(run_id)
        assert (record.repo_path, record.priority, record.queued, record.requires) == ("/somewhere", 0, False, ())


OLD_NODE_TYPES = "node_type IN ('agent', 'command', 'approval')"


def _back_to_three_node_types(conn: Connection) -> None:
    """Put the node-type CHECK of schema 3 back, as a database made before SPEC §16 has it."""
    _back_to_node_types(conn, OLD_NODE_TYPES)


def _back_to_node_types(conn: Connection, old: str) -> None:
    """Put back an older node-type CHECK (SQLite: as its DDL was recorded)."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("ALTER TABLE tree_nodes DROP CONSTRAINT ck_tree_nodes_node_type")
        conn.exec_driver_sql(f"ALTER TABLE tree_nodes ADD CONSTRAINT ck_tree_nodes_node_type CHECK ({old})")
        return
    ddl = conn.exec_driver_sql("SELECT sql FROM sqlite_master WHERE name = 'tree_nodes'").scalar_one()
    check = next(c for c in table(TreeNode).constraints if c.name == "ck_tree_nodes_node_type")
    new = str(getattr(check, "sqltext", ""))
    assert new in ddl
    cookie = conn.exec_driver_sql("PRAGMA schema_version").scalar_one()
    conn.exec_driver_sql("PRAGMA writable_schema = ON")
    conn.exec_driver_sql("UPDATE sqlite_master SET sql = ? WHERE name = 'tree_nodes'", (ddl.replace(new, old),))
    conn.exec_driver_sql(f"PRAGMA schema_version = {cookie + 1}")
    conn.exec_driver_sql("PRAGMA writable_schema = OFF")


def test_node_type_migration_lets_a_schema_3_database_store_pull_request_and_ci_phases(
    empty_db_url: str, make_workflow: Callable[..., Workflow]
) -> None:
    with SqlRunStore(empty_db_url) as store:
        tree_id, _ = store.compile(make_workflow())
        with store.engine.begin() as conn:
            _back_to_three_node_types(conn)
            conn.execute(delete(MIGRATION_ROWS).where(MIGRATION_ROWS.c.version >= 4))
        row = {"tree_id": tree_id, "node_key": "ship", "node_type": "pull_request", "sequence_index": 9}
        with pytest.raises(IntegrityError), store.engine.begin() as conn:
            conn.execute(insert(table(TreeNode)).values(**row))  # schema 3 refuses the new type
        assert schema_version(store.engine) == 3
        assert migrate(store.engine) == LATEST_VERSION
        with store.engine.begin() as conn:
            conn.execute(insert(table(TreeNode)).values(**row))
            conn.execute(
                insert(table(TreeNode)).values(**{**row, "node_key": "wait", "node_type": "ci", "sequence_index": 10})
            )
        with pytest.raises(IntegrityError), store.engine.begin() as conn:
            conn.execute(
                insert(table(TreeNode)).values(
                    **{**row, "node_key": "odd", "node_type": "oddity", "sequence_index": 11}
                )
            )
        assert migrate(store.engine) == LATEST_VERSION  # again: nothing to do


def test_explanation_migration_adds_its_column_to_a_version_4_database_keeping_rows(
    empty_db_url: str, make_workflow: Callable[..., Workflow]
) -> None:
    """A database made before routing explanations (schema 4) gains ``routing_decisions.explanation``; its
    routing rows stay and read with no explanation."""
    from sqlalchemy import text

    with SqlRunStore(empty_db_url) as store:
        tree_id, _ = store.compile(make_workflow())
        run_id = store.create_run(tree_id)
        with store.transaction() as tx:
            tx.add_routing_decision(run_id, "implement", 1, "tests", priority=1)
        with store.engine.begin() as conn:  # back to schema 4
            conn.execute(text("ALTER TABLE routing_decisions DROP COLUMN explanation"))
            conn.execute(text("DROP INDEX ix_workflow_runs_wake"))  # and what migration 7 adds (SPEC §15)
            conn.execute(text("ALTER TABLE workers DROP COLUMN paused"))
            conn.execute(delete(MIGRATION_ROWS).where(MIGRATION_ROWS.c.version >= 5))
        assert schema_version(store.engine) == 4
        assert migrate(store.engine) == LATEST_VERSION
        assert "explanation" in {c["name"] for c in inspect(store.engine).get_columns("routing_decisions")}
        (route,) = store.routing_decisions(run_id)
        assert (route.node_key, route.target, route.explanation) == ("implement", "tests", None)
        explained = [{"priority": 1, "to": "tests", "when": None, "result": "matched"}]
        with store.transaction() as tx:
            tx.add_routing_decision(run_id, "implement", 2, "tests", priority=1, explanation=explained)
        assert store.routing_decisions(run_id)[-1].explanation == explained


V7_NODE_TYPES = "node_type IN ('agent', 'command', 'approval', 'pull_request', 'ci')"


def test_sub_workflow_migration_keeps_a_version_7_database_s_rows(
    empty_db_url: str, make_workflow: Callable[..., Workflow]
) -> None:
    """A database made before sub-workflows (schema 7) gains ``parent_run_id``/``parent_step`` (with their
    unique index) and the ``workflow`` node type; its runs stay, as top-level runs (SPEC §13)."""
    from sqlalchemy import text

    with SqlRunStore(empty_db_url) as store:
        tree_id, _ = store.compile(make_workflow())
        run_id = store.create_run(tree_id, repo_path="/somewhere")
        with store.engine.begin() as conn:  # back to schema 7
            conn.execute(text("DROP INDEX ix_workflow_runs_parent"))
            if conn.dialect.name == "postgresql":
                conn.execute(text("ALTER TABLE workflow_runs DROP COLUMN parent_run_id"))
            else:  # SQLite drops no column with a foreign key: a version 7 table is made again, rows kept
                conn.execute(text("ALTER TABLE workflow_runs DROP COLUMN parent_step"))
            _back_to_node_types(conn, V7_NODE_TYPES)
            conn.execute(delete(MIGRATION_ROWS).where(MIGRATION_ROWS.c.version >= 8))
        row = {"tree_id": tree_id, "node_key": "sub", "node_type": "workflow", "sequence_index": 9}
        with pytest.raises(IntegrityError), store.engine.begin() as conn:
            conn.execute(insert(table(TreeNode)).values(**row))  # schema 7 refuses the new type
        assert schema_version(store.engine) == 7
        assert migrate(store.engine) == LATEST_VERSION
        columns = {c["name"] for c in inspect(store.engine).get_columns("workflow_runs")}
        assert {"parent_run_id", "parent_step"} <= columns
        with store.engine.begin() as conn:
            conn.execute(insert(table(TreeNode)).values(**row))
        record = store.get_run(run_id)
        assert (record.repo_path, record.parent_run_id, record.parent_step) == ("/somewhere", None, None)
        child = store.create_run(tree_id, parent_run_id=run_id, parent_step="sub#1.1")
        assert [r.id for r in store.list_runs()] == [run_id] and [r.id for r in store.child_runs(run_id)] == [child]
        with pytest.raises(IntegrityError):
            store.create_run(tree_id, parent_run_id=run_id, parent_step="sub#1.1")  # one child per step
        assert migrate(store.engine) == LATEST_VERSION  # again: nothing to do


def _one_of_checks() -> list[tuple[str, str, str]]:
    """(table, the CHECK as ORs, the same as the IN list a database made before issue 29 recorded) of each CHECK
    that a column is one of several values."""
    from alphred.store import schema

    found = []
    for made in schema.TOPOLOGY_TABLES + schema.RUN_TABLES:
        for check in made.constraints:
            ors = str(getattr(check, "sqltext", ""))
            if " OR " in ors and all(part.count("'") == 2 for part in ors.split(" OR ")):
                column = ors.split(" ", 1)[0]
                listed = ", ".join(part.split(" = ", 1)[1] for part in ors.split(" OR "))
                found.append((made.name, f"CHECK ({ors})", f"CHECK ({column} IN ({listed}))"))
    return found


def _ddl(conn: Connection) -> dict[str, str]:
    rows = conn.exec_driver_sql("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
    return {name: sql for name, sql in rows}


def _temporary_trees(conn: Connection, sql: str) -> int:
    """How many temporary b-trees SQLite's plan of ``sql`` opens (``OpenEphemeral``)."""
    plan = conn.exec_driver_sql(f"EXPLAIN {sql}", tuple([None] * sql.count("?"))).fetchall()
    return sum(1 for row in plan if row[1] == "OpenEphemeral")


def test_checks_migration_rewrites_a_version_8_database_s_in_lists_as_ors(
    sqlite_url: str, tmp_path: Path, make_workflow: Callable[..., Workflow]
) -> None:
    """A SQLite database made before issue 29 recorded its one-of-several-values CHECKs as IN lists (a temporary
    b-tree built at each checked row); migration 9 records them as ORs, the DDL a new database has, its rows kept
    and its rules the same (a value outside the list is still refused)."""
    checks = _one_of_checks()
    assert {name for name, _, _ in checks} == {
        "tree_nodes", "tree_edges", "workflow_runs", "run_nodes", "run_node_diagnostics", "run_node_stream_events",
    }  # fmt: skip
    with SqlRunStore(f"sqlite:///{tmp_path / 'new.db'}") as new, new.engine.connect() as conn:
        wanted = _ddl(conn)
    move = "UPDATE run_nodes SET status = ? WHERE id = ?"
    with SqlRunStore(sqlite_url) as store:
        tree_id, _ = store.compile(make_workflow())
        run_id = store.create_run(tree_id, repo_path="/somewhere")
        with store.engine.begin() as conn:  # back to version 8, as the schema of before issue 29 made it
            old = {}
            for name, ors, in_list in checks:
                old[name] = old.get(name, _ddl(conn)[name]).replace(ors, in_list)
            cookie = conn.exec_driver_sql("PRAGMA schema_version").scalar_one()
            conn.exec_driver_sql("PRAGMA writable_schema = ON")
            for name, ddl in old.items():
                conn.exec_driver_sql("UPDATE sqlite_master SET sql = ? WHERE name = ?", (ddl, name))
            conn.exec_driver_sql(f"PRAGMA schema_version = {cookie + 1}")
            conn.exec_driver_sql("PRAGMA writable_schema = OFF")
            conn.execute(delete(MIGRATION_ROWS).where(MIGRATION_ROWS.c.version >= 9))
        with store.engine.connect() as conn:
            assert all(in_list in _ddl(conn)[name] for name, _, in_list in checks)
            assert _temporary_trees(conn, move) == 1  # the IN list's tree, at every moved row
        assert schema_version(store.engine) == 8
        assert migrate(store.engine) == LATEST_VERSION
        with store.engine.connect() as conn:
            assert _ddl(conn) == wanted  # byte for byte a new database's
            assert _temporary_trees(conn, move) == 0
        assert store.get_run(run_id).repo_path == "/somewhere"
        store.set_node_status(run_id, "implement", "running")
        assert store.get_node(run_id, "implement").status.value == "running"
        with pytest.raises(IntegrityError), store.engine.begin() as conn:
            conn.execute(update(table(TreeNode)).where(TreeNode.tree_id == tree_id).values(node_type="oddity"))
        with pytest.raises(IntegrityError), store.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE workflow_runs SET status = 'bogus' WHERE id = ?", (run_id,))
        assert migrate(store.engine) == LATEST_VERSION  # again: nothing to do
