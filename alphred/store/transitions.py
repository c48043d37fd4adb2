"""The checks the store applies on every status move, against the engine's one table of SPEC §5's moves."""

from __future__ import annotations

from collections.abc import Mapping

from alphred.engine.statuses import NODE_MOVES, RUN_MOVES, NodeStatus, RunStatus
from alphred.errors import InvalidTransitionError

RUN_TRANSITIONS: Mapping[RunStatus, frozenset[RunStatus]] = {
    status: frozenset(new for old, new in RUN_MOVES if old is status) for status in RunStatus
}
"""Allowed run moves ``old -> {new, ...}``: the engine's one table (``RUN_MOVES``), indexed by old status."""

NODE_TRANSITIONS: Mapping[NodeStatus, frozenset[NodeStatus]] = {
    status: frozenset(new for old, new in NODE_MOVES if old is status) for status in NodeStatus
}
"""Allowed run-node (phase) moves ``old -> {new, ...}``, from the engine's ``NODE_MOVES``."""


def run_move_allowed(old: str, new: str) -> bool:
    """True when a run may move from ``old`` to ``new``."""
    try:
        return RunStatus(new) in RUN_TRANSITIONS[RunStatus(old)]
    except ValueError:
        return False


def node_move_allowed(old: str, new: str) -> bool:
    """True when a run node may move from ``old`` to ``new``."""
    try:
        return NodeStatus(new) in NODE_TRANSITIONS[NodeStatus(old)]
    except ValueError:
        return False


def check_run_transition(old: str, new: str, ident: object = None) -> RunStatus:
    """Return ``new`` as a RunStatus, or raise InvalidTransitionError when the move is not allowed."""
    if not run_move_allowed(old, new):
        raise InvalidTransitionError("run", ident, str(old), str(new))
    return RunStatus(new)


def check_node_transition(old: str, new: str, ident: object = None) -> NodeStatus:
    """Return ``new`` as a NodeStatus, or raise InvalidTransitionError when the move is not allowed."""
    if not node_move_allowed(old, new):
        raise InvalidTransitionError("phase", ident, str(old), str(new))
    return NodeStatus(new)
