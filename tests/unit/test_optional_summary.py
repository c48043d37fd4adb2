"""The end-of-run summary of optional tests (``tests/helpers/optional.py``): what ran, what was skipped, why."""

from __future__ import annotations

import pytest
from helpers.optional import PROPERTY, Tally


def report(tool: str | None, outcome: str, when: str = "call", reason: str = "") -> pytest.TestReport:
    longrepr = ("file.py", 1, f"Skipped: {reason}") if outcome == "skipped" else None
    properties = [(PROPERTY, tool)] if tool else []
    return pytest.TestReport(
        f"t::{tool}-{outcome}", ("file.py", 1, "t"), {}, outcome, longrepr, when, user_properties=properties
    )


def test_the_summary_counts_what_ran_and_why_the_rest_was_skipped() -> None:
    tally = Tally()
    for rep in (
        report("postgresql", "passed", "setup"),  # setup and teardown reports are not runs
        report("postgresql", "passed"),
        report("postgresql", "failed"),  # a failure ran
        report("postgresql", "passed", "teardown"),
        report("chromium", "skipped", "setup", "no Chromium found"),
        report("chromium", "skipped", "setup", "no Chromium found"),
        report("codex", "skipped", "call", "no real codex binary installed"),
        report(None, "passed"),  # not optional: not counted
        report("gpu", "passed"),  # a tool the list does not know yet is listed too
    ):
        tally.add(rep)
    assert tally.lines() == [
        "chromium    0 ran, 2 skipped: no Chromium found (2)",
        "postgresql  2 ran",
        "bubblewrap  none selected",
        "codex       0 ran, 1 skipped: no real codex binary installed (1)",
        "claude      none selected",
        "actionlint  none selected",
        "gpu         1 ran",
    ]


def test_hypothesis_budgets_are_examples_never_time() -> None:
    """A loaded machine makes examples slower, not wrong: no per-example deadline anywhere in the suite
    (the profile loaded by conftest.py, and no test asking for one), so no property test fails under load."""
    import re
    from pathlib import Path

    from hypothesis import HealthCheck, settings

    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
    tests = Path(__file__).resolve().parents[1]
    asked = {
        f"{path.relative_to(tests)}: {match.group(0)}"
        for path in tests.rglob("*.py")
        for match in re.finditer("dead" + r"line=(?!None\b|DEADLINE\b)[^,)\n]+", path.read_text())
    }
    assert not asked  # DEADLINE is test_fuzz_validate's, None unless ALPHRED_FUZZ_DEADLINE_SECONDS is set
