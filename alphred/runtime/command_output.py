"""A command's output and exit as the event loop sees them: no transport, stream reader or task per pipe.

``CommandOutput`` reads the shell's stdout and stderr with one reader callback per pipe (``loop.add_reader`` and
``os.read`` on the non-blocking descriptor), splits what it reads into lines and keeps them for the one coroutine
that takes them (``run_command``), woken through one future. ``ExitWatch`` notices the shell's exit through a
pidfd (a poll where there is none) and wakes the same coroutine. Each pipe used to take an asyncio read
transport, a ``StreamReader`` and its protocol, a task pumping it into a queue and a turn of the loop per hand-off.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import subprocess
from collections import deque
from collections.abc import Callable, Sequence
from typing import IO

MAX_LINE_CHARS = 16_000  # a longer output line is cut with a marker (the rest is counted, not kept)
READ_CHUNK_BYTES = 65_536
QUEUED_LINES = 256  # output lines read ahead of the events taken: reading pauses there (back-pressure)
POLL_SECONDS = (0.01, 0.25)  # first and longest interval between looks at whether the shell has exited
NAMES = ("stdout", "stderr")


class _Lines:
    """One stream's bytes as lines: decoded as UTF-8 (bad bytes replaced), a line over MAX_LINE_CHARS cut with a
    marker (the rest of it counted, not kept)."""

    __slots__ = ("cut", "decoder", "name", "pending")

    def __init__(self, name: str) -> None:
        self.name = name
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.pending = ""  # the start of a line whose newline has not arrived yet
        self.cut = 0  # characters dropped from the current over-long line

    def feed(self, chunk: bytes, lines: deque[tuple[str, str]]) -> None:
        """Append the lines ``chunk`` completes to ``lines``; an empty chunk is the end (the last line flushed)."""
        name = self.name
        text = self.decoder.decode(chunk, final=not chunk)
        while text:
            newline = text.find("\n")
            piece, text = (text, "") if newline == -1 else (text[: newline + 1], text[newline + 1 :])
            if self.cut:  # the rest of a line already cut: only count it
                self.cut += len(piece.rstrip("\n"))
                if piece.endswith("\n"):
                    lines.append((name, _cut_marker(self.cut)))
                    self.cut = 0
                continue
            pending = self.pending + piece
            if pending.endswith("\n"):
                lines.append((name, pending))
                pending = ""
            elif len(pending) > MAX_LINE_CHARS:
                lines.append((name, pending[:MAX_LINE_CHARS] + "\n"))
                self.cut, pending = len(pending) - MAX_LINE_CHARS, ""
            self.pending = pending
        if not chunk:
            if self.pending:
                lines.append((name, self.pending + "\n"))
                self.pending = ""
            if self.cut:
                lines.append((name, _cut_marker(self.cut)))
                self.cut = 0


def _cut_marker(count: int) -> str:
    return f"[... {count} more characters of this line cut by alphred]\n"


class CommandOutput:
    """The lines of the child's ``pipes`` (stdout, stderr), read by ``loop`` as they come, in the order read.

    ``lines`` holds what is read and not yet taken; ``open`` counts the pipes not at their end. Reading pauses
    while QUEUED_LINES lines wait (the pipes fill and the command blocks on its writes: memory stays flat when
    the events are taken slower than the command writes) and resumes as they are taken (``take``).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, pipes: Sequence[IO[bytes] | None]) -> None:
        self.loop = loop
        self.lines: deque[tuple[str, str]] = deque()
        self._pipes = [pipe for pipe in pipes if pipe is not None]
        self._reading: dict[int, _Lines] = {}  # the descriptors not at their end
        self._paused = False
        self._waiter: asyncio.Future[None] | None = None
        self._woken = False  # woken while nobody waited: the next ``wait`` returns at once
        try:
            for pipe, name in zip(self._pipes, NAMES, strict=False):
                fd = pipe.fileno()
                os.set_blocking(fd, False)
                loop.add_reader(fd, self._read, fd)
                self._reading[fd] = _Lines(name)
        except BaseException:
            self.close()
            raise

    @property
    def open(self) -> int:
        return len(self._reading)

    def _read(self, fd: int) -> None:
        try:
            chunk = os.read(fd, READ_CHUNK_BYTES)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:  # the pipe broke: its end
            chunk = b""
        lines = self.lines
        self._reading[fd].feed(chunk, lines)
        if not chunk:
            del self._reading[fd]
            self.loop.remove_reader(fd)
        elif len(lines) >= QUEUED_LINES and not self._paused:
            self._paused = True
            for reading in self._reading:
                self.loop.remove_reader(reading)
        self.wake()

    def take(self) -> tuple[str, str]:
        """The oldest line read and not taken (``lines`` must hold one): its stream's name and its text."""
        item = self.lines.popleft()
        if self._paused and len(self.lines) < QUEUED_LINES:
            self._paused = False
            for fd in self._reading:
                self.loop.add_reader(fd, self._read, fd)
        return item

    def wake(self) -> None:
        """Wake the coroutine waiting in ``wait`` (a line, a pipe's end, the shell's exit, a limit)."""
        waiter = self._waiter
        if waiter is None:
            self._woken = True
        elif not waiter.done():
            waiter.set_result(None)

    async def wait(self, until: float | None) -> None:
        """Until ``wake`` (or the loop's time ``until``, when given); at once when a line waits or ``wake`` was
        called since the last wait."""
        if self.lines or self._woken:
            self._woken = False
            return
        waiter = self._waiter = self.loop.create_future()
        timer = self.loop.call_at(until, self.wake) if until is not None else None
        try:
            await waiter
        finally:
            self._waiter = None
            if timer is not None:
                timer.cancel()

    def close(self) -> None:
        """Stop reading and close the pipes (what was not read is dropped)."""
        for fd in self._reading:
            with contextlib.suppress(NotImplementedError, ValueError):
                self.loop.remove_reader(fd)
        self._reading.clear()
        for pipe in self._pipes:
            pipe.close()


class ExitWatch:
    """Notices the moment the shell exits, and reaps it: a pidfd (Linux >= 5.3) the event loop reads, woken by
    the exit itself; where there is none, a poll every 10 ms growing to 250 ms. ``exited`` is done, and
    ``wake`` called once, when the exit code is known (``process.returncode``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, process: subprocess.Popen[bytes], wake: Callable[[], None]):
        self.loop = loop
        self.process = process
        self.wake = wake
        self.exited: asyncio.Future[None] = loop.create_future()
        self._fd: int | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._poll = POLL_SECONDS[0]
        try:
            self._fd = os.pidfd_open(process.pid)
            loop.add_reader(self._fd, self._check)
        except (AttributeError, OSError, NotImplementedError):  # no pidfd here: poll
            self._close_fd()
            self._timer = loop.call_later(self._poll, self._check)

    def _check(self) -> None:
        if self.process.poll() is None:  # not yet (the pidfd cannot say so: polled from now on, to be safe)
            self._close_fd()
            self._timer = self.loop.call_later(self._poll, self._check)
            self._poll = min(self._poll * 2, POLL_SECONDS[1])
            return
        self.close()
        if not self.exited.done():
            self.exited.set_result(None)
            self.wake()

    async def wait(self, timeout: float | None) -> None:
        """Until the shell has exited; TimeoutError after ``timeout`` seconds (None: no limit)."""
        if not self.exited.done():
            await asyncio.wait_for(asyncio.shield(self.exited), timeout)

    def _close_fd(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(NotImplementedError):  # a loop that could not watch it either
                self.loop.remove_reader(fd)
            os.close(fd)

    def close(self) -> None:
        """Stop watching (the pidfd closed, the poll's timer cancelled)."""
        self._close_fd()
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
