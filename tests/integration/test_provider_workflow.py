"""End to end: ``alphred run`` (a subprocess) with a claude phase and a codex phase, both on their fakes."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers.processes import run_alphred
from helpers.repos import git, make_repo, process_env

pytest.importorskip("claude_agent_sdk")

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
WORKFLOW = """\
alphred: 1
key: agents
phases:
  implement:
    provider: claude
    prompt: Implement the feature.
    decisions: [done, blocked]
    transitions:
      - to: review
        when: decision == "done"
      - to: $fail
  review:
    provider: codex
    prompt: Review the change.
    decisions: [approved, changes_requested]
    transitions:
      - to: implement
        when: decision == "changes_requested"
      - to: $end
        when: decision == "approved"
"""


def wrapper(directory: Path, name: str, script: Path) -> Path:
    path = directory / name
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{script}" "$@"\n')
    path.chmod(0o755)
    return path


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A repository with one commit, the workflow file, and an environment wiring both fakes in."""
    home = tmp_path / "home"
    home.mkdir()
    env = process_env(
        home,
        drop=("FAKE_", "ANTHROPIC_", "CLAUDE_", "OPENAI_", "CODEX_"),
        ALPHRED_CLAUDE_CLI=str(wrapper(tmp_path, "claude", FIXTURES / "fake_claude_cli.py")),
        ALPHRED_CODEX_BIN=str(wrapper(tmp_path, "codex", FIXTURES / "fake_codex.py")),
        ANTHROPIC_API_KEY="fake-anthropic-key",
        OPENAI_API_KEY="fake-openai-key",
        IS_SANDBOX="1",  # the tests may run as root, where Claude Code wants it for bypassPermissions
        CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK="1",
        FAKE_CLAUDE_LOG=str(tmp_path / "claude.log"),
        FAKE_CLAUDE_FILE="src/feature.py",
        FAKE_CLAUDE_DECISION="done",
        FAKE_CODEX_LOG=str(tmp_path / "codex.log"),
        FAKE_CODEX_FILE="REVIEW.md",
        FAKE_CODEX_DECISION="changes_requested,approved",
    )
    repo = make_repo(tmp_path / "repo", {"README.md": "# project\n"}, env=env)
    workflow = tmp_path / "agents.yaml"
    workflow.write_text(WORKFLOW)
    return repo, workflow, env


def alphred(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return run_alphred(*args, env=env)


@pytest.mark.slow
def test_claude_and_codex_phases_route_on_their_decisions_and_commit_their_edits(
    setup: tuple[Path, Path, dict[str, str]],
) -> None:
    repo, workflow, env = setup
    done = alphred(env, "run", str(workflow), "--repo", str(repo), "--json", "--keep-worktree")
    assert done.returncode == 0, done.stderr
    status: dict[str, Any] = json.loads(done.stdout)
    assert status["status"] == "completed"
    assert [(s["phase"], s["attempt"], s["decision"], s["next"]) for s in status["steps"]] == [
        ("implement", 1, "done", "review"),
        ("review", 1, "changes_requested", "implement"),
        ("implement", 2, "done", "review"),
        ("review", 2, "approved", "$end"),
    ]
    assert status["tokens"] == 2 * 450 + 2 * 240
    branch = status["branch"]
    subjects = git(repo, "log", "--format=%s", branch).splitlines()
    assert "alphred(agents): implement [visit 1]" in subjects and "alphred(agents): review [visit 2]" in subjects
    assert git(repo, "show", f"{branch}:src/feature.py").startswith("written by the fake claude")
    assert git(repo, "show", f"{branch}:REVIEW.md").startswith("written by the fake codex")
    assert not (repo / "src").exists()  # the user's checkout is untouched

    with sqlite3.connect(repo / ".alphred" / "alphred.db") as db:
        rows = db.execute(
            "SELECT n.node_key, e.attempt, e.sequence, e.event_type FROM run_node_stream_events e "
            "JOIN run_nodes n ON n.id = e.run_node_id WHERE e.workflow_run_id = ? "
            "ORDER BY n.node_key, e.attempt, e.sequence",
            (status["run_id"],),
        ).fetchall()
    by_attempt: dict[tuple[str, int], list[tuple[int, str]]] = {}
    for key, attempt, sequence, kind in rows:
        by_attempt.setdefault((key, attempt), []).append((sequence, kind))
    assert set(by_attempt) == {("implement", 1), ("implement", 2), ("review", 1), ("review", 2)}
    for events in by_attempt.values():
        sequences = [s for s, _ in events]
        assert sequences == list(range(sequences[0], sequences[0] + len(sequences)))  # gap-free
        kinds = [k for _, k in events]
        assert kinds[-1] == "result" and kinds.count("result") == 1
        assert {"system", "tool_use", "tool_result", "usage"} <= set(kinds)


def test_missing_credentials_stop_the_run_before_anything_is_created(
    setup: tuple[Path, Path, dict[str, str]],
) -> None:
    repo, workflow, env = setup
    del env["OPENAI_API_KEY"]
    env["CODEX_HOME"] = str(Path(env["HOME"]) / ".codex")
    done = alphred(env, "run", str(workflow), "--repo", str(repo))
    assert done.returncode == 2
    assert "codex" in done.stderr and "OPENAI_API_KEY" in done.stderr
    assert not (repo / ".alphred").exists() and git(repo, "branch", "--list") == "* main"
    assert not Path(env["FAKE_CLAUDE_LOG"]).exists()


def test_providers_command_lists_every_provider_with_its_readiness(
    setup: tuple[Path, Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from alphred.cli import providers_cmd  # noqa: F401  (registers the command)
    from alphred.cli.main import app

    _, _, env = setup
    for name in list(os.environ):
        if name.startswith(("ANTHROPIC_", "CLAUDE_", "OPENAI_", "CODEX_", "ALPHRED_")):
            monkeypatch.delenv(name)  # CliRunner only adds to the environment: clear the machine's own
    result = CliRunner().invoke(app, ["providers", "--json"], env=env)
    assert result.exit_code == 0, result.output
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert {"claude", "codex", "scripted"} <= set(rows)
    assert rows["claude"]["ready"] and rows["codex"]["ready"] and rows["scripted"]["ready"]
    text = CliRunner().invoke(app, ["providers"], env={**env, "ANTHROPIC_API_KEY": ""})
    assert text.exit_code == 0
    claude_line = next(line for line in text.stdout.splitlines() if line.startswith("claude"))
    assert "not ready" in claude_line and "claude /login" in claude_line


@pytest.mark.slow
def test_not_logged_in_mid_run_fails_the_run_at_once_without_retries(
    setup: tuple[Path, Path, dict[str, str]],
) -> None:
    repo, workflow, env = setup
    workflow.write_text(WORKFLOW.replace("    provider: claude\n", "    provider: claude\n    max_retries: 3\n"))
    env["FAKE_CLAUDE_SCENARIO"] = "auth_error"
    done = alphred(env, "run", str(workflow), "--repo", str(repo), "--json")
    assert done.returncode == 1, done.stderr
    status = json.loads(done.stdout)
    assert status["status"] == "failed"
    assert [(s["phase"], s["attempt"], s["outcome"]) for s in status["steps"]] == [("implement", 1, "failed")]
    assert status["reason"] == "auth"
    assert "Not logged in" in done.stderr and "ANTHROPIC_API_KEY" in done.stderr
