"""Engine-checked completion (SPEC §9): run a phase's ``checks:`` after its work, before its commit.

Every check runs, in list order. "Changed by this attempt" is every path that differs between the worktree
and the commit the attempt started from, untracked files included (``.gitignore`` honoured). Paths that
broke an ``unchanged`` rule are restored to their state at the attempt's start once all checks have run.
Everything blocking (git, the check commands, file removal) runs off the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alphred.errors import GitError, ProviderError
from alphred.git.command import GitDirs, git_environment
from alphred.guards.templates import render_template
from alphred.providers.base import EventType, ProviderEvent
from alphred.redact import Redactor
from alphred.runtime.command_phase import run_command, template_command
from alphred.workflow.globs import PathGlobs
from alphred.workflow.model import Check, CheckKind

OUTPUT_TAIL_CHARS = 2000  # of each check's output, kept in events, diagnostics and the retry's context
NOTE_CHARS = 1900  # the whole failure summary (the retry's context holds up to 2,000 characters of it)
LISTED_PATHS = 20


@dataclass(frozen=True)
class CheckOutcome:
    """How one check went: ``exit_code`` only for ``run`` checks, ``output`` a tail of what it said."""

    name: str
    kind: CheckKind
    passed: bool
    description: str  # the command that ran (``run``) or the rule (``changed: src/**``)
    output: str
    exit_code: int | None = None
    paths: tuple[str, ...] = ()  # the matching changed paths (``changed``) or offending ones (``unchanged``)

    def stored(self) -> dict[str, Any]:
        """The JSON form kept in the attempt's diagnostics row and its ``tool_result`` event."""
        return {
            "name": self.name,
            "kind": self.kind.value,
            "passed": self.passed,
            "exit_code": self.exit_code,
            "description": self.description,
            "output": self.output,
        }


@dataclass
class ChecksResult:
    """The outcomes of one attempt's checks and the protected paths that were restored."""

    outcomes: list[CheckOutcome] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """True when every check passed."""
        return all(o.passed for o in self.outcomes)

    def guard_values(self) -> dict[str, dict[str, Any]]:
        """``checks.<name>.passed|exit_code`` for the guards of the phase just finished."""
        return {o.name: {"passed": o.passed, "exit_code": o.exit_code} for o in self.outcomes}

    def summary(self) -> str:
        """What failed, for the diagnostics message and the retry's context (at most NOTE_CHARS).

        One line per failed check (name, command or rule, exit code or finding), then the output tail of
        each failed ``run`` check, then the protected paths that were restored.
        """
        failed = [o for o in self.outcomes if not o.passed]
        lines = [f"checks failed: {', '.join(o.name for o in failed)}"]
        for o in failed:
            if o.kind is CheckKind.RUN:
                said = "timed out" if o.exit_code is None else f"exit code {o.exit_code}"
                lines.append(f"- {o.name} (run: {o.description}): {said}")
            else:
                lines.append(f"- {o.name} ({o.description}): {o.output}")
        if self.restored:
            lines.append("restored to their state at the attempt's start: " + _listed(self.restored))
        head = "\n".join(lines)
        outputs = [o for o in failed if o.kind is CheckKind.RUN and o.output.strip()]
        share = (NOTE_CHARS - len(head)) // max(len(outputs), 1) - 40
        for o in outputs if share > 0 else ():
            text = o.output.strip()
            head += f"\noutput of {o.name} (last lines):\n" + (text[-share:] if len(text) > share else text)
        return head[:NOTE_CHARS]


def _listed(paths: Sequence[str]) -> str:
    shown = ", ".join(paths[:LISTED_PATHS])
    return shown + (f" and {len(paths) - LISTED_PATHS} more" if len(paths) > LISTED_PATHS else "")


@dataclass(frozen=True)
class CheckRun:
    """What the checks of one attempt need."""

    worktree: Path
    git: GitDirs  # the worktree's recorded git directory (Alphred's git never reads its ``.git`` file)
    start_sha: str
    values: Mapping[str, Any]  # the template context of the phase (for ``run`` commands)
    report: Any  # the attempt's structured report (a dict) or its text
    environ: Mapping[str, str]
    redactor: Redactor
    emit: Callable[[ProviderEvent], None]  # into the attempt's event stream
    confine: Callable[[Sequence[str]], list[str]] | None = None  # the phase's sandbox (``runtime/sandbox.py``)


async def run_checks(checks: Sequence[Check], run: CheckRun) -> ChecksResult:
    """Run every check in order, record each as a ``tool_use``/``tool_result`` pair, restore protected paths."""
    result = ChecksResult()
    protected: list[str] = []
    for check in checks:
        description = check.description
        if check.kind is CheckKind.RUN:
            assert check.template is not None
            script, variables = template_command(check.template, run.values)
            # shown with its values in place (quoted as the shell would take them), never run as such
            description = run.redactor.redact(render_template(check.template, run.values, quote=shlex.quote))
        use = {"check": {"name": check.name, "kind": check.kind.value}}
        run.emit(ProviderEvent(EventType.TOOL_USE, description, metadata={"tool": "check", **use}))
        if check.kind is CheckKind.RUN:
            outcome = await _run_command(check, script, {**run.environ, **variables}, run)
        elif check.kind is CheckKind.REPORT:
            outcome = _report_check(check, run.report)
        else:
            outcome = _paths_check(check, await changed_paths(run.git, run.start_sha))
            if check.kind is CheckKind.UNCHANGED:
                protected.extend(p for p in outcome.paths if p not in protected)
        outcome = CheckOutcome(
            outcome.name, outcome.kind, outcome.passed, description,
            run.redactor.redact(outcome.output), outcome.exit_code, outcome.paths,
        )  # fmt: skip
        result.outcomes.append(outcome)
        metadata = {"tool": "check", "check": {k: v for k, v in outcome.stored().items() if k != "output"}}
        run.emit(ProviderEvent(EventType.TOOL_RESULT, outcome.output, metadata=metadata))
    if not result.passed:
        await rewind_head(run.git, run.start_sha)
    if protected:
        await restore_paths(run.git, run.start_sha, protected)
        result.restored = protected
    return result


async def _run_command(check: Check, script: str, environ: Mapping[str, str], run: CheckRun) -> CheckOutcome:
    """The check's command in the worktree, its own process group, killed past its timeout."""
    tail: deque[str] = deque()
    size = 0
    exit_code: int | None = None
    try:
        commands = run_command(script, run.worktree, timeout=check.timeout, environ=environ, confine=run.confine)
        async for event in commands:
            if event.type is EventType.TOOL_RESULT:
                tail.append(event.content + "\n")
                size += len(event.content) + 1
                while size > OUTPUT_TAIL_CHARS and len(tail) > 1:
                    size -= len(tail.popleft())
            elif event.type is EventType.RESULT:
                code = event.metadata.get("exit_code")
                exit_code = code if isinstance(code, int) else None
    except ProviderError as exc:
        tail.append(f"[{exc}]\n")
        return CheckOutcome(check.name, check.kind, False, check.description, _tail("".join(tail)))
    output = _tail("".join(tail))
    return CheckOutcome(check.name, check.kind, exit_code == 0, check.description, output, exit_code)


def _report_check(check: Check, report: Any) -> CheckOutcome:
    if not isinstance(report, dict):
        said = "the phase gave no structured report" if not report else "the report is text, not an object"
        return CheckOutcome(
            check.name, check.kind, False, check.description, f"{said}; required keys: {', '.join(check.required)}"
        )
    missing = [key for key in check.required if report.get(key) is None]
    if missing:
        return CheckOutcome(check.name, check.kind, False, check.description, f"the report lacks {', '.join(missing)}")
    return CheckOutcome(check.name, check.kind, True, check.description, f"the report has {', '.join(check.required)}")


def _paths_check(check: Check, changed: list[str]) -> CheckOutcome:
    matching = tuple(PathGlobs(check.paths).select(changed))
    if check.kind is CheckKind.CHANGED:
        if matching:
            return CheckOutcome(
                check.name, check.kind, True, check.description, f"changed: {_listed(matching)}", paths=matching
            )
        seen = f" (it changed {_listed(changed)})" if changed else " (it changed no path at all)"
        return CheckOutcome(
            check.name, check.kind, False, check.description, f"no path changed by this attempt matches{seen}"
        )
    if matching:
        said = f"protected paths were changed: {_listed(matching)}"
        return CheckOutcome(check.name, check.kind, False, check.description, said, paths=matching)
    return CheckOutcome(check.name, check.kind, True, check.description, "no protected path was changed")


def _tail(text: str) -> str:
    return text[-OUTPUT_TAIL_CHARS:]


# -- git, off the event loop ---------------------------------------------------------------------------


async def _git(dirs: GitDirs, *args: str) -> bytes:
    """``git ARGS`` in the worktree of ``dirs`` as an asyncio subprocess; GitError with git's words on failure."""
    process = await asyncio.create_subprocess_exec(
        "git", *dirs.options(), "--literal-pathspecs", *args,
        cwd=str(dirs.work_tree), env=git_environment(), stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    if process.returncode != 0:
        words = err.decode("utf-8", "replace").strip() or "no output"
        raise GitError(f"`git {args[0]}` failed (exit {process.returncode}): {words}")
    return out


def _split(out: bytes) -> list[str]:
    return [item.decode("utf-8", "surrogateescape") for item in out.split(b"\0") if item]


async def changed_paths(worktree: GitDirs, start_sha: str) -> list[str]:
    """Paths that differ between the worktree and ``start_sha`` (untracked ones included), sorted."""
    tracked = await _git(worktree, "diff", "--name-only", "--no-renames", "-z", start_sha, "--")
    untracked = await _git(worktree, "ls-files", "--others", "--exclude-standard", "-z")
    return sorted(set(_split(tracked)) | set(_split(untracked)))


async def rewind_head(worktree: GitDirs, start_sha: str) -> None:
    """Move the branch back to ``start_sha`` when the failed attempt committed on its own (``reset --soft``).

    Nothing is lost: what those commits changed stays in the worktree (staged) for the retry, which starts
    from the same commit as the failed attempt.
    """
    head = (await _git(worktree, "rev-parse", "--verify", "HEAD")).decode().strip()
    if head == start_sha:
        return
    ancestor = await asyncio.create_subprocess_exec(
        "git", *worktree.options(), "merge-base", "--is-ancestor", start_sha, head,
        cwd=str(worktree.work_tree), env=git_environment(), stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    if await ancestor.wait() == 0:
        await _git(worktree, "reset", "-q", "--soft", start_sha)


async def restore_paths(worktree: GitDirs, start_sha: str, paths: Sequence[str]) -> None:
    """Put ``paths`` back as they were in ``start_sha`` (worktree and index); delete those it did not have."""
    known = set(_split(await _git(worktree, "ls-tree", "-r", "-z", "--name-only", start_sha, "--", *paths)))
    known |= set(_split(await _git(worktree, "ls-files", "-z", "--", *paths)))  # staged by the attempt
    back = [p for p in paths if p in known]
    if back:  # git removes a path the source does not have
        await _git(worktree, "restore", f"--source={start_sha}", "--staged", "--worktree", "--", *back)
    added = [p for p in paths if p not in known]
    if added:
        await asyncio.to_thread(_remove, Path(str(worktree.work_tree)), added)


def _remove(worktree: Path, paths: Sequence[str]) -> None:
    """Delete files an attempt added under protected paths, and the directories that leaves empty."""
    root = worktree.resolve()
    for rel in paths:
        path = worktree / rel
        if not path.parent.resolve().is_relative_to(root):
            continue  # never follow a symlinked directory out of the worktree
        with contextlib.suppress(OSError):
            path.unlink()  # a symlink itself, never what it points to
        parent = path.parent
        while parent != worktree and parent.is_relative_to(worktree):
            try:
                parent.rmdir()
            except OSError:
                break
            parent = parent.parent
