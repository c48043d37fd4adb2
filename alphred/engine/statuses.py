"""Run and phase (run node) statuses and the status moves SPEC §5 allows."""

from __future__ import annotations

from enum import StrEnum


class RunStatus(StrEnum):
    """Where a run stands."""

    PENDING = "pending"
    RUNNING = "running"
    PAUSED = "paused"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


class NodeStatus(StrEnum):
    """Where one phase of a run (a run node) stands."""

    PENDING = "pending"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    SKIPPED = "skipped"
    CANCELLED = "cancelled"


_R = RunStatus
_N = NodeStatus

RUN_MOVES: frozenset[tuple[RunStatus, RunStatus]] = frozenset(
    {
        (_R.PENDING, _R.RUNNING),
        (_R.RUNNING, _R.COMPLETED),
        (_R.RUNNING, _R.FAILED),
        (_R.RUNNING, _R.CANCELLED),
        (_R.RUNNING, _R.PAUSED),
        (_R.PAUSED, _R.RUNNING),
        (_R.PENDING, _R.CANCELLED),
        (_R.PAUSED, _R.CANCELLED),
        (_R.FAILED, _R.RUNNING),
    }
)
"""Allowed ``(old, new)`` run status moves."""

NODE_MOVES: frozenset[tuple[NodeStatus, NodeStatus]] = frozenset(
    {
        (_N.PENDING, _N.RUNNING),
        (_N.RUNNING, _N.COMPLETED),
        (_N.RUNNING, _N.FAILED),
        (_N.RUNNING, _N.PENDING),
        (_N.RUNNING, _N.CANCELLED),
        (_N.PENDING, _N.SKIPPED),
        (_N.PENDING, _N.CANCELLED),
        (_N.FAILED, _N.RUNNING),
        (_N.COMPLETED, _N.PENDING),
        (_N.SKIPPED, _N.PENDING),
    }
)
"""Allowed ``(old, new)`` phase (run node) status moves."""

TERMINAL_RUN_STATUSES: frozenset[RunStatus] = frozenset({_R.COMPLETED, _R.FAILED, _R.CANCELLED})
"""Run statuses that end a run (``failed`` can still be retried by an operator)."""


def run_move_allowed(old: RunStatus | str, new: RunStatus | str) -> bool:
    """True when SPEC §5 allows a run to move from ``old`` to ``new``."""
    return (RunStatus(old), RunStatus(new)) in RUN_MOVES


def node_move_allowed(old: NodeStatus | str, new: NodeStatus | str) -> bool:
    """True when SPEC §5 allows a phase to move from ``old`` to ``new``."""
    return (NodeStatus(old), NodeStatus(new)) in NODE_MOVES
