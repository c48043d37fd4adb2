"""Versioned, idempotent schema migrations, safe when two processes open a new database at once.

Each migration is a function of a connection, recorded as a row of ``schema_migrations`` once applied.
``migrate`` applies the missing ones in one transaction that holds the database's write lock (SQLite
``BEGIN IMMEDIATE``; a PostgreSQL transaction-scoped advisory lock). Migrations only ever create what is
missing: re-running them never drops or rewrites a row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from sqlalchemy import Engine, Table, insert, inspect, select, text
from sqlalchemy.engine import Connection

from alphred.errors import StoreError
from alphred.lazy import deferred_dataclass
from alphred.store import schema
from alphred.store.connect import READ_ONLY

_ADVISORY_LOCK_KEY = 0x616C70687265  # "alphre": serialises migrations across PostgreSQL sessions

_SAME_TREE_MESSAGE = "tree_edges: source and target nodes must belong to the edge's tree"

_SQLITE_SAME_TREE = """
CREATE TRIGGER IF NOT EXISTS trg_tree_edges_same_tree_{event}
BEFORE {event_sql} ON tree_edges
FOR EACH ROW
WHEN (SELECT tree_id FROM tree_nodes WHERE id = NEW.source_node_id) IS NOT NEW.tree_id
  OR (NEW.target_node_id IS NOT NULL
      AND (SELECT tree_id FROM tree_nodes WHERE id = NEW.target_node_id) IS NOT NEW.tree_id)
BEGIN
  SELECT RAISE(ABORT, '{message}');
END
"""

_POSTGRES_SAME_TREE_FUNCTION = """
CREATE OR REPLACE FUNCTION alphred_tree_edges_same_tree() RETURNS trigger AS $$
BEGIN
  IF (SELECT tree_id FROM tree_nodes WHERE id = NEW.source_node_id) IS DISTINCT FROM NEW.tree_id
     OR (NEW.target_node_id IS NOT NULL
         AND (SELECT tree_id FROM tree_nodes WHERE id = NEW.target_node_id) IS DISTINCT FROM NEW.tree_id)
  THEN
    RAISE EXCEPTION '{message}' USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql
"""

_POSTGRES_DROP_SAME_TREE_TRIGGER = "DROP TRIGGER IF EXISTS trg_tree_edges_same_tree ON tree_edges"
_POSTGRES_SAME_TREE_TRIGGER = """
CREATE TRIGGER trg_tree_edges_same_tree
BEFORE INSERT OR UPDATE OF tree_id, source_node_id, target_node_id ON tree_edges
FOR EACH ROW EXECUTE FUNCTION alphred_tree_edges_same_tree()
"""


@deferred_dataclass(frozen=True)
class Migration:
    """One schema step: ``apply`` must be idempotent and must never drop data."""

    version: int
    name: str
    apply: Callable[[Connection], None]


def _create_v1(conn: Connection) -> None:
    """Create the topology and run tables, their indexes and the same-tree trigger of ``tree_edges``."""
    for table in schema.TOPOLOGY_TABLES + schema.RUN_TABLES:
        table.create(conn, checkfirst=True)
    message = _SAME_TREE_MESSAGE.replace("'", "''")
    if conn.dialect.name == "sqlite":
        for event, event_sql in (("insert", "INSERT"), ("update", "UPDATE")):
            conn.exec_driver_sql(_SQLITE_SAME_TREE.format(event=event, event_sql=event_sql, message=message))
    elif conn.dialect.name == "postgresql":
        conn.exec_driver_sql(_POSTGRES_SAME_TREE_FUNCTION.format(message=message))
        conn.exec_driver_sql(_POSTGRES_DROP_SAME_TREE_TRIGGER)  # CREATE OR REPLACE TRIGGER needs PG 14
        conn.exec_driver_sql(_POSTGRES_SAME_TREE_TRIGGER)
    else:  # pragma: no cover - other databases get the tables but not the trigger
        pass


def _add_missing_columns(conn: Connection, table: Table, suffixes: Mapping[str, str]) -> None:
    """``ALTER TABLE ... ADD COLUMN`` each column of ``table`` named in ``suffixes`` that the database lacks,
    typed as ``schema`` has it, followed by its suffix (a default, a reference); present ones are left alone."""
    present = {column["name"] for column in inspect(conn).get_columns(table.name)}
    for name, suffix in suffixes.items():
        if name not in present:
            kind = table.c[name].type.compile(dialect=conn.dialect)
            conn.exec_driver_sql(f"ALTER TABLE {table.name} ADD COLUMN {name} {kind}{suffix}")


def _create_v2(conn: Connection) -> None:
    """Process groups of attempts (killed on take-over); the run index the latest-artifact lookup needs."""
    schema.RUN_PROCESSES.create(conn, checkfirst=True)
    conn.exec_driver_sql("CREATE INDEX IF NOT EXISTS ix_phase_artifacts_run ON phase_artifacts (run_id)")


def _create_v3(conn: Connection) -> None:
    """The queue (SPEC §10): priority, requirements, identity of submitted runs, their index; workers."""
    defaults = {"priority": " NOT NULL DEFAULT 0", "queued": " NOT NULL DEFAULT false"}
    _add_missing_columns(conn, schema.WORKFLOW_RUNS, {name: defaults.get(name, "") for name in schema.QUEUE_COLUMNS})
    conn.exec_driver_sql("CREATE INDEX IF NOT EXISTS ix_workflow_runs_queue ON workflow_runs (status, priority, id)")
    schema.WORKERS.create(conn, checkfirst=True)


_OLD_NODE_TYPES = "node_type IN ('agent', 'command', 'approval')"


def _create_v4(conn: Connection) -> None:
    """Node types ``pull_request`` and ``ci`` (SPEC §16): the CHECK of ``tree_nodes.node_type`` lists them;
    ``workflow_runs.wake_at``, when a run waiting for CI looks again.

    PostgreSQL replaces the constraint. SQLite cannot alter a CHECK; widening the list of allowed values
    changes no stored row, so the table's recorded DDL is rewritten in place (SQLite's documented procedure
    for constraint changes that leave the file format alone), with the schema cookie bumped so that every
    connection reloads it.
    """
    _add_missing_columns(conn, schema.WORKFLOW_RUNS, {"wake_at": ""})
    _widen_node_types(conn, _OLD_NODE_TYPES)


_V7_NODE_TYPES = "node_type IN ('agent', 'command', 'approval', 'pull_request', 'ci')"


def _widen_node_types(conn: Connection, old: str) -> None:
    """Make the CHECK of ``tree_nodes.node_type`` the one ``schema`` has (a longer list than ``old``)."""
    wanted = schema.TREE_NODES.name
    check = next(c for c in schema.TREE_NODES.constraints if c.name == "ck_tree_nodes_node_type")
    new = str(getattr(check, "sqltext", ""))
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"ALTER TABLE {wanted} DROP CONSTRAINT IF EXISTS ck_tree_nodes_node_type")
        conn.exec_driver_sql(f"ALTER TABLE {wanted} ADD CONSTRAINT ck_tree_nodes_node_type CHECK ({new})")
        return
    if conn.dialect.name != "sqlite":  # pragma: no cover - other databases keep the tables as created
        return
    ddl = _sqlite_ddl(conn, wanted)
    if ddl is not None and old in ddl:  # else created with the new list already
        _rewrite_sqlite_ddl(conn, {wanted: ddl.replace(old, new)})


def _sqlite_ddl(conn: Connection, table: str) -> str | None:
    """The ``CREATE TABLE`` text SQLite recorded for ``table`` (None: no such table)."""
    found = conn.exec_driver_sql("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,))
    ddl = found.scalar_one_or_none()
    return None if ddl is None else str(ddl)


def _rewrite_sqlite_ddl(conn: Connection, ddls: Mapping[str, str]) -> None:
    """Record ``ddls`` (table -> its new ``CREATE TABLE`` text) as the tables' DDL in place, for changes that leave
    SQLite's file format and every stored row alone (a CHECK's text): SQLite's documented procedure, the schema
    cookie bumped so that every connection reloads the schema."""
    if not ddls:
        return
    cookie = int(conn.exec_driver_sql("PRAGMA schema_version").scalar_one())
    conn.exec_driver_sql("PRAGMA writable_schema = ON")
    try:
        for table, ddl in ddls.items():
            conn.exec_driver_sql("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?", (ddl, table))
        conn.exec_driver_sql(f"PRAGMA schema_version = {cookie + 1}")
    finally:
        conn.exec_driver_sql("PRAGMA writable_schema = OFF")


_ORS = re.compile(r"(\w+) = '[^']*'(?: OR \1 = '[^']*')+")
"""A CHECK that a column is one of several values, as ``columns.in_list`` writes it (``status = 'a' OR ...``)."""


def _create_v9(conn: Connection) -> None:
    """The CHECKs that a column is one of several values as ORs, as ``columns.in_list`` writes them since issue 29
    (SQLite builds a temporary b-tree of an IN list of more than two constants each time it evaluates one: ~33 k
    instructions an inserted or moved row, ~1 k as ORs). The same rule, so no row changes: on SQLite the tables'
    DDL is rewritten in place (as migration 4 does) where it holds the IN list of the very same values; a CHECK
    that lists other values is left as it is. PostgreSQL evaluates an IN list without such a tree: left alone."""
    if conn.dialect.name != "sqlite":
        return
    ddls: dict[str, str] = {}
    for table in schema.TOPOLOGY_TABLES + schema.RUN_TABLES:
        ddl = recorded = _sqlite_ddl(conn, table.name)
        if ddl is None:
            continue
        for check in table.constraints:
            ors = str(getattr(check, "sqltext", ""))
            if _ORS.fullmatch(ors) is None:
                continue
            column = ors.split(" ", 1)[0]
            listed = ", ".join(re.findall(r"'[^']*'", ors))
            ddl = ddl.replace(f"CHECK ({column} IN ({listed}))", f"CHECK ({ors})")
        if ddl != recorded:
            ddls[table.name] = ddl
    _rewrite_sqlite_ddl(conn, ddls)


def _create_v5(conn: Connection) -> None:
    """How each routing chose: the transitions it looked at and what their guards read (status --explain)."""
    _add_missing_columns(conn, schema.ROUTING_DECISIONS, {"explanation": ""})


def _create_v6(conn: Connection) -> None:
    """Files kept outside the branch (SPEC §17): blobs and their chunks, run artifacts, memories."""
    for table in schema.FILE_TABLES:
        table.create(conn, checkfirst=True)


def _create_v7(conn: Connection) -> None:
    """Usage limits (SPEC §15): the index of waiting runs' ``wake_at``; the providers a worker paused."""
    _add_missing_columns(conn, schema.WORKFLOW_RUNS, {"wake_at": ""})
    _add_missing_columns(conn, schema.WORKERS, {"paused": ""})
    conn.exec_driver_sql("CREATE INDEX IF NOT EXISTS ix_workflow_runs_wake ON workflow_runs (status, wake_at)")


def _create_v8(conn: Connection) -> None:
    """Sub-workflows (SPEC §13): ``workflow_runs.parent_run_id`` and ``parent_step`` with their unique index;
    node type ``workflow`` in the CHECK of ``tree_nodes.node_type`` (rewritten as migration 4 does)."""
    runs = schema.WORKFLOW_RUNS
    parent = f" REFERENCES {runs.name} (id) ON DELETE CASCADE"
    _add_missing_columns(conn, runs, {"parent_run_id": parent, "parent_step": ""})
    conn.exec_driver_sql(
        "CREATE UNIQUE INDEX IF NOT EXISTS ix_workflow_runs_parent ON workflow_runs (parent_run_id, parent_step)"
    )
    _widen_node_types(conn, _V7_NODE_TYPES)


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "topology and run tables", _create_v1),
    Migration(2, "run processes, artifacts by run", _create_v2),
    Migration(3, "run queue and workers", _create_v3),
    Migration(4, "pull_request and ci phases, wake_at", _create_v4),
    Migration(5, "routing explanations", _create_v5),
    Migration(6, "run artifacts and memories", _create_v6),
    Migration(7, "usage-limit waits: wake_at index, workers' paused providers", _create_v7),
    Migration(8, "sub-workflows: parent run and step, workflow phases", _create_v8),
    Migration(9, "one-of-several-values CHECKs as ORs (SQLite)", _create_v9),
)
LATEST_VERSION = MIGRATIONS[-1].version


def schema_version(engine: Engine) -> int:
    """The highest migration applied to the database behind ``engine`` (0 for an empty database)."""
    with engine.connect().execution_options(**{READ_ONLY: True}) as conn:
        return _applied_version(conn)


def _applied_version(conn: Connection) -> int:
    """Asked on every store opening (``alphred run`` too): the dialect's own table lookup and a literal query,
    without an ``Inspector`` or a statement to compile (a millisecond of every start-up, issue 29)."""
    name = schema.SCHEMA_MIGRATIONS.name
    if not conn.dialect.has_table(conn, name):
        return 0
    return int(conn.exec_driver_sql(f"SELECT coalesce(max(version), 0) FROM {name}").scalar_one())


def migrate(engine: Engine) -> int:
    """Bring the schema up to date and return its version; a no-op when it already is.

    ``engine`` comes from ``open_engine`` or a store (its database's settings attached: on SQLite, the
    migration's transaction is then ``BEGIN IMMEDIATE``, holding the write lock throughout).
    """
    current = schema_version(engine)
    if current == LATEST_VERSION:
        return current
    if current > LATEST_VERSION:
        raise StoreError(f"database schema version {current} is newer than this alphred understands ({LATEST_VERSION})")
    with engine.begin() as conn:  # SQLite: BEGIN IMMEDIATE, the write lock for the whole migration
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _ADVISORY_LOCK_KEY})
        migrations = schema.SCHEMA_MIGRATIONS
        migrations.create(conn, checkfirst=True)
        applied: set[int] = {int(v) for v in conn.execute(select(migrations.c.version)).scalars()}
        for migration in MIGRATIONS:
            if migration.version in applied:
                continue
            migration.apply(conn)
            conn.execute(insert(migrations).values(version=migration.version, name=migration.name))
        return max([LATEST_VERSION, *applied])
