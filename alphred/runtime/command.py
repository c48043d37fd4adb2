"""Command phases: ``run:`` through the shell in the worktree, output streamed as provider events."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from alphred.errors import ProviderError
from alphred.guards.templates import Template, render_template
from alphred.providers import groups
from alphred.providers.base import EventType, ProviderEvent, result_event

REPORT_TAIL_CHARS = 8000
KILL_GRACE_SECONDS = 2.0
ACTIVE_GROUPS = groups.ACTIVE  # process groups of running commands and agent CLIs, for an emergency stop
kill_active_groups = groups.kill_all


def template_command(template: Template, values: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """Turn a ``run:`` template (command phases and checks) into ``(script, extra_env)`` for the shell.

    Every placeholder becomes one shell-quoted word, so no value is ever parsed as shell code; ``extra_env``
    holds environment variables the script refers to (to be merged into the process environment).
    """
    return render_template(template, values, quote=shlex.quote), {}


async def run_command(
    command: str,
    cwd: Path,
    *,
    timeout: float | None = None,
    env: Mapping[str, str] | None = None,
) -> AsyncIterator[ProviderEvent]:
    """Run ``command`` with the shell in its own process group; yield its output, then a ``result``.

    The ``result`` carries ``metadata.exit_code`` and the output's tail as the report. A timeout kills the
    whole process group and raises ProviderError(kind="timeout"); so does closing the iterator early.
    """
    yield ProviderEvent(EventType.TOOL_USE, command, metadata={"tool": "shell", "cwd": str(cwd)})
    process = await asyncio.create_subprocess_shell(
        command,
        cwd=str(cwd),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
        env=dict(env) if env is not None else None,
    )
    groups.register(process.pid)
    queue: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
    readers = [
        asyncio.create_task(_pump(process.stdout, "stdout", queue)),
        asyncio.create_task(_pump(process.stderr, "stderr", queue)),
    ]
    tail: list[str] = []
    tail_chars = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout if timeout else None
    finished = False
    try:
        open_streams = 2
        while open_streams:
            remaining = None if deadline is None else deadline - loop.time()
            if remaining is not None and remaining <= 0:
                raise TimeoutError
            item = await asyncio.wait_for(queue.get(), remaining)
            if item is None:
                open_streams -= 1
                continue
            stream, line = item
            tail.append(line)
            tail_chars += len(line)
            while tail_chars > REPORT_TAIL_CHARS and len(tail) > 1:
                tail_chars -= len(tail.pop(0))
            yield ProviderEvent(EventType.TOOL_RESULT, line.rstrip("\n"), metadata={"stream": stream})
        remaining = None if deadline is None else max(deadline - loop.time(), 0.001)
        code = await asyncio.wait_for(process.wait(), remaining)
        finished = True
    except TimeoutError:
        await _kill_group(process)
        raise ProviderError(
            f"command timed out after {timeout:g}s (process group killed)",
            kind="timeout",
            code="COMMAND_TIMEOUT",
        ) from None
    finally:
        if not finished:
            await _kill_group(process)
        groups.unregister(process.pid)
        for reader in readers:
            reader.cancel()
    report = "".join(tail)[-REPORT_TAIL_CHARS:]
    yield result_event(report, None, None, exit_code=code)


async def _pump(stream: asyncio.StreamReader | None, name: str, queue: asyncio.Queue[tuple[str, str] | None]) -> None:
    try:
        while stream is not None:
            line = await stream.readline()
            if not line:
                break
            await queue.put((name, line.decode("utf-8", errors="replace")))
    finally:
        await queue.put(None)


async def _kill_group(process: asyncio.subprocess.Process) -> None:
    """SIGTERM the process group, then SIGKILL it after a short grace period."""
    if process.returncode is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)  # orphans left in the group
        return
    for sig, wait in ((signal.SIGTERM, KILL_GRACE_SECONDS), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        try:
            await asyncio.wait_for(process.wait(), wait)
            break
        except TimeoutError:
            continue
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
