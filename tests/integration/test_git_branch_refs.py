"""``git.branch_refs.branches_like``: the branches a new run's branch could clash with, read from the refs files
(issue 29: a run's start spawns no ``git for-each-ref``), as git lists them, loose or packed."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from alphred.git import GitWorktrees, locate_repository
from alphred.git.branch_refs import branches_like

pytestmark = pytest.mark.usefixtures("isolated_git")


def git(cwd: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", *args]
    return subprocess.run(command, cwd=cwd, env=dict(os.environ), check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(path))
    (path / "README.md").write_text("hello\n")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "first")
    return path.resolve()


def listed_by_git(repo: Path, branch: str) -> set[str]:
    """Every local branch git lists, of those named ``branch``, ``branch-...`` or below either."""
    out = git(repo, "for-each-ref", "--format=%(refname)", "refs/heads/")
    names = {line[len("refs/heads/") :] for line in out.splitlines()}
    return {n for n in names if n == branch or n.startswith((branch + "/", branch + "-"))}


BRANCHES = ("alphred/wf/1", "alphred/wf/1-2", "alphred/wf/1-3/below", "alphred/wf/10", "alphred/wf/2", "other")


@pytest.mark.parametrize("packed", ["none", "all", "some"])
def test_the_branches_read_from_the_refs_files_are_those_git_lists(repo: Path, packed: str) -> None:
    for name in BRANCHES[:3] if packed == "some" else BRANCHES:
        git(repo, "branch", name)
    if packed != "none":
        git(repo, "pack-refs", "--all")
    if packed == "some":  # the rest loose, beside the packed ones; one packed branch deleted
        for name in BRANCHES[3:]:
            git(repo, "branch", name)
        git(repo, "branch", "-D", "alphred/wf/1-2")
    common = repo / ".git"
    for branch in ("alphred/wf/1", "alphred/wf/10", "alphred/wf/3", "alphred", "other", "new"):
        assert branches_like(common, branch) == listed_by_git(repo, branch), (packed, branch)
    assert branches_like(common, "alphred/wf/1") == (
        {"alphred/wf/1", "alphred/wf/1-3/below"}
        if packed == "some"
        else {"alphred/wf/1", "alphred/wf/1-2", "alphred/wf/1-3/below"}
    )


def test_a_reftable_repository_is_left_to_git(repo: Path) -> None:
    (repo / ".git" / "reftable").mkdir()
    assert branches_like(repo / ".git", "alphred/wf/1") is None


def test_a_packed_branch_collision_gets_a_suffix(repo: Path) -> None:
    git(repo, "branch", "alphred/wf/1")
    git(repo, "branch", "alphred/wf/1-2")
    git(repo, "pack-refs", "--all")
    git(repo, "branch", "alphred/wf/1-3/below")  # blocks ``1-3`` too (git's ``1-*`` pattern did not list it)
    worktrees = GitWorktrees(locate_repository(repo))
    base = worktrees.resolve_base(None).sha
    assert worktrees.create(1, "alphred/wf/1", base).branch == "alphred/wf/1-4"
    assert worktrees.create(2, "alphred/wf/1", base).branch == "alphred/wf/1-5"


@pytest.mark.parametrize("packed", [False, True])
def test_the_base_of_a_run_is_read_from_the_files_without_git(
    repo: Path, packed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``resolve_base`` of the main checkout's ``HEAD`` spawns no git (none could run without a PATH)."""
    if packed:
        git(repo, "pack-refs", "--all")
    expected = git(repo, "rev-parse", "HEAD").strip()
    worktrees = GitWorktrees(locate_repository(repo))
    monkeypatch.setenv("PATH", str(repo / "no-such-dir"))
    base = worktrees.resolve_base(None)
    assert (base.sha, base.ref_name) == (expected, "main")


def test_a_symlink_an_agent_left_among_the_refs_is_not_followed(repo: Path, tmp_path: Path) -> None:
    """An agent shares the refs directory with the run (its worktree's ``.git`` names the common one): a symlinked
    directory (here a loop back to its parent, and a link out of the repository) under a branch-like name is a
    name that blocks, not a tree to walk, and nothing outside ``refs/heads`` is read."""
    heads = repo / ".git" / "refs" / "heads" / "alphred" / "wf"
    heads.mkdir(parents=True)
    (heads / "1-2").symlink_to(heads, target_is_directory=True)  # a loop
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    (outside / "deep" / "secret").write_text("0" * 40 + "\n")
    (heads / "1-3").symlink_to(outside, target_is_directory=True)
    found = branches_like(repo / ".git", "alphred/wf/1")
    assert found == {"alphred/wf/1-2", "alphred/wf/1-3"}
