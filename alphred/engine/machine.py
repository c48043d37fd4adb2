"""The pure run state machine: ``transition(state, event) -> (state, effects)`` (SPEC §2, §5).

No I/O and no clock: the runtime persists the returned effects in order, then acts on them. Events for
an attempt that is not the one running are stale and change nothing; so is every event on a completed or
cancelled run, and every event but ``RetryRun`` on a failed one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from alphred.engine.events import (
    ApprovalGiven,
    ApprovalRequested,
    AwaitApproval,
    CancelRequested,
    Deliver,
    DeliveryDone,
    DeliveryFailed,
    Effect,
    Event,
    MergeConflicted,
    MergeDone,
    PauseRequested,
    PhaseCompleted,
    PhaseFailed,
    PhaseInterrupted,
    RecordPullRequest,
    RecordRouting,
    RecordStep,
    Resume,
    RetryRun,
    RunFinished,
    RunStarted,
    SetPhaseStatus,
    SetRunStatus,
    StartPhase,
)
from alphred.engine.routing import NO_ROUTE, guard_context, ordered_transitions, select_transition
from alphred.engine.state import Report, RunState, Step, StepOutcome
from alphred.engine.statuses import NodeStatus, RunStatus
from alphred.workflow.model import APPROVAL_DECISIONS, END, FAIL, RESERVED_TARGETS, Phase, PhaseType

# Reasons the machine gives (run ``reason`` or failed step ``reason``).
MAX_STEPS = "max_steps"
MAX_VISITS = "max_visits"
BUDGET_EXHAUSTED = "budget_exhausted"
RETRIES_EXHAUSTED = "retries_exhausted"
FAIL_TARGET = "fail_target"
AWAITING_APPROVAL = "awaiting_approval"
PAUSED = "paused"
INTERRUPTED = "interrupted"
CANCELLED = "cancelled"
MISSING_DECISION = "missing_decision"
INVALID_DECISION = "invalid_decision"
DELIVERY_FAILED = "delivery_failed"
DELIVERY_STEPS = ("push", "open")
"""Delivery of a run with a pull request, in order: push the branch, then open (or find) its pull request."""
CHECKS_FAILED = "checks_failed"  # an attempt's checks failed (SPEC §9); also the run's reason once retries are out

Result = tuple[RunState, tuple[Effect, ...]]

_N = NodeStatus
_R = RunStatus


class _Tx:
    """Accumulates one transition: the evolving state and the effects, in order."""

    def __init__(self, state: RunState) -> None:
        self.state = state
        self.effects: list[Effect] = []

    def result(self) -> Result:
        return self.state, tuple(self.effects)

    def update(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

    def run_status(self, status: RunStatus, reason: str | None) -> None:
        self.update(status=status, reason=reason)
        self.effects.append(SetRunStatus(status, reason))

    def phase_status(self, key: str, status: NodeStatus, **changes: Any) -> None:
        self.state = self.state.with_phase(key, status=status, **changes)
        ps = self.state.phase(key)
        values = {
            "visits": ps.visits, "decision": ps.decision, "exit_code": ps.exit_code,
            "tokens": ps.tokens, "cost_usd": ps.cost_usd,
        }  # fmt: skip
        self.effects.append(SetPhaseStatus(key, status, ps.attempt, values))

    def record_step(self, step: Step) -> None:
        self.update(history=(*self.state.history, step))
        self.effects.append(
            RecordStep(step.phase, step.attempt, step.outcome, step.decision, step.next, step.reason, step.error_code)
        )

    def add_usage(self, key: str, tokens: int, cost_usd: float) -> None:
        ps = self.state.phase(key)
        self.state = self.state.with_phase(key, tokens=ps.tokens + tokens, cost_usd=ps.cost_usd + cost_usd)
        self.update(tokens=self.state.tokens + tokens, cost_usd=self.state.cost_usd + cost_usd)

    def finish(self, status: RunStatus, reason: str | None) -> None:
        if status is _R.COMPLETED and self.state.deliver and self.state.pr_url is None:
            self.update(current=None, pause_requested=False, delivery=DELIVERY_STEPS[0], finish_reason=reason)
            self.effects.append(Deliver(DELIVERY_STEPS[0]))  # completes once delivered
            return
        self.run_status(status, reason)
        self.update(current=None, pause_requested=False)
        self.effects.append(RunFinished(status, reason))


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
            return _on_resume(state)
        case CancelRequested():
            return _on_cancel(state)
        case RetryRun():
            return _on_retry(state)
        case DeliveryDone():
            return _on_delivery_done(state, event)
        case DeliveryFailed():
            return _on_delivery_failed(state, event)
        case MergeDone():
            from alphred.engine import fan_out

            return fan_out.on_merge_done(state, event)
        case MergeConflicted():
            from alphred.engine import fan_out

            return fan_out.on_merge_conflicted(state, event)
    raise TypeError(f"not an engine event: {event!r}")


def can_retry(state: RunState) -> bool:
    """True when ``RetryRun`` would restart something (a failed run with a phase left to run)."""
    queued = state.queued is not None or any(lane.queued is not None for lane in state.lanes)
    return state.status is _R.FAILED and (queued or state.delivery is not None)


def can_resume(state: RunState) -> bool:
    """True when ``Resume`` would continue the run (paused, not waiting for approval)."""
    queued = state.queued is not None or any(lane.queued is not None for lane in state.lanes)
    return state.status is _R.PAUSED and state.reason != AWAITING_APPROVAL and queued


def _lane_head(state: RunState, phase: str) -> str | None:
    """The lane (branch head) running ``phase``, or None when it runs on the run branch."""
    return next((lane.head for lane in state.lanes if lane.current == phase), None)


def _is_running_attempt(state: RunState, phase: str, attempt: int) -> bool:
    if state.status is not _R.RUNNING or (state.current != phase and _lane_head(state, phase) is None):
        return False
    ps = state.phase(phase)
    return ps.status is _N.RUNNING and ps.attempt == attempt


def _on_run_started(state: RunState) -> Result:
    if state.status is not _R.PENDING:
        return state, ()
    tx = _Tx(state)
    tx.run_status(_R.RUNNING, None)
    _start(tx, state.workflow.start, new_visit=True)
    return tx.result()


def _on_completed(state: RunState, event: PhaseCompleted) -> Result:
    if not _is_running_attempt(state, event.phase, event.attempt):
        return state, ()
    tx = _Tx(state)
    tx.add_usage(event.phase, event.tokens, event.cost_usd)
    phase = state.workflow.phase(event.phase)
    problem = decision_problem(phase, event.decision)
    head = _lane_head(state, event.phase)
    if problem is not None and head is not None:
        from alphred.engine import fan_out

        fan_out.fail_in_lane(tx, head, event.phase, event.attempt, problem, True, None)
    elif problem is not None:
        _fail_attempt(tx, event.phase, event.attempt, problem, True, None, event.decision)
    else:
        decision = None if phase.type is PhaseType.COMMAND else event.decision
        tx.state = tx.state.with_phase(event.phase, checks=dict(event.checks))
        _complete(tx, event.phase, event.attempt, decision, event.report, event.exit_code)
    return tx.result()


def _on_failed(state: RunState, event: PhaseFailed) -> Result:
    if not _is_running_attempt(state, event.phase, event.attempt):
        return state, ()
    tx = _Tx(state)
    tx.add_usage(event.phase, event.tokens, event.cost_usd)
    head = _lane_head(state, event.phase)
    if head is not None:
        from alphred.engine import fan_out

        fan_out.fail_in_lane(tx, head, event.phase, event.attempt, event.reason, event.retryable, event.error_code)
        return tx.result()
    _fail_attempt(tx, event.phase, event.attempt, event.reason, event.retryable, event.error_code, None)
    return tx.result()


def _on_interrupted(state: RunState, event: PhaseInterrupted) -> Result:
    if not _is_running_attempt(state, event.phase, event.attempt):
        return state, ()
    tx = _Tx(state)
    head = _lane_head(state, event.phase)
    if head is not None:
        from alphred.engine import fan_out

        fan_out.interrupt_in_lane(tx, head, event.phase, event.attempt)
        return tx.result()
    tx.phase_status(event.phase, _N.PENDING)
    tx.record_step(Step(event.phase, event.attempt, StepOutcome.INTERRUPTED, reason=INTERRUPTED))
    tx.update(current=None, queued=event.phase, queued_new_visit=False, pause_requested=False)
    tx.run_status(_R.PAUSED, INTERRUPTED)
    return tx.result()


def _on_approval_requested(state: RunState, event: ApprovalRequested) -> Result:
    if not _is_running_attempt(state, event.phase, event.attempt):
        return state, ()
    if state.workflow.phase(event.phase).type is not PhaseType.APPROVAL:
        return state, ()
    tx = _Tx(state)
    tx.run_status(_R.PAUSED, AWAITING_APPROVAL)
    tx.effects.append(AwaitApproval(event.phase, event.attempt))
    return tx.result()


def _on_approval_given(state: RunState, event: ApprovalGiven) -> Result:
    waiting = state.status is _R.PAUSED and state.reason == AWAITING_APPROVAL
    if not waiting or state.current != event.phase or event.decision not in APPROVAL_DECISIONS:
        return state, ()
    tx = _Tx(state)
    tx.run_status(_R.RUNNING, None)
    attempt = state.phase(event.phase).attempt
    _complete(tx, event.phase, attempt, event.decision, {"comment": event.comment}, None)
    return tx.result()


def _on_resume(state: RunState) -> Result:
    if state.status is _R.RUNNING and state.current is None and state.delivery is not None:
        return state, (Deliver(state.delivery),)  # taken over mid-delivery: deliver, redo nothing else
    from alphred.engine import fan_out

    redo = fan_out.merge_to_redo(state)
    if redo is not None:
        return state, (redo,)  # taken over mid-merge: ask for the merge again
    if not can_resume(state):
        return state, ()
    tx = _Tx(state)
    if state.lanes:
        fan_out.resume_lanes(tx)
        return tx.result()
    assert state.queued is not None
    tx.run_status(_R.RUNNING, None)
    _start(tx, state.queued, state.queued_new_visit)
    return tx.result()


def _on_retry(state: RunState) -> Result:
    if not can_retry(state):
        return state, ()
    tx = _Tx(state)
    if state.delivery is None and state.lanes:  # a branch failed: every branch goes on where it stopped
        from alphred.engine import fan_out

        fan_out.resume_lanes(tx)
        return tx.result()
    tx.run_status(_R.RUNNING, None)
    if state.delivery is not None:  # only the delivery failed: deliver again from the failed step
        tx.effects.append(Deliver(state.delivery))
        return tx.result()
    assert state.queued is not None
    if not state.queued_new_visit:
        tx.state = tx.state.with_phase(state.queued, consecutive_failures=0)
    _start(tx, state.queued, state.queued_new_visit)
    return tx.result()


def _on_delivery_done(state: RunState, event: DeliveryDone) -> Result:
    if state.status is not _R.RUNNING or state.delivery != event.step:
        return state, ()
    tx = _Tx(state)
    index = DELIVERY_STEPS.index(event.step)
    if index + 1 < len(DELIVERY_STEPS):
        tx.update(delivery=DELIVERY_STEPS[index + 1])
        tx.effects.append(Deliver(DELIVERY_STEPS[index + 1]))
        return tx.result()
    tx.update(delivery=None, pr_url=event.url or "")
    if event.url:
        tx.effects.append(RecordPullRequest(event.url))
    tx.finish(_R.COMPLETED, state.finish_reason)
    return tx.result()


def _on_delivery_failed(state: RunState, event: DeliveryFailed) -> Result:
    if state.status is not _R.RUNNING or state.delivery != event.step:
        return state, ()
    tx = _Tx(state)
    tx.finish(_R.FAILED, DELIVERY_FAILED)
    return tx.result()


def _on_cancel(state: RunState) -> Result:
    tx = _Tx(state)
    for key in state.workflow.phase_keys:
        ps = state.phase(key)
        if ps.status is _N.RUNNING:
            tx.phase_status(key, _N.CANCELLED)
            tx.record_step(Step(key, ps.attempt, StepOutcome.CANCELLED, reason=CANCELLED))
        elif ps.status is _N.PENDING:
            tx.phase_status(key, _N.CANCELLED)
    tx.update(queued=None, queued_new_visit=False, lanes=(), interrupting=False)
    tx.finish(_R.CANCELLED, CANCELLED)
    return tx.result()


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


def _cap_reason(state: RunState, key: str, new_visit: bool) -> str | None:
    limits = state.workflow.limits
    if state.steps + 1 > limits.max_steps:
        return MAX_STEPS
    if new_visit and state.phase(key).entries + 1 > state.workflow.phase(key).max_visits:
        return MAX_VISITS
    if limits.max_tokens is not None and state.tokens >= limits.max_tokens:
        return BUDGET_EXHAUSTED
    if limits.max_cost_usd is not None and state.cost_usd >= limits.max_cost_usd:
        return BUDGET_EXHAUSTED
    return None


def _start(tx: _Tx, key: str, new_visit: bool) -> None:
    """Start a new attempt of ``key`` (pending or failed), unless a hard cap forbids it."""
    reason = _cap_reason(tx.state, key, new_visit)
    if reason is not None:
        tx.update(queued=key, queued_new_visit=new_visit)
        tx.finish(_R.FAILED, reason)
        return
    ps = tx.state.phase(key)
    attempt = ps.attempt + 1
    entries = ps.entries + 1 if new_visit else ps.entries
    failures = 0 if new_visit else ps.consecutive_failures
    tx.phase_status(key, _N.RUNNING, attempt=attempt, entries=entries, consecutive_failures=failures)
    tx.update(steps=tx.state.steps + 1, current=key, queued=None, queued_new_visit=False)
    tx.effects.append(StartPhase(key, attempt, entries))


def _fail_attempt(
    tx: _Tx,
    key: str,
    attempt: int,
    reason: str,
    retryable: bool,
    error_code: str | None,
    decision: str | None,
) -> None:
    failures = tx.state.phase(key).consecutive_failures + 1
    tx.phase_status(key, _N.FAILED, consecutive_failures=failures)
    tx.record_step(Step(key, attempt, StepOutcome.FAILED, decision, None, reason, error_code))
    tx.update(current=None, queued=key, queued_new_visit=False)
    if not retryable:
        tx.finish(_R.FAILED, reason)
    elif failures > tx.state.workflow.phase(key).max_retries:
        tx.finish(_R.FAILED, CHECKS_FAILED if reason == CHECKS_FAILED else RETRIES_EXHAUSTED)
    else:
        _start(tx, key, new_visit=False)


def _complete(tx: _Tx, key: str, attempt: int, decision: str | None, report: Report, exit_code: int | None) -> None:
    ps = tx.state.phase(key)
    tx.phase_status(
        key,
        _N.COMPLETED,
        visits=ps.visits + 1,
        consecutive_failures=0,
        decision=decision,
        report=report,
        exit_code=exit_code,
    )
    from alphred.engine import fan_out

    head = _lane_head(tx.state, key)
    if head is not None:
        fan_out.complete_in_lane(tx, head, key, attempt, decision)
        return
    if fan_out.is_resolving(tx.state, key):
        fan_out.resolved(tx, key, attempt, decision)
        return
    tx.update(current=None)
    _route(tx, key, attempt, decision)


def _route(tx: _Tx, key: str, attempt: int, decision: str | None) -> None:
    workflow = tx.state.workflow
    phase = workflow.phase(key)
    if not phase.transitions:
        tx.record_step(Step(key, attempt, StepOutcome.COMPLETED, decision))
        tx.finish(_R.COMPLETED, None)
        return
    chosen = select_transition(phase, guard_context(tx.state, workflow, key), tx.state.edges)
    if tx.state.merge is not None and tx.state.merge.join == key:
        tx.update(merge=None)  # the join has read merge.status
    if chosen is not None and chosen.fan_out:
        from alphred.engine import fan_out

        fan_out.fan_out(tx, key, attempt, decision, chosen)
        return
    target = chosen.target if chosen is not None else NO_ROUTE
    tx.record_step(Step(key, attempt, StepOutcome.COMPLETED, decision, target))
    if chosen is None:
        tx.effects.append(RecordRouting(key, attempt, decision, NO_ROUTE, None, NO_ROUTE))
    else:
        tx.effects.append(RecordRouting(key, attempt, decision, target, chosen.priority))
        edge = (key, chosen.priority)
        tx.update(edges={**tx.state.edges, edge: tx.state.edges.get(edge, 0) + 1})
    _skip_unchosen(tx, phase, target)
    if chosen is None:
        tx.finish(_R.COMPLETED, NO_ROUTE)
    elif target == END:
        tx.finish(_R.COMPLETED, None)
    elif target == FAIL:
        tx.finish(_R.FAILED, FAIL_TARGET)
    else:
        _enter(tx, target, source=key)


def _skip_unchosen(tx: _Tx, phase: Phase, chosen: str) -> None:
    """Mark the other targets of ``phase`` that are pending and never started as skipped."""
    for candidate in ordered_transitions(phase):
        target = candidate.target
        if target in RESERVED_TARGETS or target in (chosen, phase.key):
            continue
        ps = tx.state.phase(target)
        if ps.status is _N.PENDING and ps.attempt == 0:
            tx.phase_status(target, _N.SKIPPED)


def _enter(tx: _Tx, key: str, source: str) -> None:
    """Route into ``key`` as a new visit: re-queue it, then start it (or queue it when pausing)."""
    if tx.state.phase(key).status in (_N.COMPLETED, _N.SKIPPED):
        tx.phase_status(key, _N.PENDING)
    tx.state = tx.state.with_phase(key, entered_from=source)
    if tx.state.pause_requested:
        tx.update(queued=key, queued_new_visit=True, pause_requested=False)
        tx.run_status(_R.PAUSED, PAUSED)
        return
    _start(tx, key, new_visit=True)
