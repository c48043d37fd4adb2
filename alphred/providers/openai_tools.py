"""The tools the ``openai`` provider offers its model (SPEC §4), confined to the run's worktree.

``shell {command, timeout_s?}`` runs ``bash -c`` in the worktree, in its own process group, with a timeout
(default 120 s) and its output cut head+tail to 30,000 characters; the group is killed when the command ends,
times out or the attempt is cancelled. ``read_file``, ``write_file``, ``edit_file`` and ``list_files`` take
paths relative to the worktree: a path that is absolute, or that resolves outside the worktree (``..``, a
symlink pointing out), is refused with a tool error and never followed. ``finish {decision, report}`` ends
the phase. A bad call (unknown tool, arguments that are not a JSON object, a missing or mistyped argument)
becomes a tool error the model can read and correct — never an exception.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alphred.providers import groups
from alphred.providers.contract import report_parameters
from alphred.workflow.options import ToolPolicy

OUTPUT_CAP = 30_000
DEFAULT_SHELL_TIMEOUT = 120.0
MAX_SHELL_TIMEOUT = 3600.0
READ_LINES = 2000
READ_BYTES = 1 << 20  # at most this much of a file is read for one read_file (or edited by edit_file) call
_CHUNK = 1 << 16
LIST_ENTRIES = 2000
KILL_WAIT_SECONDS = 5.0
TOOL_NAMES = ("shell", "read_file", "write_file", "edit_file", "list_files", "finish")


@dataclass(frozen=True)
class ToolCall:
    """One call the model made: its id (to answer it), tool name and raw JSON arguments."""

    call_id: str
    name: str
    arguments: str


@dataclass
class ToolOutcome:
    """What a call produced: the text the model gets back, an error flag, and the finish payload if any."""

    output: str
    is_error: bool = False
    finish: dict[str, Any] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


class ToolError(Exception):
    """Raised when: a tool call cannot be carried out; its message goes back to the model as the result."""


def tool_specs(
    decisions: Sequence[str], output: Mapping[str, Any] | None = None, policy: ToolPolicy | None = None
) -> list[dict[str, Any]]:
    """The tools ``policy`` permits of the six (``finish`` always) as (name, description, JSON-schema
    parameters) dicts, API-neutral; a typed phase's ``finish`` takes its ``output:`` schema (without
    ``decision``) as its ``report`` (SPEC §12)."""
    return [
        spec
        for spec in _all_specs(decisions, output)
        if spec["name"] == "finish" or policy is None or policy.permits(spec["name"])
    ]


def _all_specs(decisions: Sequence[str], output: Mapping[str, Any] | None) -> list[dict[str, Any]]:

    def obj(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
        return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}

    text = {"type": "string"}
    path = {"type": "string", "description": "A path relative to the worktree."}
    decision: dict[str, Any] = {"type": "string", "description": "The routing decision."}
    if decisions:
        decision["enum"] = list(decisions)
    report: dict[str, Any] = {
        "anyOf": [{"type": "string"}, {"type": "object"}],
        "description": "What you did and why: a text, or an object with named fields.",
    }
    if output is not None:
        report = {**report_parameters(output), "description": "Your report: an object matching this schema."}
    return [
        {
            "name": "shell",
            "description": "Run a bash command in the worktree; returns its exit code and output (stdout+stderr).",
            "parameters": obj(
                {"command": text, "timeout_s": {"type": "number", "description": "Seconds (default 120)."}},
                ["command"],
            ),
        },
        {
            "name": "read_file",
            "description": f"Read a text file; offset is the first line (1-based), limit the number of lines "
            f"(default {READ_LINES}).",
            "parameters": obj({"path": path, "offset": {"type": "integer"}, "limit": {"type": "integer"}}, ["path"]),
        },
        {
            "name": "write_file",
            "description": "Create or overwrite a file with the given content (parent directories are created).",
            "parameters": obj({"path": path, "content": text}, ["path", "content"]),
        },
        {
            "name": "edit_file",
            "description": "Replace the one occurrence of `old` in a file by `new` (`old` must occur exactly once).",
            "parameters": obj({"path": path, "old": text, "new": text}, ["path", "old", "new"]),
        },
        {
            "name": "list_files",
            "description": "List the files under a directory of the worktree (default: the whole worktree).",
            "parameters": obj({"path": path}, []),
        },
        {
            "name": "finish",
            "description": "End this phase with your routing decision and your report. Call it exactly once, last.",
            "parameters": obj(
                {"decision": decision, "report": report},
                ["decision", "report"] if decisions else ["report"] if output is not None else [],
            ),
        },
    ]


class Toolbox:
    """Carries out tool calls in one worktree; ``shell_env`` is the environment of shell commands, ``confine``
    wraps their argv into the phase's sandbox (``sandbox:``, SPEC §14)."""

    def __init__(
        self,
        root: Path,
        decisions: Sequence[str],
        shell_env: Mapping[str, str],
        confine: Callable[[Sequence[str]], list[str]] | None = None,
        output: Mapping[str, Any] | None = None,
        policy: ToolPolicy | None = None,
    ) -> None:
        self.root = root.resolve()
        self.decisions = tuple(decisions)
        self.output = output  # a typed phase's schema: ``finish`` refuses a report that breaks it
        self.shell_env = dict(shell_env)
        self.confine = confine
        self.offered = tuple(spec["name"] for spec in tool_specs(decisions, output, policy))

    async def call(self, call: ToolCall) -> ToolOutcome:
        """Run one call; every failure is a ToolOutcome with ``is_error`` (never an exception)."""
        if call.name not in TOOL_NAMES:
            return ToolOutcome(f"error: unknown tool '{call.name}'; the tools are: {', '.join(self.offered)}", True)
        if call.name not in self.offered:
            return ToolOutcome(
                f"error: tool '{call.name}' is not allowed in this phase (tools:); the tools are: "
                f"{', '.join(self.offered)}",
                True,
            )
        try:
            args = json.loads(call.arguments or "{}")
        except ValueError as exc:
            return ToolOutcome(
                f"error: the arguments of {call.name} are not valid JSON ({exc}); send a JSON object", True
            )
        if not isinstance(args, dict):
            return ToolOutcome(f"error: the arguments of {call.name} must be a JSON object", True)
        try:
            if call.name == "shell":
                return await self.shell(_text(args, "command"), _timeout(args.get("timeout_s")))
            if call.name == "finish":  # a typed report is validated there: off the loop
                return await asyncio.to_thread(self.finish, args) if self.output is not None else self.finish(args)
            handler = {
                "read_file": self.read_file,
                "write_file": self.write_file,
                "edit_file": self.edit_file,
                "list_files": self.list_files,
            }[call.name]
            return await asyncio.to_thread(handler, args)
        except ToolError as exc:
            return ToolOutcome(f"error: {exc}", True)
        except OSError as exc:
            return ToolOutcome(f"error: {exc.strerror or exc}", True)
        except Exception as exc:  # e.g. a file that is not UTF-8 text: the model hears of it, the phase goes on
            return ToolOutcome(f"error: {type(exc).__name__}: {exc}", True)

    def resolve(self, given: object) -> Path:
        """The worktree path ``given`` names; ToolError when it is absolute or resolves outside the worktree."""
        if not isinstance(given, str) or not given.strip():
            raise ToolError("'path' must be a non-empty string relative to the worktree")
        if "\x00" in given:
            raise ToolError("'path' must not contain NUL characters")
        relative = Path(given)
        if relative.is_absolute():
            raise ToolError(f"'{given}' is an absolute path; give a path relative to the worktree")
        target = (self.root / relative).resolve()
        if target != self.root and self.root not in target.parents:
            raise ToolError(f"'{given}' resolves outside the worktree; refused")
        return target

    def read_file(self, args: dict[str, Any]) -> ToolOutcome:
        """``read_file {path, offset?, limit?}``: numbered lines of a text file.

        Bounded (SPEC §14): the file is streamed in chunks up to line ``offset``, at most READ_BYTES are
        taken from there (a longer line is cut), and nothing after what is shown is read.
        """
        path = self.resolve(args.get("path"))
        offset, limit = _int(args, "offset", 1, 1), _int(args, "limit", READ_LINES, 1)
        if not path.is_file():
            raise ToolError(f"'{args['path']}' is not a file")
        with path.open("rb") as handle:
            skipped, chosen, rest, cut_line = _read_lines(handle, offset, limit)
        body = "\n".join(f"{number:6}\t{line}" for number, line in enumerate(chosen, start=offset))
        following = offset + len(chosen)
        note = ""
        if cut_line:
            note = f"\n[line {following - 1} is longer than {READ_BYTES} bytes: cut here; read it with shell]"
        elif rest is None:
            note = f"\n[more lines follow: read on with offset {following}]"
        elif rest > 0:
            note = f"\n[{rest} more line(s): read on with offset {following}]"
        return ToolOutcome(cut(body) + note if body else f"[no lines from line {offset}; the file has {skipped}]")

    def write_file(self, args: dict[str, Any]) -> ToolOutcome:
        """``write_file {path, content}``: create or overwrite a file."""
        path, content = self.resolve(args.get("path")), _text(args, "content", empty=True)
        if path.is_dir():
            raise ToolError(f"'{args['path']}' is a directory")
        path.parent.mkdir(parents=True, exist_ok=True)
        _write(path, content)
        return ToolOutcome(f"wrote {len(content.encode())} bytes to {args['path']}")

    def edit_file(self, args: dict[str, Any]) -> ToolOutcome:
        """``edit_file {path, old, new}``: replace exactly one occurrence of ``old``."""
        path, old, new = self.resolve(args.get("path")), _text(args, "old"), _text(args, "new", empty=True)
        if not path.is_file():
            raise ToolError(f"'{args['path']}' is not a file")
        if path.stat().st_size > READ_BYTES:
            raise ToolError(f"'{args['path']}' is over {READ_BYTES} bytes: edit it with shell (sed) instead")
        text = path.read_text(encoding="utf-8")
        found = text.count(old)
        if found != 1:
            what = "does not occur" if found == 0 else f"occurs {found} times"
            raise ToolError(f"'old' {what} in {args['path']}; it must occur exactly once (add surrounding lines)")
        _write(path, text.replace(old, new, 1))
        return ToolOutcome(f"edited {args['path']}: 1 occurrence replaced")

    def list_files(self, args: dict[str, Any]) -> ToolOutcome:
        """``list_files {path?}``: the files below a directory (``.git`` left out), one per line."""
        given = args.get("path") or "."
        base = self.resolve(given)
        if not base.is_dir():
            raise ToolError(f"'{given}' is not a directory")
        names: list[str] = []
        for directory, dirs, files in os.walk(base):  # symlinked directories are listed, not entered
            dirs[:] = sorted(d for d in dirs if d != ".git")
            here = Path(directory)
            names.extend(str((here / d).relative_to(self.root)) + "/" for d in dirs if (here / d).is_symlink())
            names.extend(str((here / f).relative_to(self.root)) for f in sorted(files) if f != ".git")
            if len(names) > LIST_ENTRIES:
                break
        shown = sorted(names)[:LIST_ENTRIES]
        extra = f"\n[... more than {LIST_ENTRIES} entries: list a subdirectory]" if len(names) > LIST_ENTRIES else ""
        return ToolOutcome("\n".join(shown) + extra if shown else "(no files)")

    def finish(self, args: dict[str, Any]) -> ToolOutcome:
        """``finish {decision, report}``: validated here; the provider ends the phase with it."""
        decision, report = args.get("decision"), args.get("report", "")
        if self.decisions and decision not in self.decisions:
            shown = "missing" if decision is None else repr(decision)
            raise ToolError(f"'decision' is {shown}: it must be one of {', '.join(self.decisions)}")
        if decision is not None and not isinstance(decision, str):
            raise ToolError("'decision' must be a string")
        if not isinstance(report, str | dict):
            raise ToolError("'report' must be a string or an object")
        if self.output is not None:
            self._check_typed(decision, report)
        return ToolOutcome("finished", finish={"decision": decision, "report": report})

    def _check_typed(self, decision: Any, report: Any) -> None:
        """A typed report breaking its schema is a tool error: the model may call ``finish`` again (Alphred
        validates the final answer itself too)."""
        assert self.output is not None
        if not isinstance(report, dict):
            raise ToolError("'report' must be an object matching the schema of the finish tool's report")
        from jsonschema import Draft202012Validator

        answer = {**report, "decision": decision} if decision is not None else report
        errors = list(Draft202012Validator(dict(self.output)).iter_errors(answer))[:10]
        if errors:
            shown = "; ".join(f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in errors)
            raise ToolError(f"the report does not match its schema: {shown}")

    async def shell(self, command: str, timeout: float) -> ToolOutcome:
        """``shell {command, timeout_s?}``: ``bash -c`` in its own process group; killed on timeout/cancel."""
        argv = ["bash", "-c", command]
        spawn = asyncio.ensure_future(
            asyncio.create_subprocess_exec(
                *(self.confine(argv) if self.confine is not None else argv),
                cwd=str(self.root),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
                env=self.shell_env,
                start_new_session=True,
            )
        )
        try:
            process = await asyncio.shield(spawn)
        except asyncio.CancelledError:  # cancelled while bash was starting: it may run already
            with contextlib.suppress(Exception):
                started = await spawn
                kill_group(started.pid)
                await asyncio.wait_for(started.wait(), KILL_WAIT_SECONDS)
            raise
        groups.register(process.pid)  # recorded with the attempt; a second Ctrl+C or a take-over kills it too
        output = HeadTail(OUTPUT_CAP)
        assert process.stdout is not None
        reader = asyncio.create_task(output.drain(process.stdout))
        timed_out = False
        try:
            try:
                code = await asyncio.wait_for(process.wait(), timeout)
            except TimeoutError:
                timed_out, code = True, None
        finally:
            kill_group(process.pid)  # leftovers (background jobs) and, on cancellation, the command itself
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(reader), KILL_WAIT_SECONDS)
            reader.cancel()
            if process.returncode is None:
                with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(process.wait(), KILL_WAIT_SECONDS)
            groups.unregister(process.pid)
        head = f"timed out after {timeout:g}s (process group killed)" if timed_out else f"exit code {code}"
        meta = {"exit_code": code, "timed_out": timed_out}
        return ToolOutcome(f"{head}\n{output.text()}".rstrip("\n"), timed_out, metadata=meta)


class HeadTail:
    """Keeps the first and last ``cap // 2`` characters of a stream (bounded memory), cut in the middle."""

    def __init__(self, cap: int) -> None:
        self.half = cap // 2
        self.head = bytearray()
        self.tail = bytearray()
        self.dropped = 0
        self._byte_cap = cap * 2  # bytes kept per side: enough for `half` characters of most UTF-8 text

    async def drain(self, stream: asyncio.StreamReader) -> None:
        """Read ``stream`` to its end."""
        while chunk := await stream.read(65536):
            self.add(chunk)

    def add(self, chunk: bytes) -> None:
        """Take one chunk of output."""
        room = self._byte_cap - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        self.tail += chunk
        if len(self.tail) > self._byte_cap:
            self.dropped += len(self.tail) - self._byte_cap
            del self.tail[: len(self.tail) - self._byte_cap]

    def text(self) -> str:
        """Everything read, or its head and tail with a marker where the middle was cut."""
        if not self.dropped:
            return cut((self.head + self.tail).decode("utf-8", errors="replace"), self.half * 2)
        head = self.head.decode("utf-8", errors="replace")[: self.half]
        tail = self.tail.decode("utf-8", errors="replace")[-self.half :]
        return f"{head}\n[... output cut: more than {self.dropped} bytes left out ...]\n{tail}"


def _read_lines(handle: Any, offset: int, limit: int) -> tuple[int, list[str], int | None, bool]:
    """Lines ``offset``.. of a binary file: (lines skipped, up to ``limit`` lines decoded, how many lines
    follow them (None: more than READ_BYTES hold, not counted), whether the last line shown was cut).

    Memory and reading are bounded: lines before ``offset`` are counted a chunk at a time, and at most
    READ_BYTES are read from there on.
    """
    skipped = 0
    buffer = b""
    while skipped < offset - 1:  # skip whole lines, a chunk at a time
        chunk = handle.read(_CHUNK)
        if not chunk:
            return skipped + (1 if buffer else 0), [], 0, False
        buffer += chunk
        while skipped < offset - 1:
            newline = buffer.find(b"\n")
            if newline == -1:
                buffer = b""  # the rest of a long line: not kept
                break
            buffer, skipped = buffer[newline + 1 :], skipped + 1
    data = buffer + handle.read(max(READ_BYTES - len(buffer), 0) + 1)
    beyond = len(data) > READ_BYTES  # the file goes on past what may be read
    data = data[:READ_BYTES]
    lines = data.split(b"\n")
    if data.endswith(b"\n") or not data:
        lines.pop()
    chosen = [line.rstrip(b"\r").decode("utf-8", errors="replace") for line in lines[:limit]]
    cut_line = beyond and len(lines) <= limit and not data.endswith(b"\n")
    rest = None if beyond else len(lines) - len(chosen)
    return skipped, chosen, rest, cut_line


def cut(text: str, cap: int = OUTPUT_CAP) -> str:
    """``text`` cut head+tail to ``cap`` characters, with a marker saying how much was left out."""
    if len(text) <= cap:
        return text
    half = cap // 2
    return f"{text[:half]}\n[... output cut: {len(text) - 2 * half} characters left out ...]\n{text[-half:]}"


def kill_group(pid: int) -> None:
    """SIGKILL the process group ``pid`` leads (gone already: nothing to do)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _write(path: Path, content: str) -> None:
    """Write ``content`` without following a symlink planted at ``path`` after it was checked."""
    data = content.encode("utf-8")  # fails (a lone surrogate) before the file is touched
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags, 0o644)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)


def _text(args: Mapping[str, Any], name: str, *, empty: bool = False) -> str:
    value = args.get(name)
    if not isinstance(value, str) or (not empty and not value):
        raise ToolError(f"'{name}' must be a {'' if empty else 'non-empty '}string")
    return value


def _int(args: Mapping[str, Any], name: str, default: int, minimum: int) -> int:
    value = args.get(name, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ToolError(f"'{name}' must be an integer of at least {minimum}")
    return value


def _timeout(value: object) -> float:
    if value is None:
        return DEFAULT_SHELL_TIMEOUT
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ToolError("'timeout_s' must be a positive number of seconds")
    return min(float(value), MAX_SHELL_TIMEOUT)
