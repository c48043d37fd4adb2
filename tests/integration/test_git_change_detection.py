"""``commit_phase`` skips ``git diff`` when ``git add -A`` left the index as it was: never at a change's cost."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

import alphred.git.worktrees as worktrees_module
from alphred.git import GitWorktrees, Worktree, locate_repository
from alphred.git.command import run_git

pytestmark = pytest.mark.usefixtures("isolated_git")


def git(cwd: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", *args]
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}  # the test's own `git status` must not touch the index
    return subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def worktree(tmp_path: Path) -> tuple[GitWorktrees, Worktree]:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    (repo / "a.txt").write_text("alpha\n")
    (repo / "b.txt").write_text("bravo\n")
    (repo / ".gitignore").write_text("*.log\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "first")
    worktrees = GitWorktrees(locate_repository(repo))
    created = worktrees.create(1, "alphred/wf/1", worktrees.resolve_base(None).sha)
    return worktrees, created


@pytest.fixture
def git_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The git subcommands ``GitWorktrees`` runs from now on (each still runs for real)."""
    calls: list[str] = []

    def recording(args: Sequence[str], *rest: object, **kw: object) -> subprocess.CompletedProcess[bytes]:
        calls.append(args[0])
        return run_git(args, *rest, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(worktrees_module, "run_git", recording)
    return calls


def clean(path: Path) -> bool:
    return git(path, "status", "--porcelain", "--untracked-files=all") == ""


def test_an_unchanged_worktree_costs_one_git_call_once_the_index_is_known(
    worktree: tuple[GitWorktrees, Worktree], git_calls: list[str]
) -> None:
    worktrees, created = worktree
    assert worktrees.commit_phase(created.path, "first look") is None  # learns the index (add + diff)
    assert git_calls == ["add", "diff"]
    git_calls.clear()
    assert worktrees.commit_phase(created.path, "second look") is None
    assert git_calls == ["add"]


def test_a_change_after_a_skipped_diff_is_still_committed(
    worktree: tuple[GitWorktrees, Worktree], git_calls: list[str]
) -> None:
    worktrees, created = worktree
    path = created.path
    assert worktrees.commit_phase(path, "look") is None
    assert worktrees.commit_phase(path, "look again") is None  # the fast path
    (path / "a.txt").write_text("ALPHA\n")  # same size, same second: git's racy-clean check must catch it
    result = worktrees.commit_phase(path, "edit")
    assert result is not None and "+ALPHA" in result.diff and result.files_changed == 1
    assert git(path, "log", "-1", "--format=%s") == "edit" and clean(path)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("modify", "a.txt"),
        ("delete", "b.txt"),
        ("untracked", "new/c.txt"),
        ("mode", "a.txt"),
        ("staged by the agent", "d.txt"),
    ],
)
def test_every_kind_of_change_is_committed_after_the_fast_path(
    worktree: tuple[GitWorktrees, Worktree], change: str, expected: str
) -> None:
    worktrees, created = worktree
    path = created.path
    worktrees.commit_phase(path, "look")
    assert worktrees.commit_phase(path, "look again") is None
    if change == "modify":
        (path / "a.txt").write_text("alpha, longer now\n")
    elif change == "delete":
        (path / "b.txt").unlink()
    elif change == "untracked":
        (path / "new").mkdir()
        (path / "new" / "c.txt").write_text("charlie\n")
    elif change == "mode":
        (path / "a.txt").chmod(0o755)
    else:
        (path / "d.txt").write_text("delta\n")
        git(path, "add", "d.txt")
    result = worktrees.commit_phase(path, change)
    assert result is not None and expected in result.diff
    assert clean(path)


def test_ignored_files_and_reverted_changes_commit_nothing(worktree: tuple[GitWorktrees, Worktree]) -> None:
    worktrees, created = worktree
    path = created.path
    head = worktrees.head_sha(path)
    worktrees.commit_phase(path, "look")
    (path / "debug.log").write_text("ignored\n")
    assert worktrees.commit_phase(path, "ignored only") is None
    (path / "a.txt").write_text("changed\n")
    git(path, "add", "a.txt")
    (path / "a.txt").write_text("alpha\n")  # back to the committed content, still staged differently
    assert worktrees.commit_phase(path, "reverted") is None
    assert worktrees.head_sha(path) == head and clean(path)


def test_commits_made_by_the_phase_itself_are_reported(worktree: tuple[GitWorktrees, Worktree]) -> None:
    worktrees, created = worktree
    path = created.path
    start = worktrees.head_sha(path)
    worktrees.commit_phase(path, "look")
    assert worktrees.commit_phase(path, "look again") is None
    (path / "e.txt").write_text("echo\n")
    git(path, "add", "e.txt")
    git(path, "commit", "-q", "-m", "the agent's own commit")
    result = worktrees.commit_phase(path, "phase", since=start)
    assert result is not None and result.parent == start and "e.txt" in result.diff
    assert result.sha == git(path, "rev-parse", "HEAD")


def test_a_removed_and_recreated_worktree_is_not_taken_for_the_old_one(
    worktree: tuple[GitWorktrees, Worktree], git_calls: list[str]
) -> None:
    worktrees, created = worktree
    worktrees.commit_phase(created.path, "look")
    worktrees.remove(created.path)
    again = worktrees.create(1, "alphred/wf/1", worktrees.resolve_base(None).sha)
    git_calls.clear()
    (again.path / "f.txt").write_text("foxtrot\n")
    result = worktrees.commit_phase(again.path, "after recreation")
    assert result is not None and "f.txt" in result.diff
    assert "diff" in git_calls
