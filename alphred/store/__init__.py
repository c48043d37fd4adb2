"""Alphred's SQL store: one API over SQLite and PostgreSQL (``SqlRunStore``), its records, its statuses.

The store's public face is three modules; everything else in ``alphred/store/`` is its inside:

- ``alphred.store`` (this package): ``SqlRunStore`` and ``StoreTransaction`` (every query is a method of
  the transaction; the store repeats them as one-transaction shortcuts), ``open_reader`` (the read
  commands' store: ``sqlite3`` on a SQLite file, without SQLAlchemy), ``open_engine``/``migrate``,
  the URL helpers ``check_database_url``/``display_url``/``absolute_database_url``, and re-exports of
  the two modules below.
- ``alphred.store.records``: the frozen records the store hands out (``RunRecord``, ``RunSnapshot``,
  ``RepositoryRecord``, ``Candidate``, ...) and takes in (``EventRow``); those a run's start does not use are
  defined in ``alphred.store.read_records`` and loaded on first use (here too).
- ``alphred.store.enums``: the stored statuses and kinds (shared with the engine).
- ``alphred.store.owners``: lease owners (``host:pid:start:token``) and whether they are alive.

Outside ``alphred/store/`` nothing imports SQLAlchemy, SQLModel, psycopg or another module of this package
(import-linter's contract "no store internals outside store/" in ``pyproject.toml``): no SQL is written
anywhere else. Tests may reach inside.

Statuses, records and the transition tables import cheaply; everything that needs SQLAlchemy is loaded on
first use (``from alphred.store import SqlRunStore``), so ``import alphred.store`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from alphred.lazy import forwarded
from alphred.store.enums import EventType, NodeStatus, NodeType, RunStatus, StepOutcome, TargetKind
from alphred.store.moves import (
    NODE_TRANSITIONS,
    RUN_TRANSITIONS,
    check_node_transition,
    check_run_transition,
)
from alphred.store.records import READ_RECORDS, EventRow, NodeRecord, RunRecord, check_repository_name

if TYPE_CHECKING:
    from alphred.store.connect import absolute_database_url, check_database_url, display_url
    from alphred.store.migrations import migrate
    from alphred.store.read_records import (
        ArtifactRecord,
        Candidate,
        EventRecord,
        MemoryRecord,
        ProcessRecord,
        RepositoryRecord,
        RoutingRecord,
        RunFileRecord,
        RunSnapshot,
        StepRecord,
        TopologyEdge,
        TopologyRecord,
        WorkflowSource,
        WorktreeRecord,
    )
    from alphred.store.sql_store import Notifications, SqlRunStore, StoreTransaction, open_engine
    from alphred.store.sqlite_reader import open_reader
    from alphred.store.state_text import StateText

_LAZY = {
    "SqlRunStore": "alphred.store.sql_store",
    "StoreTransaction": "alphred.store.sql_store",
    "Notifications": "alphred.store.sql_store",
    "open_engine": "alphred.store.sql_store",
    "migrate": "alphred.store.migrations",
    "absolute_database_url": "alphred.store.connect",
    "check_database_url": "alphred.store.connect",
    "display_url": "alphred.store.connect",
    "open_reader": "alphred.store.sqlite_reader",
    "StateText": "alphred.store.state_text",
    **dict.fromkeys(READ_RECORDS, "alphred.store.read_records"),
}

__all__ = [
    "NODE_TRANSITIONS",
    "RUN_TRANSITIONS",
    "ArtifactRecord",
    "Candidate",
    "EventRecord",
    "EventRow",
    "EventType",
    "MemoryRecord",
    "NodeRecord",
    "NodeStatus",
    "NodeType",
    "Notifications",
    "ProcessRecord",
    "RepositoryRecord",
    "RoutingRecord",
    "RunFileRecord",
    "RunRecord",
    "RunSnapshot",
    "RunStatus",
    "SqlRunStore",
    "StateText",
    "StepOutcome",
    "StepRecord",
    "StoreTransaction",
    "TargetKind",
    "TopologyEdge",
    "TopologyRecord",
    "WorkflowSource",
    "WorktreeRecord",
    "absolute_database_url",
    "check_database_url",
    "check_node_transition",
    "check_repository_name",
    "check_run_transition",
    "display_url",
    "migrate",
    "open_engine",
    "open_reader",
]


def __getattr__(name: str) -> Any:
    """What needs SQLAlchemy and the records of ``read_records.py``, loaded when first asked for."""
    return forwarded(globals(), name, _LAZY)
