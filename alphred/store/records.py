"""Frozen snapshots the store hands out (never live ORM rows), and the event row it takes in.

Part of the store's public face (with ``alphred.store`` and ``alphred.store.enums``): importing it costs no
SQLAlchemy. A record whose fields are a table's columns has exactly their names, so the store fills it from a
row by name (``alphred.store.rows``) and a test checks the two never drift apart.

Here are the records a run's start and its phases use (the run, its phases, the event rows it appends); the
ones only reading, resuming, the queue, files and the registry use are in ``alphred.store.read_records``,
loaded on first use (issue 29: each frozen dataclass costs ~4-6 M instructions to create) and still importable
from here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field
from datetime import datetime
from typing import Any

from alphred.errors import RepositoryRegistryError
from alphred.lazy import deferred_dataclass, forwarded
from alphred.store.enums import NodeStatus, RunStatus


@deferred_dataclass(frozen=True)
class NodeRecord:
    """One phase of a run as stored."""

    id: int
    run_id: int
    tree_node_id: int
    node_key: str
    sequence_index: int
    status: NodeStatus
    attempt: int
    visits: int
    decision: str | None
    exit_code: int | None
    tokens: int
    cost_usd: float
    lease_owner: str | None
    lease_expires_at: datetime | None
    started_at: datetime | None
    completed_at: datetime | None
    updated_at: datetime


@deferred_dataclass(frozen=True)
class RunRecord:
    """One run as stored, with its phases in file order."""

    id: int
    tree_id: int
    tree_key: str
    tree_version: int
    status: RunStatus
    reason: str | None
    inputs: Mapping[str, Any]
    branch: str | None
    base_sha: str | None
    head_sha: str | None
    base_ref: str | None
    worktree_path: str | None
    repo_path: str | None
    pr_url: str | None
    tokens: int
    cost_usd: float
    steps: int
    pause_requested: bool
    cancel_requested: bool
    lease_owner: str | None
    lease_expires_at: datetime | None
    created_at: datetime
    started_at: datetime | None
    completed_at: datetime | None
    updated_at: datetime
    nodes: tuple[NodeRecord, ...] = ()
    priority: int = 0
    requires: tuple[str, ...] = ()
    queued: bool = False
    request: Mapping[str, Any] | None = None
    repo_name: str | None = None
    repo_url: str | None = None
    repo_root: str | None = None
    wake_at: datetime | None = None  # when a paused run goes on: a usage limit's reset (§15), CI's next look (§16)
    parent_run_id: int | None = None  # a sub-workflow's run (SPEC §13): the run whose phase runs it
    parent_step: str | None = None  # and that phase's step, ``<phase>#<visit>.<attempt>``

    def node(self, key: str) -> NodeRecord:
        """The phase called ``key`` (KeyError when the run has none)."""
        for node in self.nodes:
            if node.node_key == key:
                return node
        raise KeyError(key)


@deferred_dataclass(frozen=True)
class EventRow:
    """A provider event to append; ``timestamp`` defaults to now."""

    workflow_run_id: int
    run_node_id: int
    attempt: int
    sequence: int
    event_type: str
    content: str | None = None
    timestamp: datetime | None = None
    metadata: Mapping[str, Any] | None = field(default=None)


NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
"""A registered repository name: also a directory name under ``~/.alphred/repos/``."""


def check_repository_name(name: str) -> str:
    """Return ``name`` if it is a valid registered name, else raise ``RepositoryRegistryError``."""
    if not NAME_PATTERN.fullmatch(name):
        raise RepositoryRegistryError(
            f"invalid repository name '{name}': use letters, digits, '.', '_' and '-', starting with a letter or digit"
        )
    return name


READ_RECORDS = (
    "ArtifactRecord",
    "Candidate",
    "EventRecord",
    "MemoryRecord",
    "ProcessRecord",
    "RepositoryRecord",
    "RoutingRecord",
    "RunFileRecord",
    "RunSnapshot",
    "StepRecord",
    "TopologyEdge",
    "TopologyRecord",
    "WorkflowSource",
    "WorktreeRecord",
)
"""The records defined in ``read_records.py`` (loaded on first use) that this module and ``alphred.store`` give."""


def __getattr__(name: str) -> Any:
    """The records of ``read_records.py``, loaded when first asked for."""
    return forwarded(globals(), name, _FORWARDED)


_FORWARDED = dict.fromkeys(READ_RECORDS, "alphred.store.read_records")
