"""Command phases: ``run:`` through the shell in the worktree, output streamed as provider events."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import re
import shutil
import signal
import subprocess
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from alphred.errors import VALUE_TOO_LARGE, CommandTimeoutError, UnsafeCommandError
from alphred.git.command import REPOSITORY_VARIABLES
from alphred.guards.evaluate import resolve_path
from alphred.guards.shell import placeholder_spots, reference
from alphred.guards.templates import Placeholder, Template, render_value
from alphred.providers import groups
from alphred.providers.base import EventType, ProviderEvent, result_event

REPORT_TAIL_CHARS = 8000
KILL_GRACE_SECONDS = 2.0
MAX_LINE_CHARS = 16_000  # a longer output line is cut with a marker (the rest is counted, not kept)
READ_CHUNK_BYTES = 65_536
QUEUED_LINES = 256  # output lines read ahead of the events taken (at most ~4 MB with MAX_LINE_CHARS lines)
DRAIN_SECONDS = 2.0  # after the shell exits, how long output already written may still be read
POLL_SECONDS = (0.01, 0.25)  # first and longest interval between looks at whether the shell has exited
# Alphred's own list, plus the variables that only matter to a command started from inside a git hook
GIT_REPOSITORY_VARIABLES = frozenset(REPOSITORY_VARIABLES) | {
    "GIT_QUARANTINE_PATH",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
}
ACTIVE_GROUPS = groups.ACTIVE  # process groups of running commands and agent CLIs, for an emergency stop
kill_active_groups = groups.kill_all


MAX_VALUE_BYTES = 120_000  # one environment variable holds at most 128 KiB on Linux


def template_command(template: Template, values: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """The script for a ``run:`` template and the environment variables its placeholders refer to.

    No value is ever part of the script: each ``{{ path }}`` becomes a reference to ``ALPHRED_<PATH>`` (for
    example ``{{ inputs.msg }}`` -> ``"${ALPHRED_INPUTS_MSG}"``), quoted for the shell syntax around it, and
    the value goes into the returned environment. Raises UnsafeCommandError for a placeholder that no
    reference can serve (single quotes, ...; ``validate`` reports these) or a value too large for the
    environment (``VALUE_TOO_LARGE``).
    """
    if all(isinstance(part, str) for part in template.parts):  # no placeholder: the text is the script
        return template.text, {}
    script: list[str] = []
    env: dict[str, str] = {}
    names: dict[tuple[str, ...], str] = {}
    spots = iter(placeholder_spots(template))
    for part in template.parts:
        if not isinstance(part, Placeholder):
            script.append(part)
            continue
        placeholder, spot = next(spots)
        name = names.get(placeholder.path)
        if name is None:
            name = _variable_name(placeholder, set(names.values()))
            names[placeholder.path] = name
            env[name] = render_value(resolve_path(values, placeholder.path)).replace("\0", "")
            if len(env[name].encode("utf-8", "surrogatepass")) > MAX_VALUE_BYTES:
                raise UnsafeCommandError(
                    f"the value of {{{{ {placeholder.dotted} }}}} is over {MAX_VALUE_BYTES} bytes, too large "
                    "for a command placeholder (pass it through a file instead)",
                    code=VALUE_TOO_LARGE,
                )
        text = reference(spot, name)
        if text is None:
            raise UnsafeCommandError(
                f"{{{{ {placeholder.dotted} }}}} stands where the shell cannot receive a value ({spot.context})"
            )
        script.append(text)
    return "".join(script), env


def _variable_name(placeholder: Placeholder, taken: set[str]) -> str:
    base = "ALPHRED_" + re.sub(r"[^A-Za-z0-9]", "_", "_".join(placeholder.path)).upper()
    name, counter = base, 1
    while name in taken:
        counter += 1
        name = f"{base}_{counter}"
    return name


def shell_path(shell: str) -> str:
    """The program of a command phase's ``shell:``: /bin/sh, or bash as found on PATH (else /bin/bash)."""
    if shell == "bash":
        return shutil.which("bash") or "/bin/bash"
    return "/bin/sh"


async def run_command(
    command: str,
    cwd: Path,
    *,
    timeout: float | None = None,
    environ: Mapping[str, str] | None = None,
    display: str | None = None,
    confine: Callable[[Sequence[str]], list[str]] | None = None,
    shell: str = "sh",
) -> AsyncIterator[ProviderEvent]:
    """Run ``command`` with the shell (``sh``: /bin/sh, or ``bash``) in its own process group; yield its output,
    then a ``result``.

    The environment is ``environ`` (default: this process's) without the variables that point git at another
    repository. Output is read in chunks: each line is one event, a line longer than MAX_LINE_CHARS is cut
    with a marker. When the shell exits, its process group is killed: no child outlives the command, and a
    child still holding stdout does not hold the phase. The ``result`` carries ``metadata.exit_code`` and the
    output's tail as the report. A timeout kills the whole process group and raises
    CommandTimeoutError (kind ``timeout``); so does closing the iterator early. ``display`` is the command as shown
    in the events (the template with its values, quoted), when it differs from the script that runs.
    ``confine`` wraps ``sh -c SCRIPT`` to run it in the phase's sandbox (``runtime/sandbox.py``).
    """
    metadata = {"tool": "shell", "cwd": str(cwd)} | ({"script": command} if display is not None else {})
    yield ProviderEvent(EventType.TOOL_USE, command if display is None else display, metadata=metadata)
    argv = [shell_path(shell), "-c", command]
    # subprocess.Popen, not asyncio's subprocess machinery: on Python 3.11 that starts a thread per child to
    # wait for it (ThreadedChildWatcher) and builds a transport per pipe; only the two pipes need the event
    # loop, and the shell's exit is watched through a pidfd (``_ExitWatch``). Without ``preexec_fn`` Popen
    # spawns with vfork; ``start_new_session`` (setsid in the child) keeps that path.
    process = subprocess.Popen(
        confine(argv) if confine is not None else argv,
        cwd=str(cwd),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env=command_environment(os.environ if environ is None else environ),
    )
    groups.register(process.pid)
    loop = asyncio.get_running_loop()
    # Bounded: when the events are not taken as fast as the command writes (the database is slower), the
    # readers wait, the pipes fill and the command blocks on its writes — memory stays flat (back-pressure).
    queue: asyncio.Queue[tuple[str, str] | bool | None] = asyncio.Queue(maxsize=QUEUED_LINES)
    watch = _ExitWatch(loop, process, lambda: _nudge(queue))
    pipes: list[asyncio.BaseTransport] = []
    try:
        streams = [await _stream(loop, pipe, pipes) for pipe in (process.stdout, process.stderr)]
    except BaseException:
        await _stopped(process, watch, pipes)
        raise
    readers = [asyncio.create_task(_pump(stream, name, queue)) for stream, name in zip(streams, NAMES, strict=True)]
    tail: list[str] = []
    tail_chars = 0
    deadline = loop.time() + timeout if timeout else None
    drain_until: float | None = None  # set when the shell exits: how long its output may still drain
    finished = False
    try:
        open_streams = 2
        while open_streams:
            if drain_until is None and watch.exited.done():
                _kill_leftovers(process)  # children die with the shell; what they held open closes
                drain_until = loop.time() + DRAIN_SECONDS
            if not queue.empty():
                item = queue.get_nowait()
            elif deadline is None and drain_until is None:
                item = await queue.get()  # woken by a line, a stream's end or the shell's exit (``_nudge``)
            else:
                limit = min(t for t in (deadline, drain_until) if t is not None)
                try:
                    item = await asyncio.wait_for(queue.get(), max(limit - loop.time(), 0.0))
                except TimeoutError:
                    if drain_until is not None and loop.time() >= drain_until:
                        break  # a child that left the process group still holds the output: stop reading it
                    raise
            if item is None:
                open_streams -= 1
                continue
            if item is True:  # the shell exited (handled at the top of the loop)
                continue
            assert not isinstance(item, bool)
            stream, line = item
            tail.append(line)
            tail_chars += len(line)
            while tail_chars > REPORT_TAIL_CHARS and len(tail) > 1:
                tail_chars -= len(tail.pop(0))
            yield ProviderEvent(EventType.TOOL_RESULT, line.rstrip("\n"), metadata={"stream": stream})
        if not watch.exited.done():  # both streams closed, the shell still runs
            remaining = None if deadline is None else max(deadline - loop.time(), 0.001)
            await watch.wait(remaining)
        code = process.returncode
        assert code is not None
        finished = True
    except TimeoutError:
        await _kill_group(process, watch)
        raise CommandTimeoutError(f"command timed out after {timeout:g}s (process group killed)") from None
    finally:
        if not finished:
            await _kill_group(process, watch)
        watch.close()
        _kill_leftovers(process)
        groups.unregister(process.pid)
        for reader in readers:
            reader.cancel()
        for pipe in pipes:
            pipe.close()
    report = "".join(tail)[-REPORT_TAIL_CHARS:]
    yield result_event(report, None, None, exit_code=code)


def _nudge(queue: asyncio.Queue[tuple[str, str] | bool | None]) -> None:
    """Wake the command's loop waiting on an empty ``queue``: the shell has exited. A full queue needs no
    nudge (the loop is taking its lines and looks at the exit after each)."""
    with contextlib.suppress(asyncio.QueueFull):
        queue.put_nowait(True)


class _ExitWatch:
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


async def _pump(
    stream: asyncio.StreamReader | None, name: str, queue: asyncio.Queue[tuple[str, str] | bool | None]
) -> None:
    """Read ``stream`` in chunks and queue its lines; a line over MAX_LINE_CHARS is cut with a marker."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = ""  # the start of a line whose newline has not arrived yet
    cut = 0  # characters dropped from the current over-long line
    cancelled = False
    try:
        while stream is not None:
            chunk = await stream.read(READ_CHUNK_BYTES)
            text = decoder.decode(chunk, final=not chunk)
            while text:
                newline = text.find("\n")
                piece, text = (text, "") if newline == -1 else (text[: newline + 1], text[newline + 1 :])
                if cut:  # the rest of a line already cut: only count it
                    cut += len(piece.rstrip("\n"))
                    if piece.endswith("\n"):
                        await queue.put((name, _cut_marker(cut)))
                        cut = 0
                    continue
                pending += piece
                if pending.endswith("\n"):
                    await queue.put((name, pending))
                    pending = ""
                elif len(pending) > MAX_LINE_CHARS:
                    await queue.put((name, pending[:MAX_LINE_CHARS] + "\n"))
                    cut, pending = len(pending) - MAX_LINE_CHARS, ""
            if not chunk:
                break
        if pending:
            await queue.put((name, pending + "\n"))
        if cut:
            await queue.put((name, _cut_marker(cut)))
    except asyncio.CancelledError:
        cancelled = True  # nobody reads the queue any more: no end mark (it could wait for room forever)
        raise
    finally:
        if not cancelled:
            await queue.put(None)


def _cut_marker(count: int) -> str:
    return f"[... {count} more characters of this line cut by alphred]\n"


NAMES = ("stdout", "stderr")


async def _stream(
    loop: asyncio.AbstractEventLoop, pipe: IO[bytes] | None, transports: list[asyncio.BaseTransport]
) -> asyncio.StreamReader:
    """A StreamReader over one of the child's pipes, read by the event loop (its transport goes to
    ``transports``, closed with the command)."""
    reader = asyncio.StreamReader(loop=loop)
    assert pipe is not None
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader, loop=loop), pipe)
    transports.append(transport)
    return reader


async def _stopped(
    process: subprocess.Popen[bytes], watch: _ExitWatch, transports: list[asyncio.BaseTransport]
) -> None:
    """The command could not be watched: kill its group, close what was opened."""
    await _kill_group(process, watch)
    watch.close()
    groups.unregister(process.pid)
    for transport in transports:
        transport.close()
    for pipe in (process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()


def _kill_leftovers(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL what is left of the command's process group (children of a shell that has exited)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def command_environment(environ: Mapping[str, str]) -> Mapping[str, str]:
    """``environ`` without the variables that point git at another repository than the worktree (git hooks set
    them): a command's ``git commit`` must land on the run's branch, never on the user's. ``environ`` itself
    when it holds none of them (the common case: one look per variable, no copy)."""
    if GIT_REPOSITORY_VARIABLES.isdisjoint(environ):
        return environ
    return {key: value for key, value in environ.items() if key not in GIT_REPOSITORY_VARIABLES}


async def _kill_group(process: subprocess.Popen[bytes], watch: _ExitWatch) -> None:
    """SIGTERM the process group, then SIGKILL it after a short grace period."""
    if process.poll() is not None:
        _kill_leftovers(process)
        return
    for sig, wait in ((signal.SIGTERM, KILL_GRACE_SECONDS), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        try:
            await watch.wait(wait)
            break
        except TimeoutError:
            continue
    _kill_leftovers(process)
