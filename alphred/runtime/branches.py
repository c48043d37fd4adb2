"""The runtime side of parallel branches (SPEC §8): their worktrees and phase contexts, the join's merges
(``BranchWorktrees``), and the tasks their attempts run in (``BranchScheduler``).

Each branch of the active fan-out (named by its head phase) runs its attempts in its own worktree and phase
context; the worktree work blocks (git, SQL) and runs in a worker thread. A branch's worktree is made from
the run branch's head when its first attempt starts (or again after a crash; several branches' at once, each
in its own thread, git's worktree registry changed one command at a time), and removed once the join
has merged it (the removal happens after the merge is recorded, so a crash never loses which branch to
merge). Worktrees of branches a ``join: any`` cancelled stay until the run completes; a failed run keeps
every one of them.

The engine decides which branch starts when (``limits.max_parallel``); the scheduler runs each started
attempt as a task of its own and keeps what the tasks post, in order, until the loop takes it: the engine
still folds one event after another.
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections import deque
from collections.abc import Awaitable, Callable

from alphred.engine import Event, MergeBranch, MergeConflicted, MergeDone, RunState, StartPhase
from alphred.errors import GitError
from alphred.git import GitWorktrees
from alphred.git.merges import LaneGit, lane_branch, merge_message
from alphred.runtime.acts import failed_by_runtime
from alphred.runtime.attempt_context import AttemptStats, PhaseContext, Posted
from alphred.runtime.crash import crash_point
from alphred.runtime.persist import Write
from alphred.store import SqlRunStore
from alphred.workflow import Workflow
from alphred.workflow.fan_outs import fan_outs
from alphred.workflow.model import base_key

RunAttempt = Callable[[RunState, StartPhase, PhaseContext], Awaitable[Posted]]
"""Runs one attempt in a phase context and returns what it posts (the runner's ``start_phase``)."""


def branch_visit(state: RunState, head: str) -> int:
    """Which visit of its fan-out branch ``head`` belongs to (1 for the first time the fan-out was taken)."""
    taken = sum(
        state.edges.get((fan.source, fan.priority), 0)
        for fan in fan_outs(state.workflow)
        if base_key(head) in fan.branches
    )
    return max(taken, 1)


class BranchWorktrees:
    """The branches' worktrees and contexts of one run, and the merges of its joins."""

    def __init__(self, run_ctx: PhaseContext, run_branch: str, worktrees: GitWorktrees) -> None:
        self.run_ctx = run_ctx
        self.run_branch = run_branch
        self.git = LaneGit(worktrees)
        self.contexts: dict[str, PhaseContext] = {}
        self.busy: set[str] = set()  # branches whose attempt runs: their pending writes are not taken yet
        # one lock per branch: its worktree is made once, while other branches' are made beside it (git's
        # worktree registry is changed one command at a time: ``git.registry_lock``)
        self._making: dict[str, threading.Lock] = {}
        self._locks = threading.Lock()

    @property
    def workflow(self) -> Workflow:
        return self.run_ctx.workflow

    def context(self, state: RunState, head: str) -> PhaseContext:
        """The phase context of branch ``head``, its worktree made (or reused) first. Blocking; several
        branches' worktrees are made at once (each call in a thread of its own)."""
        with self._locks:
            making = self._making.setdefault(head, threading.Lock())
        with making:
            return self._context(state, head)

    def _context(self, state: RunState, head: str) -> PhaseContext:
        ctx = self.contexts.get(head)
        if ctx is not None and ctx.worktree.is_dir():
            return ctx
        base = self.run_ctx.worktrees.head_sha(self.run_ctx.worktree)  # the run branch does not move meanwhile
        made = self.git.create_lane(self.run_ctx.run_id, self.run_branch, head, base, branch_visit(state, head))
        ctx = dataclasses.replace(self.run_ctx, worktree=made.path, pending=[], branch=head, prepared={})
        self.contexts[head] = ctx
        return ctx

    def take_pending(self) -> list[Write]:
        """The writes branches left that no running attempt still adds to (persisted with the next transition)."""
        taken: list[Write] = []
        for head, ctx in list(self.contexts.items()):  # a thread may be adding a branch's context meanwhile
            if head not in self.busy and ctx.pending:
                taken += ctx.pending
                ctx.pending = []
        return taken

    def merge(self, state: RunState, effect: MergeBranch) -> Event:
        """Merge branch ``effect.branch`` into the run's worktree. Blocking.

        Clean: ``MergeDone`` (the merge commit becomes the run's recorded head, with the transition that takes
        the event). A conflict with a resolver leaves the merge in progress; without one it is aborted.
        """
        ctx = self.run_ctx
        visit = branch_visit(state, effect.branch)
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
        """Branch ``head`` is merged and recorded so: its worktree goes (unless kept). Blocking."""
        self.contexts.pop(head, None)
        if not keep:
            self.git.remove_lane(self.git.lane_path(self.run_ctx.run_id, head, branch_visit(state, head)))


class BranchScheduler:
    """The attempts of parallel branches, each in a task of its own, and what they post for the loop."""

    def __init__(self, store: SqlRunStore, run_ctx: PhaseContext, run_attempt: RunAttempt, keep: bool) -> None:
        self.store = store
        self.run_ctx = run_ctx
        self.run_attempt = run_attempt
        self.keep = keep  # --keep-worktree: merged branches keep their worktrees too
        self.worktrees: BranchWorktrees | None = None  # made when the first branch starts
        self.in_flight = 0  # started attempts whose post the loop has not taken yet
        self._posted: deque[Posted] = deque()
        self._arrived = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    async def _worktrees(self) -> BranchWorktrees:
        if self.worktrees is None:
            record = await asyncio.to_thread(self.store.get_run, self.run_ctx.run_id)
            self.worktrees = BranchWorktrees(self.run_ctx, record.branch or "", self.run_ctx.worktrees)
        return self.worktrees

    async def start(self, state: RunState, effect: StartPhase) -> None:
        """Start an attempt of a parallel branch as a task of its own; what it reports is posted."""
        worktrees = await self._worktrees()
        assert effect.branch is not None
        self.in_flight += 1
        worktrees.busy.add(effect.branch)
        task = asyncio.get_running_loop().create_task(self._run(state, effect, worktrees))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, state: RunState, effect: StartPhase, worktrees: BranchWorktrees) -> None:
        assert effect.branch is not None
        posted = Posted(())
        try:
            ctx = await asyncio.to_thread(worktrees.context, state, effect.branch)
            posted = await self.run_attempt(state, effect, ctx)
        except asyncio.CancelledError:
            posted = Posted(())  # stopped while its worktree was made: the engine recorded it
        except Exception as exc:  # making the branch's worktree failed: the attempt failed, the run goes on
            stats = AttemptStats()
            failed = failed_by_runtime(effect.phase, effect.attempt, exc, stats)
            posted = Posted((failed,), (effect.phase, effect.attempt), stats)
        finally:
            worktrees.busy.discard(effect.branch)
            self._posted.append(posted)
            self._arrived.set()

    async def next_posted(self) -> Posted:
        """What the next branch attempt that ended posted (waits for one; call only while ``in_flight``)."""
        while not self._posted:
            self._arrived.clear()
            await self._arrived.wait()
        self.in_flight -= 1
        return self._posted.popleft()

    def posted_stats(self, attempt: tuple[str, int]) -> AttemptStats | None:
        """The measurements of ``attempt`` if it ended and posted, and the loop has not taken it yet."""
        return next((found for p in self._posted if (found := p.stats_of(attempt)) is not None), None)

    async def merge(self, state: RunState, effect: MergeBranch) -> Event:
        """Merge ``effect.branch`` into the run's worktree (in a thread)."""
        worktrees = await self._worktrees()
        return await asyncio.to_thread(worktrees.merge, state, effect)

    async def merged(self, state: RunState, head: str) -> None:
        """Branch ``head`` is merged and its merge recorded: its worktree goes (in a thread)."""
        if self.worktrees is not None:
            await asyncio.to_thread(self.worktrees.merged, state, head, self.keep)

    def take_pending(self) -> list[Write]:
        """The writes the branches left (see ``BranchWorktrees.take_pending``)."""
        return self.worktrees.take_pending() if self.worktrees is not None else []

    async def stop(self, stop_all: Callable[[], None]) -> None:
        """The run stopped (its lease lost, an error): end the branches' attempts (``stop_all``) and wait."""
        if self._tasks:
            stop_all()
            await asyncio.gather(*self._tasks, return_exceptions=True)
