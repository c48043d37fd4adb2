"""Where one attempt's processes live (SPEC §14): their environment, their sandbox, and their end.

``AttemptRoom`` is built when an attempt starts: ``environ`` is the environment of every process it starts
(``environment.phase_environment``: secrets dropped but the phase's ``env:``, the attempt's marker
``ALPHRED_ATTEMPT`` added), ``confine`` wraps a command into the phase's sandbox (``sandbox.Sandbox``) when
the phase has ``sandbox:``. ``clear`` kills every process that carries the attempt's marker (``setsid``
ones too, adopted by this process as a child subreaper); ``close`` does it again and removes the sandbox's
private ``/tmp``. Both run off the event loop.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from alphred.runtime.attempt_context import PhaseContext
from alphred.runtime.environment import ATTEMPT_MARKER, attempt_marker
from alphred.runtime.orphans import MARKER, kill_attempt_processes, nothing_below
from alphred.runtime.sandbox import Sandbox, close_sandbox, open_sandbox
from alphred.runtime.typed_output import OUTPUT_FILE
from alphred.workflow import Phase


class AttemptRoom:
    """One attempt's environment, sandbox and process clean-up (see the module docstring)."""

    def __init__(self, ctx: PhaseContext, phase: Phase, attempt: int) -> None:
        self.ctx = ctx
        self.phase = phase
        owner = ctx.environ.get(MARKER) or f"pid{os.getpid()}"
        self.marker = attempt_marker(owner, ctx.run_id, phase.key, attempt)
        places = ctx.files.environment() if ctx.files is not None else {}
        self.environ = {**ctx.phase_environ(tuple(phase.env)), ATTEMPT_MARKER: self.marker, **places}
        self.sandbox: Sandbox | None = None
        self.spawns = _spawns(ctx, phase)
        self._cleared = False  # ``clear`` ran to its end: nothing the attempt started is left
        self.outputs: Path | None = None  # the directory of ``$ALPHRED_OUTPUT`` outside a sandbox

    def output_file(self) -> tuple[str, Path]:
        """Where a command phase with ``output:`` writes its report (SPEC §12): (``$ALPHRED_OUTPUT`` as its
        processes see it, the same file as Alphred reads it). Outside the worktree, so never committed: in
        the sandbox's private ``/tmp``, else in a directory made for the attempt; both removed by ``close``."""
        if self.sandbox is not None:
            return f"/tmp/{OUTPUT_FILE}", self.sandbox.tmp / OUTPUT_FILE
        if self.outputs is None:
            self.outputs = Path(tempfile.mkdtemp(prefix="alphred-output-"))
        path = self.outputs / OUTPUT_FILE
        return str(path), path

    @property
    def confine(self) -> Callable[[Sequence[str]], list[str]] | None:
        """Wraps an argv into the attempt's sandbox; None without ``sandbox:``."""
        return self.sandbox.confine if self.sandbox is not None else None

    async def open(self) -> None:
        """Make the sandbox (its private ``/tmp``) when the phase asks for one."""
        policy = self.phase.sandbox
        if policy is None or self.ctx.dry_run_commands:  # --dry-run: no command runs, agents are stand-ins
            return
        ctx = self.ctx
        git_dirs = [ctx.worktrees.dirs(ctx.worktree).git_dir, ctx.worktrees.location.git_common_dir]
        writable = tuple(ctx.files.areas.values()) if ctx.files is not None else ()  # SPEC §17
        self.sandbox = await asyncio.to_thread(open_sandbox, policy, ctx.worktree, git_dirs, writable)

    async def clear(self) -> None:
        """Kill what the attempt started that is still running (never this process's own helpers). No thread
        and no look at ``/proc`` when this child subreaper has no child left at all (a command reaped, nothing
        else running): then nothing the attempt started can be running."""
        if self.spawns and not nothing_below():
            await asyncio.to_thread(kill_attempt_processes, self.marker)
        self._cleared = True

    @property
    def settled(self) -> bool:
        """Whether ``close`` has nothing to do (no process to look for, no sandbox or output directory)."""
        looked = not self.spawns or (self._cleared and not any(check.run for check in self.phase.checks))
        return looked and self.sandbox is None and self.outputs is None

    async def close(self) -> None:
        """``clear`` (again, unless it ran and nothing could start since: no ``run`` check follows the clear
        at the provider's end), then remove the sandbox's private ``/tmp``."""
        if not self._cleared or any(check.run for check in self.phase.checks):
            await self.clear()
        if self.outputs is not None:
            outputs, self.outputs = self.outputs, None
            await asyncio.to_thread(shutil.rmtree, outputs, True)
        if self.sandbox is not None:
            sandbox, self.sandbox = self.sandbox, None
            await asyncio.to_thread(close_sandbox, sandbox)


def _spawns(ctx: PhaseContext, phase: Phase) -> bool:
    """Whether the attempt may start processes (a provider that starts none says ``spawns = False``)."""
    if any(check.run for check in phase.checks) or phase.provider is None:
        return True
    return bool(getattr(ctx.registry.resolve(phase.provider), "spawns", True))
