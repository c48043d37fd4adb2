"""Before any agent runs: the run's branch must be pushable (absent on the remote, or behind the run's base).

A CI job starts from a fresh database, so without this check a run could do all its agent work on a branch
name that the remote already holds with other commits, then fail at delivery (non-fast-forward).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from alphred.errors import AlphredError, GitError, RemoteBranchTakenError
from alphred.git import GitWorktrees
from alphred.git.command import git_environment, run_git
from alphred.store import SqlRunStore


def remote_branch_sha(repo_root: Path, remote: str, branch: str) -> str | None:
    """The commit ``remote`` has for ``branch``, or None when it has no such branch (or cannot be asked)."""
    try:
        result = run_git(("ls-remote", "--heads", remote, f"refs/heads/{branch}"), repo_root, git_environment())
    except GitError:
        return None  # an unreachable remote is the push's problem; the preflight already found the remote
    for line in result.stdout.decode("utf-8", "replace").splitlines():
        sha, _, ref = line.partition("\t")
        if ref.strip() == f"refs/heads/{branch}":
            return sha.strip()
    return None


def is_ancestor(repo_root: Path, older: str, newer: str) -> bool:
    """True when commit ``older`` is known here and an ancestor of (or equal to) ``newer``."""
    try:
        result = run_git(("merge-base", "--is-ancestor", older, newer), repo_root, git_environment(), check=False)
    except GitError:
        return False
    return result.returncode == 0


def check_branch_pushable(repo_root: Path, remote: str, branch: str, base_sha: str) -> None:
    """Raise RemoteBranchTakenError when ``remote`` holds ``branch`` with commits that ``base_sha`` lacks."""
    found = remote_branch_sha(repo_root, remote, branch)
    if found is None or is_ancestor(repo_root, found, base_sha):
        return
    raise RemoteBranchTakenError(
        f"the branch {branch} already exists on {remote} with commits this run does not have, so its push "
        "would be refused",
        f"pick another name with --branch NAME (or ALPHRED_BRANCH_TEMPLATE), or delete the remote branch with "
        f"`git push {remote} --delete {branch}`; nothing was run",
    )


def discard_unstarted_run(
    store: SqlRunStore, worktrees: GitWorktrees, run_id: int, worktree: Path, branch: str
) -> None:
    """Undo a run that never started: cancel it, remove its worktree and its branch (which has no commits)."""
    with contextlib.suppress(AlphredError):
        store.set_run_status(run_id, "cancelled", "remote_branch_exists", lease_owner=None, lease_expires_at=None)
    with contextlib.suppress(AlphredError):
        worktrees.remove(worktree)
    with contextlib.suppress(AlphredError):
        run_git(("branch", "-D", branch), worktrees.location.root, git_environment(), check=False)
