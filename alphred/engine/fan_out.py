"""Parallel branches in the pure machine (SPEC §8): lanes, ``max_parallel``, joins and their merges.

A ``Lane`` is the engine's record of one branch of the active fan-out (its head, the phase running in it,
the one waiting); effects name the branch itself (``StartPhase.branch``...). A fan-out taken on the run
branch replaces the run's single running phase by one ``Lane`` per branch (in the order the fan-out lists
them). Each lane runs its phases one after another; at most
``limits.max_parallel`` attempts run at the same moment, the others wait ``queued``. A lane that routes to
the join has arrived: ``join: all`` merges once every lane has, ``join: any`` at the first (the others'
running attempts are stopped and recorded ``cancelled``; their phases go back to ``pending``). A lane that
fails (no retry left, ``$fail``, a hard cap, no route) fails the run at once: every other running attempt
is stopped and recorded ``cancelled``; unless it was ``$fail`` or no route, the lanes stay, each with the
phase it runs next, so ``RetryRun`` goes on with every branch where it stopped. The merges are effects
(``MergeBranch``, ``joins.py``) answered by ``MergeDone`` or ``MergeConflicted``; a conflict runs the join's
``on_conflict`` phase on the run branch, or fails the run with ``merge_conflict``. Pause and interruption
wait until no lane runs an attempt.

SPEC §13: a ``for_each`` fan-out gives each item of its list a lane whose phases are the item's instances
``<phase>-<index>`` (the item stored with the lane); a guarded branch whose guard is false is a ``skipped``
lane; under ``join: all_done`` a lane that fails is marked ``failed`` and the others go on, and the merges
start once every lane has ended. ``RunState.branches`` (``branches.*``) is set when the merges start.
"""

from __future__ import annotations

from dataclasses import replace

from alphred.engine.events import (
    AddPhase,
    RecordRouting,
    StartPhase,
    StopPhase,
)
from alphred.engine.fold import (
    Fold,
    cap_reason,
    claim_attempt,
    has_fallback,
    next_provider,
    skip_unchosen,
)
from alphred.engine.joins import begin_merge, is_resolving
from alphred.engine.reasons import (
    CANCELLED,
    FAIL_TARGET,
    INTERRUPTED,
    NOT_A_LIST,
    PAUSED,
    RETRIES_EXHAUSTED,
    STALLED,
    TOO_MANY_ITEMS,
    USAGE_LIMIT,
)
from alphred.engine.routing import NO_ROUTE, Explanation, choose_transition, guard_context
from alphred.engine.state import Lane, PhaseState, RunState, Step, StepOutcome
from alphred.engine.statuses import NodeStatus, RunStatus
from alphred.guards import evaluate_guard, resolve_path
from alphred.workflow.model import END, FAIL, RESERVED_TARGETS, Transition, base_key, instance_key

_N = NodeStatus
_R = RunStatus


def lane_of(state: RunState, phase: str) -> Lane | None:
    """The lane whose running or queued phase is ``phase`` (None: not in a lane)."""
    return next((lane for lane in state.lanes if phase in (lane.current, lane.queued)), None)


def running_count(state: RunState) -> int:
    """How many lanes run an attempt right now."""
    return sum(1 for lane in state.lanes if lane.current is not None)


def _lane(fold: Fold, head: str) -> Lane:
    return next(lane for lane in fold.state.lanes if lane.head == head)


def _set_lane(fold: Fold, lane: Lane) -> None:
    fold.update(lanes=tuple(lane if other.head == lane.head else other for other in fold.state.lanes))


def fan_out(
    fold: Fold, source: str, attempt: int, decision: str | None, chosen: Transition, explanation: Explanation = ()
) -> None:
    """Route ``source`` (on the run branch) through fan-out ``chosen``: one lane per branch (per item of a
    ``for_each``), then start them; a guarded branch whose guard is false is skipped (SPEC §8, §13)."""
    workflow = fold.state.workflow
    context = guard_context(fold.state, workflow, source)
    lanes: list[Lane] = []
    if chosen.for_each is not None:
        items = resolve_path(context, chosen.for_each)
        problem = NOT_A_LIST if not isinstance(items, list) else None
        if isinstance(items, list) and len(items) > workflow.limits.max_items:
            problem = TOO_MANY_ITEMS
        if problem is not None or not isinstance(items, list):
            fold.record_step(Step(source, attempt, StepOutcome.COMPLETED, decision, chosen.target, problem))
            routing = RecordRouting(
                source, attempt, decision, chosen.target, chosen.priority, problem, explanation=explanation
            )
            fold.effects.append(routing)
            fold.update(current=None, queued=None, queued_new_visit=False)
            fold.finish(_R.FAILED, problem)
            return
        for index, item in enumerate(items):
            lanes.append(Lane(instance_key(chosen.target, index), index=index, item=item))
    else:
        guards = chosen.branch_guards or (None,) * len(chosen.fan_out)
        for head, guard in zip(chosen.fan_out, guards, strict=True):
            lanes.append(Lane(head, skipped=guard is not None and not evaluate_guard(guard, context)))
    started = tuple(lane.head for lane in lanes if not lane.skipped)
    join = join_of(fold.state, source, chosen.priority)
    fold.record_step(Step(source, attempt, StepOutcome.COMPLETED, decision, ",".join(started) or join))
    first = started[0] if started else join
    routing = RecordRouting(source, attempt, decision, first, chosen.priority, fan_out=started, explanation=explanation)
    fold.effects.append(routing)
    fold.count_edge(source, chosen.priority)
    for candidate in workflow.phase(source).transitions:  # the targets not taken are skipped
        for target in candidate.targets:
            if target in (*chosen.fan_out, source, *RESERVED_TARGETS):
                continue
            ps = fold.state.phase(target)
            if ps.status is _N.PENDING and ps.attempt == 0:
                fold.phase_status(target, _N.SKIPPED)
    for position, lane in enumerate(lanes):
        if lane.skipped:
            if fold.state.phase(lane.head).status is _N.PENDING:
                fold.phase_status(lane.head, _N.SKIPPED)
            continue
        add_phase(fold, lane.head)
        if fold.state.phase(lane.head).status in (_N.COMPLETED, _N.SKIPPED):
            fold.phase_status(lane.head, _N.PENDING)
        fold.change_phase(lane.head, entered_from=source)
        lanes[position] = replace(lane, queued=lane.head, queued_new_visit=True)
    fold.update(current=None, lanes=tuple(lanes), merge=None, branches=None)
    if not started:  # an empty list, or every guarded branch skipped: straight to the join
        begin_merge(fold, join, (), source)
        return
    schedule(fold)


def join_of(state: RunState, source: str, priority: int) -> str:
    """The join phase of the fan-out ``(source, priority)`` (a valid workflow has exactly one)."""
    group = next(g for g in state.workflow.fan_outs if g.source == source and g.priority == priority)
    assert group.join is not None
    return group.join


def add_phase(fold: Fold, key: str) -> None:
    """Give a for_each item's phase ``<phase>-<index>`` its state and row, once (SPEC §13)."""
    if key in fold.state.phases:
        return
    fold.update(phases={**fold.state.phases, key: PhaseState()})
    fold.effects.append(AddPhase(key, base_key(key)))


def _join_mode(state: RunState, head: str) -> str | None:
    """The ``join:`` mode of the fan-out whose lane is ``head``."""
    for group in state.workflow.fan_outs:
        if group.branch_of(base_key(head)) is not None and group.join is not None:
            return state.workflow.phase(group.join).join
    return None


def schedule(fold: Fold) -> None:
    """Start queued lanes in fan-out order while ``max_parallel`` allows; pause once idle when asked."""
    if fold.state.status is not _R.RUNNING or not fold.state.lanes:
        return
    if fold.state.pause_requested or fold.state.interrupting:
        if running_count(fold.state) == 0:
            reason = PAUSED
            if fold.state.interrupting:  # a usage limit in a lane: the run waits for it (SPEC §15)
                reason = USAGE_LIMIT if fold.state.wake_at is not None else INTERRUPTED
            fold.update(pause_requested=False, interrupting=False)
            fold.run_status(_R.PAUSED, reason)
        return
    limit = fold.state.workflow.limits.max_parallel
    for head in [lane.head for lane in fold.state.lanes]:
        if running_count(fold.state) >= limit:
            return
        if _lane(fold, head).queued is not None:
            _start_in_lane(fold, head)
            if fold.state.status is not _R.RUNNING:
                return


def _start_in_lane(fold: Fold, head: str) -> None:
    lane = _lane(fold, head)
    key, new_visit = lane.queued, lane.queued_new_visit
    assert key is not None
    reason = cap_reason(fold.state, key, new_visit)
    if reason is not None:
        fail_run(fold, reason, retryable=True)
        return
    attempt, visit = claim_attempt(fold, key, new_visit)
    _set_lane(fold, replace(lane, current=key, queued=None, queued_new_visit=False))
    fold.effects.append(StartPhase(key, attempt, visit, branch=head))


def _stop_others(fold: Fold, keep: str | None, *, final: bool) -> None:
    """Stop every lane's running attempt but ``keep``'s (recorded cancelled); ``final``: the run ends."""
    for lane in fold.state.lanes:
        if lane.head == keep:
            continue
        if lane.current is not None:
            attempt = fold.state.phase(lane.current).attempt
            fold.phase_status(lane.current, _N.CANCELLED if final else _N.PENDING)
            fold.record_step(Step(lane.current, attempt, StepOutcome.CANCELLED, reason=CANCELLED, branch=lane.head))
            fold.effects.append(StopPhase(lane.current, attempt, lane.head))
        if final and lane.queued is not None and fold.state.phase(lane.queued).status is _N.PENDING:
            fold.phase_status(lane.queued, _N.CANCELLED)


def fail_run(fold: Fold, reason: str, *, retryable: bool = False) -> None:
    """A branch failed: stop the other lanes' attempts (recorded cancelled) and fail the run at once.

    ``retryable`` (a failed attempt, a cap): the lanes are kept, each with the phase it must run next
    (the failed one, a stopped one again), so ``RetryRun`` goes on with every branch where it stopped.
    """
    if not retryable:
        _stop_others(fold, None, final=True)
        fold.update(lanes=())
    else:
        _stop_others(fold, None, final=False)
        fold.update(
            lanes=tuple(
                replace(lane, current=None, queued=lane.current, queued_new_visit=False)
                if lane.current is not None
                else lane
                for lane in fold.state.lanes
            )
        )
    fold.update(queued=None, queued_new_visit=False, interrupting=False)
    fold.finish(_R.FAILED, reason)


def complete_in_lane(fold: Fold, head: str, key: str, attempt: int, decision: str | None) -> None:
    """Route ``key`` (just completed in lane ``head``) inside its branch, to the join, or fail the run; a loop in
    the branch that stalled ``limits.max_stalls`` times in a row ends the branch ``stalled`` (SPEC §15)."""
    lane = _lane(fold, head)
    _set_lane(fold, replace(lane, current=None))
    if fold.state.phase(key).stalls >= fold.state.workflow.limits.max_stalls:
        fold.record_step(Step(key, attempt, StepOutcome.COMPLETED, decision, None, STALLED, branch=head))
        _lane_failed(fold, head, STALLED)
        return
    workflow = fold.state.workflow
    phase = workflow.phase(key)
    chosen, explained = choose_transition(fold.state, workflow, key)
    target = chosen.target if chosen is not None else NO_ROUTE
    if lane.index is not None and target in workflow.phase_keys and workflow.phase(target).join is None:
        target = instance_key(target, lane.index)  # the item's own instance of the next phase
    fold.record_step(Step(key, attempt, StepOutcome.COMPLETED, decision, target, branch=head))
    if chosen is None:
        routing = RecordRouting(key, attempt, decision, NO_ROUTE, None, NO_ROUTE, branch=head, explanation=explained)
        fold.effects.append(routing)
        _lane_failed(fold, head, NO_ROUTE)
        return
    routing = RecordRouting(key, attempt, decision, target, chosen.priority, branch=head, explanation=explained)
    fold.effects.append(routing)
    fold.count_edge(key, chosen.priority)
    if lane.index is None:
        skip_unchosen(fold, phase, target)
    if target == FAIL:
        _lane_failed(fold, head, FAIL_TARGET)
    elif target == END:  # invalid inside a branch (validation says so); never completes the run from a lane
        _lane_failed(fold, head, NO_ROUTE)
    elif workflow.phase(target).join is not None:
        _arrive(fold, head, key, target)
    else:
        add_phase(fold, target)
        if fold.state.phase(target).status in (_N.COMPLETED, _N.SKIPPED):
            fold.phase_status(target, _N.PENDING)
        fold.change_phase(target, entered_from=key)
        _set_lane(fold, replace(_lane(fold, head), queued=target, queued_new_visit=True))
        schedule(fold)


def fail_in_lane(
    fold: Fold, head: str, key: str, attempt: int, reason: str, retryable: bool, error_code: str | None
) -> None:
    """An attempt in lane ``head`` failed: retry it in its lane, move it to its next fallback provider (SPEC
    §15, as on the run branch), or fail the run."""
    failures = fold.state.phase(key).consecutive_failures + 1
    fold.phase_status(key, _N.FAILED, consecutive_failures=failures)
    fold.record_step(Step(key, attempt, StepOutcome.FAILED, None, None, reason, error_code, branch=head))
    _set_lane(fold, replace(_lane(fold, head), current=None))
    exhausted = retryable and failures > fold.state.workflow.phase(key).max_retries
    if next_provider(fold, key, reason, exhausted):
        _set_lane(fold, replace(_lane(fold, head), queued=key, queued_new_visit=False))
        schedule(fold)
    elif not retryable or exhausted:
        if _join_mode(fold.state, head) == "all_done":
            _lane_failed(fold, head, reason)
            return
        _set_lane(fold, replace(_lane(fold, head), queued=key, queued_new_visit=False))  # what a retry runs
        fail_run(fold, reason if not retryable else RETRIES_EXHAUSTED, retryable=True)
    else:
        _set_lane(fold, replace(_lane(fold, head), queued=key, queued_new_visit=False))
        schedule(fold)


def fail_over_in_lane(fold: Fold, head: str, key: str, attempt: int, error_code: str | None) -> bool:
    """A usage limit in lane ``head`` where ``key`` has a fallback left: the attempt ends ``interrupted`` and the
    next one runs on that fallback at once, in its lane, nothing waited for (SPEC §15). False: no fallback left."""
    if not has_fallback(fold.state, key):
        return False
    _requeue_interrupted(fold, head, key, attempt, USAGE_LIMIT, error_code)
    next_provider(fold, key, USAGE_LIMIT, False)
    schedule(fold)
    return True


def interrupt_in_lane(
    fold: Fold, head: str, key: str, attempt: int, reason: str = INTERRUPTED, error_code: str | None = None
) -> None:
    """An attempt in lane ``head`` was interrupted (or hit a usage limit, ``reason``): nothing new starts; the
    run pauses once no lane runs."""
    _requeue_interrupted(fold, head, key, attempt, reason, error_code)
    fold.update(interrupting=True)
    schedule(fold)


def _requeue_interrupted(fold: Fold, head: str, key: str, attempt: int, reason: str, error_code: str | None) -> None:
    """``key``'s attempt in lane ``head`` ended ``interrupted`` (``reason``): its step recorded, the phase queued
    again in its lane (the same visit)."""
    fold.phase_status(key, _N.PENDING)
    fold.record_step(Step(key, attempt, StepOutcome.INTERRUPTED, reason=reason, error_code=error_code, branch=head))
    _set_lane(fold, replace(_lane(fold, head), current=None, queued=key, queued_new_visit=False))


def _lane_failed(fold: Fold, head: str, reason: str) -> None:
    """Lane ``head`` ended without reaching its join: under ``join: all_done`` it is recorded failed and the
    others go on (SPEC §13); under ``all``/``any`` the run fails at once (SPEC §8)."""
    if _join_mode(fold.state, head) != "all_done":
        fail_run(fold, reason)
        return
    _set_lane(fold, replace(_lane(fold, head), current=None, queued=None, queued_new_visit=False, failed=True))
    _join_when_ended(fold, head)


def _join_when_ended(fold: Fold, head: str) -> None:
    """Merge once every lane has ended (the arrived ones, in order), else start what waits."""
    if all(lane.ended for lane in fold.state.lanes):
        group = next(g for g in fold.state.workflow.fan_outs if g.branch_of(base_key(head)) is not None)
        assert group.join is not None
        arrived = tuple(lane.head for lane in fold.state.lanes if lane.arrived)
        last = next((lane.last for lane in reversed(fold.state.lanes) if lane.arrived and lane.last), None)
        begin_merge(fold, group.join, arrived, last or group.source)
    else:
        schedule(fold)


def _arrive(fold: Fold, head: str, last: str, join: str) -> None:
    _set_lane(fold, replace(_lane(fold, head), arrived=True, last=last))
    if fold.state.workflow.phase(join).join == "any":
        _stop_others(fold, head, final=False)
        begin_merge(fold, join, (head,), last)
    else:
        _join_when_ended(fold, head)


def resume_lanes(fold: Fold) -> None:
    """Continue a paused (or retry a failed) run with lanes: start what is queued, as slots allow."""
    for lane in fold.state.lanes:
        if lane.queued is not None and fold.state.phase(lane.queued).status is _N.FAILED:
            fold.change_phase(lane.queued, consecutive_failures=0)  # a retry starts a fresh count
    fold.run_status(_R.RUNNING, None)
    schedule(fold)


__all__ = [
    "complete_in_lane",
    "fail_in_lane",
    "fail_over_in_lane",
    "fail_run",
    "fan_out",
    "interrupt_in_lane",
    "is_resolving",  # the runtime asks it here (it lives in joins.py)
    "lane_of",
    "resume_lanes",
    "running_count",
    "schedule",
]
