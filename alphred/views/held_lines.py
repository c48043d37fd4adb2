"""Progress lines off a terminal, written to their stream a few at a time (issue 29: ``alphred run --json`` in CI).

Off a terminal (a CI log, a pipe) every line used to be one write to the pipe and a wake-up of whoever reads
it: at a few hundred phases a second, two writes a phase cost more than the rest of the progress. While an event
loop runs on the thread writing, a line is held at most ``HOLD_SECONDS``: the first one held arms a timer on
that loop, and when it fires every line held so far goes out in one write. The loop is free whenever the run
waits on something slow (a provider, a command, the database), so the timer fires then. Without a running loop
(the lines before and after a run's drive, another thread) a line is written at once, after those held.

Nothing is reordered or lost: every writer of progress to a stream shares its one ``HeldLines`` (progress lines
of several ``Progress`` objects keep their order), the runner flushes it as its drive ends (``RunObserver.flush``:
the closing block and errors are written after the lines), a second Ctrl+C flushes it before it exits at once,
and ``atexit`` flushes what an unexpected exit left. A ``kill -9`` loses at most the lines of its last
``HOLD_SECONDS``; the run's state never depends on them (its steps are stored first).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import threading
import weakref
from collections.abc import Callable
from typing import TextIO

HOLD_SECONDS = 0.1  # the longest a progress line waits off a terminal while the run's event loop is free


class HeldLines:
    """The progress lines held for one stream (``held_for``)."""

    def __init__(self, stream: TextIO) -> None:
        try:
            self._stream: Callable[[], TextIO | None] = weakref.ref(stream)
        except TypeError:  # a stream that cannot be referenced weakly is kept (``held_for``: it is pinned)
            self._stream = lambda: stream
        self._parts: list[str] = []
        self._lock = threading.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def write(self, text: str) -> None:
        """``text`` (whole lines) written within ``HOLD_SECONDS`` while this thread runs an event loop, else now."""
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        with self._lock:
            self._parts.append(text)
            if loop is None or (self._timer is not None and self._loop is not loop):
                self._write_locked()  # no loop on this thread, or the timer is another loop's (it may never fire)
            elif self._timer is None:  # the first line held: the timer writes it and every line held after it
                self._loop = loop
                self._timer = loop.call_later(HOLD_SECONDS, self.flush)

    def flush(self) -> None:
        """Write every line held, at once."""
        with self._lock:
            self._write_locked()

    def _write_locked(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
            self._loop = None
        if not self._parts:
            return
        text = "".join(self._parts)
        self._parts.clear()
        stream = self._stream()
        if stream is None or getattr(stream, "closed", False):
            return
        with contextlib.suppress(OSError, ValueError):  # a reader gone (a broken pipe): the run goes on without it
            stream.write(text)
            stream.flush()


_HELD: weakref.WeakKeyDictionary[TextIO, HeldLines] = weakref.WeakKeyDictionary()
_PINNED: dict[int, tuple[TextIO, HeldLines]] = {}  # streams that cannot be referenced weakly (kept: ids stay theirs)
_HELD_LOCK = threading.Lock()


def held_for(stream: TextIO) -> HeldLines:
    """The one ``HeldLines`` of ``stream``: every ``Progress`` writing to it shares it, so lines keep their order."""
    with _HELD_LOCK:
        try:
            held = _HELD.get(stream)
            if held is None:
                held = _HELD[stream] = HeldLines(stream)
        except TypeError:  # not weakly referenceable
            pinned = _PINNED.get(id(stream))
            if pinned is None:
                pinned = _PINNED[id(stream)] = (stream, HeldLines(stream))
            held = pinned[1]
    return held


def flush_held() -> None:
    """Write what every stream holds (the process exits: ``atexit``)."""
    with _HELD_LOCK:
        every = [*_HELD.values(), *(held for _, held in _PINNED.values())]
    for held in every:
        held.flush()


atexit.register(flush_held)
