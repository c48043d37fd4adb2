"""CI-safe runs: branch names that carry the CI run, a remote branch checked before any agent runs, and a
run continued by a later job in another checkout. Real git, a bare ``origin``, real SQLite."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from helpers.scm import git, make_world
from test_first_hour import GATED, SCRIPTED, alphred, write


@pytest.mark.slow
def test_ci_branch_names_carry_the_ci_run_and_the_issue(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    wf = write(world, "alphred: 1\nkey: ci\ninputs:\n  issue: {}\nphases:\n  c:\n    type: command\n    run: 'true'\n")
    env = {**world.env, "GITHUB_RUN_ID": "987", "GITHUB_RUN_ATTEMPT": "2"}
    first = alphred(world, "run", str(wf), "-i", "issue=x", "--json", env=env)
    assert json.loads(first.stdout)["branch"] == "alphred/ci/1-gh987-2"
    gitlab = {**world.env, "CI_JOB_ID": "55"}
    assert json.loads(alphred(world, "run", str(wf), "-i", "issue=x", "--json", env=gitlab).stdout)["branch"] == (
        "alphred/ci/2-ci55"
    )
    named = alphred(world, "run", str(wf), "-i", "issue=#12", "--branch", "fix/{issue-id}-{run-id}", "--json")
    assert json.loads(named.stdout)["branch"] == "fix/12-3"
    templated = {**env, "ALPHRED_BRANCH_TEMPLATE": "bot/{issue-id}/{run-id}"}  # a template wins over the CI id
    issue_url = "issue=https://github.com/acme/widgets/issues/34"
    assert json.loads(alphred(world, "run", str(wf), "-i", issue_url, "--json", env=templated).stdout)["branch"] == (
        "bot/34/4"
    )


def test_a_branch_taken_on_the_remote_stops_the_run_before_any_agent(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    world.commit_on_branch("alphred/ship/1", {"other.txt": "someone else's work\n"})
    git(world.repo, "push", "-q", "origin", "alphred/ship/1", env=world.env)
    git(world.repo, "branch", "-D", "alphred/ship/1", env=world.env)
    result = alphred(world, "run", str(write(world, SCRIPTED)), "--pr", "--json")
    assert result.returncode == 2 and result.stdout == ""
    assert "Error [REMOTE_BRANCH_EXISTS]: the branch alphred/ship/1 already exists on origin" in result.stderr
    assert "--branch NAME" in result.stderr and "git push origin --delete alphred/ship/1" in result.stderr
    with sqlite3.connect(world.repo / ".alphred" / "alphred.db") as conn:
        assert conn.execute("select status, reason from workflow_runs").fetchall() == [
            ("cancelled", "remote_branch_exists")
        ]
        assert conn.execute("select count(*) from run_node_diagnostics").fetchone() == (0,)
    assert not (world.repo / ".alphred" / "worktrees" / "1").exists()


def test_a_later_job_in_another_checkout_resumes_the_run(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    wf = write(world, GATED)
    assert alphred(world, "run", str(wf), "--no-pr").returncode == 4
    branch = "alphred/gated/1"
    git(world.repo, "push", "-q", "origin", branch, env=world.env)
    second = tmp_path / "job2" / "checkout"
    git(tmp_path, "clone", "-q", str(world.origin), str(second), env=world.env)
    git(second, "fetch", "-q", "origin", f"refs/heads/{branch}:refs/heads/{branch}", env=world.env)
    (second / ".alphred").mkdir()
    shutil.copy(world.repo / ".alphred" / "alphred.db", second / ".alphred" / "alphred.db")
    shutil.rmtree(world.repo)  # the first job's machine is gone
    result = alphred(world, "approve", "1", "--json", cwd=second)
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert status["status"] == "completed" and status["worktree"] is None
    assert git(second, "show", f"{branch}:gate.txt", env=world.env) == "x"
    with sqlite3.connect(second / ".alphred" / "alphred.db") as conn:
        assert conn.execute("select repo_path from workflow_runs").fetchone() == (str(second.resolve()),)
