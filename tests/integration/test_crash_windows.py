"""The crash windows of issue 17, each reproduced with a named crash point or a real ``kill -9``.

Real ``alphred`` processes, real git (a local bare remote for delivery), real SQLite, the fake ``gh``.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import processes
from helpers.processes import alive, kill_group, modules_imported
from helpers.runs import alphred, base_env, db, start, status, steps, wait_for, workflow
from helpers.scm import ScmWorld, git, make_world

from alphred.providers import default_registry
from alphred.store.owners import LeaseOwner

PROVIDERS = default_registry()  # every installed provider, as the CLI has them

ROOT = Path(__file__).resolve().parents[2]

TWO = """\
phases:
  write:
    provider: scripted
    script: [{report: wrote, files: {a.txt: "a\\n"}}]
    transitions: [{to: check}]
  check:
    type: command
    run: cat a.txt
"""


def crash_env(repo: Path, point: str) -> dict[str, str]:
    return base_env(repo.parent) | {"ALPHRED_CRASH_AT": point}


def branch_log(repo: Path, branch: str) -> list[str]:
    return git(repo, "log", "--format=%s", branch).splitlines()


def artifacts(repo: Path, kind: str) -> list[tuple[str, int, str | None]]:
    return (
        db(repo)
        .execute(
            "select n.node_key, a.attempt, a.content_text from phase_artifacts a join run_nodes n on n.id = a.run_node_id"
            " where a.kind = ? order by a.id",
            (kind,),
        )
        .fetchall()
    )


# -- (a) creation -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("how", "in_worktree_add"), [("resume", False), ("worker", False), ("worker", True)])
def test_kill_right_after_run_creation_is_completed_by_resume_or_worker(
    repo: Path, how: str, in_worktree_add: bool
) -> None:
    wf = workflow(repo, TWO)
    crashed = alphred(repo, "run", str(wf), env=crash_env(repo, "run_created"))
    assert crashed.returncode == -signal.SIGKILL
    if in_worktree_add:  # what a kill inside `git worktree add -b` leaves (found by benchmarks/soak.py)
        lock = repo / ".git" / "refs" / "heads" / "alphred" / "wf" / "1.lock"
        lock.parent.mkdir(parents=True)
        lock.write_text("")
    row = (
        db(repo).execute("select status, branch, worktree_path, engine_state is not null from workflow_runs").fetchone()
    )
    assert row == ("pending", None, None, 1)  # the run and its engine state exist; its worktree does not yet
    if how == "resume":
        result = alphred(repo, "resume", "1", "--json")
        assert result.returncode == 0, result.stderr
    else:
        result = alphred(repo, "worker", "--once")
        assert result.returncode == 0 and "run 1: completed" in result.stderr, result.stderr
    final = status(repo)
    assert final["status"] == "completed" and final["branch"] == "alphred/wf/1"
    assert steps(final) == [("write", 1, "completed"), ("check", 1, "completed")]


def test_worker_poll_sleeps_when_it_finds_only_runs_it_cannot_take(tmp_path: Path, repo: Path) -> None:
    from alphred.git import locate_repository
    from alphred.operations.worker import work
    from alphred.operations.workspace import Workspace
    from alphred.store import SqlRunStore
    from alphred.views.progress import Progress
    from alphred.workflow import load_workflow

    wf = workflow(repo, TWO)
    location = locate_repository(repo)
    with SqlRunStore(f"sqlite:///{repo / '.alphred' / 'alphred.db'}") as store:
        tree_id, _ = store.compile(load_workflow(str(wf), wf.read_text(), providers=PROVIDERS))
        store.create_run(tree_id, repo_path=str(location.root))  # no engine state: it can never be continued
        workspace = Workspace(store, location, lambda *_: None, lambda _: Progress(enabled=False))  # type: ignore[arg-type,return-value]
        said: list[str] = []
        naps: list[float] = []

        class Stop(Exception):
            pass

        def nap(seconds: float) -> None:
            naps.append(seconds)
            if len(naps) == 3:
                raise Stop

        with pytest.raises(Stop):
            work(workspace, once=False, poll_seconds=5.0, say=said.append, sleep=nap)
    assert naps == [5.0, 5.0, 5.0]
    assert len(said) == 3 and "STORE_ERROR" in said[0]  # one line per pass, not thousands


# -- (b) commit and outcome, delivery -------------------------------------------------------------------


@pytest.mark.parametrize("point", ["before_commit", "after_commit"])
def test_kill_between_commit_and_outcome_redoes_nothing(repo: Path, point: str) -> None:
    wf = workflow(repo, TWO)
    crashed = alphred(repo, "run", str(wf), env=crash_env(repo, point))
    assert crashed.returncode == -signal.SIGKILL
    result = alphred(repo, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    final = json.loads(result.stdout)
    assert steps(final) == [("write", 1, "completed"), ("check", 1, "completed")]  # write ran once
    assert branch_log(repo, final["branch"]) == ["alphred(wf): write [visit 1]", "init"]  # one commit
    body = git(repo, "log", "-1", "--format=%B", final["branch"])
    assert "Alphred-Run: 1\nAlphred-Phase: write\nAlphred-Attempt: 1" in body
    assert [(phase, attempt) for phase, attempt, _ in artifacts(repo, "diff")] == [("write", 1)]


SHIP = """\
alphred: 1
key: ship
pull_request:
  body_from: write
phases:
  write:
    provider: scripted
    script: [{report: "Wrote hello.txt.", files: {hello.txt: "hi\\n"}}]
"""


def run_alphred(world: ScmWorld, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return processes.run_alphred(*args, "--repo", str(world.repo), env={**env, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("point", ["deliver_push", "deliver_open", "pull_request_opened"])
def test_kill_during_delivery_resumes_delivery_only(tmp_path: Path, point: str) -> None:
    world = make_world(tmp_path)
    wf = world.root / "ship.yaml"
    wf.write_text(SHIP)
    env = {**world.env, "FAKE_GH_STATE": str(tmp_path / "gh-state.json")}
    crashed = run_alphred(world, "run", str(wf), env={**env, "ALPHRED_CRASH_AT": point})
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    result = run_alphred(world, "resume", "1", "--json", env=env)
    assert result.returncode == 0, result.stderr
    final = json.loads(result.stdout)
    assert final["status"] == "completed" and final["pr_url"] == "https://github.com/acme/widgets/pull/42"
    assert steps(final) == [("write", 1, "completed")]  # the phase did not run again
    creates = [c for c in world.calls() if c["argv"][:2] == ["pr", "create"]]
    assert len(creates) == 1  # no second pull request
    assert world.remote_sha(final["branch"]) == final["head"]
    assert len(branch_log(world.repo, final["branch"])) == 2  # init + one phase commit


@pytest.mark.slow
def test_a_push_slower_than_the_lease_keeps_the_lease(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    wf = world.root / "ship.yaml"
    wf.write_text(SHIP)
    pushing, release = tmp_path / "pushing", tmp_path / "release"
    hook = world.origin / "hooks" / "pre-receive"
    hook.write_text(f"#!/bin/sh\ntouch {pushing}\nwhile [ ! -f {release} ]; do sleep 0.05; done\ncat >/dev/null\n")
    hook.chmod(0o755)
    env = {**world.env, "ALPHRED_LEASE_TTL": "1", "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "alphred", "run", str(wf), "--repo", str(world.repo), "--json"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        wait_for(pushing.exists)
        database = world.repo / ".alphred" / "alphred.db"

        def expiry() -> str:
            connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
            return str(connection.execute("select lease_expires_at from workflow_runs").fetchone()[0])

        seen = {expiry()}
        wait_for(lambda: bool(seen.add(expiry())) or len(seen) >= 4)  # renewed again and again during the push
        taken = run_alphred(world, "worker", "--once", env=env)
        assert "finished 0 run(s)" in taken.stderr, taken.stderr  # the lease is alive: nobody takes the run
        release.touch()
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            kill_group(process)  # type: ignore[arg-type]
    assert process.returncode == 0, err
    assert json.loads(out)["pr_url"] == "https://github.com/acme/widgets/pull/42"


# -- (c) orphans ------------------------------------------------------------------------------------------


def test_a_dead_attempts_command_is_killed_and_its_changes_saved_not_committed(repo: Path) -> None:
    flag, pid_file = repo.parent / "fixed", repo.parent / "orphan.pid"
    wf = workflow(
        repo,
        f"""\
        phases:
          work:
            type: command
            run: "if [ -f {flag} ]; then echo done > result.txt; else echo $$ > {pid_file}; while true; do date >> orphan.txt; sleep 0.02; done; fi"
        """,
    )
    process = start(repo, "run", str(wf))
    wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
    worktree = repo / ".alphred" / "worktrees" / "1"
    wait_for(lambda: (worktree / "orphan.txt").exists())
    wait_for(lambda: db(repo).execute("select count(*) from run_processes").fetchone()[0] == 1)
    os.kill(process.pid, signal.SIGKILL)  # alphred alone: its command lives on in its own session
    process.communicate(timeout=60)
    orphan = int(pid_file.read_text())
    assert alive(orphan)
    flag.touch()
    result = alphred(repo, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert not alive(orphan)
    final = json.loads(result.stdout)
    assert steps(final) == [("work", 1, "interrupted"), ("work", 2, "completed")]
    committed = git(repo, "show", "--name-only", "--format=", final["branch"]).splitlines()
    assert committed == ["result.txt"]  # the dead attempt's file is not on the branch
    (saved,) = artifacts(repo, "interrupted_diff")
    assert saved[:2] == ("work", 1) and "orphan.txt" in (saved[2] or "")
    # the dead attempt's group is recorded (it lived on); the second attempt's quick command was killed with its
    # shell before it lived RECORD_AFTER_SECONDS, so nothing of it is left to record (docs/architecture.md)
    assert db(repo).execute("select attempt from run_processes order by id").fetchall() == [(1,)]


# -- (d) stale git locks ----------------------------------------------------------------------------------


def test_stale_head_ref_and_index_locks_are_cleared_on_take_over(repo: Path) -> None:
    wf = workflow(repo, TWO.replace("run: cat a.txt", "run: echo b > b.txt"))
    crashed = alphred(repo, "run", str(wf), env=crash_env(repo, "between_phases"))
    assert crashed.returncode == -signal.SIGKILL
    admin = repo / ".git" / "worktrees" / "1"
    common = repo / ".git"
    for lock in (admin / "HEAD.lock", admin / "index.lock", common / "refs/heads/alphred/wf/1.lock"):
        lock.write_text("")  # what a kill inside `git commit` leaves
    result = alphred(repo, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    final = json.loads(result.stdout)
    assert steps(final)[-1] == ("check", 2, "completed")
    assert branch_log(repo, final["branch"])[0] == "alphred(wf): check [visit 1]"
    assert not (admin / "HEAD.lock").exists()


def test_lock_contention_is_a_retryable_git_locked_error(repo: Path) -> None:
    from alphred.errors import RETRYABLE_KINDS, GitLockedError
    from alphred.git import GitWorktrees, locate_repository
    from alphred.runtime.acts import failed_by_runtime
    from alphred.runtime.phase import AttemptStats

    worktrees = GitWorktrees(locate_repository(repo))
    (repo / "x.txt").write_text("x")
    (repo / ".git" / "index.lock").write_text("")  # a live git process holds the index
    with pytest.raises(GitLockedError) as caught:
        worktrees.commit_phase(repo, "m")
    outcome = failed_by_runtime("p", 1, caught.value, AttemptStats())
    assert (outcome.reason, outcome.retryable, outcome.error_code) == ("git_locked", True, "GIT_LOCKED")
    assert outcome.reason in RETRYABLE_KINDS


# -- (e) worktree removal ---------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("point", "how"), [("removing_worktree", "gc"), ("worktree_removed", "resume")])
def test_kill_during_worktree_removal_is_finished_later(repo: Path, point: str, how: str) -> None:
    wf = workflow(repo, TWO)
    crashed = alphred(repo, "run", str(wf), env=crash_env(repo, point))
    assert crashed.returncode == -signal.SIGKILL
    left = status(repo)
    assert left["status"] == "completed" and left["worktree"] is not None  # recorded: pending cleanup
    if how == "gc":
        listed = alphred(repo, "gc", "--dry-run")
        assert listed.returncode == 0 and left["worktree"] in listed.stdout
        assert Path(left["worktree"]).is_dir()
        assert alphred(repo, "gc").returncode == 0
    else:
        assert alphred(repo, "resume", "1").returncode == 0
    after = status(repo)
    assert after["worktree"] is None and not Path(left["worktree"]).exists()
    assert left["worktree"] not in git(repo, "worktree", "list")
    assert git(repo, "rev-parse", after["branch"]) == after["head"]  # the branch stays
    assert "removed 0 worktree(s)" in alphred(repo, "gc").stderr


def test_worker_finishes_a_pending_cleanup(repo: Path) -> None:
    wf = workflow(repo, TWO)
    assert alphred(repo, "run", str(wf), env=crash_env(repo, "removing_worktree")).returncode == -signal.SIGKILL
    result = alphred(repo, "worker", "--once")
    assert "run 1: worktree removed" in result.stderr, result.stderr
    assert status(repo)["worktree"] is None


@pytest.mark.slow
def test_a_pending_cleanup_whose_run_is_still_held_is_left_to_its_holder(repo: Path) -> None:
    """A run stored ``completed`` removes its worktree itself: a worker beside it (another thread of the same
    ``worker --concurrency N``) must not race it for the removal while the lease is held."""
    wf = workflow(repo, TWO)
    assert alphred(repo, "run", str(wf), env=crash_env(repo, "removing_worktree")).returncode == -signal.SIGKILL
    database = repo / ".alphred" / "alphred.db"
    with sqlite3.connect(database) as conn:  # as if a live process (this one) still held the run's lease
        conn.execute(
            "update workflow_runs set lease_owner = ?, lease_expires_at = datetime('now', '+1 hour') where id = 1",
            (str(LeaseOwner.current()),),
        )
    held = alphred(repo, "worker", "--once")
    assert "worktree removed" not in held.stderr and status(repo)["worktree"] is not None
    listed = alphred(repo, "gc", "--dry-run")
    assert listed.returncode == 0 and ".alphred/worktrees/1" not in listed.stdout  # gc leaves it too
    with sqlite3.connect(database) as conn:
        conn.execute("update workflow_runs set lease_expires_at = datetime('now', '-1 hour') where id = 1")
    expired = alphred(repo, "worker", "--once")
    assert "run 1: worktree removed" in expired.stderr, expired.stderr
    assert status(repo)["worktree"] is None


# -- GitPython stays off the read paths -------------------------------------------------------------------


def test_help_validate_status_and_runs_never_import_gitpython(repo: Path) -> None:
    wf = workflow(repo, TWO)
    assert alphred(repo, "run", str(wf)).returncode == 0
    for args in (
        ["--help"],
        ["validate", str(wf)],
        ["status", "1", "--repo", str(repo)],
        ["runs", "--repo", str(repo)],
    ):
        _, loaded = modules_imported(args, ["git"], env=base_env(repo.parent))
        assert loaded == [], (args, "GitPython imported")
