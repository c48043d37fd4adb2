"""What an operator may do with a run: ``allowed_actions``, decided in this one place for the CLI, the web
view and the closing block (SPEC §5, §10).

Pure like the rest of the engine: whether a live process holds the run's lease is an input
(``holder_alive``), found by whoever asks (the store's lease columns, ``/proc``), never looked up here.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from alphred.engine.reasons import AWAITING_APPROVAL
from alphred.engine.statuses import RunStatus

if TYPE_CHECKING:
    from alphred.engine.state import RunState

_R = RunStatus


class Action(StrEnum):
    """An operator's action on a run (each is an ``alphred`` command of the same name)."""

    APPROVE = "approve"
    REJECT = "reject"
    PAUSE = "pause"
    CANCEL = "cancel"
    RESUME = "resume"
    RETRY = "retry"


def can_retry(state: RunState) -> bool:
    """True when ``RetryRun`` would restart something (a failed run with a phase left to run)."""
    queued = state.queued is not None or any(lane.queued is not None for lane in state.lanes)
    return state.status is _R.FAILED and (queued or state.delivery is not None)


def stored_can_retry(data: Mapping[str, Any]) -> bool:
    """``can_retry`` of a state in its stored JSON form (``state_to_json``), read without the workflow that
    ``state_from_json`` needs: ``alphred status`` of a failed run loads no workflow for its hint."""
    lanes = data.get("lanes") or ()
    queued = data.get("queued") is not None or any(
        isinstance(lane, Mapping) and lane.get("queued") is not None for lane in lanes
    )
    return data.get("status") == _R.FAILED.value and (queued or data.get("delivery") is not None)


def can_resume(state: RunState) -> bool:
    """True when ``Resume`` would continue the run (paused, not waiting for approval)."""
    queued = state.queued is not None or any(lane.queued is not None for lane in state.lanes)
    return state.status is _R.PAUSED and state.reason != AWAITING_APPROVAL and queued


def allowed_actions(
    status: RunStatus, reason: str | None, *, holder_alive: bool, retryable: bool
) -> tuple[Action, ...]:
    """The actions a run in ``status`` (with ``reason``) allows now, in ``Action`` order.

    ``holder_alive``: a live process holds the run's lease (it runs the run: it can be paused or cancelled,
    not resumed by another). ``retryable``: the engine has something to retry (``can_retry`` of the run's
    state; pass True when the state is not at hand and the retry itself will say).
    """
    waiting = status is _R.PAUSED and reason == AWAITING_APPROVAL
    found: list[Action] = []
    if waiting:
        found += [Action.APPROVE, Action.REJECT]
    if status in (_R.PENDING, _R.RUNNING):
        found.append(Action.PAUSE)
    if status in (_R.PENDING, _R.RUNNING, _R.PAUSED):
        found.append(Action.CANCEL)
    if (status is _R.PAUSED and not waiting) or (status in (_R.PENDING, _R.RUNNING) and not holder_alive):
        found.append(Action.RESUME)
    if status is _R.FAILED and retryable:
        found.append(Action.RETRY)
    return tuple(found)
