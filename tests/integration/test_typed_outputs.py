"""Typed outputs end to end (SPEC §12): real git repositories, real SQLite, the CLI in this process; scripted
agents, command phases writing ``$ALPHRED_OUTPUT`` (in and out of a bubblewrap sandbox)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from helpers.cli import cli, write_workflow
from helpers.repos import git, isolate, make_repo


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    isolate(monkeypatch, tmp_path / "home")
    monkeypatch.setenv("ALPHRED_RETRY_BASE_SECONDS", "0.01")
    return make_repo(tmp_path / "repo", {"README.md": "# project\n"})


def run(repo: Path, body: str, *args: str) -> tuple[Result, dict[str, Any]]:
    path = write_workflow(repo.parent, body)
    result = cli("run", str(path), "--repo", str(repo), "--json", "--keep-worktree", *args)
    return result, json.loads(result.stdout) if result.stdout.strip() else {}


def query(repo: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(repo / ".alphred" / "alphred.db") as conn:
        return conn.execute(sql, params).fetchall()


def diagnostics_of(repo: Path, phase: str) -> list[tuple[int, str, str | None, str | None, dict[str, Any]]]:
    """(attempt, outcome, reason, error code, details) of each finished attempt of ``phase``."""
    rows = query(
        repo,
        "select d.attempt, d.outcome, d.reason, d.error_code, d.details from run_node_diagnostics d "
        "join run_nodes n on n.id = d.run_node_id where n.node_key = ? order by d.attempt",
        phase,
    )
    return [(*row[:4], json.loads(row[4] or "{}")) for row in rows]


def failure(repo: Path, phase: str, attempt: int = 1) -> tuple[str | None, str | None, str]:
    """(reason, error code, message) of a failed attempt."""
    found = next(d for d in diagnostics_of(repo, phase) if d[0] == attempt)
    return found[2], found[3], found[4].get("message", "")


def steps(status: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(s["phase"], s["attempt"], s["outcome"]) for s in status["steps"]]


TRIAGE = """\
phases:
  triage:
    provider: scripted
    max_retries: 1
    decisions: [approved, changes_requested]
    output:
      type: object
      required: [severity, files]
      properties:
        severity: {enum: [low, high]}
        files: {type: array, items: {type: string}}
    script:
      - {decision: approved, report: {severity: urgent, files: [1]}}
      - {decision: approved, report: {severity: high, files: [a.py]}}
    transitions:
      - to: fix
        when: report.severity == "high" and decision == "approved"
      - to: $end
  fix:
    provider: scripted
    prompt: "Fix {{ phases.triage.report.files }}"
"""


def test_a_violating_answer_fails_output_invalid_and_the_retry_carries_each_violation(repo: Path) -> None:
    result, status = run(repo, TRIAGE)
    assert result.exit_code == 0, result.stderr
    assert steps(status) == [("triage", 1, "failed"), ("triage", 2, "completed"), ("fix", 1, "completed")]
    reason, code, message = failure(repo, "triage")
    assert (reason, code) == ("output_invalid", "OUTPUT_INVALID")
    assert "/files/0: 1 is not of type 'string'" in message
    assert "/severity: 'urgent' is not one of ['low', 'high']" in message
    system = query(
        repo,
        "select e.metadata from run_node_stream_events e join run_nodes n on n.id = e.run_node_id "
        "where n.node_key = 'triage' and e.event_type = 'system' order by e.attempt",
    )
    assert [json.loads(m)["context_items"] for (m,) in system] == [0, 1]  # the retry got the violations
    stored = diagnostics_of(repo, "triage")[0][4]
    assert stored["violations"] == [
        "/files/0: 1 is not of type 'string'",
        "/severity: 'urgent' is not one of ['low', 'high']",
    ]
    report = query(
        repo,
        "select a.content_json from phase_artifacts a join run_nodes n on n.id = a.run_node_id "
        "where n.node_key = 'triage' and a.kind = 'report'",
    )
    assert [json.loads(r) for (r,) in report] == [{"severity": "high", "files": ["a.py"], "decision": "approved"}]


def test_retries_used_up_fail_the_run_with_output_invalid(repo: Path) -> None:
    body = TRIAGE.replace("max_retries: 1", "max_retries: 0")
    result, status = run(repo, body)
    assert result.exit_code == 1
    assert status["status"] == "failed" and status["reason"] == "output_invalid"
    assert "OUTPUT_INVALID" in result.stderr or "output_invalid" in result.stderr


COMMAND = """\
phases:
  measure:
    type: command
    run: |
      printf '{"coverage": %s, "files": ["a.py"]}' "$COVERAGE" > "$ALPHRED_OUTPUT"
      echo "$ALPHRED_OUTPUT" > where.txt
    output:
      type: object
      required: [coverage]
      properties:
        coverage: {type: number, maximum: 100}
        files: {type: array}
    max_retries: 0
    transitions:
      - to: improve
        when: report.coverage < 80
      - to: $end
  improve:
    type: command
    run: echo "improving {{ phases.measure.report.coverage }}"
"""


def test_a_command_reports_through_alphred_output_outside_the_worktree(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COVERAGE", "42.5")
    result, status = run(repo, COMMAND)
    assert result.exit_code == 0, result.stderr
    assert [s[0] for s in steps(status)] == ["measure", "improve"]
    worktree = Path(status["worktree"])
    where = Path((worktree / "where.txt").read_text().strip())
    assert not where.is_relative_to(worktree) and not where.exists()  # outside, and removed after the attempt
    committed = git(worktree, "ls-files").split()
    assert committed == ["README.md", "where.txt"]  # the report file is never committed
    output = query(
        repo,
        "select a.content_json from phase_artifacts a join run_nodes n on n.id = a.run_node_id "
        "where n.node_key = 'measure' and a.kind = 'report'",
    )
    assert json.loads(output[0][0]) == {"coverage": 42.5, "files": ["a.py"]}
    improve = query(
        repo,
        "select e.content from run_node_stream_events e join run_nodes n on n.id = e.run_node_id "
        "where n.node_key = 'improve' and e.event_type = 'tool_result'",
    )
    assert any("improving 42.5" in text for (text,) in improve)


@pytest.mark.parametrize(
    ("coverage", "violation"),
    [("140", "/coverage: 140 is greater than the maximum of 100"), ("oops", "is not JSON")],
)
def test_a_command_report_that_breaks_the_schema_fails_output_invalid(
    repo: Path, monkeypatch: pytest.MonkeyPatch, coverage: str, violation: str
) -> None:
    monkeypatch.setenv("COVERAGE", coverage)
    result, status = run(repo, COMMAND)
    assert result.exit_code == 1
    assert steps(status) == [("measure", 1, "failed")]
    assert failure(repo, "measure")[:2] == ("output_invalid", "OUTPUT_INVALID")
    assert violation in failure(repo, "measure")[2]


def test_a_command_that_writes_no_report_fails_and_one_without_output_keeps_todays_behaviour(repo: Path) -> None:
    body = """\
    phases:
      silent:
        type: command
        run: "test -z \\"$ALPHRED_OUTPUT\\" || echo typed"
        output: {type: object}
        transitions: [{to: plain}]
      plain:
        type: command
        run: "test -z \\"$ALPHRED_OUTPUT\\""
    """
    result, status = run(repo, body)
    assert result.exit_code == 1
    assert steps(status) == [("silent", 1, "failed")]
    assert "the command wrote no report to $ALPHRED_OUTPUT" in failure(repo, "silent")[2]
    result, status = run(repo, body.replace("        output: {type: object}\n", ""))
    assert result.exit_code == 0, result.stderr  # no output: no $ALPHRED_OUTPUT, the text is the report


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_alphred_output_works_inside_the_sandbox(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COVERAGE", "12")
    body = COMMAND.replace("    max_retries: 0\n", "    max_retries: 0\n    sandbox: {network: false}\n", 1)
    result, status = run(repo, body)
    assert result.exit_code == 0, result.stderr
    assert [s[0] for s in steps(status)] == ["measure", "improve"]
    assert (Path(status["worktree"]) / "where.txt").read_text().strip() == "/tmp/alphred-output.json"


def test_status_json_carries_each_phase_s_latest_report(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COVERAGE", "42.5")
    result, _status = run(repo, COMMAND)
    assert result.exit_code == 0, result.stderr
    shown = cli("status", "1", "--json", "--repo", str(repo))
    assert shown.exit_code == 0, shown.stderr
    reports = {p["key"]: p["report"] for p in json.loads(shown.stdout)["phases"]}
    assert reports == {"measure": {"coverage": 42.5, "files": ["a.py"]}, "improve": "improving 42.5\n"}


def test_the_pull_request_body_shows_a_typed_report_as_a_list(tmp_path: Path) -> None:
    from helpers.processes import run_alphred
    from helpers.scm import make_world

    world = make_world(tmp_path)
    path = world.root / "ship.yaml"
    path.write_text(
        "alphred: 1\nkey: ship\npull_request: {body_from: review}\nphases:\n  review:\n    provider: scripted\n"
        "    output: {type: object, required: [summary, risk], properties: {summary: {type: string}, "
        "risk: {enum: [low, high]}, files: {type: array, items: {type: string}}}}\n"
        "    script: [{report: {summary: Looks good., risk: low, files: [a.py, b.py]}, files: {a.py: 'x'}}]\n"
    )
    result = run_alphred("run", str(path), "--repo", str(world.repo), "--json", env=world.env)
    assert result.returncode == 0, result.stderr
    (create,) = [c for c in world.calls() if c["argv"][:2] == ["pr", "create"]]
    assert create["body"].startswith("Looks good.\n\n- **files**: \n  - a.py\n  - b.py\n- **risk**: low\n")


def test_script_by_visit_replays_the_visit_s_entry_on_a_retry_and_entries_delete_files(
    repo: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "checked-once"
    body = f"""\
    phases:
      a:
        provider: scripted
        script_by: visit
        max_retries: 1
        script:
          - {{report: v1, files: {{x.txt: "one"}}}}
          - {{report: v2, delete: [x.txt]}}
        checks:
          - run: test -f {marker} || {{ touch {marker}; exit 1; }}
        transitions: [{{to: b}}]
      b:
        type: command
        run: test -f x.txt
        allow_failure: true
        transitions:
          - {{to: a, when: exit_code == 0, max: 1}}
          - to: $end
    """
    result, status = run(repo, body)
    assert result.exit_code == 0, result.stderr
    assert steps(status) == [
        ("a", 1, "failed"), ("a", 2, "completed"), ("b", 1, "completed"), ("a", 3, "completed"), ("b", 2, "completed"),
    ]  # fmt: skip
    reports = query(
        repo,
        "select a.content_text from phase_artifacts a join run_nodes n on n.id = a.run_node_id "
        "where n.node_key = 'a' and a.kind = 'report' order by a.attempt",
    )
    assert [r for (r,) in reports] == ["v1", "v2"]  # attempt 2 replayed the first visit's entry
    assert not (Path(status["worktree"]) / "x.txt").exists()


def test_shell_bash_in_defaults_or_on_the_phase_chooses_bash(repo: Path) -> None:
    body = """\
    defaults: {shell: bash}
    phases:
      a:
        type: command
        run: 'echo "a:[${BASH_VERSION:+bash}]"; [[ -n "$BASH_VERSION" ]]'
        transitions: [{to: b}]
      b:
        type: command
        shell: sh
        run: 'echo "b:[${BASH_VERSION:+bash}]"'
    """
    result, _status = run(repo, body)
    assert result.exit_code == 0, result.stderr
    lines = [
        text for (text,) in query(repo, "select content from run_node_stream_events where event_type = 'tool_result'")
    ]
    assert "a:[bash]" in lines and "b:[]" in lines


def test_a_failed_check_shows_its_command_with_the_values_in_place(repo: Path) -> None:
    body = """\
    inputs: {suite: {default: "unit tests"}}
    phases:
      a:
        type: command
        run: "true"
        checks:
          - {name: suite, run: "test {{ inputs.suite }} = nothing"}
    """
    result, _status = run(repo, body)
    assert result.exit_code == 1
    message = failure(repo, "a")[2]
    assert "- suite (run: test 'unit tests' = nothing): exit code 1" in message, message
    assert "ALPHRED_INPUTS" not in message
