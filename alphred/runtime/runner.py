"""Drive a run: a loop that feeds events to the pure engine, persists its effects first, then carries them out.

Every transition's effects and the engine's state snapshot are written in ONE transaction fenced by the
run's lease (``persist.Persister``); a phase attempt is claimed in the transaction that moves it to
``running``. Every blocking call (SQL, git, push, ``gh``/``az``) runs in a worker thread, so the event loop
stays free for the heartbeat that renews the leases and watches for ``pause``/``cancel``, for timeouts and
for Ctrl+C/SIGTERM, which interrupt the active attempts out of band (``supervisor.Supervisor``).

An attempt on the run branch is awaited in the loop. The attempts of parallel branches (SPEC §8) run as
tasks side by side (``branches.BranchScheduler``); each posts the events that report it, which the loop
takes one transition at a time, so the engine still sees one event after another. What the runtime
measured of an attempt travels with the events it posts (``Posted``) to the transition that records its
step.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections import deque
from collections.abc import Coroutine, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from alphred.engine import (
    AWAITING_APPROVAL,
    TERMINAL_RUN_STATUSES,
    ApprovalRequested,
    AwaitApproval,
    AwaitCi,
    CancelRequested,
    CiWaiting,
    Deliver,
    DeliveryDone,
    Effect,
    Event,
    MergeBranch,
    MergeDone,
    PauseRequested,
    PhaseCompleted,
    PhaseFailed,
    PhaseInterrupted,
    RunFinished,
    RunState,
    RunStatus,
    StartPhase,
    StopPhase,
    TimedOut,
    transition,
)
from alphred.engine.fan_out import is_resolving
from alphred.errors import AlphredError, LeaseLostError
from alphred.git import GitWorktrees, RepoLocation
from alphred.providers import ProviderRegistry
from alphred.redact import Redactor
from alphred.runtime.acts import AUTO_APPROVED, approval_note, auto_approve, failed_by_runtime
from alphred.runtime.attempt_context import AttemptStats, PhaseContext, Posted
from alphred.runtime.attempts import Active, Attempts
from alphred.runtime.branches import BranchScheduler
from alphred.runtime.deadline import run_deadline
from alphred.runtime.delivery import PullRequestText, deliver_step
from alphred.runtime.environment import hide_secrets_from_proc
from alphred.runtime.observer import QuietObserver, RunObserver
from alphred.runtime.options import RunOptions, backoff_seconds
from alphred.runtime.orphans import MARKER, become_subreaper
from alphred.runtime.persist import Persister, Write
from alphred.runtime.phase import run_attempt
from alphred.runtime.recording import ONLY_WRITTEN, Recording, advance
from alphred.runtime.run_files import RunFiles, run_directory
from alphred.runtime.run_thread import RunThread
from alphred.runtime.supervisor import CANCEL, HEARTBEAT_SECONDS, INTERRUPT, LOST, TIMEOUT, Supervisor
from alphred.store import SqlRunStore
from alphred.store.owners import LeaseOwner, lease_ttl
from alphred.workflow import PhaseType, Workflow

Fed = tuple[Event, Posted | None]
"""An event for the engine, with the post it came in (None: the loop or the engine itself made it)."""

if TYPE_CHECKING:
    from alphred.runtime.child_run import ChildStopped


class Runner(Recording):
    """Executes one run to its end, or until it pauses, waits for approval or is interrupted."""

    def __init__(
        self,
        store: SqlRunStore,
        workflow: Workflow,
        run_id: int,
        location: RepoLocation,
        registry: ProviderRegistry,
        *,
        worktree: Path,
        options: RunOptions,
        owner: LeaseOwner,
        observer: RunObserver | None = None,
        pull_request_text: PullRequestText | None = None,
        runtime: Mapping[str, Any] | None = None,
        nested: bool = False,
    ) -> None:
        self.store = store
        self.location = location
        self.owner = owner
        self.workflow = workflow
        self.run_id = run_id
        self.options = options
        self.observer = observer or QuietObserver()
        self.pull_request_text = pull_request_text
        environ = {**options.environ, MARKER: str(owner)}  # every process the run starts carries its owner
        become_subreaper()  # orphans of a phase's processes stay this process's children (SPEC §14)
        hide_secrets_from_proc()  # an agent's command cannot read the run's keys from /proc/<ppid>/environ
        self.ctx = PhaseContext(
            store=store,
            run_id=run_id,
            workflow=workflow,
            worktree=worktree,
            worktrees=GitWorktrees(location, hooks=workflow.git_hooks),
            registry=registry,
            redactor=Redactor(environ),
            environ=environ,
            # nobody is shown a provider event (``--json -q``, a child run's): none is forwarded
            on_event=self.observer.provider_event if getattr(self.observer, "watches_events", True) else None,
            dry_run_commands=options.dry_run and options.dry_run_scope == "all",
            clock=options.clock,
            files=RunFiles(
                run_id,
                run_directory(location.alphred_dir, run_id),
                workflow.limits.max_artifact_bytes,
                memory=workflow.memory is not None,
            ),
            pull_request=options.pull_request,
            describe=pull_request_text,
        )
        ttl = lease_ttl()
        self.persister = Persister(store, run_id, str(owner), ttl, {**(runtime or {}), **options.stored()})
        self._held: list[Write] = []  # pending writes of an outcome fed again after a pause (``_persist``)
        self._joinable = False  # the effect being acted is the last of its transition, nothing else fed (``_join``)
        self.attempts = Attempts(store, run_id, self.observer, options.environ)
        self.supervisor = Supervisor(store, run_id, str(owner), ttl, self.attempts, self.observer)
        self.branches = BranchScheduler(store, self.ctx, self.start_phase, options.keep_worktree)
        self.supervisor.signals = not nested  # a sub-workflow's runner: its parent's handles Ctrl+C (SPEC §13)
        self.top_run_id = run_id  # the run the commands address (a sub-workflow's: its top-level run's, SPEC §13)
        stop_reason = lambda: self.supervisor.stop  # noqa: E731
        stop = self.supervisor.request_stop
        # A sub-workflow's host and its exception (SPEC §13) only for a workflow that has a workflow phase: a run
        # without one never loads ``runtime.child_run`` (and the takeover, outcome and checks it imports) before
        # its first step (issue 29: run start).
        self.child_stopped: tuple[type[ChildStopped], ...] = ()
        if any(phase.type is PhaseType.WORKFLOW for phase in workflow.phases):
            from alphred.runtime.child_run import ChildHost, ChildStopped

            self.ctx.children = ChildHost(self._child_runner, str(owner), options, self.observer, stop_reason, stop)
            self.child_stopped = (ChildStopped,)

    def _child_runner(self, workflow: Workflow, run_id: int, options: RunOptions, observer: RunObserver) -> Runner:
        """The nested runner of a workflow phase's child run (SPEC §13): same store, providers, worktree and
        lease owner as this run; no signal handlers of its own."""
        child = Runner(
            self.store, workflow, run_id, self.location, self.ctx.registry, worktree=self.ctx.worktree,
            options=options, owner=self.owner, observer=observer, runtime={"parent": self.run_id}, nested=True,
        )  # fmt: skip
        child.top_run_id = self.top_run_id  # its approvals are answered through the top-level run
        return child

    async def run(self, state: RunState, first: Sequence[Event]) -> RunState:
        """``drive`` on the running event loop (a sub-workflow's run inside its parent's, SPEC §13)."""
        return await self._main(state, first)

    def request_stop(self, why: str) -> None:
        """Stop the run for ``why`` (a supervisor reason): its parent stops (SPEC §13)."""
        self.supervisor.request_stop(why)

    # -- the loop ---------------------------------------------------------------------------------------

    def drive(self, state: RunState, first: Sequence[Event]) -> RunState:
        """Feed ``first`` and every event that follows until the run ends or waits; return the last state."""
        try:
            return asyncio.run(self._main(state, first))
        finally:  # a call whose wait was cancelled ends before the drive does (as ``asyncio.run``'s executor's)
            run_thread = self.ctx.run_thread
            if run_thread is not None:
                run_thread.join()

    def interrupt(self) -> None:
        """Interrupt the run out of band: the active attempts (or the next to start) end ``interrupted``."""
        self.supervisor.interrupt()

    def interrupt_threadsafe(self) -> None:
        """``interrupt`` from another thread (a worker's signal handler), also before the loop runs."""
        self.supervisor.interrupt_threadsafe()

    async def _main(self, state: RunState, first: Sequence[Event]) -> RunState:
        run_thread = self.ctx.run_thread = RunThread()  # the run's blocking calls (``run_thread``), a thread each drive
        self.branches = BranchScheduler(self.store, self.ctx, self.start_phase, self.options.keep_worktree)
        if self.ctx.files is not None:  # the run's artifacts and memory, as stored (another machine's too)
            await asyncio.to_thread(self.ctx.files.restore, self.store)
        try:
            async with self.supervisor.watching():
                self.ctx.cancel = self.supervisor.cancel
                try:
                    return await self._drive(state, first)
                finally:  # the run stopped (lease lost, an error): its branches' attempts stop too
                    await self.branches.stop(self.attempts.stop_all)
        finally:
            run_thread.close()
            self.observer.flush()  # the lines held back come before whatever is written after the drive
            if self.supervisor.stop != LOST:
                with contextlib.suppress(AlphredError):
                    await asyncio.to_thread(self.store.release_lease, self.run_id, self.persister.owner)

    async def _drive(self, state: RunState, first: Sequence[Event]) -> RunState:
        await self._read_deadline()
        if self.supervisor.timed_out():  # resumed, approved, retried or taken over too late: start nothing
            first = [TimedOut()]
        fed: deque[Fed] = deque((event, None) for event in first)
        while True:
            if not fed:
                stop = self.supervisor.stop
                if (
                    stop in (CANCEL, TIMEOUT)
                    and state.status not in TERMINAL_RUN_STATUSES
                    and not self.branches.in_flight
                ):
                    fed.append((CancelRequested() if stop == CANCEL else TimedOut(), None))
                elif self.branches.in_flight:
                    arrived = await self.branches.next_posted()  # the next parallel-branch attempt that ended
                    fed.extend((reported, arrived) for reported in arrived.events)
                    continue
                else:
                    break
            if self.supervisor.stop == LOST:
                raise LeaseLostError(self.run_id)
            event, posted = fed.popleft()
            joined = posted.joined if posted is not None and posted.joined is not None else None
            if joined is not None and joined.event is event:  # the attempt's worker recorded it (``joined``)
                recorded = self._joined(joined)
                new, effects = (joined.new, joined.effects) if joined.new is not None else (state, ())
            else:
                new, effects, changed = advance(state, event)
                recorded = not changed or await self._persist(
                    event, new, effects, posted, self._pause_unread(event, posted)
                )
            if not recorded:
                # a pause was asked while the attempt ran: the engine sees it before the outcome
                state, more = transition(state, PauseRequested())
                assert not more, "PauseRequested only marks the state"
                fed.appendleft((event, dataclasses.replace(posted, joined=None) if posted is not None else None))
                continue
            state = new
            if self.supervisor.deadline is None and effects:
                await self._read_deadline()  # the run's first transition stored its start
            if isinstance(event, MergeDone) and effects:  # merged and recorded: the branch's worktree can go
                await self.branches.merged(state, event.branch)
            for effect in effects:
                if isinstance(effect, ONLY_WRITTEN):  # persisted, nothing to carry out (most of a phase's effects)
                    continue
                # the attempt's end may record its outcome's transition when nothing can come between (``joined``)
                self._joinable = effect is effects[-1] and not fed and not self._held and not self.branches.in_flight
                acted = await self._act(state, effect)
                self._joinable = False
                fed.extend((reported, acted) for reported in acted.events)
        pending = self._take_pending()
        if pending:
            await asyncio.to_thread(self.persister.write, pending)
        return state

    async def _read_deadline(self) -> None:
        """Read ``limits.timeout``'s deadline from the run's stored start (a resume keeps the run's deadline)."""
        timeout = self.workflow.limits.timeout
        if timeout is not None:
            self.supervisor.deadline = await asyncio.to_thread(run_deadline, self.store, self.run_id, timeout)

    # -- then act ---------------------------------------------------------------------------------------

    async def _act(self, state: RunState, effect: Effect) -> Posted:
        if isinstance(effect, StartPhase):
            if effect.branch is None:
                return await self.start_phase(state, effect, self.ctx)
            await self.branches.start(state, effect)
        elif isinstance(effect, StopPhase):
            self.attempts.stop(effect.phase, effect.attempt)
        elif isinstance(effect, MergeBranch):
            return Posted((await self.branches.merge(state, effect),))
        elif isinstance(effect, Deliver):
            return Posted((await self._deliver(state, effect),))
        elif isinstance(effect, AwaitApproval):
            self.observer.note(approval_note(self.workflow, state, effect.phase, self.top_run_id))
        elif isinstance(effect, AwaitCi):
            self.observer.note(f"{effect.phase}: {effect.summary}", "yellow")
        elif isinstance(effect, RunFinished):
            await asyncio.to_thread(self._finish, effect)
            self.observer.run_finished(effect, state.pr_url or None)
        return Posted(())

    async def _deliver(self, state: RunState, effect: Deliver) -> Event:
        assert self.options.pull_request is not None, "a delivering run has a pull request plan"
        assert self.pull_request_text is not None, "a delivering run is told how to write its pull request"
        args = (self.store, self.workflow, self.run_id, self.options.pull_request, state, effect.step)
        extra = (self.ctx.redactor, self.ctx.environ, self.pull_request_text)
        event, said = await asyncio.to_thread(deliver_step, *args, *extra)
        if said:
            self.observer.note(said, "green" if isinstance(event, DeliveryDone) else "red")
        return event

    def _finish(self, effect: RunFinished) -> None:
        """The run ended (in a thread): record its head; a completed run's worktrees are removed.

        The removal is pending cleanup from the moment the run is stored ``completed`` with its worktree path
        (see ``cleanup``): a kill during it leaves work that ``resume``, ``worker`` and ``gc`` finish.
        """
        worktree = self.ctx.worktree
        if worktree.is_dir():
            self.store.update_run(self.run_id, head_sha=self.ctx.worktrees.head_sha(worktree))
            if effect.status is RunStatus.COMPLETED and not self.options.keep_worktree:
                from alphred.runtime.cleanup import remove_worktree

                remove_worktree(self.store, self.ctx.worktrees, self.run_id, worktree)

    # -- one attempt --------------------------------------------------------------------------------------

    async def start_phase(self, state: RunState, effect: StartPhase, ctx: PhaseContext) -> Posted:
        """Run one attempt in ``ctx`` (the run's, or a branch's) and return what it posts."""
        stats = AttemptStats()
        key = (effect.phase, effect.attempt)
        if self.supervisor.stop == INTERRUPT:  # an interrupt that arrived while the phase was starting is not lost
            return Posted((PhaseInterrupted(effect.phase, effect.attempt),), key, stats)
        if self.supervisor.stop == CANCEL:
            return Posted((CancelRequested(),), key, stats)
        if self.supervisor.timed_out():  # past the deadline (the heartbeat may not have looked yet): start nothing
            return Posted((TimedOut(),), key, stats)
        with self.attempts.under_way(effect, stats) as active:
            events = tuple(await self._attempt(state, effect, ctx, active, stats))
            return Posted(events, key, stats, active.joined)

    async def _attempt(
        self, state: RunState, effect: StartPhase, ctx: PhaseContext, active: Active, stats: AttemptStats
    ) -> list[Event]:
        phase = self.workflow.phase(effect.phase)
        supervisor = self.supervisor
        notes: tuple[str, ...] = ()
        if phase.type is not PhaseType.APPROVAL:
            # "retrying … in Ns" comes before "▶ attempt N"
            retry_notes = await self.attempts.before_retry(state, effect, active, supervisor.wake)
            if retry_notes is None:
                return self._stopped_events(effect, active)
            notes = retry_notes
        self.observer.phase_started(effect, phase.type.value, state)
        if phase.type is PhaseType.APPROVAL:
            if self.options.approve_all:
                await asyncio.to_thread(auto_approve, self.store, self.run_id, phase.key, effect.attempt, stats)
                return [PhaseCompleted(effect.phase, effect.attempt, "approved", {"comment": AUTO_APPROVED})]
            return [ApprovalRequested(effect.phase, effect.attempt)]
        resolving = state.merge.conflicts if state.merge is not None and is_resolving(state, phase.key) else None
        join = self._join(state, effect, phase, active, stats, ctx, resolving)
        then = join.end if join is not None else None
        work = run_attempt(ctx, state, phase, effect.attempt, effect.visit, stats, notes, resolving, then)
        try:
            outcome = await self._work(work, active)
        except asyncio.CancelledError:
            if supervisor.stop is None and not active.stopped:
                raise
            if join is not None and not join.refuse():  # its worker recorded the outcome: the stop comes after it
                active.joined = await join.wait()
                self.attempts.ended(effect, active.joined.event, stats)
                return [active.joined.event]
            return self._stopped_events(effect, active)
        except self.child_stopped as stopped:  # its sub-workflow paused (SPEC §13): resuming this run continues it
            if supervisor.stop is not None:  # or it stopped as this run stops (cancelled, timed out)
                return self._stopped_events(effect, active)
            top = self.top_run_id
            goes_on = f"alphred resume {top} continues it"
            if stopped.reason == AWAITING_APPROVAL:
                goes_on = f"alphred approve {top} / alphred reject {top} answers it"
            self.observer.note(f"{effect.phase}: {stopped}; {goes_on}", "yellow")
            return [PhaseInterrupted(effect.phase, effect.attempt)]
        except Exception as exc:  # the runtime itself failed this attempt: record it, never lose the run
            outcome = failed_by_runtime(effect.phase, effect.attempt, exc, stats)
        if join is not None and join.joined is not None:  # recorded with its transition by its worker
            active.joined = join.joined
            self.attempts.ended(effect, outcome, stats)
            return [outcome]
        if supervisor.stop is not None or active.stopped:  # an interrupted outcome wins over a late success
            return self._stopped_events(effect, active)
        self.attempts.ended(effect, outcome, stats)
        if supervisor.pause:
            return [PauseRequested(), outcome]
        stats.pause_unread = True  # the heartbeat may not have looked yet: the outcome's transition reads the flag
        return [outcome]

    async def _work(
        self, work: Coroutine[Any, Any, PhaseCompleted | PhaseFailed | CiWaiting], active: Active
    ) -> PhaseCompleted | PhaseFailed | CiWaiting:
        """Await an attempt's ``work`` in this task (the run's, or its branch's): no task of its own (issue 29: a
        task and two event-loop turns an attempt). A stop cancels this task while the work runs (``Active.stop``,
        after setting ``supervisor.stop`` or ``active.stopped``); the cancellations it requested are taken back as
        the work ends (``_stop_taken``), so no later await of the run's loop sees them."""
        task = active.task = asyncio.current_task()
        assert task is not None, "an attempt runs in a task"
        before = task.cancelling()
        try:
            try:
                outcome = await work
            finally:
                active.task = None  # the work ended: a stop from now on has no attempt to cancel
        except asyncio.CancelledError:  # the cancellation reached the work: nothing is left due
            if self.supervisor.stop is not None or active.stopped:
                _uncancel(task, before)
            raise
        except BaseException:
            await self._stop_taken(task, before, active)
            raise
        await self._stop_taken(task, before, active)
        return outcome

    async def _stop_taken(self, task: asyncio.Task[Any], before: int, active: Active) -> None:
        """A stop that cancelled ``task`` as its attempt's work ended without an await after it (a child run's
        stop of its parent in its last step) is still due: it is taken here, at an await of no consequence,
        not at the run loop's next one (a transaction's). What the attempt reported then counts as stopped."""
        if task.cancelling() > before and (self.supervisor.stop is not None or active.stopped):
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(0)
            _uncancel(task, before)

    def _stopped_events(self, effect: StartPhase, active: Active | None = None) -> list[Event]:
        if active is not None and active.stopped:
            return []  # StopPhase ended it: the engine has recorded it cancelled
        if self.supervisor.stop == CANCEL:
            return [CancelRequested()]
        if self.supervisor.stop == TIMEOUT:
            return [TimedOut()]
        return [PhaseInterrupted(effect.phase, effect.attempt)]


def _uncancel(task: asyncio.Task[Any], before: int) -> None:
    """Take back the cancellations of ``task`` requested since it counted ``before``: an attempt's stop, handled
    (``Task.uncancel``: a deadline's ``Watch`` reads the count)."""
    while task.cancelling() > before:
        task.uncancel()


__all__ = ["HEARTBEAT_SECONDS", "RunOptions", "Runner", "backoff_seconds"]
