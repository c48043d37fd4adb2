"""The read commands' light path on SQLite: ``status``, ``runs``, ``logs`` and ``workers`` read a SQLite file
with the standard library's ``sqlite3``, without importing SQLAlchemy (issue 28: a read in well under the
150 ms SQLAlchemy alone costs on a loaded machine).

``SqliteReader`` has the read methods of ``SqlRunStore`` that those commands use, with the same names,
arguments and records (``tests/integration/test_sqlite_reader.py`` compares the two on the same database).
It selects each record's fields by name — a record field that is a column has the column's name — so a
column added to a table and its record is read here too; a database whose schema lacks one (older than
this code) is left to ``SqlRunStore``. Values come back as SQLAlchemy stores them on SQLite: timestamps as
naive UTC text, JSON as text, booleans as integers, converted here by the columns' declared types. Writes,
PostgreSQL and any URL this module does not parse plainly go through ``SqlRunStore``.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alphred.errors import StoreError, UnknownRunError
from alphred.settings import seconds_setting
from alphred.store.assembly import (
    RUN_CONVERT,
    children_by_parent,
    routes_by_attempt,
    run_snapshot,
    step_record,
    worker_object,
    workflow_source,
)
from alphred.store.db_errors import translate_error
from alphred.store.enums import NodeStatus
from alphred.store.read_records import (
    EventRecord,
    RoutingRecord,
    RunFileRecord,
    RunSnapshot,
    StepRecord,
    WorkflowSource,
)
from alphred.store.records import NodeRecord, RunRecord
from alphred.store.rows import RowReader, column_fields

BUSY_TIMEOUT_ENV = "ALPHRED_DB_BUSY_TIMEOUT"
_PREFIXES = ("sqlite:///", "sqlite+pysqlite:///")


def _timestamp(raw: bytes) -> datetime:
    return datetime.fromisoformat(raw.decode()).replace(tzinfo=UTC)


# Declared column types, as the tables are created on SQLite (converters apply only to connections opened
# with ``detect_types``, so SQLAlchemy's own connections are untouched).
sqlite3.register_converter("DATETIME", _timestamp)
sqlite3.register_converter("JSON", lambda raw: json.loads(raw))
sqlite3.register_converter("BOOLEAN", lambda raw: raw not in (b"0", b""))


def sqlite_path(url: str) -> Path | None:
    """The file of a plain ``sqlite:///PATH`` URL (no query, no escapes, not in memory); None for any other
    URL, which ``SqlRunStore`` parses."""
    prefix = next((p for p in _PREFIXES if url.startswith(p)), None)
    if prefix is None:
        return None
    database = url[len(prefix) :]
    if not database or database == ":memory:" or any(c in database for c in "?%#\x00") or database.startswith("file:"):
        return None
    return Path(database)


class _Row:
    """A ``sqlite3.Row`` as ``RowReader`` reads rows (by column name through ``_mapping``)."""

    __slots__ = ("_mapping",)

    def __init__(self, row: sqlite3.Row) -> None:
        self._mapping = row


def _columns(names: Iterable[str], table: str) -> str:
    return ", ".join(f"{table}.{name}" for name in names)


_NODE = RowReader(NodeRecord, convert={"status": NodeStatus})
_RUN = RowReader(RunRecord, convert=RUN_CONVERT, given=("nodes",))
_EVENT = RowReader(EventRecord, rename={"run_id": "workflow_run_id"})
_ROUTING = RowReader(RoutingRecord)
_RUN_COLUMNS = _columns(column_fields(RunRecord, without=("nodes", "tree_key", "tree_version")), "r")
_RUN_SELECT = (
    f"SELECT {_RUN_COLUMNS}, t.tree_key AS tree_key, t.version AS tree_version "
    "FROM workflow_runs r JOIN workflow_trees t ON t.id = r.tree_id"
)
_NODE_COLUMNS = _columns(column_fields(NodeRecord), "n")
_EVENT_COLUMNS = _columns(("id", "workflow_run_id", "run_node_id", "attempt", "sequence", "event_type"), "e")
_EVENT_SELECT = (
    f"SELECT {_EVENT_COLUMNS}, e.timestamp, e.content, e.metadata, n.node_key FROM run_node_stream_events e "
    "JOIN run_nodes n ON n.id = e.run_node_id WHERE e.workflow_run_id = ? AND e.id > ?"
)
_ROUTING_COLUMNS = _columns(column_fields(RoutingRecord, without=("node_key",)), "d")
_RUN_FILE = RowReader(RunFileRecord)
_RUN_FILE_COLUMNS = ", ".join(column_fields(RunFileRecord))


class SqliteReader:
    """Read-only access to a SQLite store file with ``sqlite3`` (see the module's docstring)."""

    backend = "sqlite"

    def __init__(self, path: Path) -> None:
        self.url = f"sqlite:///{path}"
        self._busy = seconds_setting(os.environ, BUSY_TIMEOUT_ENV, 10.0)
        try:
            self._db = sqlite3.connect(
                f"{path.absolute().as_uri()}?mode=ro",
                uri=True,
                timeout=self._busy,
                detect_types=sqlite3.PARSE_DECLTYPES,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            self._fail(exc, connecting=True)
        self._db.row_factory = sqlite3.Row

    @classmethod
    def open_existing(cls, path: Path) -> SqliteReader | None:
        """The reader of ``path`` when it is a store (migrated, readable by name); None when there is no file
        or no schema yet. StoreError for an older schema than this code reads (``SqlRunStore`` then)."""
        if not path.is_file():
            return None
        reader = cls(path)
        try:
            if not reader._query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"):
                reader.close()
                return None
        except BaseException:
            reader.close()
            raise
        return reader

    def _fail(self, exc: sqlite3.Error, *, connecting: bool = False) -> Any:
        translate_error(exc, self.url, self._busy, connecting=connecting)
        raise StoreError(f"cannot read database {self.url}: {exc}") from exc

    def _query(self, sql: str, parameters: Iterable[Any] = ()) -> list[sqlite3.Row]:
        try:
            return self._db.execute(sql, tuple(parameters)).fetchall()
        except sqlite3.Error as exc:
            return self._fail(exc)  # type: ignore[no-any-return]

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    def __enter__(self) -> SqliteReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- runs --------------------------------------------------------------------------------------------

    def _runs(self, rows: list[sqlite3.Row]) -> list[RunRecord]:
        ids = [row["id"] for row in rows]
        nodes: dict[int, list[NodeRecord]] = {}
        if ids:
            marks = ", ".join("?" * len(ids))
            sql = (
                f"SELECT {_NODE_COLUMNS} FROM run_nodes n WHERE n.run_id IN ({marks}) "
                "ORDER BY n.run_id, n.sequence_index"
            )
            for node in self._query(sql, ids):
                nodes.setdefault(node["run_id"], []).append(_NODE(_Row(node)))  # type: ignore[arg-type]
        return [_RUN(_Row(row), nodes=tuple(nodes.get(row["id"], ()))) for row in rows]  # type: ignore[arg-type]

    def find_run(self, run_id: int) -> RunRecord | None:
        """The run ``run_id`` with its phases, or None when there is no such run."""
        found = self._runs(self._query(f"{_RUN_SELECT} WHERE r.id = ?", (run_id,)))
        return found[0] if found else None

    def get_run(self, run_id: int) -> RunRecord:
        """The run ``run_id`` with its phases; UnknownRunError when there is no such run."""
        record = self.find_run(run_id)
        if record is None:
            raise UnknownRunError(run_id)
        return record

    def list_runs(self, limit: int | None = 50) -> list[RunRecord]:
        """Top-level runs newest first (at most ``limit``); sub-workflow runs are under their parent."""
        sql = f"{_RUN_SELECT} WHERE r.parent_run_id IS NULL ORDER BY r.id DESC"
        sql += " LIMIT ?" if limit is not None else ""
        return self._runs(self._query(sql, () if limit is None else (limit,)))

    def child_runs(self, run_id: int) -> list[RunRecord]:
        """The sub-workflow runs (SPEC §13) of run ``run_id``'s workflow phases, oldest first."""
        return self._runs(self._query(f"{_RUN_SELECT} WHERE r.parent_run_id = ? ORDER BY r.id", (run_id,)))

    def child_run_ids(self, run_ids: Iterable[int]) -> dict[int, list[int]]:
        """The ids of the sub-workflow runs of each of ``run_ids`` that has some, oldest first."""
        ids = set(run_ids)
        if not ids:
            return {}
        sql = "SELECT parent_run_id, id FROM workflow_runs WHERE parent_run_id BETWEEN ? AND ?"
        return children_by_parent(((row[0], row[1]) for row in self._query(sql, (min(ids), max(ids)))), ids)

    # --- history -----------------------------------------------------------------------------------------

    def routing_decisions(self, run_id: int) -> list[RoutingRecord]:
        """The run's routing decisions in the order they were made."""
        sql = (
            f"SELECT {_ROUTING_COLUMNS}, n.node_key FROM routing_decisions d JOIN run_nodes n ON n.id = d.run_node_id "
            "WHERE d.run_id = ? ORDER BY d.id"
        )
        return [_ROUTING(_Row(row)) for row in self._query(sql, (run_id,))]  # type: ignore[arg-type]

    def list_steps(self, run_id: int) -> list[StepRecord]:
        """The run's finished attempts in execution order, each with its routing decision (if any)."""
        routes = routes_by_attempt(self.routing_decisions(run_id))
        sql = (
            "SELECT d.run_node_id, d.attempt, d.outcome, d.reason, d.error_code, d.duration_ms, d.tokens, "
            "d.cost_usd, d.event_count, d.created_at, d.details, n.node_key FROM run_node_diagnostics d "
            "JOIN run_nodes n ON n.id = d.run_node_id WHERE d.run_id = ? ORDER BY d.id"
        )
        return [step_record(row, routes) for row in self._query(sql, (run_id,))]

    def latest_reports(self, run_id: int) -> dict[str, Any]:
        """Each phase's latest report: its object when it has one, else its text (as ``SqlRunStore``)."""
        sql = (
            "SELECT n.node_key, a.content_text, a.content_json FROM phase_artifacts a "
            "JOIN run_nodes n ON n.id = a.run_node_id WHERE a.run_id = ? AND a.kind = 'report' "
            "ORDER BY a.attempt, a.id"
        )
        rows = self._query(sql, (run_id,))
        return {
            row["node_key"]: row["content_json"] if row["content_json"] is not None else row["content_text"]
            for row in rows
        }

    def events(
        self, run_id: int, node_key: str | None = None, after_id: int = 0, limit: int | None = None
    ) -> list[EventRecord]:
        """The run's events with ``id > after_id`` in arrival order, optionally of one phase only."""
        sql = _EVENT_SELECT
        parameters: list[Any] = [run_id, after_id]
        if node_key is not None:
            sql += " AND n.node_key = ?"
            parameters.append(node_key)
        sql += " ORDER BY e.id"
        if limit is not None:
            sql += " LIMIT ?"
            parameters.append(limit)
        return [_EVENT(_Row(row)) for row in self._query(sql, parameters)]  # type: ignore[arg-type]

    # --- snapshots and sources ---------------------------------------------------------------------------

    def run_snapshot(self, run_id: int) -> RunSnapshot:
        """The run's stored engine state, runtime options and workflow source; UnknownRunError when none."""
        rows = self._query(
            "SELECT r.engine_state, t.source_path, t.definition FROM workflow_runs r "
            "JOIN workflow_trees t ON t.id = r.tree_id WHERE r.id = ?",
            (run_id,),
        )
        if not rows:
            raise UnknownRunError(run_id)
        return run_snapshot(run_id, rows[0]["engine_state"], rows[0]["source_path"], rows[0]["definition"])

    def workflow_sources(self, tree_ids: Iterable[int]) -> dict[int, WorkflowSource]:
        """The stored workflow file of each tree in ``tree_ids`` (trees that do not exist are absent)."""
        wanted = sorted(set(tree_ids))
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        sql = f"SELECT id, source_path, definition FROM workflow_trees WHERE id IN ({marks})"
        return {
            row["id"]: workflow_source(row["id"], row["source_path"], row["definition"])
            for row in self._query(sql, wanted)
        }

    def trees_with_fan_outs(self, tree_ids: Iterable[int]) -> set[int]:
        """The trees of ``tree_ids`` with a fan-out (a phase whose stored config has ``fan_out``)."""
        wanted = sorted(set(tree_ids))
        if not wanted:
            return set()
        marks = ", ".join("?" * len(wanted))
        sql = f"SELECT tree_id, config FROM tree_nodes WHERE tree_id IN ({marks})"
        return {row["tree_id"] for row in self._query(sql, wanted) if _has_fan_out(row["config"])}

    # --- workers -----------------------------------------------------------------------------------------

    def list_workers(self, lost_after: float) -> list[dict[str, Any]]:
        """Every registered worker as SPEC §10's object; ``lost`` when silent for ``lost_after`` seconds."""
        now = datetime.now(UTC)
        rows = self._query(
            "SELECT id, host, pid, capabilities, started_at, heartbeat_at, paused FROM workers ORDER BY started_at, id"
        )
        held: dict[str, list[int]] = {}
        if rows:
            marks = ", ".join("?" * len(rows))
            sql = f"SELECT id, lease_owner FROM workflow_runs WHERE lease_owner IN ({marks}) ORDER BY id"
            for run in self._query(sql, [row["id"] for row in rows]):
                held.setdefault(run["lease_owner"], []).append(run["id"])
        return [worker_object(row, held.get(row["id"], []), now, lost_after) for row in rows]

    def run_files(self, run_id: int, area: str | None = None) -> list[RunFileRecord]:
        """The stored files of a run (of one area, or both), by area and path."""
        sql = f"SELECT {_RUN_FILE_COLUMNS} FROM run_files WHERE run_id = ?"
        parameters: list[Any] = [run_id]
        if area is not None:
            sql += " AND area = ?"
            parameters.append(area)
        return [_RUN_FILE(_Row(row)) for row in self._query(sql + " ORDER BY area, path", parameters)]  # type: ignore[arg-type]

    def live_capabilities(self, lost_after: float) -> list[set[str]]:
        """What each live worker offers."""
        return [set(w["capabilities"]) for w in self.list_workers(lost_after) if w["state"] == "live"]


def _has_fan_out(config: Any) -> bool:
    return isinstance(config, Mapping) and bool(config.get("fan_out"))


_READ_TABLES = {
    "workflow_runs": column_fields(RunRecord, without=("nodes", "tree_key", "tree_version")),
    "run_nodes": column_fields(NodeRecord),
    "routing_decisions": column_fields(RoutingRecord, without=("node_key",)),
    "run_files": column_fields(RunFileRecord),
}


def _reads_schema(reader: SqliteReader) -> bool:
    """True when every column this reader selects is in the database (else its schema is older)."""
    for table, wanted in _READ_TABLES.items():
        have = {row["name"] for row in reader._query(f"SELECT name FROM pragma_table_info('{table}')")}
        if not set(wanted) <= have:
            return False
    return True


def open_reader(url: str) -> Any:
    """A store to read from for ``status``, ``runs``, ``logs`` and ``workers``, or None when there is none
    yet (nothing is created): a ``SqliteReader`` for a plain SQLite file whose schema it reads, else
    ``SqlRunStore.open_existing``."""
    path = sqlite_path(url)
    if path is not None:
        reader = SqliteReader.open_existing(path)
        if reader is None:
            return None
        if _reads_schema(reader):
            return reader
        reader.close()
    from alphred.store.sql_store import SqlRunStore

    return SqlRunStore.open_existing(url)
