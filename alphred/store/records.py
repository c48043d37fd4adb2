"""Frozen snapshots the store hands out (never live ORM rows), and the event row it takes in.

Part of the store's public face (with ``alphred.store`` and ``alphred.store.enums``): importing it costs no
SQLAlchemy. A record whose fields are a table's columns has exactly their names, so the store fills it from a
row by name (``alphred.store.rows``) and a test checks the two never drift apart.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from alphred.errors import RepositoryRegistryError
from alphred.store.enums import NodeStatus, RunStatus, StepOutcome


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class ArtifactRecord:
    """A stored phase artifact (report, diff, context manifest, ...)."""

    id: int
    run_id: int
    run_node_id: int
    node_key: str
    attempt: int
    kind: str
    content_text: str | None
    content_json: Any
    sha256: str
    created_at: datetime


@dataclass(frozen=True)
class EventRecord:
    """A stored provider event."""

    id: int
    run_id: int
    run_node_id: int
    node_key: str
    attempt: int
    sequence: int
    event_type: str
    timestamp: datetime
    content: str | None
    metadata: Mapping[str, Any] | None


@dataclass(frozen=True)
class RoutingRecord:
    """A stored routing choice."""

    id: int
    run_id: int
    run_node_id: int
    node_key: str
    attempt: int
    decision: str | None
    target: str
    priority: int | None
    edge_id: int | None
    reason: str | None
    created_at: datetime
    explanation: list[Any] | None  # ``engine.routing.Explanation``; None when routing left nothing to explain


@dataclass(frozen=True)
class StepRecord:
    """One finished attempt of a phase, with where the run went next (a ``steps`` entry of SPEC §6)."""

    phase: str
    attempt: int
    outcome: StepOutcome
    decision: str | None
    next: str | None
    reason: str | None
    error_code: str | None
    duration_ms: int | None
    tokens: int
    cost_usd: float
    event_count: int
    created_at: datetime
    checks: tuple[Mapping[str, Any], ...] = ()  # the attempt's checks (SPEC §9), from its diagnostics details
    provider: str | None = None  # the provider that ran it (SPEC §15), from its diagnostics details


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class RunSnapshot:
    """The stored engine state of a run (``engine``), the runtime options it ran with, and its workflow."""

    run_id: int
    engine: dict[str, Any] | None
    runtime: dict[str, Any]
    source_path: str | None
    source_text: str | None
    source_files: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class WorkflowSource:
    """The workflow file a tree version was compiled from (its text and prompt files), for loading it again."""

    tree_id: int
    source_path: str | None
    text: str | None
    files: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class WorktreeRecord:
    """A run that still has a worktree: what ``gc`` and the pending cleanup decide on."""

    run_id: int
    status: str
    worktree_path: str
    repo_path: str | None
    keep_worktree: bool
    lease_owner: str | None
    lease_expires_at: datetime | None


@dataclass(frozen=True)
class TopologyEdge:
    """One transition of a compiled tree: source and target phase keys (the target None for ``$end``/``$fail``)."""

    source: str
    target_kind: str
    target: str | None
    guard: str | None
    max_traversals: int | None


@dataclass(frozen=True)
class TopologyRecord:
    """A compiled tree's phases ``(key, type)`` in file order, its start phase and its transitions."""

    start: str | None
    phases: tuple[tuple[str, str], ...]
    edges: tuple[TopologyEdge, ...]


@dataclass(frozen=True)
class Candidate:
    """A run a worker might claim: what it needs to decide, nothing more."""

    id: int
    status: str
    reason: str | None
    requires: tuple[str, ...]
    lease_owner: str | None
    lease_expires_at: datetime | None
    queued: bool
    request: dict[str, Any] | None
    repo_path: str | None
    repo_url: str | None
    repo_root: str | None
    priority: int
    tree_key: str | None = None  # its workflow's key (``alphred worker --allow-workflows``)
    wake_at: datetime | None = None  # a usage limit's reset: no claim before it (SPEC §15)


@dataclass(frozen=True)
class ProcessRecord:
    """One recorded process group of an attempt."""

    node_key: str
    attempt: int
    host: str
    pgid: int
    started: str | None


@dataclass(frozen=True)
class RunFileRecord:
    """A stored file of a run's artifacts or memory (SPEC §17): where it is, what it holds (by sha256)."""

    id: int
    run_id: int
    area: str  # ``artifacts`` or ``memory``
    path: str  # relative, with ``/``
    sha256: str
    size: int
    mode: int
    mtime_ns: int | None
    updated_at: datetime


@dataclass(frozen=True)
class MemoryRecord:
    """A memory across runs (SPEC §17): its key, the run that saved it last, its files ``(path, size)``."""

    repository: str
    tree_key: str
    name: str
    run_id: int | None
    saved_at: datetime
    files: tuple[tuple[str, int], ...]


NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
"""A registered repository name: also a directory name under ``~/.alphred/repos/``."""


def check_repository_name(name: str) -> str:
    """Return ``name`` if it is a valid registered name, else raise ``RepositoryRegistryError``."""
    if not NAME_PATTERN.fullmatch(name):
        raise RepositoryRegistryError(
            f"invalid repository name '{name}': use letters, digits, '.', '_' and '-', starting with a letter or digit"
        )
    return name


@dataclass(frozen=True)
class RepositoryRecord:
    """One registered repository."""

    id: int
    name: str
    path: str | None
    remote_url: str | None
    branch_template: str | None
    clone_status: str
    created_at: datetime

    @property
    def location(self) -> str:
        """The URL it comes from, else its path."""
        return self.remote_url or self.path or ""

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object (``repo list --json``)."""
        return {
            "name": self.name,
            "path": self.path,
            "remote_url": self.remote_url,
            "branch_template": self.branch_template,
            "clone_status": self.clone_status,
            "created_at": self.created_at.isoformat().replace("+00:00", "Z"),
        }
