"""A run's own worker thread: the blocking work of its attempts' ends and transitions (SQL, git) off the event loop,
handed over more cheaply than ``asyncio.to_thread`` (issue 29: a phase's end is a hop there and back).

``asyncio.to_thread`` hands a call to the loop's default ``ThreadPoolExecutor``: a ``concurrent.futures.Future``
(with its ``Condition``), the executor's locks and idle semaphore, then that future chained to an asyncio one
(``wrap_future``), whose result reaches the loop through a callback that sets the asyncio future. ``RunThread``
keeps one thread waiting on a ``queue.SimpleQueue`` (C): the loop puts the call with an asyncio future and a copy
of its context (as ``to_thread`` runs it), the thread runs it and sets the future through
``call_soon_threadsafe``. Measured on this machine (``benchmarks/README.md``, end-hops): ~25 → ~8 µs from the
hand-over to the call running, ~40 → ~21 µs from its end to the awaiting coroutine going on, half the CPU.

What is awaited behaves as ``to_thread``'s: the call's result or exception; a cancelled wait leaves the call
running to its end (its result is dropped). While the thread is busy (a parallel branch's end, a call whose wait
was cancelled), another call goes to ``asyncio.to_thread``: the run thread never makes one call wait for another
that ``to_thread`` would have run beside it. ``close`` lets the thread end once its call is done; ``join`` waits
for that (``Runner.drive``, after its loop: as ``asyncio.run`` waits for the default executor).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

__all__ = ["RunThread", "hop"]

_T = TypeVar("_T")
_Call = tuple["asyncio.Future[Any]", contextvars.Context, Callable[..., Any], tuple[Any, ...]]


class RunThread:
    """One worker thread for a run's blocking calls, on the loop that first uses it (``call``)."""

    def __init__(self, name: str = "alphred-run") -> None:
        self._name = name
        self._calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._busy = False  # a call is handed over and not settled on the loop yet (read and set on the loop only)
        self._closed = False

    def call(self, function: Callable[..., _T], *args: Any) -> Awaitable[_T]:
        """``function(*args)`` in the run's thread (``asyncio.to_thread``'s when it is busy, closed, or on another
        loop), awaited on the running loop."""
        loop = asyncio.get_running_loop()
        if self._busy or self._closed or (self._loop is not None and self._loop is not loop):
            return asyncio.to_thread(function, *args)
        if self._thread is None:
            self._loop = loop
            self._thread = threading.Thread(target=self._serve, args=(loop,), name=self._name, daemon=True)
            self._thread.start()
        future: asyncio.Future[_T] = loop.create_future()
        self._busy = True
        self._calls.put((future, contextvars.copy_context(), function, args))
        return future

    def close(self) -> None:
        """No more calls (later ones go to ``to_thread``); the thread ends once the call it runs is done."""
        if not self._closed:
            self._closed = True
            self._calls.put(None)

    def join(self) -> None:
        """Wait for the thread's end (after ``close``; never on the loop it serves while a call runs)."""
        thread = self._thread
        if thread is not None:
            thread.join()

    def _serve(self, loop: asyncio.AbstractEventLoop) -> None:
        calls = self._calls
        settle = self._settle
        while True:
            item = calls.get()
            if item is None:
                return
            future, context, function, args = item
            error: BaseException | None = None
            result: Any = None
            try:
                result = context.run(function, *args)
            except BaseException as exc:  # handed to the awaiting coroutine, as ``to_thread`` does
                error = exc
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody awaits it any more
                loop.call_soon_threadsafe(settle, future, result, error)
            del item, future, context, function, args, result, error

    def _settle(self, future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
        """On the loop: the call's end (the thread takes the next call from now on)."""
        self._busy = False
        if future.cancelled():
            return
        if error is None:
            future.set_result(result)
        elif isinstance(error, StopIteration):  # an asyncio future cannot hold one (``to_thread`` alike)
            future.set_exception(RuntimeError(f"{type(error).__name__} raised in the run's thread"))
        else:
            future.set_exception(error)


def hop(run_thread: RunThread | None, function: Callable[..., _T], *args: Any) -> Awaitable[_T]:
    """``function(*args)`` off the loop: in ``run_thread`` (``RunThread.call``), or ``asyncio.to_thread``'s when
    there is none (an attempt run outside a runner)."""
    if run_thread is None:
        return asyncio.to_thread(function, *args)
    return run_thread.call(function, *args)
