"""The records only reading, resuming, the queue, files and the registry hand out (``alphred.store.records``
has a run's own): a run's history (artifacts, events, routing, steps), its stored snapshot and workflow source,
a compiled tree's topology, worktrees, queue candidates, process groups, run files, memories, registered
repositories.

Loaded on first use, off ``alphred run``'s start path (issue 29); ``from alphred.store.records import ...`` and
``from alphred.store import ...`` still give them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from alphred.store.enums import StepOutcome


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
