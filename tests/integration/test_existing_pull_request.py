"""A pull request that already exists (SPEC §17): ``type: pull_request`` with ``existing:`` checks out the PR's
head branch, pushes the run's commits to it (never forced, never twice) and reports the same PR; a fork is
refused before anything is pushed unless ``allow_forks: true``; ``--pr-branch`` checks it out at run start."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.processes import run_alphred
from helpers.scm import ScmWorld, git, make_world

ROOT = Path(__file__).resolve().parents[2]
PR_URL = "https://github.com/acme/widgets/pull/123"

ADDRESS = """\
alphred: 1
key: address
inputs:
  pr: {required: true}
phases:
  sync:
    type: pull_request
    existing: "{{ inputs.pr }}"
    transitions: [{to: fix}]
  fix:
    type: command
    run: cat feature.txt > seen.txt && echo "review fixed" >> feature.txt
    transitions: [{to: push}]
  push:
    type: pull_request
    existing: "{{ inputs.pr }}"
"""


def alphred(world: ScmWorld, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_alphred(*args, "--repo", str(world.repo), env={**(env or world.env), "PYTHONPATH": str(ROOT)})


def existing_pr(world: ScmWorld, *, fork: bool = False) -> str:
    """A branch ``feature`` on origin with one commit, and the fake gh's open PR 123 for it."""
    sha = world.commit_on_branch("feature", {"feature.txt": "feature\n"})
    git(world.repo, "push", "-q", "origin", "feature", env=world.env)
    git(world.repo, "branch", "-D", "feature", env=world.env)  # only the remote has it, as for a reviewer's bot
    state = Path(str(world.log) + ".gh-prs.json")
    state.write_text(json.dumps({"feature": {"url": PR_URL, "title": "Add the feature", "fork": fork}}))
    return sha


def test_the_run_checks_the_pr_out_commits_on_it_and_pushes_to_it(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    start = existing_pr(world)
    wf = world.root / "address.yaml"
    wf.write_text(ADDRESS)
    result = alphred(world, "run", str(wf), "-i", "pr=123", "--json", "--keep-worktree")
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert status["status"] == "completed"
    worktree = world.repo / ".alphred" / "worktrees" / "1"
    assert (worktree / "seen.txt").read_text() == "feature\n"  # the fix worked on the PR's head
    head = world.remote_sha("feature")
    assert head == git(worktree, "rev-parse", "HEAD", env=world.env) != start
    assert git(world.repo, "rev-parse", f"{head}~1", env=world.env) == start  # on top of the PR: not forced
    assert not [c for c in world.calls() if c["argv"][:2] == ["pr", "create"]]  # no new pull request
    with sqlite3.connect(world.repo / ".alphred" / "alphred.db") as db:
        rows = db.execute(
            "SELECT n.node_key, a.content_json FROM phase_artifacts a JOIN run_nodes n ON n.id = a.run_node_id "
            "WHERE a.kind = 'report' AND n.node_key IN ('sync', 'push') ORDER BY a.id"
        ).fetchall()
    reports = {key: json.loads(text) for key, text in rows}
    assert reports["sync"] == {"url": PR_URL, "number": 123, "head": "feature", "sha": start}
    assert reports["push"] == {"url": PR_URL, "number": 123, "head": "feature", "sha": head}


def test_a_kill_after_the_push_pushes_nothing_twice(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    existing_pr(world)
    wf = world.root / "address.yaml"
    wf.write_text(ADDRESS)
    crash = {**world.env, "ALPHRED_CRASH_AT": "pull_request_phase_opened@2"}  # the second phase, after its push
    crashed = alphred(world, "run", str(wf), "-i", "pr=123", env=crash)
    assert crashed.returncode < 0 or crashed.returncode == 137, crashed.stderr
    pushed = world.remote_sha("feature")
    result = alphred(world, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["status"] == "completed"
    assert world.remote_sha("feature") == pushed
    assert [c for c in world.calls() if c["argv"][:2] == ["pr", "create"]] == []
    assert "feature already holds" in alphred(world, "logs", "1", "--phase", "push").stdout  # no second push


def test_a_fork_is_refused_before_anything_is_pushed_unless_allowed(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    start = existing_pr(world, fork=True)
    wf = world.root / "address.yaml"
    wf.write_text(ADDRESS)
    result = alphred(world, "run", str(wf), "-i", "pr=123", "--json")
    assert result.returncode == 1
    status = json.loads(result.stdout)
    assert status["status"] == "failed" and status["steps"][0]["phase"] == "sync"
    assert "comes from a fork" in result.stderr and "allow_forks: true" in result.stderr
    assert world.remote_sha("feature") == start
    allowed = world.root / "allowed.yaml"
    allowed.write_text(
        ADDRESS.replace('existing: "{{ inputs.pr }}"', 'existing: "{{ inputs.pr }}"\n    allow_forks: true')
    )
    done = alphred(world, "run", str(allowed), "-i", f"pr={PR_URL}", "--json")
    assert done.returncode == 0, done.stderr
    assert world.remote_sha("feature") != start


def test_pr_branch_checks_the_pull_request_out_at_run_start(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    start = existing_pr(world)
    wf = world.root / "fix.yaml"
    wf.write_text(
        ADDRESS.replace(
            """  sync:
    type: pull_request
    existing: "{{ inputs.pr }}"
    transitions: [{to: fix}]
""",
            "",
        ).replace("phases:\n", "start: fix\nphases:\n")
    )
    result = alphred(world, "run", str(wf), "-i", "pr=123", "--pr-branch", "--json", "--keep-worktree")
    assert result.returncode == 0, result.stderr
    worktree = world.repo / ".alphred" / "worktrees" / "1"
    assert (worktree / "seen.txt").read_text() == "feature\n"
    assert git(world.repo, "rev-parse", f"{world.remote_sha('feature')}~1", env=world.env) == start


SEVERAL = """\
alphred: 1
key: several
phases:
  a:
    provider: scripted
    script: [{report: "part a", files: {a.txt: "a\\n"}}]
    transitions: [{to: pr_a}]
  pr_a:
    type: pull_request
    branch: "bot/{{ inputs.topic }}-a"
    title: Part A
    transitions: [{to: b}]
  b:
    provider: scripted
    script: [{report: "part b", files: {b.txt: "b\\n"}}]
    transitions: [{to: pr_b}]
  pr_b:
    type: pull_request
    branch: "bot/{{ inputs.topic }} b!"
    title: Part B
inputs:
  topic: {default: split}
"""


def creates(world: ScmWorld) -> list[str]:
    """The head branch of every ``gh pr create`` call, in order."""
    heads = []
    for call in world.calls():
        argv = call["argv"]
        if argv[:2] == ["pr", "create"]:
            given = [w.removeprefix("--head=") for w in argv if w.startswith("--head=")]
            heads.append(given[0] if given else argv[argv.index("--head") + 1])
    return heads


def test_several_pull_request_phases_open_several_pull_requests_once_each(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    wf = world.root / "several.yaml"
    wf.write_text(SEVERAL)
    crash = {**world.env, "ALPHRED_CRASH_AT": "pull_request_phase_opened@2"}  # the second PR opened, not recorded
    crashed = alphred(world, "run", str(wf), env=crash)
    assert crashed.returncode < 0 or crashed.returncode == 137, crashed.stderr
    result = alphred(world, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert creates(world) == ["bot/split-a", "bot/split-b"]  # one each, none twice after the kill
    first, second = world.remote_sha("bot/split-a"), world.remote_sha("bot/split-b")
    assert git(world.repo, "rev-parse", f"{second}~1", env=world.env) == first  # each cut from the run branch
    assert git(world.repo, "show", "--name-only", "--format=", first, env=world.env) == "a.txt"
    assert git(world.repo, "show", "--name-only", "--format=", second, env=world.env) == "b.txt"


@pytest.mark.slow  # the claude SDK against its fake CLI
def test_the_address_review_template_runs_offline(tmp_path: Path) -> None:
    pytest.importorskip("claude_agent_sdk")
    world = make_world(tmp_path)
    start = existing_pr(world)
    fake = world.bin / "claude"
    fake.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{ROOT / "tests" / "fixtures" / "fake_claude_cli.py"}" "$@"\n')
    fake.chmod(0o755)
    env = world.env | {
        "ALPHRED_CLAUDE_CLI": str(fake),
        "ANTHROPIC_API_KEY": "fake-anthropic-key",
        "IS_SANDBOX": "1",
        "CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK": "1",
        "FAKE_CLAUDE_FILE": "review-fixes.md",
    }
    template = ROOT / "workflows" / "address-review.yaml"
    result = alphred(world, "run", str(template), "-i", "pr=123", "--json", env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["status"] == "completed"
    head = world.remote_sha("feature")
    assert git(world.repo, "rev-parse", f"{head}~1", env=world.env) == start  # on the PR, not forced
    fixes = git(world.repo, "show", f"{head}:review-fixes.md", env=world.env)
    assert fixes.startswith("written by the fake claude") and "The pull request" in fixes  # the agent's change
    review = alphred(world, "artifacts", "1", "review.md", env=env).stdout
    assert PR_URL in review  # the review, kept with the run, never committed
    assert "review.md" not in git(world.repo, "ls-tree", "-r", "--name-only", head, env=world.env)
    assert [c for c in world.calls() if c["argv"][:2] == ["pr", "create"]] == []


def test_a_ci_phase_after_an_existing_pull_request_waits_for_that_pull_requests_checks(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    existing_pr(world)
    checks = world.root / "checks.json"
    test = {"name": "test", "state": "PASS", "bucket": "pass", "link": "", "workflow": "CI"}
    checks.write_text(json.dumps([[{**test, "state": "PENDING", "bucket": "pending"}], [test]]))
    wf = world.root / "address-ci.yaml"
    wf.write_text(ADDRESS + "    transitions: [{to: ci}]\n  ci:\n    type: ci\n    poll: 0.05\n")
    env = {**world.env, "FAKE_GH_CHECKS": str(checks)}
    result = alphred(world, "run", str(wf), "-i", "pr=123", "--json", env=env)
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert [(s["phase"], s["outcome"]) for s in status["steps"]][-1] == ("ci", "completed")
    looks = [c["argv"] for c in world.calls() if c["argv"][:2] == ["pr", "checks"]]
    assert len(looks) == 2 and all(argv[2] == PR_URL for argv in looks)  # the pull request's, not the run branch's
    assert "waiting for CI on feature: 1 pending" in result.stderr
    assert world.remote_sha("feature") == status["head"]  # the checks ran on the commit the run pushed
    with sqlite3.connect(world.repo / ".alphred" / "alphred.db") as db:
        (text,) = db.execute(
            "SELECT a.content_json FROM phase_artifacts a JOIN run_nodes n ON n.id = a.run_node_id "
            "WHERE a.kind = 'report' AND n.node_key = 'ci'"
        ).fetchone()
    assert json.loads(text) == {"state": "passed", "failed": []}


def test_a_ci_phase_after_a_branch_pull_request_waits_for_that_pull_requests_checks(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    checks = world.root / "checks.json"
    checks.write_text(json.dumps([[{"name": "test", "state": "PASS", "bucket": "pass", "link": ""}]]))
    wf = world.root / "several.yaml"
    wf.write_text(
        SEVERAL.replace("transitions: [{to: b}]", "transitions: [{to: ci}]\n  ci: {type: ci, transitions: [{to: b}]}")
    )
    result = alphred(world, "run", str(wf), "--json", env={**world.env, "FAKE_GH_CHECKS": str(checks)})
    assert result.returncode == 0, result.stderr
    looks = [c["argv"] for c in world.calls() if c["argv"][:2] == ["pr", "checks"]]
    assert [argv[2] for argv in looks] == ["https://github.com/acme/widgets/pull/42"]  # pr_a's, by its URL
    with sqlite3.connect(world.repo / ".alphred" / "alphred.db") as db:
        said = db.execute(
            "SELECT e.content FROM run_node_stream_events e JOIN run_nodes n ON n.id = e.run_node_id "
            "WHERE n.node_key = 'ci' AND e.event_type = 'system'"
        ).fetchall()
    assert [text for (text,) in said] == ["CI passed on bot/split-a: 1 passed"]  # the phase's branch, not the run's
