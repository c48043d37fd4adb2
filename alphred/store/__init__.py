"""Alphred's SQL store: SQLModel tables, migrations, topology compile and ``SqlRunStore``.

Statuses and the transition tables import cheaply; everything that needs SQLAlchemy is loaded on first
use (``from alphred.store import SqlRunStore``), so ``import alphred.store`` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from alphred.store.enums import EventType, NodeStatus, NodeType, RunStatus, StepOutcome, TargetKind
from alphred.store.transitions import (
    NODE_TRANSITIONS,
    RUN_TRANSITIONS,
    check_node_transition,
    check_run_transition,
)

if TYPE_CHECKING:
    from alphred.store.compile import compile_workflow
    from alphred.store.connect import open_engine
    from alphred.store.migrations import migrate
    from alphred.store.records import (
        ArtifactRecord,
        EventRecord,
        EventRow,
        NodeRecord,
        RoutingRecord,
        RunRecord,
        StepRecord,
    )
    from alphred.store.sql_store import SqlRunStore, StoreTransaction

_LAZY = {
    "SqlRunStore": "alphred.store.sql_store",
    "StoreTransaction": "alphred.store.sql_store",
    "open_engine": "alphred.store.connect",
    "migrate": "alphred.store.migrations",
    "compile_workflow": "alphred.store.compile",
    "ArtifactRecord": "alphred.store.records",
    "EventRecord": "alphred.store.records",
    "EventRow": "alphred.store.records",
    "NodeRecord": "alphred.store.records",
    "RoutingRecord": "alphred.store.records",
    "RunRecord": "alphred.store.records",
    "StepRecord": "alphred.store.records",
}

__all__ = [
    "NODE_TRANSITIONS",
    "RUN_TRANSITIONS",
    "ArtifactRecord",
    "EventRecord",
    "EventRow",
    "EventType",
    "NodeRecord",
    "NodeStatus",
    "NodeType",
    "RoutingRecord",
    "RunRecord",
    "RunStatus",
    "SqlRunStore",
    "StepOutcome",
    "StepRecord",
    "StoreTransaction",
    "TargetKind",
    "check_node_transition",
    "check_run_transition",
    "compile_workflow",
    "migrate",
    "open_engine",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'alphred.store' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
