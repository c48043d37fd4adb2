"""Drive a run: a loop that feeds events to the pure engine, persists its effects first, then carries them out.

Every transition's effects and the engine's state snapshot are written in ONE transaction fenced by the
run's lease (``persist.Persister``); a phase attempt is claimed in the transaction that moves it to
``running``. Every blocking call (SQL, git, push, ``gh``/``az``) runs in a worker thread, so the event loop
stays free for the heartbeat that renews the leases and watches for ``pause``/``cancel``, for timeouts and
for Ctrl+C/SIGTERM, which interrupt the active attempts out of band.

An attempt on the run branch is awaited in the loop. The attempts of parallel branches (SPEC §8) run as
tasks side by side; each posts the events that report it to an inbox the loop takes them from, one
transition at a time, so the engine still sees one event after another.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from alphred.engine import (
    TERMINAL_RUN_STATUSES,
    ApprovalRequested,
    AwaitApproval,
    CancelRequested,
    Deliver,
    DeliveryDone,
    Effect,
    Event,
    MergeBranch,
    MergeDone,
    PauseRequested,
    PhaseCompleted,
    PhaseInterrupted,
    RecordStep,
    RunFinished,
    RunState,
    RunStatus,
    StartPhase,
    StopPhase,
    transition,
)
from alphred.engine.fan_out import is_resolving
from alphred.errors import AlphredError, LeaseLostError
from alphred.git import GitWorktrees, RepoLocation
from alphred.providers import ProviderRegistry, groups
from alphred.redact import Redactor
from alphred.runtime.acts import AUTO_APPROVED, approval_note, auto_approve, failed_by_runtime, heartbeat
from alphred.runtime.attempts import Active, Attempts
from alphred.runtime.branches import Branches
from alphred.runtime.cleanup import remove_worktree
from alphred.runtime.crash import crash_point
from alphred.runtime.delivery import deliver_step
from alphred.runtime.options import RunOptions, backoff_seconds
from alphred.runtime.orphans import MARKER
from alphred.runtime.persist import Persister, Write
from alphred.runtime.phase import AttemptStats, PhaseContext, run_attempt
from alphred.store import SqlRunStore
from alphred.store.owners import LeaseOwner, lease_ttl
from alphred.store.snapshots import read_requests
from alphred.views.jsonl import JsonlEvents
from alphred.views.progress import Progress
from alphred.workflow import PhaseType, Workflow

HEARTBEAT_SECONDS = 0.5


class Runner:
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
        progress: Progress | None = None,
        events: JsonlEvents | None = None,
        runtime: Mapping[str, Any] | None = None,
    ) -> None:
        self.store = store
        self.workflow = workflow
        self.run_id = run_id
        self.options = options
        self.owner = str(owner)
        self.ttl = lease_ttl()
        self.progress = progress or Progress(enabled=False)
        self.worktrees = GitWorktrees(location)
        self.worktree = worktree
        self.interrupted = False
        environment = {**options.env, MARKER: self.owner}  # every process the run starts carries its owner
        self.ctx = PhaseContext(
            store=store,
            run_id=run_id,
            workflow=workflow,
            worktree=worktree,
            worktrees=self.worktrees,
            registry=registry,
            redactor=Redactor(environment),
            env=environment,
            on_event=events.provider_callback(run_id) if events is not None else None,
            dry_run_commands=options.dry_run and options.dry_run_scope == "all",
        )
        self.events = events
        self.persister = Persister(store, run_id, self.owner, self.ttl, {**(runtime or {}), **options.stored()})
        self.attempts = Attempts(store, run_id, self.progress, options.env)
        self._branches: Branches | None = None
        self._in_flight = 0  # parallel-branch attempts whose events are not taken from the inbox yet
        self._inbox: asyncio.Queue[list[Event]] = asyncio.Queue()
        self._lane_tasks: set[asyncio.Task[None]] = set()
        self._stop: str | None = None  # "interrupt" | "cancel" | "lost"
        self._pause = False
        self._wake = asyncio.Event()
        self._signals = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._early_interrupt = False

    # -- the loop ---------------------------------------------------------------------------------------

    def drive(self, state: RunState, first: Sequence[Event]) -> RunState:
        """Feed ``first`` and every event that follows until the run ends or waits; return the last state."""
        return asyncio.run(self._main(state, first))

    async def _main(self, state: RunState, first: Sequence[Event]) -> RunState:
        self._wake = asyncio.Event()
        self._inbox = asyncio.Queue()
        self.ctx.cancel = asyncio.Event()
        loop = asyncio.get_running_loop()
        self._loop = self.attempts.loop = loop
        if self._early_interrupt:
            self.interrupt()
        installed = []
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
                loop.add_signal_handler(sig, self._on_signal, sig)
                installed.append(sig)
        marked = os.environ.get(MARKER)
        os.environ[MARKER] = self.owner  # agent SDKs pass os.environ to the CLIs they spawn
        stop_listening = groups.listen(self.attempts.record_group)
        background = [asyncio.create_task(self._heartbeat())]
        if self.progress.live:
            background.append(asyncio.create_task(self._ticker()))
        try:
            return await self._drive(state, first)
        finally:
            if self._lane_tasks:  # the run stopped (lease lost, an error): its branches' attempts stop too
                self.attempts.stop_all()
                await asyncio.gather(*self._lane_tasks, return_exceptions=True)
            stop_listening()
            for task in background:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await self.attempts.recorded()
            for sig in installed:
                loop.remove_signal_handler(sig)
            _restore(MARKER, marked)
            if self._stop != "lost":
                with contextlib.suppress(AlphredError):
                    await asyncio.to_thread(self.store.release_lease, self.run_id, self.owner)

    async def _drive(self, state: RunState, first: Sequence[Event]) -> RunState:
        events: deque[Event] = deque(first)
        while True:
            if not events:
                if self._stop == "cancel" and state.status not in TERMINAL_RUN_STATUSES and not self._in_flight:
                    events.append(CancelRequested())
                elif self._in_flight:
                    events.extend(await self._inbox.get())  # the next parallel-branch attempt that ended
                    self._in_flight -= 1
                    continue
                else:
                    break
            if self._stop == "lost":
                raise LeaseLostError(self.run_id)
            event = events.popleft()
            new, effects = transition(state, event)
            if new != state or effects:
                await self._persist(new, effects)
            state = new
            if isinstance(event, MergeDone) and effects and self._branches is not None:
                keep = self.options.keep_worktree  # merged and recorded: the branch's worktree can go
                await asyncio.to_thread(self._branches.merged, state, event.branch, keep)
            for effect in effects:
                events.extend(await self._act(state, effect))
        pending = self._take_pending()
        if pending:
            await asyncio.to_thread(self.persister.write, pending)
        return state

    async def _persist(self, state: RunState, effects: tuple[Effect, ...]) -> None:
        """Persist one transition (in a thread), then report it."""
        clear_pause = state.status is RunStatus.PAUSED and self._pause
        try:
            await asyncio.to_thread(self.persister.persist, state, effects, self._take_pending(), clear_pause)
        except LeaseLostError:
            self._stop = "lost"
            raise
        if clear_pause:
            self._pause = False
        for effect in effects:
            if isinstance(effect, RecordStep):
                self.progress.step_finished(
                    effect, self.persister.stats.pop((effect.phase, effect.attempt), AttemptStats())
                )
            if self.events is not None:
                self.events.effect(self.run_id, effect)
        if any(isinstance(e, RecordStep) for e in effects):
            crash_point("between_phases")

    def _take_pending(self) -> list[Write]:
        pending, self.ctx.pending = self.ctx.pending, []
        if self._branches is not None:
            pending += self._branches.take_pending()
        return pending

    # -- then act ---------------------------------------------------------------------------------------

    async def _act(self, state: RunState, effect: Effect) -> list[Event]:
        if isinstance(effect, StartPhase):
            if effect.branch is None:
                return await self._start_phase(state, effect)
            self._start_lane(state, effect, await self._lanes())
        elif isinstance(effect, StopPhase):
            self.attempts.stop(effect.phase, effect.attempt)
        elif isinstance(effect, MergeBranch):
            branches = await self._lanes()
            return [await asyncio.to_thread(branches.merge, state, effect)]
        elif isinstance(effect, Deliver):
            assert self.options.pull_request is not None, "a delivering run has a pull request plan"
            args = (self.store, self.workflow, self.run_id, self.options.pull_request, state, effect.step)
            event, said = await asyncio.to_thread(deliver_step, *args, self.ctx.redactor, self.ctx.env)
            if said:
                self.progress.note(said, "green" if isinstance(event, DeliveryDone) else "red")
            return [event]
        elif isinstance(effect, AwaitApproval):
            self.progress.note(approval_note(self.workflow, state, effect.phase, self.run_id))
        elif isinstance(effect, RunFinished):
            await asyncio.to_thread(self._finish, effect)
        return []

    async def _lanes(self) -> Branches:
        if self._branches is None:
            record = await asyncio.to_thread(self.store.get_run, self.run_id)
            self._branches = Branches(self.ctx, record.branch or "", self.worktrees)
        return self._branches

    def _start_lane(self, state: RunState, effect: StartPhase, branches: Branches) -> None:
        """Start an attempt of a parallel branch as a task of its own; its events reach the inbox."""
        assert effect.branch is not None
        self._in_flight += 1
        branches.busy.add(effect.branch)
        task = asyncio.get_running_loop().create_task(self._run_lane(state, effect, branches))
        self._lane_tasks.add(task)
        task.add_done_callback(self._lane_tasks.discard)

    async def _run_lane(self, state: RunState, effect: StartPhase, branches: Branches) -> None:
        assert effect.branch is not None
        reported: list[Event] = []
        try:
            ctx = await asyncio.to_thread(branches.context, state, effect.branch)
            reported = await self._start_phase(state, effect, ctx)
        except asyncio.CancelledError:
            reported = []  # stopped while its worktree was made: the engine recorded it
        except Exception as exc:  # making the branch's worktree failed: the attempt failed, the run goes on
            reported = [failed_by_runtime(effect.phase, effect.attempt, exc, AttemptStats())]
        finally:
            branches.busy.discard(effect.branch)
            self._inbox.put_nowait(reported)

    async def _start_phase(self, state: RunState, effect: StartPhase, ctx: PhaseContext | None = None) -> list[Event]:
        stats = AttemptStats()
        self.persister.stats[(effect.phase, effect.attempt)] = stats
        if self._stop == "interrupt":  # an interrupt that arrived while the phase was starting is not lost
            return [PhaseInterrupted(effect.phase, effect.attempt)]
        if self._stop == "cancel":
            return [CancelRequested()]
        with self.attempts.under_way(effect) as active:
            return await self._attempt(state, effect, ctx or self.ctx, active, stats)

    async def _attempt(
        self, state: RunState, effect: StartPhase, ctx: PhaseContext, active: Active, stats: AttemptStats
    ) -> list[Event]:
        phase = self.workflow.phase(effect.phase)
        notes: tuple[str, ...] = ()
        if phase.type is not PhaseType.APPROVAL:
            # "retrying … in Ns" comes before "▶ attempt N"
            retry_notes = await self.attempts.before_retry(state, effect, active, self._wake)
            if retry_notes is None:
                return self._stopped_events(effect, active)
            notes = retry_notes
        self.progress.phase_started(effect, phase.type.value, state)
        if phase.type is PhaseType.APPROVAL:
            if self.options.approve_all:
                await asyncio.to_thread(auto_approve, self.store, self.run_id, phase.key, effect.attempt, stats)
                return [PhaseCompleted(effect.phase, effect.attempt, "approved", {"comment": AUTO_APPROVED})]
            return [ApprovalRequested(effect.phase, effect.attempt)]
        resolving = state.merge.conflicts if state.merge is not None and is_resolving(state, phase.key) else None
        work = run_attempt(ctx, state, phase, effect.attempt, effect.visit, stats, notes, resolving)
        task = active.task = asyncio.ensure_future(work)
        try:
            outcome = await task
        except asyncio.CancelledError:
            if self._stop is None and not active.stopped:
                raise
            return self._stopped_events(effect, active)
        except Exception as exc:  # the runtime itself failed this attempt: record it, never lose the run
            outcome = failed_by_runtime(effect.phase, effect.attempt, exc, stats)
        if self._stop is not None or active.stopped:  # an interrupted outcome wins over a late success
            return self._stopped_events(effect, active)
        self.attempts.ended(effect, outcome, stats)
        if not self._pause:  # the heartbeat may not have looked yet: a pause asked just before the end counts
            asked = stats.pause_requested  # read as the attempt ended, with its last events
            if asked is None:  # the runtime failed the attempt before that
                asked = (await asyncio.to_thread(read_requests, self.store, self.run_id))[0]
            self._pause = asked
        return [PauseRequested(), outcome] if self._pause else [outcome]

    def _stopped_events(self, effect: StartPhase, active: Active | None = None) -> list[Event]:
        if active is not None and active.stopped:
            return []  # StopPhase ended it: the engine has recorded it cancelled
        if self._stop == "cancel":
            return [CancelRequested()]
        return [PhaseInterrupted(effect.phase, effect.attempt)]

    def _finish(self, effect: RunFinished) -> None:
        """The run ended (in a thread): record its head; a completed run's worktrees are removed.

        The removal is pending cleanup from the moment the run is stored ``completed`` with its worktree path
        (see ``cleanup``): a kill during it leaves work that ``resume``, ``worker`` and ``gc`` finish.
        """
        if self.worktree.is_dir():
            self.store.update_run(self.run_id, head_sha=self.worktrees.head_sha(self.worktree))
            if effect.status is RunStatus.COMPLETED and not self.options.keep_worktree:
                remove_worktree(self.store, self.worktrees, self.run_id, self.worktree)
        self.progress.run_finished(effect)
        if self.events is not None:
            record = self.store.get_run(self.run_id)
            self.events.run_finished(self.run_id, effect.status.value, effect.reason, pr_url=record.pr_url)

    # -- out of band ------------------------------------------------------------------------------------

    def _on_signal(self, sig: signal.Signals) -> None:
        self._signals += 1
        if self._signals > 1:
            sys.stderr.write("\nsecond interrupt: stopping at once (alphred resume continues the run)\n")
            sys.stderr.flush()
            groups.kill_all()
            os._exit(130)
        name = "Ctrl+C" if sig == signal.SIGINT else sig.name
        self.progress.note(f"{name}: interrupting the active phase (press again to stop at once)")
        self.interrupt()

    def interrupt(self) -> None:
        """Interrupt the run out of band: the active attempts (or the next to start) end ``interrupted``."""
        self._request_stop("interrupt")

    def interrupt_threadsafe(self) -> None:
        """``interrupt`` from another thread (a worker's signal handler), also before the loop runs."""
        self._early_interrupt = True  # seen by _main if its loop is not running yet
        loop = self._loop
        if loop is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop has already closed: the run is over
            loop.call_soon_threadsafe(self.interrupt)

    def _request_stop(self, why: str) -> None:
        if self._stop is None or why == "lost":
            self._stop = why
            self.interrupted = why == "interrupt"
        self._wake.set()
        self.ctx.cancel.set()  # providers watching their cancellation handle stop their agent
        self.attempts.stop_all()

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            self.progress.tick()

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            phases = tuple(self.attempts.active)
            try:
                flags = await asyncio.to_thread(heartbeat, self.store, self.run_id, self.owner, self.ttl, phases)
            except AlphredError:
                continue  # a busy database: try again at the next beat; the lease TTL covers it
            if flags is None:
                self._request_stop("lost")
            elif flags[1]:
                self._request_stop("cancel")
            elif flags[0]:
                self._pause = True


def _restore(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


__all__ = ["HEARTBEAT_SECONDS", "RunOptions", "Runner", "backoff_seconds"]
