"""Take-over: settle what a dead (or interrupted) run process left before the run goes on.

In order: stale git locks of the run are cleared; every process the dead attempts left on this host is
killed; then each attempt that was running is settled. If it had recorded its outcome (the intent written
just before its commit), its commit is finished or recognised and that outcome is fed to the engine: the
work is not redone. Otherwise the attempt was interrupted: what it left uncommitted is saved as its
``interrupted_diff`` artifact and its worktree is reset to the last recorded commit.

Parallel branches (SPEC §8) are settled one by one, each in its own worktree; their interruptions are fed
before their completions, so the run pauses once and ``Resume`` starts every branch again. A merge the
join's resolver works on is made again after its worktree was reset, so the resolver finds its conflicts.
"""

from __future__ import annotations

from pathlib import Path

from alphred.engine import INTERRUPTED, Event, NodeStatus, PhaseInterrupted, RunState, RunStatus
from alphred.engine.fan_out import is_resolving
from alphred.errors import GitError
from alphred.git import GitWorktrees, RepoLocation, phase_commit_message
from alphred.git.merges import LaneGit, merge_message
from alphred.git.repair import clear_stale_locks, head_made_by, last_recorded, save_and_reset
from alphred.redact import Redactor
from alphred.runtime.branches import branch_visit
from alphred.runtime.orphans import kill_leftovers
from alphred.runtime.outcome import OUTCOME, outcome_event
from alphred.store import RunRecord, SqlRunStore
from alphred.workflow import PhaseType

INTERRUPTED_DIFF = "interrupted_diff"
"""Artifact kind of the uncommitted changes an interrupted attempt left (the next attempt starts clean)."""


def settle(
    store: SqlRunStore,
    location: RepoLocation,
    record: RunRecord,
    state: RunState,
    worktree: Path,
    dead_owner: str | None,
    redactor: Redactor,
) -> list[Event]:
    """Make the run safe to continue; return the events that settle its interrupted attempts (if any)."""
    restore_git(GitWorktrees(location), worktree, record.branch)
    clear_stale_locks(location, worktree, record.branch)
    kill_leftovers(store, record.id, dead_owner)
    recorded = record.head_sha or record.base_sha
    settled = _Settle(store, location, record, redactor)
    events = settled.branches(state, recorded) if state.lanes and recorded else []
    running = state.status is RunStatus.RUNNING and state.current is not None
    if running and state.current is not None:
        phase, attempt = state.current, state.phase(state.current).attempt
        data = settled.outcome(phase, attempt)
        if data is not None:
            if is_resolving(state, phase):
                settled.finish_merge(state, worktree)
            else:
                settled.finish_commit(worktree, state, phase, attempt, data, recorded, in_branch=False)
            return [*events, outcome_event(phase, attempt, data)]
        settled.interrupted(state, phase, attempt, worktree, recorded)
        return [*events, PhaseInterrupted(phase, attempt)]
    queued = state.queued
    if state.status is RunStatus.PAUSED and state.reason == INTERRUPTED and queued is not None:
        settled.interrupted(state, queued, state.phase(queued).attempt, worktree, recorded)
    elif state.status is RunStatus.RUNNING and state.merge is not None and worktree.is_dir():
        settled.half_merge(worktree)
    return events


def runs_child(state: RunState, phase: str) -> bool:
    """True when ``phase`` is a workflow phase (SPEC §13): what it left in the worktree is its child run's."""
    return state.workflow.has_phase(phase) and state.workflow.phase(phase).type is PhaseType.WORKFLOW


def restore_git(worktrees: GitWorktrees, worktree: Path, branch: str | None) -> list[str]:
    """Put back a ``.git`` file (and a ``HEAD`` naming another branch than ``branch``) that a dead attempt
    rewrote (SPEC §14); return what was found changed. Alphred's own git never followed it anyway."""
    if not worktree.is_dir():
        return []
    try:
        seal = worktrees.seal(worktree, branch)
    except GitError:
        return []  # not a registered worktree: made again by the caller
    broken = seal.broken()
    if broken:
        seal.restore()
        worktrees.forget(worktree)
    return broken


class _Settle:
    def __init__(self, store: SqlRunStore, location: RepoLocation, record: RunRecord, redactor: Redactor) -> None:
        self.store = store
        self.location = location
        self.record = record
        self.redactor = redactor
        self.worktrees = GitWorktrees(location)
        self.git = LaneGit(self.worktrees)

    def outcome(self, phase: str, attempt: int) -> dict[str, object] | None:
        """The outcome ``attempt`` recorded before its commit, if it did."""
        found = self.store.latest_artifact(self.record.id, phase, OUTCOME)
        if found is not None and found.attempt == attempt and isinstance(found.content_json, dict):
            return found.content_json
        return None

    def branches(self, state: RunState, base: str) -> list[Event]:
        """Settle every parallel branch: the events of its interrupted attempts, then of its completed ones."""
        interrupted: list[Event] = []
        completed: list[Event] = []
        run_id, branch = self.record.id, self.record.branch or ""
        paused = state.status is RunStatus.PAUSED and state.reason == INTERRUPTED
        failed = state.status is RunStatus.FAILED  # a retry: branches stopped when another failed start clean
        for lane in state.lanes:
            path = self.git.lane_path(run_id, lane.head, branch_visit(state, lane.head))
            restore_git(self.worktrees, path, None)
            clear_stale_locks(self.location, path, self.git.lane_ref(run_id, branch, lane.head))
            if state.status is RunStatus.RUNNING and lane.current is not None:
                key, attempt = lane.current, state.phase(lane.current).attempt
                data = self.outcome(key, attempt)
                if data is not None:
                    start = (
                        last_recorded(self.worktrees, path, run_id, base, skip=(key, attempt))
                        if path.is_dir()
                        else base
                    )
                    self.finish_commit(path, state, key, attempt, data, start, in_branch=True)
                    completed.append(outcome_event(key, attempt, data))
                    continue
                self.save(
                    key, attempt, path, last_recorded(self.worktrees, path, run_id, base) if path.is_dir() else base
                )
                interrupted.append(PhaseInterrupted(key, attempt))
            elif (paused or failed) and lane.queued is not None and not lane.arrived and path.is_dir():
                queued = state.phase(lane.queued)
                if paused or queued.status is NodeStatus.PENDING:  # a failed phase keeps what it left
                    self.save(lane.queued, queued.attempt, path, last_recorded(self.worktrees, path, run_id, base))
        return interrupted + completed

    def finish_commit(
        self,
        worktree: Path,
        state: RunState,
        phase: str,
        attempt: int,
        data: dict[str, object],
        since: str | None,
        *,
        in_branch: bool,
    ) -> None:
        """Finish (or recognise) the commit of an attempt whose outcome was recorded; record its diff."""
        if not worktree.is_dir():
            return
        visit = int(str(data.get("visit") or 1))
        message = phase_commit_message(state.workflow.key, phase, visit, run_id=self.record.id, attempt=attempt)
        recognised = head_made_by(self.worktrees, worktree, self.record.id, phase, attempt)
        commit = self.worktrees.commit_phase(worktree, message, since=since)
        if commit is None:
            return
        with self.store.transaction() as tx:
            found = {"recovered": True, "commit_found": recognised, **({"lane": True} if in_branch else {})}
            tx.add_artifact(self.record.id, phase, attempt, "diff", text=self.redactor.redact(commit.diff), data=found)
            if not in_branch:
                tx.update_run(self.record.id, head_sha=commit.sha)

    def finish_merge(self, state: RunState, worktree: Path) -> None:
        """The resolver had completed: commit the merge it resolved (or find it committed)."""
        merge = state.merge
        if merge is None or not worktree.is_dir():
            return
        sha, _remaining = self.git.finish_merge(worktree, merge.conflicts)
        if sha is not None:
            self.store.update_run(self.record.id, head_sha=sha)

    def save(self, phase: str, attempt: int, worktree: Path, recorded: str | None) -> None:
        """Keep what an interrupted attempt left as its ``interrupted_diff``; reset its worktree to ``recorded``."""
        if recorded is None or not worktree.is_dir() or attempt < 1:
            return
        left = save_and_reset(self.worktrees, worktree, recorded)
        if left is not None:
            text, files = self.redactor.redact(left.diff), {"files": left.files}
            self.store.add_artifact(self.record.id, phase, attempt, INTERRUPTED_DIFF, text=text, data=files)

    def interrupted(self, state: RunState, phase: str, attempt: int, worktree: Path, recorded: str | None) -> None:
        """Settle the run branch's interrupted ``attempt`` of ``phase`` (running or queued when the run stopped):
        what it left is saved and the worktree reset (``save``), then the merge its resolver works on made again
        (``merge_again``). A workflow phase's worktree is its child run's (SPEC §13): the child settles what
        it left, and with nothing reset there is no merge to make again, so neither step runs."""
        if runs_child(state, phase):
            return
        self.save(phase, attempt, worktree, recorded)
        self.merge_again(state, worktree, phase)

    def merge_again(self, state: RunState, worktree: Path, phase: str) -> None:
        """The resolver's worktree was reset: make its conflicted merge again for the next attempt."""
        merge = state.merge
        if merge is None or not merge.conflicts or not is_resolving(state, phase) or not worktree.is_dir():
            return
        if merge.ref is not None and merge.pending and not self.git.merging(worktree):
            self.git.merge(worktree, merge.ref, merge_message(state.workflow.key, merge.pending[0]))

    def half_merge(self, worktree: Path) -> None:
        """A kill inside ``git merge`` before it recorded the merge: drop what it half wrote (the merge is
        asked again). A merge left in progress with its conflicts is kept: asked again, it reports them."""
        if not self.git.merging(worktree):
            save_and_reset(self.worktrees, worktree, self.worktrees.head_sha(worktree))
