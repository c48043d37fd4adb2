"""Run and run-node (phase) statuses, as stored in SQL (SPEC §5)."""

from __future__ import annotations

from enum import StrEnum

# One definition of each status, shared with the pure engine (it owns the state machine).
from alphred.engine.state import StepOutcome
from alphred.engine.status import NodeStatus, RunStatus

__all__ = ["ENDED_RUN_STATUSES", "EventType", "NodeStatus", "NodeType", "RunStatus", "StepOutcome", "TargetKind"]


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
