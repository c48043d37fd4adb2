"""Drive a run: a loop that feeds events to the pure engine, persists its effects first, then carries them out.

Every transition's effects and the engine's state snapshot are written in ONE transaction fenced by the
run's lease (``persist.Persister``); a phase attempt is claimed in the transaction that moves it to
``running``. Every blocking call (SQL, git, push, ``gh``/``az``) runs in a worker thread, so the event loop
stays free for the heartbeat that renews both leases and watches for ``pause``/``cancel``, for timeouts and
for Ctrl+C/SIGTERM, which interrupt the active attempt out of band.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import socket
import sys
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
    PauseRequested,
    PhaseCompleted,
    PhaseFailed,
    PhaseInterrupted,
    RecordStep,
    RunFinished,
    RunState,
    RunStatus,
    StartPhase,
    transition,
)
from alphred.errors import RETRYABLE_KINDS, AlphredError, LeaseLostError, SettingError
from alphred.git import GitWorktrees, RepoLocation
from alphred.providers import ProviderRegistry, groups
from alphred.settings import seconds_setting
from alphred.spec import PhaseType, Workflow
from alphred.store import SqlRunStore
from alphred.store.snapshots import read_requests

from .acts import AUTO_APPROVED, approval_note, auto_approve, failed_by_runtime, heartbeat
from .cleanup import remove_worktree
from .crash import crash_point
from .delivery import PullRequestPlan, deliver_step
from .jsonl import JsonlEvents
from .lease import LeaseOwner, lease_ttl, process_start_time
from .orphans import MARKER
from .persist import Persister, Write
from .phase import AttemptStats, PhaseContext, run_attempt
from .progress import Progress
from .redact import Redactor

HEARTBEAT_SECONDS = 0.5


@dataclass
class RunOptions:
    """How a run executes (the flags of ``alphred run`` that reach the runtime); stored with the run."""

    inputs: Mapping[str, str] = field(default_factory=dict)
    base: str | None = None
    branch: str | None = None
    branch_template: str | None = None  # the registered repository's template, below --branch
    keep_worktree: bool = False
    approve_all: bool = False
    dry_run: bool = False
    dry_run_scope: str = "all"  # "all": agents stubbed, commands said not run; "agents": commands still run
    pull_request: PullRequestPlan | None = None
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))

    def stored(self) -> dict[str, Any]:
        """The part that a later ``resume`` must honour."""
        return {
            "keep_worktree": self.keep_worktree,
            "approve_all": self.approve_all,
            "dry_run": self.dry_run,
            "dry_run_scope": self.dry_run_scope,
            "pull_request": self.pull_request.stored() if self.pull_request else None,
        }


@dataclass
class _Failure:
    attempt: int
    kind: str
    message: str
    retry_after: float | None


def backoff_seconds(failures: int, retry_after: float | None, env: Mapping[str, str]) -> float:
    """Exponential backoff with jitter for the ``failures``-th consecutive retryable failure."""
    try:
        base = seconds_setting(env, "ALPHRED_RETRY_BASE_SECONDS", 2.0)
    except SettingError:
        base = 2.0
    delay = min(base * 2 ** max(failures - 1, 0), 60.0) * random.uniform(0.75, 1.25)
    return float(max(delay, retry_after or 0.0))


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
        self._failures: dict[str, _Failure] = {}
        self._phase: tuple[str, int] | None = None
        self._phase_task: asyncio.Task[Any] | None = None
        self._stop: str | None = None  # "interrupt" | "cancel" | "lost"
        self._pause = False
        self._wake = asyncio.Event()
        self._signals = 0
        self._recording: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._early_interrupt = False

    # -- the loop ---------------------------------------------------------------------------------------

    def drive(self, state: RunState, first: Sequence[Event]) -> RunState:
        """Feed ``first`` and every event that follows until the run ends or waits; return the last state."""
        return asyncio.run(self._main(state, first))

    async def _main(self, state: RunState, first: Sequence[Event]) -> RunState:
        self._wake = asyncio.Event()
        self.ctx.cancel = asyncio.Event()
        loop = asyncio.get_running_loop()
        self._loop = loop
        if self._early_interrupt:
            self.interrupt()
        installed = []
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
                loop.add_signal_handler(sig, self._on_signal, sig)
                installed.append(sig)
        marked = os.environ.get(MARKER)
        os.environ[MARKER] = self.owner  # agent SDKs pass os.environ to the CLIs they spawn
        stop_listening = groups.listen(self._record_group)
        background = [asyncio.create_task(self._heartbeat())]
        if self.progress.live:
            background.append(asyncio.create_task(self._ticker()))
        try:
            return await self._drive(state, first)
        finally:
            stop_listening()
            for task in background:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if self._recording:
                await asyncio.gather(*self._recording, return_exceptions=True)
            for sig in installed:
                loop.remove_signal_handler(sig)
            _restore(MARKER, marked)
            if self._stop != "lost":
                with contextlib.suppress(AlphredError):
                    await asyncio.to_thread(self.store.release_lease, self.run_id, self.owner)

    async def _drive(self, state: RunState, first: Sequence[Event]) -> RunState:
        events: deque[Event] = deque(first)
        while events:
            if self._stop == "lost":
                raise LeaseLostError(self.run_id)
            new, effects = transition(state, events.popleft())
            if new != state or effects:
                await self._persist(new, effects)
            state = new
            for effect in effects:
                events.extend(await self._act(state, effect))
            if not events and self._stop == "cancel" and state.status not in TERMINAL_RUN_STATUSES:
                events.append(CancelRequested())
        if self.ctx.pending:
            await asyncio.to_thread(self.persister.write, self._take_pending())
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
        return pending

    # -- then act ---------------------------------------------------------------------------------------

    async def _act(self, state: RunState, effect: Effect) -> list[Event]:
        if isinstance(effect, StartPhase):
            return await self._start_phase(state, effect)
        if isinstance(effect, Deliver):
            assert self.options.pull_request is not None, "a delivering run has a pull request plan"
            args = (self.store, self.workflow, self.run_id, self.options.pull_request, state, effect.step)
            event, said = await asyncio.to_thread(deliver_step, *args, self.ctx.redactor, self.ctx.env)
            if said:
                self.progress.note(said, "green" if isinstance(event, DeliveryDone) else "red")
            return [event]
        if isinstance(effect, AwaitApproval):
            self.progress.note(approval_note(self.workflow, state, effect.phase, self.run_id))
        elif isinstance(effect, RunFinished):
            await asyncio.to_thread(self._finish, effect)
        return []

    async def _start_phase(self, state: RunState, effect: StartPhase) -> list[Event]:
        phase = self.workflow.phase(effect.phase)
        stats = AttemptStats()
        self.persister.stats[(effect.phase, effect.attempt)] = stats
        if self._stop == "interrupt":  # an interrupt that arrived while the phase was starting is not lost
            return [PhaseInterrupted(effect.phase, effect.attempt)]
        if self._stop == "cancel":
            return [CancelRequested()]
        notes: tuple[str, ...] = ()
        if phase.type is not PhaseType.APPROVAL:
            retry_notes = await self._before_retry(state, effect)  # "retrying … in Ns" comes before "▶ attempt N"
            if retry_notes is None:
                return self._stopped_events(effect)
            notes = retry_notes
        self.progress.phase_started(effect, phase.type.value, state)
        if phase.type is PhaseType.APPROVAL:
            if self.options.approve_all:
                await asyncio.to_thread(auto_approve, self.store, self.run_id, phase.key, effect.attempt, stats)
                return [PhaseCompleted(effect.phase, effect.attempt, "approved", {"comment": AUTO_APPROVED})]
            return [ApprovalRequested(effect.phase, effect.attempt)]
        self._phase = (effect.phase, effect.attempt)
        task = asyncio.ensure_future(run_attempt(self.ctx, state, phase, effect.attempt, effect.visit, stats, notes))
        self._phase_task = task
        try:
            outcome = await task
        except asyncio.CancelledError:
            if self._stop is None:
                raise
            return self._stopped_events(effect)
        except Exception as exc:  # the runtime itself failed this attempt: record it, never lose the run
            outcome = failed_by_runtime(effect.phase, effect.attempt, exc, stats)
        finally:
            self._phase = None
            self._phase_task = None
        if self._stop is not None:  # an interrupted outcome wins over a late success
            return self._stopped_events(effect)
        if isinstance(outcome, PhaseFailed):
            error = stats.details.get("error", {})
            self._failures[effect.phase] = _Failure(
                effect.attempt, outcome.reason, stats.message or outcome.reason, error.get("retry_after")
            )
        else:
            self._failures.pop(effect.phase, None)
        if not self._pause:  # the heartbeat may not have looked yet: a pause asked just before the end counts
            self._pause = (await asyncio.to_thread(read_requests, self.store, self.run_id))[0]
        return [PauseRequested(), outcome] if self._pause else [outcome]

    def _stopped_events(self, effect: StartPhase) -> list[Event]:
        if self._stop == "cancel":
            return [CancelRequested()]
        return [PhaseInterrupted(effect.phase, effect.attempt)]

    async def _before_retry(self, state: RunState, effect: StartPhase) -> tuple[str, ...] | None:
        """Back off before retrying a retryable provider failure; the notes for the retry's context."""
        failure = self._failures.get(effect.phase)
        if failure is None or failure.attempt != effect.attempt - 1:
            return ()
        note = (
            f'<previous_attempt phase="{effect.phase}" attempt="{failure.attempt}" reason="{failure.kind}">\n'
            f"{failure.message[:2000]}\n</previous_attempt>"
        )
        if failure.kind in RETRYABLE_KINDS:
            consecutive = max(1, state.phase(effect.phase).consecutive_failures)
            delay = backoff_seconds(consecutive, failure.retry_after, self.options.env)
            self.progress.note(
                f"retrying {effect.phase} in {delay:.1f}s: attempt {failure.attempt} failed ({failure.kind})"
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)
            if self._stop is not None:
                return None
        return (note,)

    def _finish(self, effect: RunFinished) -> None:
        """The run ended (in a thread): record its head; a completed run's worktree is removed.

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
        """Interrupt the run out of band: the active attempt (or the next one to start) ends ``interrupted``."""
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
        if self._phase_task is not None and not self._phase_task.done():
            self._phase_task.cancel()

    def _record_group(self, pgid: int) -> None:
        """A process group started for the active attempt: record it (in a thread) for a later take-over."""
        if self._phase is None:
            return
        phase, attempt = self._phase
        args = (self.run_id, phase, attempt, socket.gethostname(), pgid, process_start_time(pgid))
        task = asyncio.get_running_loop().create_task(asyncio.to_thread(self.store.add_process, *args))
        self._recording.add(task)
        task.add_done_callback(self._recording.discard)

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            self.progress.tick()

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            phase = self._phase[0] if self._phase is not None else None
            try:
                flags = await asyncio.to_thread(heartbeat, self.store, self.run_id, self.owner, self.ttl, phase)
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
