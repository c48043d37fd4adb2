"""A join's merges in the pure machine (SPEC §8): after its lanes, the branches that arrived are merged into
the run branch one after another, then the join runs.

``begin_merge`` (called by ``fan_out`` once the lanes have reached the join) records ``RunState.merge`` and asks
for the first ``MergeBranch``; ``MergeDone`` goes on with the next branch, ``MergeConflicted`` enters the join's
``on_conflict`` resolver on the run branch (its completion, ``resolved``, goes on with the next branch) or fails
the run ``merge_conflict``; after the last merge the join is entered as a new visit. ``merge_to_redo`` is the
merge a take-over asks for again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from alphred.engine.events import MergeBranch, MergeConflicted, MergeDone
from alphred.engine.fold import Fold, Result, enter
from alphred.engine.reasons import MERGE_CONFLICT
from alphred.engine.state import MergeState, RunState, Step, StepOutcome
from alphred.engine.statuses import RunStatus

_R = RunStatus


def branches_context(state: RunState) -> dict[str, Any]:
    """``branches.completed|failed|skipped|results`` of the lanes being joined (SPEC §13)."""
    lanes = state.lanes
    results = [
        state.phase(lane.last).report if lane.arrived and lane.last is not None else None
        for lane in lanes
        if not lane.skipped
    ]
    return {
        "completed": [lane.head for lane in lanes if lane.arrived],
        "failed": [lane.head for lane in lanes if lane.failed],
        "skipped": [lane.head for lane in lanes if lane.skipped],
        "results": results,
    }


def begin_merge(fold: Fold, join: str, heads: tuple[str, ...], source: str) -> None:
    """The lanes have reached ``join``: merge ``heads`` one after another (fan-out order), then enter the join;
    ``branches.*`` is set from the lanes, which end here."""
    branches = branches_context(fold.state)
    fold.update(lanes=(), merge=MergeState(join, heads, source=source), interrupting=False, branches=branches)
    if heads:
        fold.effects.append(MergeBranch(join, heads[0]))
    else:  # nothing to merge (an empty for_each, every branch skipped or failed): the join runs at once
        enter(fold, join, source=source)


def _merge_next(fold: Fold) -> None:
    merge = fold.state.merge
    assert merge is not None
    rest = merge.pending[1:]
    fold.update(merge=replace(merge, pending=rest, ref=None, conflicts=()))
    if rest:
        fold.effects.append(MergeBranch(merge.join, rest[0]))
    else:
        enter(fold, merge.join, source=merge.source or merge.join)


def _merging(state: RunState, join: str, branch: str) -> bool:
    merge = state.merge
    if state.status is not _R.RUNNING or merge is None or state.current is not None:
        return False
    return merge.join == join and merge.pending[:1] == (branch,) and not merge.conflicts


def on_merge_done(state: RunState, event: MergeDone) -> Result:
    """The branch being merged is in: merge the next one, or enter the join."""
    if not _merging(state, event.join, event.branch):
        return state, ()
    fold = Fold(state)
    _merge_next(fold)
    return fold.result()


def on_merge_conflicted(state: RunState, event: MergeConflicted) -> Result:
    """A merge conflicted: run the join's resolver on the run branch, or fail the run (``merge_conflict``)."""
    if not _merging(state, event.join, event.branch) or not event.conflicts:
        return state, ()
    fold = Fold(state)
    merge = state.merge
    assert merge is not None
    fold.update(merge=replace(merge, ref=event.ref or event.branch, conflicts=event.conflicts))
    resolver = state.workflow.phase(event.join).on_conflict
    if resolver is None:
        fold.update(queued=None, queued_new_visit=False)
        fold.finish(_R.FAILED, MERGE_CONFLICT)
        return fold.result()
    fold.update(merge=replace(fold.state.merge or merge, status="resolved"))
    enter(fold, resolver, source=event.join)
    return fold.result()


def is_resolving(state: RunState, key: str) -> bool:
    """True when ``key`` is the resolver working on the merge in progress."""
    merge = state.merge
    return merge is not None and bool(merge.conflicts) and state.workflow.phase(merge.join).on_conflict == key


def resolved(fold: Fold, key: str, attempt: int, decision: str | None) -> None:
    """The resolver completed (the runtime has committed the merge): go on with the next branch."""
    merge = fold.state.merge
    assert merge is not None
    fold.record_step(Step(key, attempt, StepOutcome.COMPLETED, decision, merge.join))
    fold.update(current=None)
    _merge_next(fold)


def merge_to_redo(state: RunState) -> MergeBranch | None:
    """The merge to ask again after a take-over mid-merge (no resolver running), if any."""
    merge = state.merge
    if state.status is not _R.RUNNING or state.current is not None or merge is None or merge.conflicts:
        return None
    return MergeBranch(merge.join, merge.pending[0]) if merge.pending else None
