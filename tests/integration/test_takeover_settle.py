"""Take-over of an interrupted resolver (``runtime/takeover.py::settle``) against a real git repository and a
real SQLite store: an agent resolver's worktree is saved and reset and its conflicted merge made again; a
workflow phase's (SPEC §13) is its child run's, left as it is whether the phase was running or queued."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from alphred.engine import INTERRUPTED, PhaseInterrupted, RunState, RunStatus, initial_state
from alphred.engine.state import MergeState
from alphred.git import GitWorktrees, locate_repository
from alphred.providers import default_registry
from alphred.redact import Redactor
from alphred.runtime.takeover import INTERRUPTED_DIFF, settle
from alphred.store import SqlRunStore
from alphred.workflow import load_workflow

PARENT = """\
alphred: 1
key: wf
defaults: {provider: scripted}
phases:
  split: {transitions: [{to: [a, b]}]}
  a: {transitions: [{to: join}]}
  b: {transitions: [{to: join}]}
  join: {join: all, on_conflict: resolve, type: command, run: "true"}
  resolve: {type: RESOLVER}
"""
RESOLVERS = {"agent": "agent", "workflow": "workflow, uses: child.yaml"}
pytestmark = pytest.mark.usefixtures("isolated_git")

CHILD = "alphred: 1\nkey: child\nphases:\n  fix: {type: command, run: 'true'}\n"


def git(cwd: Path, *args: str) -> str:
    from helpers.repos import git as run

    return run(cwd, "-c", "user.name=Test", "-c", "user.email=test@example.com", *args)


class Interrupted:
    """A run whose join's resolver was interrupted: the run branch and branch ``a`` both changed README.md."""

    def __init__(self, tmp_path: Path, resolver: str) -> None:
        from helpers.repos import make_repo

        repo = make_repo(tmp_path / "repo", {"README.md": "base\n"})
        (tmp_path / "child.yaml").write_text(CHILD)
        path = tmp_path / "wf.yaml"
        path.write_text(PARENT.replace("RESOLVER", RESOLVERS[resolver]))
        self.workflow = load_workflow(path, providers=default_registry())
        self.worktrees = GitWorktrees(locate_repository(repo.resolve()))
        base = self.worktrees.resolve_base().sha
        git(repo, "branch", "side", base)
        git(repo, "switch", "-q", "side")
        (repo / "README.md").write_text("from branch a\n")
        git(repo, "commit", "-q", "-am", "a")
        git(repo, "switch", "-q", "main")
        self.store = SqlRunStore(f"sqlite:///{tmp_path / 'alphred.db'}")
        tree_id, _ = self.store.compile(self.workflow)
        self.run_id = self.store.create_run(tree_id, self.workflow, {}, repo_path=str(repo), base_sha=base)
        self.worktree = self.worktrees.create(self.run_id, f"alphred/wf/{self.run_id}", base).path
        (self.worktree / "README.md").write_text("from the run branch\n")
        git(self.worktree, "commit", "-q", "-am", "run")
        self.head = git(self.worktree, "rev-parse", "HEAD")
        self.store.update_run(self.run_id, branch=f"alphred/wf/{self.run_id}", head_sha=self.head)
        self.merge = MergeState("join", ("a", "b"), ref="side", conflicts=("README.md",), status="resolved")
        (self.worktree / "left.txt").write_text("what the interrupted attempt left\n")

    def state(self, running: bool) -> RunState:
        state = initial_state(self.workflow, {}).with_phase("resolve", attempt=1)
        if running:
            return dataclasses.replace(state, status=RunStatus.RUNNING, current="resolve", merge=self.merge)
        paused = dataclasses.replace(state, status=RunStatus.PAUSED, reason=INTERRUPTED, queued="resolve")
        return dataclasses.replace(paused, merge=self.merge)

    def settle(self, running: bool) -> list[object]:
        record = self.store.get_run(self.run_id)
        return list(settle(self.store, self.worktrees.location, record, self.state(running), self.worktree,
                           None, Redactor({})))  # fmt: skip

    def merging(self) -> bool:
        return (
            self.worktrees.run(self.worktree, "rev-parse", "-q", "--verify", "MERGE_HEAD", check=False)
        ).returncode == 0


@pytest.mark.parametrize("running", [True, False], ids=["running", "queued"])
def test_an_agent_resolver_is_saved_reset_and_its_merge_made_again(tmp_path: Path, running: bool) -> None:
    run = Interrupted(tmp_path, "agent")
    events = run.settle(running)
    assert events == ([PhaseInterrupted("resolve", 1)] if running else [])
    assert not (run.worktree / "left.txt").exists()  # saved as its interrupted_diff, the worktree reset
    assert run.store.latest_artifact(run.run_id, "resolve", INTERRUPTED_DIFF) is not None
    assert run.merging() and "<<<<<<<" in (run.worktree / "README.md").read_text()  # the resolver's conflict


@pytest.mark.parametrize("running", [True, False], ids=["running", "queued"])
def test_a_workflow_resolver_leaves_its_worktree_to_its_child_run(tmp_path: Path, running: bool) -> None:
    """The running case used to skip the save but still make the merge again, over the child's worktree."""
    run = Interrupted(tmp_path, "workflow")
    events = run.settle(running)
    assert events == ([PhaseInterrupted("resolve", 1)] if running else [])
    assert (run.worktree / "left.txt").read_text() == "what the interrupted attempt left\n"  # not saved, not reset
    assert run.store.latest_artifact(run.run_id, "resolve", INTERRUPTED_DIFF) is None
    assert not run.merging() and (run.worktree / "README.md").read_text() == "from the run branch\n"
    assert git(run.worktree, "rev-parse", "HEAD") == run.head
