"""Which optional tests ran and which were skipped, and why: the summary at the end of a pytest run.

An optional test needs a tool the machine may lack (Chromium, PostgreSQL, bubblewrap, a real codex or
Claude Code CLI, actionlint). Each is tagged at collection, by ``@pytest.mark.optional("tool")`` or, for
PostgreSQL and the real Claude CLI, by its ``postgres`` marker / ``real_claude`` fixture; the tag travels
with the test's reports (``user_properties``, so it works under pytest-xdist too), and the summary counts,
per tool, the tests that ran and the ones skipped with their reasons. A tool none of whose tests was
selected (``-m quick``, ``-m "not slow"``, a path) says so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest

TOOLS = ("chromium", "postgresql", "bubblewrap", "codex", "claude", "actionlint")
PROPERTY = "optional_tool"


def tool_of(item: pytest.Item) -> str | None:
    """The optional tool ``item`` needs, or None."""
    marker = item.get_closest_marker("optional")
    if marker is not None and marker.args:
        return str(marker.args[0])
    if item.get_closest_marker("postgres") is not None or item.path.parent.name == "postgres":
        return "postgresql"
    if "real_claude" in getattr(item, "fixturenames", ()):
        return "claude"
    return None


def tag(items: list[pytest.Item]) -> None:
    """Record each optional test's tool in its reports (collection time, on every xdist worker)."""
    for item in items:
        tool = tool_of(item)
        if tool is not None:
            item.user_properties.append((PROPERTY, tool))


@dataclass
class Tally:
    """What happened to the optional tests of this session, per tool."""

    ran: Counter[str] = field(default_factory=Counter)
    skipped: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, report: pytest.TestReport) -> None:
        """Count ``report`` (on the controller: xdist forwards every worker's reports here)."""
        tool = next((value for name, value in report.user_properties if name == PROPERTY), None)
        if tool is None:
            return
        if report.skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            self.skipped.setdefault(tool, Counter())[reason.removeprefix("Skipped: ")] += 1
        elif report.when == "call":
            self.ran[tool] += 1

    def lines(self) -> list[str]:
        """One line per tool: how many ran, how many were skipped and why, or that none was selected."""
        out = []
        for tool in (*TOOLS, *sorted((set(self.ran) | set(self.skipped)) - set(TOOLS))):
            skipped = self.skipped.get(tool, Counter())
            if not self.ran[tool] and not skipped:
                out.append(f"{tool:<11} none selected")
                continue
            said = f"{tool:<11} {self.ran[tool]} ran"
            if skipped:
                reasons = "; ".join(f"{reason} ({count})" for reason, count in skipped.items())
                said += f", {sum(skipped.values())} skipped: {reasons}"
            out.append(said)
        return out
