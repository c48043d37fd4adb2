"""``alphred run`` delivers: push to a bare origin, a fake ``gh`` opens the PR, CI outputs, JSON lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from helpers.processes import run_alphred
from helpers.scm import ScmWorld, git, make_world, parse_outputs

ROOT = Path(__file__).resolve().parents[2]

WORKFLOW = """\
alphred: 1
key: ship
inputs:
  topic: {default: greetings}
pull_request:
  title: "Add {{ inputs.topic }}"
  body_from: write
phases:
  write:
    provider: scripted
    script: [{report: "Wrote hello.txt for the reviewers.", files: {hello.txt: "hi\\n"}}]
"""


def alphred(world: ScmWorld, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_alphred(*args, "--repo", str(world.repo), env={**(env or world.env), "PYTHONPATH": str(ROOT)})


def write(world: ScmWorld, text: str = WORKFLOW) -> Path:
    path = world.root / "ship.yaml"
    path.write_text(text)
    return path


def test_completed_run_pushes_and_opens_the_pull_request(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    outputs, summary = tmp_path / "out.txt", tmp_path / "summary.md"
    env = {**world.env, "GITHUB_OUTPUT": str(outputs), "GITHUB_STEP_SUMMARY": str(summary)}
    result = alphred(world, "run", str(write(world)), "--json", env=env)
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert status["status"] == "completed" and status["pr_url"] == "https://github.com/acme/widgets/pull/42"
    assert world.remote_sha(status["branch"]) == status["head"]
    (create,) = [c for c in world.calls() if c["argv"][:2] == ["pr", "create"]]
    argv = create["argv"]
    assert argv[argv.index("--head") + 1] == status["branch"] and argv[argv.index("--base") + 1] == "main"
    assert "--title=Add greetings" in argv
    assert create["body"].startswith("Wrote hello.txt for the reviewers.")
    assert parse_outputs(outputs.read_text()) | {"reason": ""} == {
        "run_id": "1", "status": "completed", "pr_url": "https://github.com/acme/widgets/pull/42",
        "branch": status["branch"], "reason": "",
    }  # fmt: skip
    assert "write" in summary.read_text()


def test_no_pr_wins_and_dry_run_never_delivers(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    wf = write(world)
    assert alphred(world, "run", str(wf), "--no-pr").returncode == 0
    assert alphred(world, "run", str(wf), "--dry-run").returncode == 0
    assert [c for c in world.calls() if c["argv"][:2] == ["pr", "create"]] == []


def test_missing_gh_is_found_before_the_run_starts(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    result = alphred(world, "run", str(write(world)), "--json", env=world.without_gh())
    assert result.returncode == 2 and result.stdout == ""
    assert "Error [SCM_NOT_READY]" in result.stderr
    assert not (world.repo / ".alphred" / "alphred.db").exists()


def test_rejected_push_fails_the_run_and_keeps_branch_and_worktree(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    hook = world.origin / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'protected: pushes are refused' >&2\nexit 1\n")
    hook.chmod(0o755)
    result = alphred(world, "run", str(write(world)), "--json")
    assert result.returncode == 1
    status = json.loads(result.stdout)
    assert (status["status"], status["reason"], status["pr_url"]) == ("failed", "delivery_failed", None)
    assert "Error [DELIVERY_FAILED]" in result.stderr
    assert git(world.repo, "rev-parse", status["branch"]) == status["head"]
    assert status["worktree"] and Path(status["worktree"]).is_dir()
    hook.unlink()  # the remote accepts pushes again: `retry` delivers, and only delivers
    retried = alphred(world, "retry", "1", "--json")
    assert retried.returncode == 0, retried.stderr
    after = json.loads(retried.stdout)
    assert (after["status"], after["reason"]) == ("completed", None)
    assert after["pr_url"] == "https://github.com/acme/widgets/pull/42" and after["steps"] == status["steps"]
    assert world.remote_sha(status["branch"]) == status["head"] and after["worktree"] is None


def test_an_existing_pull_request_is_reported_not_duplicated(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    env = {**world.env, "FAKE_GH_EXISTING_PR": "https://github.com/acme/widgets/pull/7"}
    result = alphred(world, "run", str(write(world)), "--json", env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["pr_url"] == "https://github.com/acme/widgets/pull/7"
    assert [c for c in world.calls() if c["argv"][:2] == ["pr", "create"]] == []


def test_events_jsonl_streams_lifecycle_and_provider_events(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    wf = write(
        world,
        WORKFLOW.replace("pull_request:", "x_pull_request:")
        .replace("  title:", "#")
        .replace("  body_from: write", "#")
        .replace("x_pull_request:\n", ""),
    )
    result = alphred(world, "run", str(wf), "--events", "jsonl", "--json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[-1]["status"] == "completed"  # with --json the status object is the last line
    kinds = [line["type"] for line in lines[:-1]]
    assert kinds[0] == "run_started" and "phase_started" in kinds and "result" in kinds
    assert kinds.index("phase_started") < kinds.index("result") < kinds.index("phase_finished")
    assert kinds[-1] == "run_finished"
    assert all({"run_id", "phase", "attempt", "sequence", "type"} <= set(line) for line in lines[:-1])


def test_registered_repository_runs_from_anywhere_with_its_branch_template(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    env = {**world.env, "ALPHRED_HOME": str(tmp_path / "alphred-home")}
    wf = world.root / "plain.yaml"
    wf.write_text(
        textwrap.dedent("""\
        alphred: 1
        key: plain
        phases:
          a: {type: command, run: 'true'}
        """)
    )
    full = {**env, "PYTHONPATH": str(ROOT)}
    added = subprocess.run(
        [sys.executable, "-m", "alphred", "repo", "add", "widgets", str(world.repo), "--branch-template",
         "bot/{tree-key}-{run-id}"],
        env=full, capture_output=True, text=True, cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    result = subprocess.run(
        [sys.executable, "-m", "alphred", "run", str(wf), "--repo", "widgets", "--json"],
        env=full, capture_output=True, text=True, cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["branch"] == "bot/plain-1"
    assert os.path.isdir(world.repo / ".alphred")


def test_a_pull_request_that_cannot_be_confirmed_fails_delivery_until_retry_confirms_it(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    forgetful = {**world.env, "FAKE_GH_FORGET": "1"}  # gh "opens" the PR, then cannot find it for the branch
    result = alphred(world, "run", str(write(world)), "--json", env=forgetful)
    assert result.returncode == 1
    status = json.loads(result.stdout)
    assert (status["status"], status["reason"], status["pr_url"]) == ("failed", "delivery_failed", None)
    assert "Error [DELIVERY_FAILED]" in result.stderr and "cannot confirm the pull request" in result.stderr
    views = [c["argv"] for c in world.calls() if c["argv"][:2] == ["pr", "view"]]
    assert views == [["pr", "view", status["branch"], "--json", "url,state,headRefName"]]
    retried = alphred(world, "retry", "1", "--json")  # gh knows the PR now: retry delivers and confirms it
    assert retried.returncode == 0, retried.stderr
    after = json.loads(retried.stdout)
    assert (after["status"], after["reason"]) == ("completed", None)
    assert after["pr_url"] == "https://github.com/acme/widgets/pull/42"
    assert [c["argv"][:3] for c in world.calls()][-1] == ["pr", "view", status["branch"]]
