"""The PR body and the run summary: Markdown from a status object (pure)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from alphred.scm.body import (
    build_pr_body,
    cell,
    costs_table,
    cut_text,
    default_pr_title,
    run_summary_markdown,
    steps_table,
)


def status(**changes: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "run_id": 7, "workflow": {"key": "fix-issue", "version": 2}, "status": "completed", "reason": None,
        "inputs": {"issue": "crash"}, "branch": "alphred/fix-issue/7", "base": "a" * 40, "head": "b" * 40,
        "worktree": None, "pr_url": None, "tokens": 12345, "cost_usd": 0.12345,
        "phases": [
            {"key": "implement", "status": "completed", "attempt": 2, "visits": 2, "decision": None,
             "exit_code": None, "tokens": 12000},
            {"key": "tests", "status": "completed", "attempt": 2, "visits": 2, "decision": None,
             "exit_code": 0, "tokens": 0},
            {"key": "review", "status": "completed", "attempt": 1, "visits": 1, "decision": "approved",
             "exit_code": None, "tokens": 345},
        ],
        "steps": [
            {"phase": "implement", "attempt": 1, "outcome": "completed", "decision": None, "next": "tests"},
            {"phase": "tests", "attempt": 1, "outcome": "completed", "decision": None, "next": "implement"},
            {"phase": "implement", "attempt": 2, "outcome": "completed", "decision": None, "next": "tests"},
            {"phase": "tests", "attempt": 2, "outcome": "completed", "decision": None, "next": "review"},
            {"phase": "review", "attempt": 1, "outcome": "completed", "decision": "approved", "next": "$end"},
        ],
    }  # fmt: skip
    obj.update(changes)
    return obj


def test_the_summary_has_phases_decisions_attempts_tokens_and_cost() -> None:
    text = run_summary_markdown(status(pr_url="https://github.com/acme/w/pull/1"))
    assert text.startswith("### Alphred run 7 · fix-issue v2: completed\n")
    assert "| review | completed | 1 | 1 | approved | – | 345 |" in text
    assert "| tests | completed | 2 | 2 | – | 0 | 0 |" in text
    assert "| 5 | review | 1 | completed | approved | $end |" in text
    assert "**Tokens** 12,345 · **Cost** $0.1235 · **Branch** `alphred/fix-issue/7`" in text
    assert "**Base** `aaaaaaaaaaaa`" in text
    assert "**Pull request** https://github.com/acme/w/pull/1" in text


def test_a_failed_run_shows_its_reason_and_no_pr_line() -> None:
    text = run_summary_markdown(status(status="failed", reason="max_visits"))
    assert ": failed (max_visits)" in text.splitlines()[0] and "Pull request" not in text


def test_runs_without_steps_have_no_steps_section() -> None:
    assert "Steps" not in run_summary_markdown(status(steps=None))


def test_only_the_last_steps_are_listed() -> None:
    steps = [{"phase": f"p{i}", "attempt": 1, "outcome": "completed", "decision": None, "next": None} for i in range(5)]
    table = steps_table(steps, limit=2)
    assert "| 4 | p3 |" in table and "| 5 | p4 |" in table and "p2" not in table
    assert "3 earlier step(s) not shown." in table


def test_the_pr_body_is_the_report_then_the_summary() -> None:
    body = build_pr_body(status(), "## Fix\n\nThe config loader handles empty files.\n")
    report, summary = body.split("\n---\n", 1)
    assert report == "## Fix\n\nThe config loader handles empty files.\n"
    assert "#### Alphred run 7 · fix-issue v2\n" in summary  # no status: the run is not completed yet
    assert "| review | completed | 1 | 1 | approved |" in summary and body.endswith("Opened by Alphred.</sub>\n")


def test_a_structured_report_becomes_prose_and_a_list_not_a_json_dump() -> None:
    body = build_pr_body(status(), '{"summary": "Fixed it.\\n\\nWith a test.", "severity": "none", "files": ["a.py"]}')
    assert body.startswith("Fixed it.\n\nWith a test.\n\n- **severity**: none\n- **files**: \n  - a.py\n")
    assert "```json" not in body and '"summary"' not in body


def test_a_body_field_wins_over_summary() -> None:
    body = build_pr_body(status(), '{"summary": "short", "body": "## The long story"}')
    assert body.startswith("## The long story\n\n- **summary**: short")


def test_without_a_report_the_body_is_the_summary() -> None:
    assert build_pr_body(status(), None).startswith("---\n\n#### Alphred run 7")


def test_a_huge_report_is_cut_but_the_summary_stays() -> None:
    body = build_pr_body(status(), "x" * 100_000, limit=5000)
    assert len(body) <= 5001 and "characters cut by alphred" in body and "| review |" in body


def test_default_title() -> None:
    assert default_pr_title(status()) == "fix-issue (alphred run 7)"
    assert default_pr_title(status(), "Fix an issue") == "Fix an issue (alphred run 7)"


@given(st.text(), st.integers(min_value=0, max_value=500))
def test_cut_text_respects_the_limit(text: str, limit: int) -> None:
    cut = cut_text(text, limit)
    assert len(cut) <= max(limit, 0)
    if len(text) <= limit:
        assert cut == text


@given(st.text())
def test_a_cell_never_breaks_the_table(value: str) -> None:
    text = cell(value)
    assert "\n" not in text and "\r" not in text
    assert "|" not in text.replace("\\|", "")


def test_the_summary_lists_the_checks_of_every_step() -> None:
    steps = [
        {"phase": "implement", "attempt": 1, "outcome": "failed", "decision": None, "next": None,
         "checks": [{"name": "tests", "passed": False, "exit_code": 1}, {"name": "code", "passed": True,
                                                                          "exit_code": None}]},
        {"phase": "implement", "attempt": 2, "outcome": "completed", "decision": None, "next": "review",
         "checks": [{"name": "tests", "passed": True, "exit_code": 0}]},
        {"phase": "review", "attempt": 1, "outcome": "completed", "decision": "approved", "next": None, "checks": []},
    ]  # fmt: skip
    text = run_summary_markdown(status(steps=steps))
    assert "**Checks** (1 failed)" in text
    assert "| implement | 1 | tests | **failed** | 1 |" in text and "| implement | 1 | code | passed | – |" in text
    assert "| implement | 2 | tests | passed | 0 |" in text and "| review |" not in text.split("**Checks**")[1]
    assert "**Checks**" not in run_summary_markdown(status())  # no step ran a check: no section


def test_the_pr_body_has_a_collapsible_cost_and_provider_table_by_step() -> None:
    costs = [
        {"phase": "implement", "attempt": 1, "provider": "claude", "model": "claude-sonnet-4-5", "tokens": 1200,
         "cost_usd": 0.25, "duration_ms": 61000},
        {"phase": "open_pr", "attempt": 1, "provider": "pull_request", "model": None, "tokens": 0, "cost_usd": 0.0,
         "duration_ms": 900},
        {"phase": "fix", "attempt": 1, "provider": "codex", "model": None, "tokens": 800, "cost_usd": 0.125,
         "duration_ms": None},
    ]  # fmt: skip
    body = build_pr_body(status(), "Fixed it.", costs=costs)
    table = body.split("<details><summary>Cost and provider by step ($0.3750)</summary>")[1].split("</details>")[0]
    assert "| 1 | implement | 1 | claude | claude-sonnet-4-5 | 1,200 | $0.2500 | 61.0s |" in table
    assert "| 2 | open_pr | 1 | pull_request | – | 0 | $0.0000 | 0.9s |" in table
    assert "| 3 | fix | 1 | codex | – | 800 | $0.1250 | – |" in table
    assert "| | **total** | | | | **2,000** | **$0.3750** | |" in table
    many = costs_table([{**costs[0], "attempt": n} for n in range(1, 6)], limit=2)
    assert many.count("| implement |") == 2 and "3 earlier step(s) not shown (the total counts them)." in many
    assert "**6,000**" in many
    assert "Cost and provider" not in build_pr_body(status(), "Fixed it.")
