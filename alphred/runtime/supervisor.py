"""Out of band of a run's loop: the heartbeat, signals, and the stop or pause they ask for.

The heartbeat (every HEARTBEAT_SECONDS, in a worker thread) renews the run's lease and the leases of its
running phases, reads the ``pause``/``cancel`` requests another process recorded and looks at the run's
``limits.timeout`` deadline. Ctrl+C/SIGTERM
interrupt the active attempts (a second one kills every process group and exits at once). While a run is
watched, every process it starts carries its owner in ``ALPHRED_LEASE_OWNER`` and every process group is
recorded with its attempt.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from datetime import datetime

from alphred.errors import AlphredError
from alphred.providers import groups
from alphred.runtime.acts import heartbeat
from alphred.runtime.attempts import Attempts
from alphred.runtime.deadline import passed
from alphred.runtime.observer import RunObserver
from alphred.runtime.orphans import MARKER
from alphred.store import SqlRunStore

HEARTBEAT_SECONDS = 0.5
TICK_SECONDS = 0.5

INTERRUPT = "interrupt"
CANCEL = "cancel"
TIMEOUT = "timeout"  # past ``limits.timeout``
LOST = "lost"


class Supervisor:
    """Watches one run while its loop drives it; ``stop`` says why the run must stop (None: it goes on)."""

    def __init__(
        self, store: SqlRunStore, run_id: int, owner: str, ttl: float, attempts: Attempts, observer: RunObserver
    ) -> None:
        self.store = store
        self.run_id = run_id
        self.owner = owner
        self.ttl = ttl
        self.attempts = attempts
        self.observer = observer
        self.stop: str | None = None  # INTERRUPT | CANCEL | TIMEOUT | LOST
        self.deadline: datetime | None = None  # ``limits.timeout`` from the run's stored start (once known)
        self.pause = False  # a pause was asked (the heartbeat saw it, or an attempt's last read did)
        self.wake = asyncio.Event()  # ends a retry's backoff when the run stops
        self.cancel = asyncio.Event()  # the providers' cancellation handle (``ProviderOptions.cancel``)
        self._signals = 0
        self.signals = True  # installs Ctrl+C/SIGTERM handlers (not a sub-workflow's: its parent's do)
        self._loop: asyncio.AbstractEventLoop | None = None

    @contextlib.asynccontextmanager
    async def watching(self) -> AsyncIterator[None]:
        """Watch the run while the block drives it: signals, the owner's mark, process groups, the heartbeat."""
        self.wake = asyncio.Event()
        self.cancel = asyncio.Event()
        loop = asyncio.get_running_loop()
        self._loop = self.attempts.loop = loop
        if self.stop == INTERRUPT:  # asked before the loop ran (another thread, or before ``drive``)
            self.interrupt()
        installed = []
        for sig in (signal.SIGINT, signal.SIGTERM) if self.signals else ():
            with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
                loop.add_signal_handler(sig, self._on_signal, sig)
                installed.append(sig)
        marked = os.environ.get(MARKER)
        os.environ[MARKER] = self.owner  # agent SDKs pass os.environ to the CLIs they spawn
        stop_listening = groups.listen(self.attempts.record_group, self.attempts.group_ended)
        background = [asyncio.create_task(self._heartbeat())]
        if self.observer.live:
            background.append(asyncio.create_task(self._ticker()))
        try:
            yield
        finally:
            stop_listening()
            for task in background:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await self.attempts.recorded()
            for sig in installed:
                loop.remove_signal_handler(sig)
            _restore(MARKER, marked)

    def interrupt(self) -> None:
        """Interrupt the run out of band: the active attempts (or the next to start) end ``interrupted``."""
        self.request_stop(INTERRUPT)

    def interrupt_threadsafe(self) -> None:
        """``interrupt`` from another thread (a worker's signal handler), also before the loop runs."""
        loop = self._loop
        if loop is None:  # ``watching`` sees it once the loop runs
            self.stop = self.stop or INTERRUPT
            return
        with contextlib.suppress(RuntimeError):  # the loop has closed: the run is over
            loop.call_soon_threadsafe(self.interrupt)

    def request_stop(self, why: str) -> None:
        """Stop the run (``INTERRUPT``, ``CANCEL``, ``TIMEOUT``, ``LOST``): every attempt under way ends now."""
        if self.stop is None or why == LOST:
            self.stop = why
        self.wake.set()
        self.cancel.set()  # providers watching their cancellation handle stop their agent
        self.attempts.stop_all()

    def timed_out(self) -> bool:
        """True once the run is past its deadline: then the run stops (``TIMEOUT``) if nothing stopped it yet."""
        if self.stop is None and passed(self.deadline):
            self.request_stop(TIMEOUT)
        return self.stop == TIMEOUT

    def _on_signal(self, sig: signal.Signals) -> None:
        self._signals += 1
        if self._signals > 1:
            self.observer.flush()  # the progress lines held (``views.held_lines``) come before this one
            sys.stderr.write("\nsecond interrupt: stopping at once (alphred resume continues the run)\n")
            sys.stderr.flush()
            groups.kill_all()
            os._exit(130)
        name = "Ctrl+C" if sig == signal.SIGINT else sig.name
        self.observer.note(f"{name}: interrupting the active phase (press again to stop at once)")
        self.interrupt()

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            self.observer.tick()

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            self.timed_out()
            phases = tuple(self.attempts.active)
            try:
                flags = await asyncio.to_thread(heartbeat, self.store, self.run_id, self.owner, self.ttl, phases)
            except AlphredError:
                continue  # a busy database: try again at the next beat; the lease TTL covers it
            if flags is None:
                self.request_stop(LOST)
            elif flags[1]:
                self.request_stop(CANCEL)
            elif flags[0]:
                self.pause = True


def _restore(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value
