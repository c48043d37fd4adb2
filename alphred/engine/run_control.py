"""The run's own events in the state machine (SPEC §5): resume, retry, cancel, the run's timeout and the
delivery's steps; ``machine.transition`` dispatches to them. The attempts' outcomes and routing stay in
``machine``.
"""

from __future__ import annotations

from alphred.engine.actions import can_resume, can_retry
from alphred.engine.events import Deliver, DeliveryDone, DeliveryFailed, RecordPullRequest, StartPhase
from alphred.engine.fan_out import resume_lanes
from alphred.engine.fold import Fold, Result, start
from alphred.engine.joins import merge_to_redo
from alphred.engine.reasons import (
    CANCELLED,
    DELIVERY_FAILED,
    DELIVERY_STEPS,
    NOTHING_TO_DELIVER,
    TIMEOUT,
    WAITING_FOR_CI,
)
from alphred.engine.state import RunState, Step, StepOutcome
from alphred.engine.statuses import NodeStatus, RunStatus

_N = NodeStatus
_R = RunStatus


def _look_again(state: RunState) -> Result:
    """Resume a run waiting for CI: the same attempt looks at the checks again (not a new step)."""
    assert state.current is not None
    ps = state.phase(state.current)
    fold = Fold(state)
    fold.run_status(_R.RUNNING, None)
    fold.effects.append(StartPhase(state.current, ps.attempt, ps.entries))
    return fold.result()


def on_resume(state: RunState) -> Result:
    if state.status is _R.RUNNING and state.current is None and state.delivery is not None:
        return state, (Deliver(state.delivery),)  # taken over mid-delivery: deliver, redo nothing else
    if state.status is _R.PAUSED and state.reason == WAITING_FOR_CI and state.current is not None:
        return _look_again(state)
    redo = merge_to_redo(state)
    if redo is not None:
        return state, (redo,)  # taken over mid-merge: ask for the merge again
    if not can_resume(state):
        return state, ()
    fold = Fold(state)
    fold.update(wake_at=None)  # a usage limit waited out: the operations layer resumes at wake_at (SPEC §15)
    if state.lanes:
        resume_lanes(fold)
        return fold.result()
    assert state.queued is not None
    fold.run_status(_R.RUNNING, None)
    start(fold, state.queued, state.queued_new_visit)
    return fold.result()


def on_retry(state: RunState) -> Result:
    if not can_retry(state):
        return state, ()
    fold = Fold(state)
    if state.delivery is None and state.lanes:  # a branch failed: every branch goes on where it stopped
        resume_lanes(fold)
        return fold.result()
    fold.run_status(_R.RUNNING, None)
    if state.delivery is not None:  # only the delivery failed: deliver again from the failed step
        fold.effects.append(Deliver(state.delivery))
        return fold.result()
    assert state.queued is not None
    if not state.queued_new_visit:
        fold.change_phase(state.queued, consecutive_failures=0)
    start(fold, state.queued, state.queued_new_visit)
    return fold.result()


def on_delivery_done(state: RunState, event: DeliveryDone) -> Result:
    if state.status is not _R.RUNNING or state.delivery != event.step:
        return state, ()
    fold = Fold(state)
    if event.nothing:  # SPEC §16: nothing to deliver completes the run (unless ``pull_request.required``)
        fold.update(delivery=None, delivery_note=NOTHING_TO_DELIVER)
        fold.finish(_R.COMPLETED, state.finish_reason)
        return fold.result()
    index = DELIVERY_STEPS.index(event.step)
    if index + 1 < len(DELIVERY_STEPS):
        fold.update(delivery=DELIVERY_STEPS[index + 1])
        fold.effects.append(Deliver(DELIVERY_STEPS[index + 1]))
        return fold.result()
    fold.update(delivery=None, pr_url=event.url or "")
    if event.url:
        fold.effects.append(RecordPullRequest(event.url))
    fold.finish(_R.COMPLETED, state.finish_reason)
    return fold.result()


def on_delivery_failed(state: RunState, event: DeliveryFailed) -> Result:
    if state.status is not _R.RUNNING or state.delivery != event.step:
        return state, ()
    fold = Fold(state)
    fold.finish(_R.FAILED, DELIVERY_FAILED)
    return fold.result()


def on_cancel(state: RunState) -> Result:
    fold = Fold(state)
    for key, ps in state.phases.items():  # for_each items' phases too (SPEC §13)
        if ps.status is _N.RUNNING:
            fold.phase_status(key, _N.CANCELLED)
            fold.record_step(Step(key, ps.attempt, StepOutcome.CANCELLED, reason=CANCELLED))
        elif ps.status is _N.PENDING:
            fold.phase_status(key, _N.CANCELLED)
    fold.update(queued=None, queued_new_visit=False, lanes=(), interrupting=False)
    fold.finish(_R.CANCELLED, CANCELLED)
    return fold.result()


def on_timed_out(state: RunState) -> Result:
    """Past ``limits.timeout``: the attempts under way fail ``timeout`` and so does the run (nothing is left to
    retry: the deadline is measured from the run's start and never moves). A paused run (approval, CI, an
    interrupt) is failed as it is taken up again; delivering the finished work is not cut off."""
    started = state.status in (_R.RUNNING, _R.PAUSED)
    if not started or state.delivery is not None:
        return state, ()
    fold = Fold(state)
    if state.status is _R.PAUSED:  # SPEC §5 has no paused -> failed: the run is taken up, then fails
        fold.run_status(_R.RUNNING, None)
    for key in state.workflow.phase_keys:
        ps = state.phase(key)
        if ps.status is _N.RUNNING:
            fold.phase_status(key, _N.FAILED)
            fold.record_step(Step(key, ps.attempt, StepOutcome.FAILED, reason=TIMEOUT))
    fold.update(queued=None, queued_new_visit=False, lanes=(), interrupting=False)
    fold.finish(_R.FAILED, TIMEOUT)
    return fold.result()
