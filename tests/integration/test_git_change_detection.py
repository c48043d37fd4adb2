"""``commit_phase`` runs no git process when nothing changed, and never at a change's cost.

Once a phase's check has seen the worktree clean, the next check compares stat data (``lstat``) instead
of spawning ``git add -A``; every kind of change must still reach a commit.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

import alphred.git.snapshot as snapshot_module
import alphred.git.worktrees as worktrees_module
from alphred.git import GitWorktrees, Worktree, locate_repository
from alphred.git.command import run_git
from alphred.git.snapshot import take_snapshot, unchanged

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
    (repo / "src").mkdir()
    (repo / "src" / "deep").mkdir()
    (repo / "src" / "deep" / "c.txt").write_text("charlie\n")
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


def committed_files(path: Path) -> set[str]:
    return set(git(path, "show", "--name-only", "--format=", "HEAD").splitlines())


def test_an_unchanged_worktree_costs_no_git_process_once_seen_clean(
    worktree: tuple[GitWorktrees, Worktree], git_calls: list[str]
) -> None:
    worktrees, created = worktree
    assert worktrees.commit_phase(created.path, "first look") is None  # git looks once
    assert "add" in git_calls
    git_calls.clear()
    for n in range(3):
        assert worktrees.commit_phase(created.path, f"look {n}") is None
    assert git_calls == []


def test_after_a_commit_the_next_unchanged_phase_costs_no_git_process(
    worktree: tuple[GitWorktrees, Worktree], git_calls: list[str]
) -> None:
    worktrees, created = worktree
    path = created.path
    for round_ in range(3):
        (path / "fix.txt").write_text(f"round {round_}\n")
        result = worktrees.commit_phase(path, f"fix {round_}")
        assert result is not None and "fix.txt" in result.diff
        git_calls.clear()
        assert worktrees.commit_phase(path, f"review {round_}") is None
        assert git_calls == []
    assert clean(path)


# Each change is made after the no-git check has succeeded once, so it is the stat comparison that must see it.
CHANGES: dict[str, tuple[Callable[[Path], None], str]] = {
    "modify, other size": (lambda p: (p / "a.txt").write_text("alpha, longer now\n"), "a.txt"),
    "modify, same size": (lambda p: (p / "a.txt").write_text("ALPHA\n"), "a.txt"),
    "modify deep, same size": (lambda p: (p / "src" / "deep" / "c.txt").write_text("CHARLIE\n"), "src/deep/c.txt"),
    "delete": (lambda p: (p / "b.txt").unlink(), "b.txt"),
    "delete deep": (lambda p: (p / "src" / "deep" / "c.txt").unlink(), "src/deep/c.txt"),
    "new file": (lambda p: (p / "d.txt").write_text("delta\n"), "d.txt"),
    "new file deep": (lambda p: (p / "src" / "deep" / "e.txt").write_text("echo\n"), "src/deep/e.txt"),
    "new directory": (lambda p: ((p / "new").mkdir(), (p / "new" / "f.txt").write_text("fox\n")), "new/f.txt"),
    "mode": (lambda p: (p / "a.txt").chmod(0o755), "a.txt"),
    "rename": (lambda p: (p / "a.txt").rename(p / "src" / "a.txt"), "src/a.txt"),
    "symlink": (lambda p: (p / "link").symlink_to("a.txt"), "link"),
    "staged by the agent": (
        lambda p: ((p / "g.txt").write_text("golf\n"), git(p, "add", "g.txt")),
        "g.txt",
    ),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_every_kind_of_change_is_committed_after_the_fast_path(
    worktree: tuple[GitWorktrees, Worktree], change: str
) -> None:
    worktrees, created = worktree
    path = created.path
    worktrees.commit_phase(path, "look")
    assert worktrees.commit_phase(path, "look again") is None  # the no-git path
    make, expected = CHANGES[change]
    make(path)
    result = worktrees.commit_phase(path, change)
    assert result is not None and expected in committed_files(path)
    assert git(path, "log", "-1", "--format=%s") == change and clean(path)


def test_a_file_in_a_directory_that_held_no_tracked_file_is_committed(
    worktree: tuple[GitWorktrees, Worktree],
) -> None:
    worktrees, created = worktree
    path = created.path
    (path / "empty" / "inner").mkdir(parents=True)  # git does not track empty directories
    (path / "logs").mkdir()
    (path / "logs" / "run.log").write_text("ignored\n")  # a directory holding ignored files only
    assert worktrees.commit_phase(path, "look") is None
    assert worktrees.commit_phase(path, "look again") is None
    (path / "empty" / "inner" / "h.txt").write_text("hotel\n")
    (path / "logs" / "notes.txt").write_text("india\n")
    assert worktrees.commit_phase(path, "deep") is not None
    assert committed_files(path) == {"empty/inner/h.txt", "logs/notes.txt"} and clean(path)


def test_changes_right_after_a_commit_are_committed(worktree: tuple[GitWorktrees, Worktree]) -> None:
    """Racy git: a same-size rewrite (or a new file) in the same second, often the same clock tick."""
    worktrees, created = worktree
    path = created.path
    for n in range(10):
        (path / "a.txt").write_text(f"round {n}\n")
        assert worktrees.commit_phase(path, f"write {n}") is not None
        (path / "a.txt").write_text(f"ROUND {n}\n")  # same size, immediately after the check
        (path / f"n{n}.txt").write_text("new\n")
        result = worktrees.commit_phase(path, f"rewrite {n}")
        assert result is not None and f"+ROUND {n}" in result.diff and f"n{n}.txt" in result.diff
        assert clean(path)


def test_an_entry_not_older_than_the_index_is_compared_by_content(worktree: tuple[GitWorktrees, Worktree]) -> None:
    worktrees, created = worktree
    path = created.path
    assert worktrees.commit_phase(path, "look") is None
    index = Path(git(path, "rev-parse", "--path-format=absolute", "--git-path", "index"))
    stamp = index.stat().st_mtime_ns
    os.utime(path / "a.txt", ns=(stamp, stamp))  # as if written in the tick git wrote the index
    os.utime(path / "src", ns=(stamp, stamp))
    snapshot = take_snapshot(path, worktrees.head_sha(path), index, [])
    assert snapshot is not None
    assert [p for p, _ in snapshot.racy_files] == [str(path / "a.txt")]
    assert [p for p, _ in snapshot.racy_dirs] == [str(path / "src")]
    assert unchanged(snapshot)
    # Same stat data, other content (a rewrite within the clock tick): only the recorded content can tell.
    assert not unchanged(replace(snapshot, racy_files=((str(path / "a.txt"), b"file:" + bytes(32)),)))
    assert not unchanged(replace(snapshot, racy_dirs=((str(path / "src"), ("deep", "new.txt")),)))


def test_what_the_agent_does_to_the_index_or_the_excludes_is_committed(
    worktree: tuple[GitWorktrees, Worktree],
) -> None:
    worktrees, created = worktree
    path = created.path
    (path / "forced.log").write_text("ignored, then added by force\n")
    exclude = Path(git(path, "rev-parse", "--path-format=absolute", "--git-common-dir")) / "info" / "exclude"
    exclude.write_text(exclude.read_text() + "*.tmp\n")
    (path / "kept.tmp").write_text("excluded, then no longer\n")
    assert worktrees.commit_phase(path, "look") is None
    assert worktrees.commit_phase(path, "look again") is None
    git(path, "add", "-f", "forced.log")  # the worktree itself does not change
    assert worktrees.commit_phase(path, "forced") is not None and committed_files(path) == {"forced.log"}
    assert worktrees.commit_phase(path, "look") is None
    exclude.write_text(exclude.read_text().replace("*.tmp\n", ""))
    assert worktrees.commit_phase(path, "unexcluded") is not None and committed_files(path) == {"kept.tmp"}


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


def test_an_empty_commit_by_the_phase_is_reported(worktree: tuple[GitWorktrees, Worktree]) -> None:
    worktrees, created = worktree
    path = created.path
    start = worktrees.head_sha(path)
    assert worktrees.commit_phase(path, "look") is None
    git(path, "commit", "-q", "--allow-empty", "-m", "nothing but a commit")
    result = worktrees.commit_phase(path, "phase", since=start)
    assert result is not None and result.sha == git(path, "rev-parse", "HEAD") and result.files_changed == 0


def test_a_nested_repository_is_left_to_git(worktree: tuple[GitWorktrees, Worktree], git_calls: list[str]) -> None:
    worktrees, created = worktree
    path = created.path
    git(path, "init", "-q", "vendor")
    (path / ".gitignore").write_text("*.log\nvendor/\n")
    worktrees.commit_phase(path, "ignore vendor")
    git_calls.clear()
    assert worktrees.commit_phase(path, "look") is None
    assert "add" in git_calls  # a repository inside the worktree: the stat check does not decide


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
    assert "add" in git_calls


def test_a_worktree_over_the_entry_limit_is_left_to_git(
    worktree: tuple[GitWorktrees, Worktree], git_calls: list[str]
) -> None:
    worktrees, created = worktree
    many = created.path / "many"
    many.mkdir()
    for n in range(snapshot_module.ENTRY_LIMIT):
        (many / f"{n}.txt").write_text(f"{n}\n")
    assert worktrees.commit_phase(created.path, "many") is not None
    git_calls.clear()
    assert worktrees.commit_phase(created.path, "look") is None
    assert git_calls[0] == "add" and "commit" not in git_calls  # no snapshot: git is asked
    (many / "last.txt").write_text("last\n")
    assert worktrees.commit_phase(created.path, "one more") is not None
