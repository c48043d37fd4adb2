"""Run and run-node (phase) statuses, as stored in SQL (SPEC §5)."""

from __future__ import annotations

from enum import StrEnum


class RunStatus(StrEnum):
    """Where a workflow run is in its life."""

    PENDING = "pending"
    RUNNING = "running"
    PAUSED = "paused"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


class NodeStatus(StrEnum):
    """Where one phase (run node) of a run is."""

    PENDING = "pending"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    SKIPPED = "skipped"
    CANCELLED = "cancelled"


class StepOutcome(StrEnum):
    """How one finished attempt of a phase ended (one ``run_node_diagnostics`` row)."""

    COMPLETED = "completed"
    FAILED = "failed"
    INTERRUPTED = "interrupted"
    CANCELLED = "cancelled"


class EventType(StrEnum):
    """The kinds of provider events kept in ``run_node_stream_events`` (SPEC §4)."""

    SYSTEM = "system"
    ASSISTANT = "assistant"
    TOOL_USE = "tool_use"
    TOOL_RESULT = "tool_result"
    USAGE = "usage"
    RESULT = "result"


class NodeType(StrEnum):
    """What a tree node executes; mirrors ``alphred.spec.model.PhaseType``."""

    AGENT = "agent"
    COMMAND = "command"
    APPROVAL = "approval"


class TargetKind(StrEnum):
    """Where a tree edge leads: another node, or one of the reserved targets ``$end`` / ``$fail``."""

    NODE = "node"
    END = "end"
    FAIL = "fail"


ENDED_RUN_STATUSES = frozenset({RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELLED})
"""Run statuses in which nothing executes any more (a failed run may still be retried)."""
