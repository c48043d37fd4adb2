"""The attempts a run has under way: their tasks, their retry backoff and the process groups they start.

Several attempts run at once when a run has parallel branches (SPEC §8). Each runs in a task of its own
(the run loop's for the run branch, a branch's task for a parallel branch's: no task is made per attempt,
``Runner._work``) with a context variable naming it, so a process group registered from that task (or a thread
it started) is recorded with its attempt; a group registered elsewhere goes to the only attempt under way, if
there is one.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import field
from typing import Any

from alphred.engine import PhaseFailed, RunState, StartPhase
from alphred.errors import RETRYABLE_KINDS
from alphred.lazy import deferred_dataclass
from alphred.runtime.attempt_context import AttemptStats
from alphred.runtime.joined import Joined
from alphred.runtime.observer import RunObserver
from alphred.runtime.options import backoff_seconds
from alphred.store import SqlRunStore
from alphred.store.owners import process_start_time

_HOST = socket.gethostname()  # the host a process group is recorded on (a take-over kills only its own)
_ATTEMPT: ContextVar[tuple[Attempts, str, int] | None] = ContextVar("alphred_attempt", default=None)
"""The run (its ``Attempts``) and attempt the current task (or a thread it started) works for."""


@deferred_dataclass
class _Failure:
    attempt: int
    kind: str
    message: str
    retry_after: float | None


@deferred_dataclass
class Active:
    """An attempt that is starting or running; ``task``: the task its work runs in, while it runs (a stop cancels
    it there; ``Runner._work`` takes the cancellation back); ``wake`` ends its backoff; ``stats`` what is measured
    of it so far."""

    phase: str
    attempt: int
    branch: str | None
    stats: AttemptStats
    task: asyncio.Future[Any] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    stopped: bool = False  # ended by StopPhase: the engine has recorded it already
    joined: Joined | None = None  # its outcome's transition, recorded by the worker that ended it (``runtime.joined``)

    def stop(self) -> None:
        """End the attempt: its backoff, or its running work (its process group is killed)."""
        self.wake.set()
        if self.task is not None and not self.task.done():
            self.task.cancel()


class Attempts:
    """The attempts of one run that are under way, keyed by phase (a phase runs in at most one branch)."""

    def __init__(self, store: SqlRunStore, run_id: int, observer: RunObserver, environ: Mapping[str, str]) -> None:
        self.store = store
        self.run_id = run_id
        self.observer = observer
        self.environ = environ
        self.active: dict[str, Active] = {}
        self._failures: dict[str, _Failure] = {}
        self._recorder: ThreadPoolExecutor | None = None  # the thread writing the groups (``record_group``)
        self.loop: asyncio.AbstractEventLoop | None = None

    @contextlib.contextmanager
    def under_way(self, effect: StartPhase, stats: AttemptStats | None = None) -> Iterator[Active]:
        """Track ``effect``'s attempt (measured into ``stats``) while the block runs; process groups started
        meanwhile are its own."""
        measured = stats if stats is not None else AttemptStats()
        active = self.active[effect.phase] = Active(effect.phase, effect.attempt, effect.branch, measured)
        token = _ATTEMPT.set((self, effect.phase, effect.attempt))
        try:
            yield active
        finally:
            _ATTEMPT.reset(token)
            if self.active.get(effect.phase) is active:
                del self.active[effect.phase]

    def stop(self, phase: str, attempt: int) -> None:
        """``StopPhase``: end that attempt; what it reports later is dropped."""
        active = self.active.get(phase)
        if active is not None and active.attempt == attempt:
            active.stopped = True
            active.stop()

    def stop_all(self) -> None:
        """End every attempt under way (an interruption, a cancel, a lost lease)."""
        for active in list(self.active.values()):
            active.stop()

    def stats_of(self, attempt: tuple[str, int]) -> AttemptStats | None:
        """The measurements so far of ``attempt`` (``(phase, number)``) while it is under way, else None."""
        active = self.active.get(attempt[0])
        return active.stats if active is not None and active.attempt == attempt[1] else None

    def ended(self, effect: StartPhase, outcome: object, stats: AttemptStats) -> None:
        """Remember how an attempt ended: a retry is told why the one before failed."""
        if isinstance(outcome, PhaseFailed) and outcome.wake_at is None:  # a usage limit is no failure to tell
            error = stats.details.get("error", {})
            self._failures[effect.phase] = _Failure(
                effect.attempt, outcome.reason, stats.message or outcome.reason, error.get("retry_after")
            )
        else:
            self._failures.pop(effect.phase, None)

    async def before_retry(
        self, state: RunState, effect: StartPhase, active: Active, stopping: asyncio.Event
    ) -> tuple[str, ...] | None:
        """Back off before retrying a retryable failure; the notes for the retry's context (None: stopped)."""
        failure = self._failures.get(effect.phase)
        if failure is None or failure.attempt != effect.attempt - 1:
            return ()
        note = (
            f'<previous_attempt phase="{effect.phase}" attempt="{failure.attempt}" reason="{failure.kind}">\n'
            f"{failure.message[:2000]}\n</previous_attempt>"
        )
        if failure.kind in RETRYABLE_KINDS:
            consecutive = max(1, state.phase(effect.phase).consecutive_failures)
            delay = backoff_seconds(consecutive, failure.retry_after, self.environ)
            self.observer.note(
                f"retrying {effect.phase} in {delay:.1f}s: attempt {failure.attempt} failed ({failure.kind})"
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(active.wake.wait(), delay)
            if stopping.is_set() or active.stopped:
                return None
        return (note,)

    def record_group(self, pgid: int) -> None:
        """A process group started for an attempt: record it for a later take-over, as soon as it exists (in the
        run's recording thread: /proc and SQL stay off the event loop; see docs/architecture.md, "The process
        group's record")."""
        current = _ATTEMPT.get()
        loop = self.loop
        attempt: tuple[str, int] | None = None
        if current is not None:
            if current[0] is not self:  # another run's attempt (several runs share a worker process)
                return
            attempt = current[1:]
        elif len(self.active) == 1 and loop is not None and _running_loop() is loop:
            only = next(iter(self.active.values()))  # started on this run's loop outside the attempt's task
            attempt = (only.phase, only.attempt)
        if attempt is None or loop is None:
            return
        phase, number = attempt

        def add() -> None:
            self.store.add_process(self.run_id, phase, number, _HOST, pgid, process_start_time(pgid))

        def record() -> None:  # the write starts at once; its end does not wake the loop (``recorded`` waits)
            recorder = self._recorder
            if recorder is None:
                recorder = self._recorder = ThreadPoolExecutor(1, thread_name_prefix="alphred-groups")
            recorder.submit(add)

        with contextlib.suppress(RuntimeError):  # the loop has closed: the run is over
            if _running_loop() is loop:
                record()
            else:
                loop.call_soon_threadsafe(record)

    async def recorded(self) -> None:
        """Wait until every process group is recorded (the recording thread then ends)."""
        recorder, self._recorder = self._recorder, None
        if recorder is not None:
            await asyncio.to_thread(recorder.shutdown, wait=True)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
