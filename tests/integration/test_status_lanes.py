"""Output of parallel branches (SPEC §8) against a real SQLite store and a real git repository: the engine's
transitions are persisted as the runner does it, the lanes' work is merged with the git layer, and
``alphred status`` (JSON and human), the GitHub step summary and the PR body are read back."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from alphred.cli import app
from alphred.engine import (
    Effect,
    Event,
    PhaseCompleted,
    RunStarted,
    RunState,
    StartPhase,
    initial_state,
    transition,
)
from alphred.engine.events import MergeBranch, MergeDone
from alphred.git import GitWorktrees, locate_repository, phase_commit_message
from alphred.git.merges import LaneGit, merge_message
from alphred.providers import default_registry
from alphred.redact import Redactor
from alphred.runtime.delivery import PullRequestPlan, delivery_request
from alphred.runtime.persist import Persister
from alphred.store import SqlRunStore
from alphred.views.branch_status import run_branch_views
from alphred.views.pull_request import pull_request_text
from alphred.workflow import load_workflow
from alphred.workflow.model import Workflow

PROVIDERS = default_registry()  # every installed provider, as the CLI has them

pytestmark = pytest.mark.usefixtures("isolated_git")

FIXTURE = Path(__file__).parents[1] / "fixtures" / "workflows" / "parallel-review-offline.yaml"
OWNER = "test-owner"


def git(cwd: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", *args]
    return subprocess.run(command, cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


class Harness:
    """A run of a workflow with fan-outs, driven through the pure engine and persisted like the runner does."""

    def __init__(self, tmp_path: Path, text: str) -> None:
        self.repo = tmp_path / "repo"
        git(tmp_path, "init", "-q", "-b", "main", str(self.repo))
        (self.repo / "README.md").write_text("hello\n")
        git(self.repo, "add", "-A")
        git(self.repo, "commit", "-q", "-m", "first")
        self.worktrees = GitWorktrees(locate_repository(self.repo.resolve()))
        self.lanes = LaneGit(self.worktrees)
        self.url = f"sqlite:///{tmp_path / 'alphred.db'}"
        self.store = SqlRunStore(self.url)
        self.workflow: Workflow = load_workflow(str(FIXTURE), text, providers=PROVIDERS)
        base = self.worktrees.resolve_base()
        tree_id, _ = self.store.compile(self.workflow)
        self.run_id = self.store.create_run(tree_id, self.workflow, {}, repo_path=str(self.repo), base_sha=base.sha)
        self.branch = f"alphred/{self.workflow.key}/{self.run_id}"
        self.run = self.worktrees.create(self.run_id, self.branch, base.sha)
        self.store.update_run(self.run_id, branch=self.branch, worktree_path=str(self.run.path))
        with self.store.transaction() as tx:
            assert tx.acquire_lease(self.run_id, OWNER, 600)
        self.persister = Persister(self.store, self.run_id, OWNER, 600, {})
        self.state: RunState = initial_state(self.workflow, {})
        self.merges: list[MergeBranch] = []

    def send(self, event: Event) -> tuple[Effect, ...]:
        self.state, effects = transition(self.state, event)
        self.persister.persist(self.state, effects, [])
        self.merges += [e for e in effects if isinstance(e, MergeBranch)]
        for effect in effects:  # each lane gets its branch and worktree when it starts, as the runtime does
            if isinstance(effect, StartPhase) and effect.branch is not None:
                self.lanes.create_lane(self.run_id, self.branch, effect.branch, self.worktrees.head_sha(self.run.path))
        return effects

    def done(self, phase: str, decision: str | None = "approved") -> None:
        self.send(PhaseCompleted(phase, self.state.phase(phase).attempt, decision))

    def lane_commit(self, head: str, name: str) -> None:
        lane = self.lanes.create_lane(self.run_id, self.branch, head, "unused: the lane exists")
        (lane.path / name).write_text(f"{head}\n")
        assert self.worktrees.commit_phase(lane.path, phase_commit_message(self.workflow.key, head, 1))

    def merge_all(self) -> dict[str, str]:
        """Carry out the join's merges the engine asks for, as the runtime does; the merge commits by head."""
        shas: dict[str, str] = {}
        while self.merges:
            effect = self.merges.pop(0)
            lane_branch = f"{self.branch}.{effect.branch}"
            outcome = self.lanes.merge(self.run.path, lane_branch, merge_message(self.workflow.key, effect.branch))
            assert outcome.sha and not outcome.conflicts
            if not outcome.already:
                shas[effect.branch] = outcome.sha
            self.send(MergeDone(effect.join, effect.branch))
        return shas

    def cli(self, *args: str) -> str:
        result = CliRunner().invoke(app, [*args, "--db", self.url], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output


@pytest.fixture
def harness(tmp_path: Path) -> Harness:
    return Harness(tmp_path, FIXTURE.read_text())


def test_status_json_gives_every_phase_and_step_of_a_branch_its_git_branch(harness: Harness) -> None:
    harness.send(RunStarted())
    harness.done("scope")
    status = json.loads(harness.cli("status", str(harness.run_id), "--json"))
    branches = {p["key"]: p["branch"] for p in status["phases"]}
    prefix = f"alphred/parallel-review-offline/{harness.run_id}"
    assert branches == {
        "scope": None,
        "security": f"{prefix}.security",
        "tests": f"{prefix}.tests",
        "style": f"{prefix}.style",
        "verdict": None,
    }
    assert [(s["phase"], s["branch"]) for s in status["steps"]] == [("scope", None)]
    harness.done("tests")
    harness.lane_commit("tests", "REVIEW-tests.md")
    status = json.loads(harness.cli("status", str(harness.run_id), "--json"))
    assert [(s["phase"], s["branch"]) for s in status["steps"]] == [("scope", None), ("tests", f"{prefix}.tests")]
    listed = json.loads(harness.cli("runs", "--json"))
    assert {p["key"]: p["branch"] for p in listed[0]["phases"]} == branches and "steps" not in listed[0]


def test_status_shows_the_branches_side_by_side_and_what_runs_now(harness: Harness) -> None:
    harness.send(RunStarted())
    harness.done("scope")
    harness.done("tests")
    text = harness.cli("status", str(harness.run_id))
    prefix = f"alphred/parallel-review-offline/{harness.run_id}"
    lines = text.splitlines()
    start = lines.index("branches:")
    assert lines[start + 1] == "  fan-out of scope → verdict (join: all)"
    assert lines[start + 2].split() == ["BRANCH", "GIT", "BRANCH", "PHASES", "NOW"]
    rows = {line.split()[1]: line for line in lines[start + 3 : start + 6]}
    assert rows["security"].split()[2:] == [f"{prefix}.security", "security", "running", "security"]
    assert rows["tests"].split()[2:] == [f"{prefix}.tests", "tests", "arrived", "at", "verdict"]
    assert rows["style"].split()[0] == "⟳"
    assert "running now: security #1 [security], style #1 [style]" in lines


def test_after_the_join_status_summary_and_pr_body_list_the_merges(
    harness: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness.send(RunStarted())
    harness.done("scope")
    for head in ("security", "tests", "style"):
        harness.done(head)
    harness.lane_commit("tests", "REVIEW-tests.md")
    harness.lane_commit("style", "REVIEW-style.md")
    status = json.loads(harness.cli("status", str(harness.run_id), "--json"))
    assert status["status"] == "running"
    text = harness.cli("status", str(harness.run_id))
    assert "merging into the run branch for verdict" in text and "waiting to merge" in text
    shas = harness.merge_all()
    assert set(shas) == {"tests", "style"}  # security committed nothing: nothing to merge
    harness.done("verdict", "changes_requested")
    assert harness.state.status.value == "completed"
    record = harness.store.get_run(harness.run_id)
    views = {v.head: v for v in run_branch_views(harness.store, record)}
    assert views["tests"].merges == (shas["tests"],) and views["style"].merges == (shas["style"],)
    assert views["security"].state == "merged" and views["security"].merges == ()
    text = harness.cli("status", str(harness.run_id))
    assert f"merged {shas['tests'][:12]}" in text and f"merged {shas['style'][:12]}" in text
    assert "running now" not in text

    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    from alphred.cli.run_cmds import _report

    assert _report(harness.store, record, as_json=False, quiet=True) == 0
    written = summary.read_text()
    prefix = f"alphred/parallel-review-offline/{harness.run_id}"
    assert "**Branches**" in written
    assert f"| scope → verdict | tests | `{prefix}.tests` | tests | merged `{shas['tests'][:12]}` |" in written
    assert f"| scope → verdict | security | `{prefix}.security` | security | merged |" in written

    plan = PullRequestPlan("origin", "main", False, None)
    request = delivery_request(
        harness.store,
        harness.workflow,
        harness.run_id,
        plan,
        harness.state,
        Redactor({}),
        os.environ,
        pull_request_text,
    )
    assert f"| scope → verdict | style | `{prefix}.style` | style | merged `{shas['style'][:12]}` |" in request.body


def test_join_any_reports_the_other_branches_cancelled(tmp_path: Path) -> None:
    harness = Harness(tmp_path, FIXTURE.read_text().replace("join: all", "join: any"))
    harness.send(RunStarted())
    harness.done("scope")
    harness.done("style")
    harness.lane_commit("style", "REVIEW-style.md")
    shas = harness.merge_all()
    harness.done("verdict", "approved")
    text = harness.cli("status", str(harness.run_id))
    assert text.count("cancelled (join: any)") == 2 and f"merged {shas['style'][:12]}" in text
    status = json.loads(harness.cli("status", str(harness.run_id), "--json"))
    cancelled = [(s["phase"], s["branch"]) for s in status["steps"] if s["outcome"] == "cancelled"]
    prefix = f"alphred/parallel-review-offline/{harness.run_id}"
    assert sorted(cancelled) == [("security", f"{prefix}.security"), ("tests", f"{prefix}.tests")]


def test_a_workflow_without_fan_outs_keeps_its_status_output(tmp_path: Path) -> None:
    text = "alphred: 1\nkey: plain\ndefaults: {provider: scripted}\nphases:\n  one: {}\n"
    harness = Harness(tmp_path, text)
    harness.send(RunStarted())
    harness.done("one")
    status = json.loads(harness.cli("status", str(harness.run_id), "--json"))
    assert [p["branch"] for p in status["phases"]] == [None] and [s["branch"] for s in status["steps"]] == [None]
    human = harness.cli("status", str(harness.run_id))
    assert "branches:" not in human and "running now" not in human
