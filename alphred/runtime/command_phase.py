"""Command phases: ``run:`` through the shell in the worktree, output streamed as provider events."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import subprocess
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from alphred.errors import VALUE_TOO_LARGE, CommandTimeoutError, UnsafeCommandError
from alphred.git.command import REPOSITORY_VARIABLES
from alphred.guards.evaluate import resolve_path
from alphred.guards.shell import placeholder_spots, reference
from alphred.guards.templates import Placeholder, Template, render_value
from alphred.providers import groups
from alphred.providers.base import EventType, ProviderEvent, result_event
from alphred.runtime.command_output import MAX_LINE_CHARS as MAX_LINE_CHARS
from alphred.runtime.command_output import CommandOutput, ExitWatch

REPORT_TAIL_CHARS = 8000
KILL_GRACE_SECONDS = 2.0
DRAIN_SECONDS = 2.0  # after the shell exits, how long output already written may still be read
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
    argv = [shell_path(shell), "-c", command]
    # subprocess.Popen, not asyncio's subprocess machinery: on Python 3.11 that starts a thread per child to
    # wait for it (ThreadedChildWatcher) and builds a transport per pipe; here the event loop reads the two pipes
    # and the shell's exit (a pidfd) with a callback each (``command_output.py``). Without ``preexec_fn`` Popen
    # spawns with vfork; ``start_new_session`` (setsid in the child) keeps that path.
    try:
        process = subprocess.Popen(
            confine(argv) if confine is not None else argv,
            cwd=str(cwd),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env=command_environment(os.environ if environ is None else environ),
            bufsize=0,  # the pipes as raw files: only their descriptors are read (``command_output.py``), no buffer
        )
    except Exception:  # no shell started (a missing directory or shell, a bad environment): what was tried first
        yield _tool_use(command, cwd, display)
        raise
    groups.register(process.pid)
    loop = asyncio.get_running_loop()
    try:
        # One reader callback per pipe and the exit's pidfd, all waking this coroutine (``command_output.py``)
        output = CommandOutput(loop, (process.stdout, process.stderr))
    except BaseException:
        await _stopped(process)
        raise
    watch = ExitWatch(loop, process, output.wake)
    tail: list[str] = []
    tail_chars = 0
    deadline = loop.time() + timeout if timeout else None
    drain_until: float | None = None  # set when the shell exits: how long its output may still drain
    finished = False
    try:
        # Said once the shell is started, not before: its handling runs while the shell execs (issue 29: off the
        # spawn's path). A consumer that stops here still has the group killed (``finally``).
        yield _tool_use(command, cwd, display)
        while output.open or output.lines:
            if drain_until is None and watch.exited.done():
                _kill_leftovers(process)  # children die with the shell; what they held open closes
                drain_until = loop.time() + DRAIN_SECONDS
            if not output.lines:
                limit = (
                    None
                    if deadline is None and drain_until is None
                    else min(t for t in (deadline, drain_until) if t is not None)
                )
                await output.wait(limit)  # woken by a line, a stream's end, the shell's exit or the limit
                if limit is not None and not output.lines and loop.time() >= limit:
                    if drain_until is not None and loop.time() >= drain_until:
                        break  # a child that left the process group still holds the output: stop reading it
                    raise TimeoutError
                continue
            stream, line = output.take()
            tail.append(line)
            tail_chars += len(line)
            while tail_chars > REPORT_TAIL_CHARS and len(tail) > 1:
                tail_chars -= len(tail.pop(0))
            yield ProviderEvent(EventType.TOOL_RESULT, line.rstrip("\n"), metadata={"stream": stream})
        while not watch.exited.done():  # both streams closed, the shell still runs (or its exit is not seen yet)
            # woken by the exit through the same future as a line (no task, shield or ``wait_for`` of its own)
            await output.wait(deadline)
            if deadline is not None and not watch.exited.done() and loop.time() >= deadline:
                raise TimeoutError
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
        output.close()
    report = "".join(tail)[-REPORT_TAIL_CHARS:]
    yield result_event(report, None, None, exit_code=code)


def _tool_use(command: str, cwd: Path, display: str | None) -> ProviderEvent:
    """The ``tool_use`` event that says which command runs where (``display`` shown for it, when given)."""
    metadata = {"tool": "shell", "cwd": str(cwd)} | ({"script": command} if display is not None else {})
    return ProviderEvent(EventType.TOOL_USE, command if display is None else display, metadata=metadata)


async def _stopped(process: subprocess.Popen[bytes]) -> None:
    """The command could not be watched: kill its group, close what was opened."""
    _kill_leftovers(process)
    await asyncio.to_thread(process.wait)
    groups.unregister(process.pid)
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


async def _kill_group(process: subprocess.Popen[bytes], watch: ExitWatch) -> None:
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
