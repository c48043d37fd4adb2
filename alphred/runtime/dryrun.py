"""``--dry-run``: what a command would run, said instead of done (command phases, and checks).

A dry run has no side effect outside the run's worktree: agent phases are stubbed by
``alphred.providers.dryrun.DryRunProvider``, and every shell command the run would start (a command phase's
``run:``, a check's command) goes through ``dry_run_command`` instead of ``run_command``: it reports the
command and passes (exit code 0). ``--dry-run=agents`` keeps running the commands.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from alphred.providers.base import EventType, ProviderEvent, result_event

DRY_RUN_ALL = "all"
DRY_RUN_AGENTS = "agents"


def would_run(command: str) -> str:
    """The sentence a dry run says instead of running ``command``."""
    return f"dry run: would run `{command}`; not run, counted as passed"


async def dry_run_command(command: str, cwd: Path) -> AsyncIterator[ProviderEvent]:
    """The events of a command that a dry run does not start: its text, then a passing result."""
    text = would_run(command)
    yield ProviderEvent(EventType.TOOL_USE, command, metadata={"tool": "shell", "cwd": str(cwd), "dry_run": True})
    yield result_event(text, None, None, exit_code=0, dry_run=True, command=command)
