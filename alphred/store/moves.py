"""The checks the store applies on every status move, against the engine's one table of SPEC §5's moves.

Which moves are allowed is decided once, by ``alphred.engine.statuses`` (``run_move_allowed``,
``node_move_allowed``); the store only refuses the others with ``InvalidTransitionError``.
"""

from __future__ import annotations

from collections.abc import Mapping

from alphred.engine.statuses import NODE_MOVES, RUN_MOVES, NodeStatus, RunStatus, node_move_allowed, run_move_allowed
from alphred.errors import InvalidTransitionError

RUN_TRANSITIONS: Mapping[RunStatus, frozenset[RunStatus]] = {
    status: frozenset(new for old, new in RUN_MOVES if old is status) for status in RunStatus
}
"""Allowed run moves ``old -> {new, ...}``: the engine's one table (``RUN_MOVES``), indexed by old status."""

NODE_TRANSITIONS: Mapping[NodeStatus, frozenset[NodeStatus]] = {
    status: frozenset(new for old, new in NODE_MOVES if old is status) for status in NodeStatus
}
"""Allowed run-node (phase) moves ``old -> {new, ...}``, from the engine's ``NODE_MOVES``."""


def check_run_transition(old: str, new: str, ident: object = None) -> RunStatus:
    """Return ``new`` as a RunStatus, or raise InvalidTransitionError when the move is not allowed."""
    try:
        allowed = run_move_allowed(old, new)
    except ValueError:  # not a status at all
        allowed = False
    if not allowed:
        raise InvalidTransitionError("run", ident, str(old), str(new))
    return RunStatus(new)


def check_node_transition(old: str, new: str, ident: object = None) -> NodeStatus:
    """Return ``new`` as a NodeStatus, or raise InvalidTransitionError when the move is not allowed."""
    try:
        allowed = node_move_allowed(old, new)
    except ValueError:  # not a status at all
        allowed = False
    if not allowed:
        raise InvalidTransitionError("phase", ident, str(old), str(new))
    return NodeStatus(new)
