"""Run and run-node (phase) statuses, as stored in SQL (SPEC §5)."""

from __future__ import annotations

from enum import StrEnum

# One definition of each status and kind, shared with the pure engine (it owns the state machine) and with
# the providers (they emit the events whose kinds ``run_node_stream_events`` keeps).
from alphred.engine.provider_events import EventType
from alphred.engine.state import StepOutcome
from alphred.engine.statuses import TERMINAL_RUN_STATUSES, NodeStatus, RunStatus

__all__ = ["ENDED_RUN_STATUSES", "EventType", "NodeStatus", "NodeType", "RunStatus", "StepOutcome", "TargetKind"]


class NodeType(StrEnum):
    """What a tree node executes; mirrors ``alphred.workflow.model.PhaseType``."""

    AGENT = "agent"
    COMMAND = "command"
    APPROVAL = "approval"
    PULL_REQUEST = "pull_request"
    CI = "ci"
    WORKFLOW = "workflow"  # a sub-workflow (SPEC §13, migration 8)


class TargetKind(StrEnum):
    """Where a tree edge leads: another node, or one of the reserved targets ``$end`` / ``$fail``."""

    NODE = "node"
    END = "end"
    FAIL = "fail"


ENDED_RUN_STATUSES = TERMINAL_RUN_STATUSES
"""Run statuses in which nothing executes any more (the engine's terminal set; a failed run may be retried)."""
