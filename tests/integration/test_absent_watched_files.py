"""A file that was absent when a worktree's snapshot or seal was made and is there now counts as a change (issue 29:
the absent ones are looked at with ``os.access``, no exception raised per look): a regular file, a directory, a
dangling symbolic link alike."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from alphred.git.snapshot import take_snapshot, unchanged
from alphred.git.tamper import seal_worktree

pytestmark = pytest.mark.quick

MAKERS: dict[str, Callable[[Path], None]] = {
    "file": lambda path: path.write_text("[core]\n"),
    "directory": lambda path: path.mkdir(),
    "dangling link": lambda path: os.symlink(path.parent / "nowhere", path),
}


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_a_watched_file_absent_at_the_snapshot_that_appears_is_a_change(tmp_path: Path, kind: str) -> None:
    root, gitdir = tmp_path / "tree", tmp_path / "gitdir"
    root.mkdir()
    gitdir.mkdir()
    (root / "a.txt").write_text("alpha\n")
    index = gitdir / "index"
    index.write_bytes(b"")
    os.utime(root / "a.txt", ns=(1, 1))  # older than the index: not racy
    os.utime(root, ns=(1, 1))
    absent = tmp_path / "ignore"
    snapshot = take_snapshot(root, "0" * 40, index, [absent])
    assert snapshot is not None and unchanged(snapshot)
    MAKERS[kind](absent)
    assert not unchanged(snapshot)


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_a_git_file_absent_at_the_seal_that_appears_breaks_it(tmp_path: Path, kind: str) -> None:
    worktree, common = tmp_path / "tree", tmp_path / "common"
    admin = common / "worktrees" / "tree"
    admin.mkdir(parents=True)
    worktree.mkdir()
    (worktree / ".git").write_text(f"gitdir: {admin}\n")
    (admin / "HEAD").write_text("ref: refs/heads/main\n")
    (admin / "commondir").write_text("../..\n")
    (admin / "gitdir").write_text(f"{worktree / '.git'}\n")
    (common / "config").write_text("[core]\n")
    seal = seal_worktree(worktree, admin, common)
    assert seal.broken() == []
    MAKERS[kind](admin / "config.worktree")
    assert seal.broken() == ["tree/config.worktree"]
