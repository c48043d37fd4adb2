"""``alphred run`` end to end: real git repositories, real SQLite files, the CLI through click's runner."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from helpers.cli import cli, write_workflow
from helpers.processes import wait_gone
from helpers.repos import git

ROOT = Path(__file__).resolve().parents[2]


def run_json(*args: str, env: dict[str, str] | None = None) -> tuple[Result, dict[str, Any]]:
    result = cli("run", *args, "--json", env=env)
    return result, json.loads(result.stdout) if result.stdout.strip() else {}


@pytest.mark.quick
def test_demo_workflow_completes_with_commits_and_full_history(repo: Path) -> None:
    user_head = git(repo, "rev-parse", "HEAD")
    (repo / "scratch.txt").write_text("uncommitted user work\n")
    result, status = run_json(str(ROOT / "workflows" / "demo.yaml"), "--repo", str(repo))
    assert result.exit_code == 0, result.stderr
    assert status["status"] == "completed" and status["reason"] is None
    assert status["workflow"] == {"key": "demo", "version": 1}
    assert [(s["phase"], s["attempt"], s["outcome"], s["decision"], s["next"]) for s in status["steps"]] == [
        ("implement", 1, "completed", None, "check"),
        ("check", 1, "completed", None, "review"),
        ("review", 1, "completed", "changes_requested", "implement"),
        ("implement", 2, "completed", None, "check"),
        ("check", 2, "completed", None, "review"),
        ("review", 2, "completed", "approved", "$end"),
    ]
    phases = {p["key"]: p for p in status["phases"]}
    assert phases["review"] == {
        "key": "review", "status": "completed", "attempt": 2, "visits": 2,
        "decision": "approved", "exit_code": None, "tokens": 0, "branch": None,
        "report": {"severity": "none", "summary": "Looks good."},  # its latest report (SPEC §12)
    }  # fmt: skip
    assert phases["check"]["exit_code"] == 0
    branch = status["branch"]
    assert branch == f"alphred/demo/{status['run_id']}"
    assert git(repo, "log", "--format=%s", f"{status['base']}..{branch}").splitlines() == [
        "alphred(demo): implement [visit 2]",
        "alphred(demo): implement [visit 1]",
    ]
    assert git(repo, "rev-parse", branch) == status["head"]
    assert status["worktree"] is None and not (repo / ".alphred" / "worktrees" / str(status["run_id"])).exists()
    # the user's checkout is untouched
    assert git(repo, "rev-parse", "HEAD") == user_head
    assert git(repo, "branch", "--show-current") == "main"
    assert (repo / "scratch.txt").read_text() == "uncommitted user work\n"
    assert ".alphred/" in (repo / ".git" / "info" / "exclude").read_text()
    assert git(repo, "status", "--porcelain") == "?? scratch.txt"


def test_without_json_nothing_goes_to_stdout(repo: Path) -> None:
    result = cli("run", str(ROOT / "workflows" / "demo.yaml"), "--repo", str(repo))
    assert result.exit_code == 0 and result.stdout == ""
    assert "run completed" in result.stderr and "review attempt 2 completed" in result.stderr


@pytest.mark.quick
def test_status_runs_and_logs_read_back_the_run(repo: Path) -> None:
    _result, status = run_json(str(ROOT / "workflows" / "demo.yaml"), "--repo", str(repo))
    run_id = str(status["run_id"])
    again = cli("status", run_id, "--json", "--repo", str(repo))
    assert again.exit_code == 0 and json.loads(again.stdout) == status
    listed = cli("runs", "--json", "--repo", str(repo))
    (summary,) = json.loads(listed.stdout)
    assert "steps" not in summary and summary["run_id"] == status["run_id"]
    logs = cli("logs", run_id, "--phase", "check", "--repo", str(repo))
    assert logs.exit_code == 0
    assert "check#1" in logs.stdout and "python3 hello.py hello" in logs.stdout and "implement#" not in logs.stdout


def test_events_are_gap_free_per_attempt_and_secrets_redacted(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok-1234567890")
    wf = write_workflow(
        repo.parent,
        """\
        phases:
          shout:
            type: command
            env: [MY_SERVICE_TOKEN]  # a secret reaches a command only when its phase lists it (SPEC §14)
            run: 'for i in 1 2 3; do echo line $i; done; echo "$MY_SERVICE_TOKEN" sk-abcdefghijklmnopqrstuvwxyz012345 >&2'
        """,
    )
    result, status = run_json(str(wf), "--repo", str(repo))
    assert result.exit_code == 0, result.stderr
    db = sqlite3.connect(repo / ".alphred" / "alphred.db")
    rows = db.execute(
        "select attempt, sequence, event_type, content from run_node_stream_events "
        "where workflow_run_id = ? order by id",
        (status["run_id"],),
    ).fetchall()
    assert [r[1] for r in rows] == list(range(1, len(rows) + 1))
    assert next(r[2] for r in rows) == "tool_use" and rows[-1][2] == "result"
    text = "\n".join(r[3] or "" for r in rows)
    assert "line 3" in text and "tok-1234567890" not in text and "sk-abcdefghij" not in text
    assert "[REDACTED] [REDACTED]" in text


def test_failing_command_is_retried_then_fails_and_keeps_the_worktree(repo: Path) -> None:
    wf = write_workflow(
        repo.parent,
        """\
        phases:
          build:
            type: command
            run: echo broken >&2; exit 3
            max_retries: 2
            transitions: [{to: $end}]
        """,
    )
    result, status = run_json(str(wf), "--repo", str(repo))
    assert result.exit_code == 1
    assert status["status"] == "failed" and status["reason"] == "retries_exhausted"
    assert [(s["attempt"], s["outcome"]) for s in status["steps"]] == [(1, "failed"), (2, "failed"), (3, "failed")]
    assert status["worktree"] and Path(status["worktree"]).is_dir()
    db = sqlite3.connect(repo / ".alphred" / "alphred.db")
    assert db.execute("select count(*) from run_node_diagnostics where outcome = 'failed'").fetchone() == (3,)


def test_allow_failure_exposes_exit_code_to_guards(repo: Path) -> None:
    wf = write_workflow(
        repo.parent,
        """\
        phases:
          probe:
            type: command
            run: exit 7
            allow_failure: true
            transitions:
              - {to: $fail, when: exit_code == 7}
              - {to: $end}
        """,
    )
    result, status = run_json(str(wf), "--repo", str(repo))
    assert result.exit_code == 1 and status["reason"] == "fail_target"
    assert status["phases"][0]["exit_code"] == 7 and status["steps"][0]["next"] == "$fail"


def test_command_timeout_kills_the_process_group(repo: Path) -> None:
    marker, pid_file = repo.parent / "child-survived", repo.parent / "child.pid"
    wf = write_workflow(
        repo.parent,
        f"""\
        phases:
          slow:
            type: command
            run: (sleep 30; touch {marker}) & echo $! > {pid_file}; sleep 30
            timeout: 1s
        """,
    )
    result, status = run_json(str(wf), "--repo", str(repo))
    assert result.exit_code == 1 and status["reason"] == "retries_exhausted"
    with sqlite3.connect(repo / ".alphred" / "alphred.db") as conn:
        reasons = conn.execute("select reason, error_code from run_node_diagnostics").fetchall()
    assert reasons and set(reasons) == {("timeout", "TIMEOUT")}  # cut by the timeout, not let run its 30 s
    assert wait_gone(int(pid_file.read_text()))  # the background child went with the group
    assert not marker.exists(), "the background child outlived the phase timeout"


def test_inputs_are_templated_shell_quoted(repo: Path) -> None:
    wf = write_workflow(
        repo.parent,
        """\
        inputs:
          name: {required: true}
        phases:
          write:
            type: command
            run: printf '%s' {{ inputs.name }} > out.txt
        """,
    )
    result = cli("run", str(wf), "--repo", str(repo), "--keep-worktree", "--json", "-i", "name=a b; touch pwned")
    status = json.loads(result.stdout)
    worktree = Path(status["worktree"])
    assert (worktree / "out.txt").read_text() == "a b; touch pwned"
    assert not (worktree / "pwned").exists()


@pytest.mark.quick
def test_missing_input_is_exit_2_and_creates_no_run(repo: Path) -> None:
    wf = write_workflow(repo.parent, "inputs:\n  issue: {required: true}\nphases:\n  a: {type: command, run: 'true'}\n")
    result = cli("run", str(wf), "--repo", str(repo), "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert "Error [MISSING_INPUT]: workflow 'wf' needs input issue: pass -i issue=VALUE" in result.stderr
    assert json.loads(cli("runs", "--json", "--repo", str(repo)).stdout) == []


def test_unknown_input_and_bad_pair(repo: Path) -> None:
    wf = write_workflow(repo.parent, "phases:\n  a: {type: command, run: 'true'}\n")
    assert "Error [UNKNOWN_INPUT]: unknown input 'x'" in cli("run", str(wf), "--repo", str(repo), "-i", "x=1").stderr
    bad = cli("run", str(wf), "--repo", str(repo), "-i", "novalue")
    assert bad.exit_code == 2 and "Error [USAGE]: bad input 'novalue'" in bad.stderr


def test_unknown_provider_lists_available_ones_before_anything_is_created(repo: Path) -> None:
    wf = write_workflow(repo.parent, "phases:\n  a: {provider: nosuch}\n")
    result = cli("run", str(wf), "--repo", str(repo), "--json")
    assert result.exit_code == 2 and result.stdout == ""
    prefix = "Error [UNKNOWN_AGENT_PROVIDER]: unknown provider 'nosuch'; available providers: "
    (line,) = [line for line in result.stderr.splitlines() if line.startswith(prefix)]
    names = line.removeprefix(prefix).split(", ")
    assert "scripted" in names and names == sorted(names)
    assert not (repo / ".alphred" / "alphred.db").exists()


def test_invalid_workflow_is_exit_2_with_located_errors(repo: Path) -> None:
    wf = write_workflow(repo.parent, "phases:\n  a: {provider: scripted, promt: x}\n")
    result = cli("run", str(wf), "--repo", str(repo))
    assert result.exit_code == 2
    assert f"{wf}:4:27: error: unknown key 'promt'" in result.stderr
    assert "Traceback" not in result.stderr


def test_not_a_repository_unborn_head_and_unknown_base(tmp_path: Path, repo: Path) -> None:
    wf = write_workflow(tmp_path, "phases:\n  a: {type: command, run: 'true'}\n")
    plain = tmp_path / "plain"
    plain.mkdir()
    result = cli("run", str(wf), "--repo", str(plain))
    assert result.exit_code == 2 and "Error [NOT_A_GIT_REPOSITORY]" in result.stderr
    unborn = tmp_path / "unborn"
    unborn.mkdir()
    git(unborn, "init", "-q")
    result = cli("run", str(wf), "--repo", str(unborn))
    assert result.exit_code == 2 and "Error [UNBORN_HEAD]" in result.stderr
    result = cli("run", str(wf), "--repo", str(repo), "--base", "no-such-branch")
    assert result.exit_code == 2 and "Error [UNKNOWN_REF]: unknown git ref 'no-such-branch'" in result.stderr


def test_unknown_run_id_is_exit_2(repo: Path) -> None:
    run_json(str(ROOT / "workflows" / "demo.yaml"), "--repo", str(repo))
    result = cli("status", "999", "--repo", str(repo))
    assert result.exit_code == 2 and "Error [UNKNOWN_RUN]: no run with id 999" in result.stderr


def test_read_commands_create_no_database(repo: Path) -> None:
    assert cli("runs", "--json", "--repo", str(repo)).stdout.strip() == "[]"
    assert cli("status", "1", "--repo", str(repo)).exit_code == 2
    assert not (repo / ".alphred").exists()


def test_locked_database_is_a_clear_error(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_json(str(ROOT / "workflows" / "demo.yaml"), "--repo", str(repo))
    monkeypatch.setenv("ALPHRED_DB_BUSY_TIMEOUT", "0.3")
    holder = sqlite3.connect(repo / ".alphred" / "alphred.db", isolation_level=None)
    holder.execute("begin exclusive")
    try:
        result = cli("run", str(ROOT / "workflows" / "demo.yaml"), "--repo", str(repo))
    finally:
        holder.execute("rollback")
        holder.close()
    assert result.exit_code == 1
    assert "Error [DATABASE_LOCKED]" in result.stderr and "Traceback" not in result.stderr


def test_dry_run_takes_the_first_declared_decision(repo: Path) -> None:
    wf = write_workflow(
        repo.parent,
        """\
        phases:
          review:
            provider: claude
            decisions: [approved, changes_requested]
            transitions:
              - {to: $end, when: decision == "approved"}
              - {to: $fail}
        """,
    )
    result, status = run_json(str(wf), "--repo", str(repo), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert status["steps"] == [
        {
            "phase": "review",
            "attempt": 1,
            "outcome": "completed",
            "decision": "approved",
            "next": "$end",
            "checks": [],
            "branch": None,
            "provider": "claude",  # the provider the step ran on (SPEC §15), a dry-run stand-in here
        }
    ]


def test_approval_pauses_the_run_and_approve_all_passes_it(repo: Path) -> None:
    wf = write_workflow(
        repo.parent,
        """\
        phases:
          gate:
            type: approval
            message: ship?
            transitions:
              - {to: $end, when: decision == "approved"}
              - {to: $fail}
        """,
    )
    result, status = run_json(str(wf), "--repo", str(repo))
    assert result.exit_code == 4 and status["status"] == "paused" and status["reason"] == "awaiting_approval"
    result, status = run_json(str(wf), "--repo", str(repo), "--approve-all")
    assert result.exit_code == 0 and status["steps"][0]["decision"] == "approved"


def test_max_steps_fails_the_run_before_starting_the_extra_phase(repo: Path) -> None:
    wf = write_workflow(
        repo.parent,
        """\
        limits: {max_steps: 3}
        phases:
          spin:
            type: command
            run: 'true'
            max_visits: 50
            transitions: [{to: spin}]
        """,
    )
    result, status = run_json(str(wf), "--repo", str(repo))
    assert result.exit_code == 1 and status["reason"] == "max_steps"
    assert len(status["steps"]) == 3


def test_missing_decision_fails_the_attempt(repo: Path) -> None:
    wf = write_workflow(
        repo.parent,
        """\
        phases:
          review:
            provider: scripted
            max_retries: 1
            script: [{report: no decision here}, {decision: approved}]
            transitions:
              - {to: $end, when: decision == "approved"}
              - {to: $fail}
        """,
    )
    result, status = run_json(str(wf), "--repo", str(repo))
    assert result.exit_code == 0, result.stderr
    assert [(s["attempt"], s["outcome"]) for s in status["steps"]] == [(1, "failed"), (2, "completed")]
    db = sqlite3.connect(repo / ".alphred" / "alphred.db")
    assert db.execute("select reason from run_node_diagnostics order by id").fetchall() == [
        ("missing_decision",),
        (None,),
    ]


def test_upstream_context_manifest_is_persisted(repo: Path) -> None:
    wf = write_workflow(
        repo.parent,
        """\
        phases:
          design:
            provider: scripted
            script: [{report: "PLAN: do the thing"}]
            transitions: [{to: build}]
          build:
            provider: scripted
            script: [{report: built}]
        """,
    )
    result, _status = run_json(str(wf), "--repo", str(repo))
    assert result.exit_code == 0, result.stderr
    db = sqlite3.connect(repo / ".alphred" / "alphred.db")
    rows = db.execute(
        "select n.node_key, a.content_json from phase_artifacts a join run_nodes n on n.id = a.run_node_id "
        "where a.kind = 'context_manifest' order by a.id"
    ).fetchall()
    manifests = {key: json.loads(data) for key, data in rows}
    assert [item["phase"] for item in manifests["build"]["included"]] == ["design"]
    assert manifests["design"]["included"] == []
