"""Interrupts that race with a phase start are not lost (in-process, real SQLite and git)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from alphred.engine import RunStarted
from alphred.git import ensure_alphred_dir, locate_repository
from alphred.operations.start import create_run
from alphred.operations.workspace import Workspace
from alphred.providers import ProviderRegistry, default_registry
from alphred.runtime.runner import Runner, RunOptions
from alphred.store import SqlRunStore
from alphred.store.owners import LeaseOwner
from alphred.views.progress import Progress
from alphred.workflow import load_workflow

PROVIDERS = default_registry()  # every installed provider, as the CLI has them


def make_repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, env=env)
    subprocess.run(
        ["git", "-c", "user.name=T", "-c", "user.email=t@x.invalid", "commit", "-q", "--allow-empty", "-m", "i"],
        cwd=repo, check=True, env=env,
    )  # fmt: skip
    return repo, env


def test_an_interrupt_before_the_phase_starts_interrupts_it(tmp_path: Path) -> None:
    repo, env = make_repo(tmp_path)
    marker = tmp_path / "ran"
    wf = tmp_path / "wf.yaml"
    wf.write_text(f"alphred: 1\nkey: wf\nphases:\n  touch:\n    type: command\n    run: touch {marker}\n")
    workflow = load_workflow(wf, providers=PROVIDERS)
    location = locate_repository(repo)
    ensure_alphred_dir(location)
    with SqlRunStore(f"sqlite:///{location.alphred_dir / 'alphred.db'}") as store:
        workspace = Workspace(store, location, lambda w, d: ProviderRegistry({}), lambda r: Progress(False))
        options = RunOptions(environ=env)
        run_id, worktree, state = create_run(workspace, workflow, options)
        owner = LeaseOwner.current()
        assert store.acquire_lease(run_id, str(owner), 30)
        runner = Runner(
            store, workflow, run_id, location, ProviderRegistry({}), worktree=worktree, options=options, owner=owner
        )
        runner.interrupt()  # Ctrl+C lands after StartPhase was persisted, before the command is spawned
        final = runner.drive(state, [RunStarted()])
        record = store.get_run(run_id)
        steps = store.list_steps(run_id)
    assert (final.status.value, record.status.value, record.reason) == ("paused", "paused", "interrupted")
    assert [(s.phase, s.attempt, s.outcome.value) for s in steps] == [("touch", 1, "interrupted")]
    assert not marker.exists()


def test_a_pause_asked_before_the_heartbeat_looks_still_pauses_at_the_next_routing(tmp_path: Path) -> None:
    repo, env = make_repo(tmp_path)
    wf = tmp_path / "wf.yaml"
    wf.write_text(
        "alphred: 1\nkey: wf\nphases:\n"
        "  a: {type: command, run: 'true', transitions: [{to: b}]}\n"
        "  b: {type: command, run: 'true'}\n"
    )
    workflow = load_workflow(wf, providers=PROVIDERS)
    location = locate_repository(repo)
    ensure_alphred_dir(location)
    with SqlRunStore(f"sqlite:///{location.alphred_dir / 'alphred.db'}") as store:
        workspace = Workspace(store, location, lambda w, d: ProviderRegistry({}), lambda r: Progress(False))
        options = RunOptions(environ=env)
        run_id, worktree, state = create_run(workspace, workflow, options)
        owner = LeaseOwner.current()
        assert store.acquire_lease(run_id, str(owner), 30)
        store.request_pause(run_id)  # phase a ends long before the heartbeat's first look (0.5 s)
        runner = Runner(
            store, workflow, run_id, location, ProviderRegistry({}), worktree=worktree, options=options, owner=owner
        )
        runner.drive(state, [RunStarted()])
        record = store.get_run(run_id)
        steps = store.list_steps(run_id)
    assert (record.status.value, record.reason, record.pause_requested) == ("paused", "paused", False)
    assert [(s.phase, s.outcome.value, s.next) for s in steps] == [("a", "completed", "b")]
