"""The status transition tables of SPEC §5, as data, and the checks the store applies on every move."""

from __future__ import annotations

from collections.abc import Mapping

from alphred.errors import InvalidTransitionError
from alphred.store.status import NodeStatus, RunStatus

_R = RunStatus
_N = NodeStatus

RUN_TRANSITIONS: Mapping[RunStatus, frozenset[RunStatus]] = {
    _R.PENDING: frozenset({_R.RUNNING, _R.CANCELLED}),
    _R.RUNNING: frozenset({_R.COMPLETED, _R.FAILED, _R.CANCELLED, _R.PAUSED}),
    _R.PAUSED: frozenset({_R.RUNNING, _R.CANCELLED}),
    _R.FAILED: frozenset({_R.RUNNING}),
    _R.COMPLETED: frozenset(),
    _R.CANCELLED: frozenset(),
}
"""Allowed run moves: ``old -> {new, ...}``. Anything absent (self-moves included) is rejected."""

NODE_TRANSITIONS: Mapping[NodeStatus, frozenset[NodeStatus]] = {
    _N.PENDING: frozenset({_N.RUNNING, _N.SKIPPED, _N.CANCELLED}),
    _N.RUNNING: frozenset({_N.COMPLETED, _N.FAILED, _N.PENDING, _N.CANCELLED}),
    _N.FAILED: frozenset({_N.RUNNING}),
    _N.COMPLETED: frozenset({_N.PENDING}),
    _N.SKIPPED: frozenset({_N.PENDING}),
    _N.CANCELLED: frozenset(),
}
"""Allowed run-node (phase) moves: ``old -> {new, ...}``. Anything absent is rejected."""


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
