"""The deadlines of a run's attempts under way (each its phase's ``timeout`` or ``idle_timeout``) on one timer.

``consume`` watched each attempt with an ``asyncio.timeout_at``: a ``Timeout``, a timer armed and cancelled, and
two ``await``s per attempt, and the cancelled timers left in the loop's heap until it swept them (issue 29). A
``Deadlines`` (one per run's ``PhaseContext``, ``deadlines``) keeps every attempt's deadline and one timer armed at
the earliest: an attempt entering with a later deadline (every attempt of a sequence of short phases) arms
nothing, and moving a deadline forward (an event arrived) only writes it down. When the timer fires it expires
the attempts past their deadline and re-arms itself at the earliest left; with none left it is not armed again.

An expired ``Watch`` behaves as a ``Timeout`` does: it cancels its task, and on leaving turns the cancellation
into ``TimeoutError`` only when no other cancellation came meanwhile (``Task.uncancel``: a Ctrl+C, a stop, a
branch's stop still cancel the attempt as ``CancelledError``).
"""

from __future__ import annotations

import asyncio
import math
from types import TracebackType

from alphred.runtime.attempt_context import PhaseContext


class Watch:
    """One attempt's deadline (a ``with`` block around its stream's draining, in the task its work runs in)."""

    __slots__ = ("cancelling", "deadlines", "expired", "task", "when")

    def __init__(self, deadlines: Deadlines, when: float) -> None:
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("an attempt's deadline is watched inside a task")
        self.deadlines = deadlines
        self.task = task
        self.when = when
        self.cancelling = 0
        self.expired = False

    def reschedule(self, when: float) -> None:
        """Move the deadline to ``when`` (the timer is moved only when ``when`` is earlier than it)."""
        self.when = when
        if when < self.deadlines.armed_at and not self.expired:
            self.deadlines.arm(when)

    def __enter__(self) -> Watch:
        self.cancelling = self.task.cancelling()
        deadlines = self.deadlines
        deadlines.watches.add(self)
        if self.when < deadlines.armed_at:
            deadlines.arm(self.when)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.deadlines.watches.discard(self)
        if self.expired and self.task.uncancel() <= self.cancelling and kind is asyncio.CancelledError:
            raise TimeoutError from error  # its own cancellation, and no other since: the deadline passed


class Deadlines:
    """Every attempt's deadline in a run, on one timer (see the module)."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.watches: set[Watch] = set()
        self.armed_at = math.inf  # when the timer fires (inf: not armed)
        self._timer: asyncio.TimerHandle | None = None

    def watch(self, when: float) -> Watch:
        """A deadline at loop time ``when`` for the current task (entered with ``with``)."""
        return Watch(self, when)

    def arm(self, when: float) -> None:
        """Fire at ``when`` (earlier than the timer now armed, if any)."""
        if self._timer is not None:
            self._timer.cancel()
        self.armed_at = when
        self._timer = self.loop.call_at(when, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self.armed_at = math.inf
        now = self.loop.time()
        for watch in [w for w in self.watches if w.when <= now and not w.expired]:
            watch.expired = True
            watch.task.cancel()
        waiting = [w.when for w in self.watches if not w.expired]
        if waiting:
            self.arm(min(waiting))


def attempt_deadlines(ctx: PhaseContext) -> Deadlines:
    """The run context's ``Deadlines`` on the running loop (made on first use, again on another loop)."""
    found = ctx.deadlines
    if not isinstance(found, Deadlines) or found.loop is not asyncio.get_running_loop():
        found = ctx.deadlines = Deadlines()
    return found
