"""The pure run state machine: ``transition(state, event) -> (state, effects)`` (SPEC §2, §5).

Here the attempts' outcomes (completed, failed, interrupted, an approval, a CI wait) and the routing after
them; the run's own events (resume, retry, cancel, timeout, the delivery's steps) are ``run_control``'s.

No I/O and no clock: the runtime persists the returned effects in order, then acts on them. Events for
an attempt that is not the one running are stale and change nothing; so is every event on a completed or
cancelled run, and every event but ``RetryRun`` on a failed one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from alphred.engine.events import (
    ApprovalGiven,
    ApprovalRequested,
    AwaitApproval,
    AwaitCi,
    CancelRequested,
    CiWaiting,
    DeliveryDone,
    DeliveryFailed,
    Event,
    MergeConflicted,
    MergeDone,
    PauseRequested,
    PhaseCompleted,
    PhaseFailed,
    PhaseInterrupted,
    RecordPullRequest,
    RecordRouting,
    Resume,
    RetryRun,
    RunStarted,
    TimedOut,
)
from alphred.engine.fan_out import (
    complete_in_lane,
    fail_in_lane,
    fail_over_in_lane,
    fan_out,
    interrupt_in_lane,
)
from alphred.engine.fold import Fold, Result, enter, fail_over, has_fallback, skip_unchosen, start
from alphred.engine.joins import is_resolving, on_merge_conflicted, on_merge_done, resolved
from alphred.engine.reasons import (
    AWAITING_APPROVAL,
    CHECKS_FAILED,
    FAIL_TARGET,
    INTERRUPTED,
    INVALID_DECISION,
    MISSING_DECISION,
    OUTPUT_INVALID,
    RETRIES_EXHAUSTED,
    STALLED,
    USAGE_LIMIT,
    WAITING_FOR_CI,
)
from alphred.engine.routing import NO_ROUTE, choose_transition
from alphred.engine.run_control import (
    on_cancel,
    on_delivery_done,
    on_delivery_failed,
    on_resume,
    on_retry,
    on_timed_out,
)
from alphred.engine.state import Report, RunState, Step, StepOutcome
from alphred.engine.statuses import NodeStatus, RunStatus
from alphred.workflow.model import APPROVAL_DECISIONS, END, FAIL, Phase, PhaseType

_N = NodeStatus
_R = RunStatus


def transition(state: RunState, event: Event) -> Result:
    """Fold ``event`` into ``state``; return the new state and the effects the runtime must carry out."""
    if state.status in (_R.COMPLETED, _R.CANCELLED):
        return state, ()
    if state.status is _R.FAILED and not isinstance(event, RetryRun):
        return state, ()
    match event:
        case RunStarted():
            return _on_run_started(state)
        case PhaseCompleted():
            return _on_completed(state, event)
        case PhaseFailed():
            return _on_failed(state, event)
        case PhaseInterrupted():
            return _on_interrupted(state, event)
        case ApprovalRequested():
            return _on_approval_requested(state, event)
        case ApprovalGiven():
            return _on_approval_given(state, event)
        case PauseRequested():
            if state.status in (_R.PENDING, _R.RUNNING) and not state.pause_requested:
                return replace(state, pause_requested=True), ()
            return state, ()
        case Resume():
            return on_resume(state)
        case CancelRequested():
            return on_cancel(state)
        case TimedOut():
            return on_timed_out(state)
        case RetryRun():
            return on_retry(state)
        case DeliveryDone():
            return on_delivery_done(state, event)
        case CiWaiting():
            return _on_ci_waiting(state, event)
        case DeliveryFailed():
            return on_delivery_failed(state, event)
        case MergeDone():
            return on_merge_done(state, event)
        case MergeConflicted():
            return on_merge_conflicted(state, event)
    raise TypeError(f"not an engine event: {event!r}")


def _lane_head(state: RunState, phase: str) -> str | None:
    """The lane (branch head) running ``phase``, or None when it runs on the run branch."""
    if not state.lanes:  # no parallel branch (most transitions): no generator to make
        return None
    return next((lane.head for lane in state.lanes if lane.current == phase), None)


def _is_running_attempt(state: RunState, phase: str, attempt: int) -> bool:
    if state.status is not _R.RUNNING or (state.current != phase and _lane_head(state, phase) is None):
        return False
    ps = state.phase(phase)
    return ps.status is _N.RUNNING and ps.attempt == attempt


def _on_run_started(state: RunState) -> Result:
    if state.status is not _R.PENDING:
        return state, ()
    fold = Fold(state)
    fold.run_status(_R.RUNNING, None)
    start(fold, state.workflow.start, new_visit=True)
    return fold.result()


def _on_completed(state: RunState, event: PhaseCompleted) -> Result:
    if not _is_running_attempt(state, event.phase, event.attempt):
        return state, ()
    fold = Fold(state)
    fold.add_usage(event.phase, event.tokens, event.cost_usd, event.child_steps)
    phase = state.workflow.phase(event.phase)
    problem = decision_problem(phase, event.decision)
    head = _lane_head(state, event.phase)
    if problem is not None and head is not None:
        fail_in_lane(fold, head, event.phase, event.attempt, problem, True, None)
    elif problem is not None:
        _fail_attempt(fold, event.phase, event.attempt, problem, True, None, event.decision)
    else:
        decision = None if phase.type is PhaseType.COMMAND else event.decision
        if event.checks or fold.state.phase(event.phase).checks:  # no checks now nor before: nothing to change
            fold.change_phase(event.phase, checks=dict(event.checks))
        _complete(fold, event.phase, event.attempt, decision, event.report, event.exit_code, event.tree)
        url = event.report.get("url") if isinstance(event.report, Mapping) else None
        if phase.type is PhaseType.PULL_REQUEST and isinstance(url, str) and url:
            fold.effects.append(RecordPullRequest(url))  # the run's pull request, shown like a delivered one
    return fold.result()


def _on_failed(state: RunState, event: PhaseFailed) -> Result:
    if not _is_running_attempt(state, event.phase, event.attempt):
        return state, ()
    fold = Fold(state)
    fold.add_usage(event.phase, event.tokens, event.cost_usd, event.child_steps)
    if event.wake_at is not None:
        _usage_limited(fold, event, event.wake_at)
        return fold.result()
    head = _lane_head(state, event.phase)
    if head is not None:
        fail_in_lane(fold, head, event.phase, event.attempt, event.reason, event.retryable, event.error_code)
        return fold.result()
    _fail_attempt(fold, event.phase, event.attempt, event.reason, event.retryable, event.error_code, None)
    return fold.result()


def _usage_limited(fold: Fold, event: PhaseFailed, wake_at: float) -> None:
    """A usage limit (SPEC §15): the attempt ends ``interrupted`` and the run waits until ``wake_at``; past
    ``limits.max_wait`` of waiting in all, the run fails ``usage_limit``."""
    state = fold.state
    key, attempt, code = event.phase, event.attempt, event.error_code
    head = _lane_head(state, key)
    if head is not None and fail_over_in_lane(fold, head, key, attempt, code):
        return  # a fallback takes over in the branch at once: nothing to wait for
    if head is None and has_fallback(state, key):
        fold.phase_status(key, _N.PENDING)  # a fallback takes over at once: nothing to wait for
        fold.record_step(Step(key, attempt, StepOutcome.INTERRUPTED, reason=USAGE_LIMIT, error_code=code))
        fail_over(fold, key, USAGE_LIMIT, False)
        return
    if state.waited + event.wait_seconds > state.workflow.limits.max_wait:
        if head is not None:
            fail_in_lane(fold, head, key, attempt, USAGE_LIMIT, False, code)
        else:
            _fail_attempt(fold, key, attempt, USAGE_LIMIT, False, code, None)
        return
    if state.wake_at is None:
        fold.update(wake_at=wake_at, waited=state.waited + event.wait_seconds)
    else:  # another branch's limit while the run stops its branches: it waits for the later reset
        later = max(wake_at, state.wake_at)
        fold.update(wake_at=later, waited=state.waited + later - state.wake_at)
    if head is not None:
        interrupt_in_lane(fold, head, key, attempt, USAGE_LIMIT, code)
        return
    fold.phase_status(key, _N.PENDING)
    fold.record_step(Step(key, attempt, StepOutcome.INTERRUPTED, reason=USAGE_LIMIT, error_code=code))
    fold.update(current=None, queued=key, queued_new_visit=False, pause_requested=False)
    fold.run_status(_R.PAUSED, USAGE_LIMIT)


def _on_interrupted(state: RunState, event: PhaseInterrupted) -> Result:
    if not _is_running_attempt(state, event.phase, event.attempt):
        return state, ()
    fold = Fold(state)
    head = _lane_head(state, event.phase)
    if head is not None:
        interrupt_in_lane(fold, head, event.phase, event.attempt)
        return fold.result()
    fold.phase_status(event.phase, _N.PENDING)
    fold.record_step(Step(event.phase, event.attempt, StepOutcome.INTERRUPTED, reason=INTERRUPTED))
    fold.update(current=None, queued=event.phase, queued_new_visit=False, pause_requested=False)
    fold.run_status(_R.PAUSED, INTERRUPTED)
    return fold.result()


def _on_approval_requested(state: RunState, event: ApprovalRequested) -> Result:
    if not _is_running_attempt(state, event.phase, event.attempt):
        return state, ()
    if state.workflow.phase(event.phase).type is not PhaseType.APPROVAL:
        return state, ()
    fold = Fold(state)
    fold.run_status(_R.PAUSED, AWAITING_APPROVAL)
    fold.effects.append(AwaitApproval(event.phase, event.attempt))
    return fold.result()


def _on_ci_waiting(state: RunState, event: CiWaiting) -> Result:
    """The checks still run: the run pauses (``waiting_for_ci``), its phase stays on this attempt."""
    if not _is_running_attempt(state, event.phase, event.attempt) or _lane_head(state, event.phase) is not None:
        return state, ()
    if state.workflow.phase(event.phase).type is not PhaseType.CI:
        return state, ()
    fold = Fold(state)
    fold.update(pause_requested=False)
    fold.run_status(_R.PAUSED, WAITING_FOR_CI)
    fold.effects.append(AwaitCi(event.phase, event.attempt, event.summary))
    return fold.result()


def _on_approval_given(state: RunState, event: ApprovalGiven) -> Result:
    waiting = state.status is _R.PAUSED and state.reason == AWAITING_APPROVAL
    if not waiting or state.current != event.phase or event.decision not in APPROVAL_DECISIONS:
        return state, ()
    fold = Fold(state)
    fold.run_status(_R.RUNNING, None)
    attempt = state.phase(event.phase).attempt
    _complete(fold, event.phase, attempt, event.decision, {"comment": event.comment}, None)
    return fold.result()


def decision_problem(phase: Phase, decision: str | None) -> str | None:
    """Return why ``decision`` cannot complete ``phase`` (missing/invalid_decision), or None when it can."""
    if phase.type is PhaseType.COMMAND:
        return None
    if phase.type is PhaseType.APPROVAL:
        if decision is None:
            return MISSING_DECISION
        return None if decision in APPROVAL_DECISIONS else INVALID_DECISION
    if decision is None:
        return MISSING_DECISION if phase.needs_decision else None
    return None if decision in phase.decisions else INVALID_DECISION


def _fail_attempt(
    fold: Fold,
    key: str,
    attempt: int,
    reason: str,
    retryable: bool,
    error_code: str | None,
    decision: str | None,
) -> None:
    failures = fold.state.phase(key).consecutive_failures + 1
    fold.phase_status(key, _N.FAILED, consecutive_failures=failures)
    fold.record_step(Step(key, attempt, StepOutcome.FAILED, decision, None, reason, error_code))
    fold.update(current=None, queued=key, queued_new_visit=False)
    exhausted = retryable and failures > fold.state.workflow.phase(key).max_retries
    if fail_over(fold, key, reason, exhausted):
        return
    if not retryable:
        fold.finish(_R.FAILED, reason)
    elif failures > fold.state.workflow.phase(key).max_retries:
        fold.finish(_R.FAILED, reason if reason in (CHECKS_FAILED, OUTPUT_INVALID) else RETRIES_EXHAUSTED)
    else:
        start(fold, key, new_visit=False)


def _complete(
    fold: Fold,
    key: str,
    attempt: int,
    decision: str | None,
    report: Report,
    exit_code: int | None,
    tree: str | None = None,
) -> None:
    ps = fold.state.phase(key)
    stalled = tree is not None and ps.visits > 0 and tree == ps.tree and report == ps.report
    fold.phase_status(
        key,
        _N.COMPLETED,
        visits=ps.visits + 1,
        consecutive_failures=0,
        decision=decision,
        report=report,
        exit_code=exit_code,
        tree=tree,
        stalls=ps.stalls + 1 if stalled else 0,
    )
    head = _lane_head(fold.state, key)
    if head is not None:  # a stalled loop in a branch ends the branch there
        complete_in_lane(fold, head, key, attempt, decision)
        return
    if fold.state.phase(key).stalls >= fold.state.workflow.limits.max_stalls:
        fold.update(current=None)  # the loop changes nothing: stop before it spends the budget (SPEC §15)
        fold.record_step(Step(key, attempt, StepOutcome.COMPLETED, decision, None, STALLED))
        fold.finish(_R.FAILED, STALLED)
        return
    if is_resolving(fold.state, key):
        resolved(fold, key, attempt, decision)
        return
    fold.update(current=None)
    _route(fold, key, attempt, decision)


def _route(fold: Fold, key: str, attempt: int, decision: str | None) -> None:
    workflow = fold.state.workflow
    phase = workflow.phase(key)
    if not phase.transitions:
        fold.record_step(Step(key, attempt, StepOutcome.COMPLETED, decision))
        fold.finish(_R.COMPLETED, None)
        return
    chosen, explanation = choose_transition(fold.state, workflow, key)
    if fold.state.merge is not None and fold.state.merge.join == key:
        fold.update(merge=None)  # the join has read merge.status
    if chosen is not None and chosen.fan_out:
        fan_out(fold, key, attempt, decision, chosen, explanation)
        return
    target = chosen.target if chosen is not None else NO_ROUTE
    fold.record_step(Step(key, attempt, StepOutcome.COMPLETED, decision, target))
    if chosen is None:
        fold.effects.append(RecordRouting(key, attempt, decision, NO_ROUTE, None, NO_ROUTE, explanation=explanation))
    else:
        fold.effects.append(RecordRouting(key, attempt, decision, target, chosen.priority, explanation=explanation))
        fold.count_edge(key, chosen.priority)
    skip_unchosen(fold, phase, target)
    if chosen is None:
        fold.finish(_R.COMPLETED, NO_ROUTE)
    elif target == END:
        fold.finish(_R.COMPLETED, None)
    elif target == FAIL:
        fold.finish(_R.FAILED, FAIL_TARGET)
    else:
        enter(fold, target, source=key)
