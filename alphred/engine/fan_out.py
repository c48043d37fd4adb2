"""Parallel branches in the pure machine (SPEC §8): lanes, ``max_parallel``, joins and their merges.

A fan-out taken on the run branch replaces the run's single running phase by one ``Lane`` per branch (in
the order the fan-out lists them). Each lane runs its phases one after another; at most
``limits.max_parallel`` attempts run at the same moment, the others wait ``queued``. A lane that routes to
the join has arrived: ``join: all`` merges once every lane has, ``join: any`` at the first (the others'
running attempts are stopped and recorded ``cancelled``; their phases go back to ``pending``). A lane that
fails (no retry left, ``$fail``, a hard cap, no route) fails the run at once: every other running attempt
is stopped and recorded ``cancelled``; unless it was ``$fail`` or no route, the lanes stay, each with the
phase it runs next, so ``RetryRun`` goes on with every branch where it stopped. The merges are effects
(``MergeBranch``) answered by ``MergeDone`` or ``MergeConflicted``; a conflict runs the join's
``on_conflict`` phase on the run branch, or fails the run with ``merge_conflict``. Pause and interruption
wait until no lane runs an attempt.
"""

from __future__ import annotations

from dataclasses import replace

from alphred.engine.events import (
    MergeBranch,
    MergeConflicted,
    MergeDone,
    RecordRouting,
    RecordStep,
    StartPhase,
    StopPhase,
)
from alphred.engine.machine import (
    CANCELLED,
    FAIL_TARGET,
    INTERRUPTED,
    PAUSED,
    RETRIES_EXHAUSTED,
    Result,
    _cap_reason,
    _enter,
    _skip_unchosen,
    _Tx,
)
from alphred.engine.routing import NO_ROUTE, guard_context, select_transition
from alphred.engine.state import Lane, MergeState, RunState, Step, StepOutcome
from alphred.engine.statuses import NodeStatus, RunStatus
from alphred.workflow.model import END, FAIL, RESERVED_TARGETS, Transition

MERGE_CONFLICT = "merge_conflict"

_N = NodeStatus
_R = RunStatus


def lane_of(state: RunState, phase: str) -> Lane | None:
    """The lane whose running or queued phase is ``phase`` (None: not in a lane)."""
    return next((lane for lane in state.lanes if phase in (lane.current, lane.queued)), None)


def running_count(state: RunState) -> int:
    """How many lanes run an attempt right now."""
    return sum(1 for lane in state.lanes if lane.current is not None)


def _lane(tx: _Tx, head: str) -> Lane:
    return next(lane for lane in tx.state.lanes if lane.head == head)


def _set_lane(tx: _Tx, lane: Lane) -> None:
    tx.update(lanes=tuple(lane if other.head == lane.head else other for other in tx.state.lanes))


def _step(tx: _Tx, step: Step) -> None:
    tx.update(history=(*tx.state.history, step))
    tx.effects.append(
        RecordStep(
            step.phase, step.attempt, step.outcome, step.decision, step.next, step.reason, step.error_code, step.lane
        )
    )


def fan_out(tx: _Tx, source: str, attempt: int, decision: str | None, chosen: Transition) -> None:
    """Route ``source`` (on the run branch) through fan-out ``chosen``: one lane per branch, then start them."""
    branches = chosen.fan_out
    _step(tx, Step(source, attempt, StepOutcome.COMPLETED, decision, ",".join(branches)))
    tx.effects.append(RecordRouting(source, attempt, decision, chosen.target, chosen.priority, fan_out=branches))
    edge = (source, chosen.priority)
    tx.update(edges={**tx.state.edges, edge: tx.state.edges.get(edge, 0) + 1})
    for candidate in tx.state.workflow.phase(source).transitions:  # the targets not taken are skipped
        for target in candidate.targets:
            if target in (*branches, source, *RESERVED_TARGETS):
                continue
            ps = tx.state.phase(target)
            if ps.status is _N.PENDING and ps.attempt == 0:
                tx.phase_status(target, _N.SKIPPED)
    lanes = []
    for head in branches:
        if tx.state.phase(head).status in (_N.COMPLETED, _N.SKIPPED):
            tx.phase_status(head, _N.PENDING)
        tx.state = tx.state.with_phase(head, entered_from=source)
        lanes.append(Lane(head, queued=head, queued_new_visit=True))
    tx.update(current=None, lanes=tuple(lanes), merge=None)
    schedule(tx)


def schedule(tx: _Tx) -> None:
    """Start queued lanes in fan-out order while ``max_parallel`` allows; pause once idle when asked."""
    if tx.state.status is not _R.RUNNING or not tx.state.lanes:
        return
    if tx.state.pause_requested or tx.state.interrupting:
        if running_count(tx.state) == 0:
            reason = INTERRUPTED if tx.state.interrupting else PAUSED
            tx.update(pause_requested=False, interrupting=False)
            tx.run_status(_R.PAUSED, reason)
        return
    limit = tx.state.workflow.limits.max_parallel
    for head in [lane.head for lane in tx.state.lanes]:
        if running_count(tx.state) >= limit:
            return
        if _lane(tx, head).queued is not None:
            _start_in_lane(tx, head)
            if tx.state.status is not _R.RUNNING:
                return


def _start_in_lane(tx: _Tx, head: str) -> None:
    lane = _lane(tx, head)
    key, new_visit = lane.queued, lane.queued_new_visit
    assert key is not None
    reason = _cap_reason(tx.state, key, new_visit)
    if reason is not None:
        fail_run(tx, reason, retryable=True)
        return
    ps = tx.state.phase(key)
    attempt = ps.attempt + 1
    entries = ps.entries + 1 if new_visit else ps.entries
    failures = 0 if new_visit else ps.consecutive_failures
    tx.phase_status(key, _N.RUNNING, attempt=attempt, entries=entries, consecutive_failures=failures)
    tx.update(steps=tx.state.steps + 1)
    _set_lane(tx, replace(lane, current=key, queued=None, queued_new_visit=False))
    tx.effects.append(StartPhase(key, attempt, entries, lane=head))


def _stop_others(tx: _Tx, keep: str | None, *, final: bool) -> None:
    """Stop every lane's running attempt but ``keep``'s (recorded cancelled); ``final``: the run ends."""
    for lane in tx.state.lanes:
        if lane.head == keep:
            continue
        if lane.current is not None:
            attempt = tx.state.phase(lane.current).attempt
            tx.phase_status(lane.current, _N.CANCELLED if final else _N.PENDING)
            _step(tx, Step(lane.current, attempt, StepOutcome.CANCELLED, reason=CANCELLED, lane=lane.head))
            tx.effects.append(StopPhase(lane.current, attempt, lane.head))
        if final and lane.queued is not None and tx.state.phase(lane.queued).status is _N.PENDING:
            tx.phase_status(lane.queued, _N.CANCELLED)


def fail_run(tx: _Tx, reason: str, *, retryable: bool = False) -> None:
    """A branch failed: stop the other lanes' attempts (recorded cancelled) and fail the run at once.

    ``retryable`` (a failed attempt, a cap): the lanes are kept, each with the phase it must run next
    (the failed one, a stopped one again), so ``RetryRun`` goes on with every branch where it stopped.
    """
    if not retryable:
        _stop_others(tx, None, final=True)
        tx.update(lanes=())
    else:
        _stop_others(tx, None, final=False)
        tx.update(
            lanes=tuple(
                replace(lane, current=None, queued=lane.current, queued_new_visit=False)
                if lane.current is not None
                else lane
                for lane in tx.state.lanes
            )
        )
    tx.update(queued=None, queued_new_visit=False, interrupting=False)
    tx.finish(_R.FAILED, reason)


def complete_in_lane(tx: _Tx, head: str, key: str, attempt: int, decision: str | None) -> None:
    """Route ``key`` (just completed in lane ``head``) inside its branch, to the join, or fail the run."""
    _set_lane(tx, replace(_lane(tx, head), current=None))
    workflow = tx.state.workflow
    phase = workflow.phase(key)
    chosen = select_transition(phase, guard_context(tx.state, workflow, key), tx.state.edges)
    target = chosen.target if chosen is not None else NO_ROUTE
    _step(tx, Step(key, attempt, StepOutcome.COMPLETED, decision, target, lane=head))
    if chosen is None:
        tx.effects.append(RecordRouting(key, attempt, decision, NO_ROUTE, None, NO_ROUTE, lane=head))
        fail_run(tx, NO_ROUTE)
        return
    tx.effects.append(RecordRouting(key, attempt, decision, target, chosen.priority, lane=head))
    edge = (key, chosen.priority)
    tx.update(edges={**tx.state.edges, edge: tx.state.edges.get(edge, 0) + 1})
    _skip_unchosen(tx, phase, target)
    if target == FAIL:
        fail_run(tx, FAIL_TARGET)
    elif target == END:  # invalid inside a branch (validation says so); never completes the run from a lane
        fail_run(tx, NO_ROUTE)
    elif workflow.phase(target).join is not None:
        _arrive(tx, head, key, target)
    else:
        if tx.state.phase(target).status in (_N.COMPLETED, _N.SKIPPED):
            tx.phase_status(target, _N.PENDING)
        tx.state = tx.state.with_phase(target, entered_from=key)
        _set_lane(tx, replace(_lane(tx, head), queued=target, queued_new_visit=True))
        schedule(tx)


def fail_in_lane(
    tx: _Tx, head: str, key: str, attempt: int, reason: str, retryable: bool, error_code: str | None
) -> None:
    """An attempt in lane ``head`` failed: retry it in its lane, or fail the run."""
    failures = tx.state.phase(key).consecutive_failures + 1
    tx.phase_status(key, _N.FAILED, consecutive_failures=failures)
    _step(tx, Step(key, attempt, StepOutcome.FAILED, None, None, reason, error_code, lane=head))
    _set_lane(tx, replace(_lane(tx, head), current=None))
    if not retryable or failures > tx.state.workflow.phase(key).max_retries:
        _set_lane(tx, replace(_lane(tx, head), queued=key, queued_new_visit=False))  # what a retry runs
        fail_run(tx, reason if not retryable else RETRIES_EXHAUSTED, retryable=True)
    else:
        _set_lane(tx, replace(_lane(tx, head), queued=key, queued_new_visit=False))
        schedule(tx)


def interrupt_in_lane(tx: _Tx, head: str, key: str, attempt: int) -> None:
    """An attempt in lane ``head`` was interrupted: nothing new starts; the run pauses once no lane runs."""
    tx.phase_status(key, _N.PENDING)
    _step(tx, Step(key, attempt, StepOutcome.INTERRUPTED, reason=INTERRUPTED, lane=head))
    _set_lane(tx, replace(_lane(tx, head), current=None, queued=key, queued_new_visit=False))
    tx.update(interrupting=True)
    schedule(tx)


def _arrive(tx: _Tx, head: str, last: str, join: str) -> None:
    _set_lane(tx, replace(_lane(tx, head), arrived=True, last=last))
    if tx.state.workflow.phase(join).join == "any":
        _stop_others(tx, head, final=False)
        _begin_merge(tx, join, (head,), last)
    elif all(lane.arrived for lane in tx.state.lanes):
        _begin_merge(tx, join, tuple(lane.head for lane in tx.state.lanes), last)
    else:
        schedule(tx)


def _begin_merge(tx: _Tx, join: str, heads: tuple[str, ...], source: str) -> None:
    tx.update(lanes=(), merge=MergeState(join, heads, source=source), interrupting=False)
    tx.effects.append(MergeBranch(join, heads[0]))


def _merge_next(tx: _Tx) -> None:
    merge = tx.state.merge
    assert merge is not None
    rest = merge.pending[1:]
    tx.update(merge=replace(merge, pending=rest, ref=None, conflicts=()))
    if rest:
        tx.effects.append(MergeBranch(merge.join, rest[0]))
    else:
        _enter(tx, merge.join, source=merge.source or merge.join)


def _merging(state: RunState, join: str, branch: str) -> bool:
    merge = state.merge
    if state.status is not _R.RUNNING or merge is None or state.current is not None:
        return False
    return merge.join == join and merge.pending[:1] == (branch,) and not merge.conflicts


def on_merge_done(state: RunState, event: MergeDone) -> Result:
    """The branch being merged is in: merge the next one, or enter the join."""
    if not _merging(state, event.join, event.branch):
        return state, ()
    tx = _Tx(state)
    _merge_next(tx)
    return tx.result()


def on_merge_conflicted(state: RunState, event: MergeConflicted) -> Result:
    """A merge conflicted: run the join's resolver on the run branch, or fail the run (``merge_conflict``)."""
    if not _merging(state, event.join, event.branch) or not event.conflicts:
        return state, ()
    tx = _Tx(state)
    merge = state.merge
    assert merge is not None
    tx.update(merge=replace(merge, ref=event.ref or event.branch, conflicts=event.conflicts))
    resolver = state.workflow.phase(event.join).on_conflict
    if resolver is None:
        tx.update(queued=None, queued_new_visit=False)
        tx.finish(_R.FAILED, MERGE_CONFLICT)
        return tx.result()
    tx.update(merge=replace(tx.state.merge or merge, status="resolved"))
    _enter(tx, resolver, source=event.join)
    return tx.result()


def is_resolving(state: RunState, key: str) -> bool:
    """True when ``key`` is the resolver working on the merge in progress."""
    merge = state.merge
    return merge is not None and bool(merge.conflicts) and state.workflow.phase(merge.join).on_conflict == key


def resolved(tx: _Tx, key: str, attempt: int, decision: str | None) -> None:
    """The resolver completed (the runtime has committed the merge): go on with the next branch."""
    merge = tx.state.merge
    assert merge is not None
    _step(tx, Step(key, attempt, StepOutcome.COMPLETED, decision, merge.join))
    tx.update(current=None)
    _merge_next(tx)


def resume_lanes(tx: _Tx) -> None:
    """Continue a paused (or retry a failed) run with lanes: start what is queued, as slots allow."""
    for lane in tx.state.lanes:
        if lane.queued is not None and tx.state.phase(lane.queued).status is _N.FAILED:
            tx.state = tx.state.with_phase(lane.queued, consecutive_failures=0)  # a retry starts a fresh count
    tx.run_status(_R.RUNNING, None)
    schedule(tx)


def merge_to_redo(state: RunState) -> MergeBranch | None:
    """The merge to ask again after a take-over mid-merge (no resolver running), if any."""
    merge = state.merge
    if state.status is not _R.RUNNING or state.current is not None or merge is None or merge.conflicts:
        return None
    return MergeBranch(merge.join, merge.pending[0]) if merge.pending else None


__all__ = [
    "MERGE_CONFLICT",
    "complete_in_lane",
    "fail_in_lane",
    "fail_run",
    "fan_out",
    "interrupt_in_lane",
    "is_resolving",
    "lane_of",
    "merge_to_redo",
    "on_merge_conflicted",
    "on_merge_done",
    "resolved",
    "resume_lanes",
    "running_count",
    "schedule",
]
