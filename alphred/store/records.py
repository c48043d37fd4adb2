"""Frozen snapshots the store hands out (never live ORM rows), and the event row it takes in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

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
