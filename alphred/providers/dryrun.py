"""The ``--dry-run`` stand-in: every agent phase takes its first declared decision, offline."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from alphred.providers.base import EventType, ProviderEvent, ProviderOptions, Readiness, result_event


class DryRunProvider:
    """Replaces a real provider under ``--dry-run``: no network, no edits, the first declared decision."""

    stub = True  # it does no work: the phase's checks (SPEC §9) are skipped
    spawns = False  # nor does it start any process

    def __init__(self, replaces: str, reports: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self.name = f"dry-run({replaces})"
        self.replaces = replaces
        self.reports = dict(reports or {})  # phase -> a structured report meeting its guards on report.x

    def check(self) -> Readiness:
        """Always ready."""
        return Readiness(True, "dry run")

    async def run(self, prompt: str, options: ProviderOptions) -> AsyncIterator[ProviderEvent]:
        """Report what would have run and take the first declared decision."""
        decision = options.decisions[0] if options.decisions else None
        text = (
            f"dry run: phase {options.phase} would run provider {self.replaces} "
            f"with a {len(prompt)}-character prompt and {len(options.context)} context artifact(s)"
        )
        yield ProviderEvent(EventType.SYSTEM, text)
        report = self.reports.get(options.phase)
        yield result_event(text, decision, dict(report) if report is not None else None)
