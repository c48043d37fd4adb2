"""``--dry-run``: what a command would run, said instead of done (command phases, and checks).

A dry run has no side effect outside the run's worktree: agent phases are stubbed by
``alphred.providers.dryrun.DryRunProvider``, and every shell command the run would start (a command phase's
``run:``, a check's command) goes through ``dry_run_command`` instead of ``run_command``: it reports the
command and passes (exit code 0). ``--dry-run=agents`` keeps running the commands.
"""

from __future__ import annotations

import shlex
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from alphred.guards.templates import render_template
from alphred.providers.base import EventType, ProviderEvent, result_event
from alphred.runtime.checks import CheckOutcome, ChecksResult
from alphred.workflow.model import Check, CheckKind

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


def dry_run_checks(
    checks: Sequence[Check], values: Mapping[str, Any], emit: Callable[[ProviderEvent], None]
) -> ChecksResult:
    """The checks of a phase in a dry run: each said, none run, each counted as passed (``run`` ones exit 0)."""
    result = ChecksResult()
    for check in checks:
        description = check.description
        if check.kind is CheckKind.RUN and check.template is not None:
            description = render_template(check.template, values, quote=shlex.quote)
        text = would_run(description) if check.kind is CheckKind.RUN else f"dry run: {description} not checked"
        exit_code = 0 if check.kind is CheckKind.RUN else None
        outcome = CheckOutcome(check.name, check.kind, True, description, text, exit_code)
        metadata = {"tool": "check", "check": {k: v for k, v in outcome.stored().items() if k != "output"}}
        emit(ProviderEvent(EventType.TOOL_USE, description, metadata={"tool": "check", "dry_run": True}))
        emit(ProviderEvent(EventType.TOOL_RESULT, text, metadata=metadata))
        result.outcomes.append(outcome)
    return result
