"""Routing explanations end to end (issue 28 item 3): stored when the run routes, shown by the closing block,
``status`` and ``status --explain``. Real git repository, real SQLite file, the CLI through click's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.cli import cli, write_workflow

TYPO = """\
phases:
  review:
    provider: scripted
    decisions: [approved, changes]
    script:
      - decision: changes
        report: {risk: high, summary: "looks risky"}
    transitions:
      - to: fix
        when: report.riks == "high"
      - to: $end
        when: decision == "approved"
  fix:
    type: command
    run: "true"
"""
LOOP = """\
phases:
  tests:
    type: command
    run: "exit 1"
    allow_failure: true
    transitions:
      - to: tests
        when: exit_code != 0
        max: 1
      - to: $fail
"""
LANE = """\
phases:
  plan:
    type: command
    run: "true"
    transitions: [{to: [left, right]}]
  left:
    type: command
    run: "true"
    transitions:
      - to: verdict
        when: exit_code == 1
  right:
    type: command
    run: "true"
    transitions: [{to: verdict}]
  verdict:
    type: command
    run: "true"
    join: all
"""
TYPO_LINES = [
    '    - when report.riks == "high" → fix: no match',
    "         report.riks = null (no such key; did you mean risk?)",
    '    - when decision == "approved" → $end: no match',
    '         decision = "changes"',
]


@pytest.mark.quick
def test_a_run_that_matched_no_transition_says_what_each_guard_read(repo: Path) -> None:
    workflow = write_workflow(repo, TYPO)
    result = cli("run", str(workflow), "--repo", str(repo))
    assert result.exit_code == 0, result.stderr
    closing = result.stderr.splitlines()
    head = closing.index("  phase review attempt 1 matched none of its transitions; what each one read:")
    assert closing[head + 1 : head + 5] == TYPO_LINES

    status = cli("status", "--repo", str(repo))
    assert status.exit_code == 0, status.stderr
    lines = status.stdout.splitlines()
    step = lines.index("    1. review #1 completed [changes] → no_route")
    assert lines[step + 1 : step + 5] == ["   " + line for line in TYPO_LINES]

    explained = json.loads(cli("status", "--json", "--explain", "--repo", str(repo)).stdout)
    (routing,) = (s["routing"] for s in explained["steps"])
    assert [(e["to"], e["result"]) for e in routing] == [("fix", "no match"), ("$end", "no match")]
    assert routing[0]["reads"] == [{"path": "report.riks", "value": "null", "note": "no such key; did you mean risk?"}]
    plain = json.loads(cli("status", "--json", "--repo", str(repo)).stdout)
    assert "routing" not in plain["steps"][0]  # the status object of SPEC §6 is unchanged without --explain


def test_explain_shows_every_step_and_the_fail_route_shows_its_guards(repo: Path) -> None:
    workflow = write_workflow(repo, LOOP)
    result = cli("run", str(workflow), "--repo", str(repo))
    assert result.exit_code == 1, result.stderr
    assert "  phase tests routed the run to $fail (none of its guards before the final `to: $fail` matched)." in (
        result.stderr
    )
    assert "    - when exit_code != 0 → tests: exhausted (its max was reached: taken 1 times)" in result.stderr

    plain = cli("status", "--repo", str(repo)).stdout
    assert "exit_code = 1" not in plain  # without --explain only a no_route step is explained
    lines = cli("status", "--explain", "--repo", str(repo)).stdout.splitlines()
    first = lines.index("    1. tests #1 completed → tests")
    assert lines[first + 1 : first + 3] == [
        "       - when exit_code != 0 → tests: matched",
        "            exit_code = 1",
    ]
    second = lines.index("    2. tests #2 completed → $fail")
    assert lines[second + 1 : second + 4] == [
        "       - when exit_code != 0 → tests: exhausted (its max was reached: taken 1 times)",
        "            exit_code = 1",
        "       - auto → $fail: matched",
    ]


def test_a_branch_that_matched_no_transition_is_explained(repo: Path) -> None:
    workflow = write_workflow(repo, LANE)
    result = cli("run", str(workflow), "--repo", str(repo))
    assert result.exit_code == 1, result.stderr
    assert "(no_route)" in result.stderr
    assert "  phase left attempt 1 matched none of its transitions; what each one read:" in result.stderr
    assert "    - when exit_code == 1 → verdict: no match" in result.stderr
    assert "         exit_code = 0" in result.stderr
