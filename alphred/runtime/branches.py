"""The runtime side of parallel branches (SPEC §8): lane worktrees, their phase contexts, the join's merges.

Each lane (a branch of the active fan-out, named by its head phase) runs its attempts in its own worktree
and phase context; everything here blocks (git, SQL) and runs in a worker thread. A lane's worktree is made
from the run branch's head when its first attempt starts (or again after a crash), and removed once the
join has merged it (the removal happens after the merge is recorded, so a crash never loses which branch
to merge). Worktrees of lanes a ``join: any`` cancelled stay until the run completes; a failed run keeps
every one of them.
"""

from __future__ import annotations

import dataclasses
import threading

from alphred.engine import Event, MergeBranch, MergeConflicted, MergeDone, RunState
from alphred.errors import GitError
from alphred.git import GitWorktrees
from alphred.git.merges import LaneGit, lane_branch, merge_message
from alphred.runtime.crash import crash_point
from alphred.runtime.persist import Write
from alphred.runtime.phase import PhaseContext
from alphred.workflow import Workflow
from alphred.workflow.fan_outs import fan_outs


def lane_visit(state: RunState, head: str) -> int:
    """Which visit of its fan-out lane ``head`` belongs to (1 for the first time the fan-out was taken)."""
    taken = sum(
        state.edges.get((fan.source, fan.priority), 0) for fan in fan_outs(state.workflow) if head in fan.branches
    )
    return max(taken, 1)


class Branches:
    """Lane worktrees and contexts of one run, and the merges of its joins."""

    def __init__(self, run_ctx: PhaseContext, run_branch: str, worktrees: GitWorktrees) -> None:
        self.run_ctx = run_ctx
        self.run_branch = run_branch
        self.git = LaneGit(worktrees)
        self.contexts: dict[str, PhaseContext] = {}
        self.busy: set[str] = set()  # lanes whose attempt runs: their pending writes are not taken yet
        self._making = threading.Lock()  # one `git worktree add` at a time

    @property
    def workflow(self) -> Workflow:
        return self.run_ctx.workflow

    def context(self, state: RunState, head: str) -> PhaseContext:
        """The phase context of lane ``head``, its worktree made (or reused) first. Blocking."""
        with self._making:
            return self._context(state, head)

    def _context(self, state: RunState, head: str) -> PhaseContext:
        ctx = self.contexts.get(head)
        if ctx is not None and ctx.worktree.is_dir():
            return ctx
        base = self.run_ctx.worktrees.head_sha(self.run_ctx.worktree)  # the run branch does not move meanwhile
        made = self.git.create_lane(self.run_ctx.run_id, self.run_branch, head, base, lane_visit(state, head))
        ctx = dataclasses.replace(self.run_ctx, worktree=made.path, pending=[], lane=head)
        self.contexts[head] = ctx
        return ctx

    def take_pending(self) -> list[Write]:
        """The writes lanes left that no running attempt still adds to (persisted with the next transition)."""
        taken: list[Write] = []
        for head, ctx in self.contexts.items():
            if head not in self.busy and ctx.pending:
                taken += ctx.pending
                ctx.pending = []
        return taken

    def merge(self, state: RunState, effect: MergeBranch) -> Event:
        """Merge lane ``effect.branch`` into the run's worktree. Blocking.

        Clean: ``MergeDone`` (the merge commit becomes the run's recorded head, with the transition that takes
        the event). A conflict with a resolver leaves the merge in progress; without one it is aborted.
        """
        ctx = self.run_ctx
        visit = lane_visit(state, effect.branch)
        ref = self.git.lane_ref(ctx.run_id, self.run_branch, effect.branch, visit)
        if ref is None:
            raise GitError(f"the branch of {effect.branch} ({lane_branch(self.run_branch, effect.branch)}) is gone")
        outcome = self.git.merge(ctx.worktree, ref, merge_message(self.workflow.key, effect.branch))
        crash_point("merged")
        if outcome.conflicts:
            if self.workflow.phase(effect.join).on_conflict is None:
                self.git.abort_merge(ctx.worktree)
            return MergeConflicted(effect.join, effect.branch, outcome.conflicts, ref)
        sha, run_id = outcome.sha, ctx.run_id
        ctx.pending.append(lambda tx: tx.update_run(run_id, head_sha=sha))
        return MergeDone(effect.join, effect.branch)

    def merged(self, state: RunState, head: str, keep: bool) -> None:
        """Lane ``head`` is merged and recorded so: its worktree goes (unless kept). Blocking."""
        self.contexts.pop(head, None)
        if not keep:
            self.git.remove_lane(self.git.lane_path(self.run_ctx.run_id, head, lane_visit(state, head)))
