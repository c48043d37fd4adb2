"""Git after a crash: stale locks a dead owner left, the commit an attempt already made, a worktree reset.

Used on take-over only (``resume``, ``worker``), while the run's lease is held: no live process of the run
writes into its worktree then, so every lock in the worktree's admin directory is stale.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from pathlib import Path

from alphred.errors import GitError
from alphred.git.command import git_environment, run_git
from alphred.git.location import RepoLocation, read_gitfile
from alphred.git.worktrees import TRAILER_ATTEMPT, TRAILER_PHASE, TRAILER_RUN

SHARED_LOCK_AGE_SECONDS = 30.0
"""Locks of the shared git directory (config, packed-refs) are someone else's unless this old."""
_SHARED_LOCKS = ("config.lock", "packed-refs.lock", "shallow.lock")


def clear_stale_locks(location: RepoLocation, worktree: Path, branch: str | None) -> list[Path]:
    """Remove the locks a dead owner of the run left; return the ones removed.

    In the worktree's admin directory every ``*.lock`` (``index.lock``, ``HEAD.lock``, ``ORIG_HEAD.lock``...);
    in the shared git directory the run branch's ref lock, and ``config.lock``/``packed-refs.lock`` when
    older than SHARED_LOCK_AGE_SECONDS (git holds those for milliseconds).
    """
    removed: list[Path] = []
    candidates: list[Path] = []
    dot_git = worktree / ".git"
    with contextlib.suppress(OSError, GitError):
        admin = read_gitfile(dot_git) if dot_git.is_file() else None
        if admin is not None:
            candidates += sorted(admin.glob("*.lock")) + sorted(admin.glob("refs/**/*.lock"))
    common = location.git_common_dir
    if branch:
        candidates += [common / f"refs/heads/{branch}.lock", common / f"logs/refs/heads/{branch}.lock"]
    now = time.time()
    for name in _SHARED_LOCKS:
        path = common / name
        with contextlib.suppress(OSError):
            if now - path.stat().st_mtime > SHARED_LOCK_AGE_SECONDS:
                candidates.append(path)
    for path in candidates:
        with contextlib.suppress(FileNotFoundError, IsADirectoryError):
            path.unlink()
            removed.append(path)
    return removed


def head_made_by(worktree: Path, run_id: int, phase: str, attempt: int) -> bool:
    """True when the worktree's ``HEAD`` commit carries this run's, phase's and attempt's trailers."""
    from git import Repo
    from git.exc import GitError as GitPythonError

    try:
        with Repo(worktree) as repo:  # the commit is read through GitPython's persistent cat-file
            message = repo.head.commit.message
    except (GitPythonError, ValueError, OSError):
        return False
    text = message.decode("utf-8", "replace") if isinstance(message, bytes) else message
    wanted = {f"{TRAILER_RUN}: {run_id}", f"{TRAILER_PHASE}: {phase}", f"{TRAILER_ATTEMPT}: {attempt}"}
    return wanted <= {line.strip() for line in text.splitlines()}


@dataclass(frozen=True)
class Abandoned:
    """What a dead attempt left in its worktree beyond the last recorded commit."""

    diff: str
    files: int


def save_and_reset(worktree: Path, recorded: str) -> Abandoned | None:
    """Take what the worktree holds beyond commit ``recorded`` (edits, new files, commits) as a diff, then
    reset the worktree to ``recorded`` (ignored files are kept). None when there was nothing.
    """
    env = git_environment()
    run_git(("add", "-A"), worktree, env)
    diff_args = ("diff", "--cached", "--no-color", "--no-ext-diff", "--binary", recorded)
    diff = run_git(diff_args, worktree, env).stdout.decode("utf-8", "replace")
    head = run_git(("rev-parse", "HEAD"), worktree, env).stdout.decode().strip()
    if not diff.strip() and head == recorded:
        return None
    run_git(("reset", "-q", "--hard", recorded), worktree, env)
    run_git(("clean", "-q", "-f", "-d"), worktree, env)
    files = sum(1 for line in diff.splitlines() if line.startswith("diff --git "))
    return Abandoned(diff, files)


def last_recorded(worktree: Path, run_id: int, base: str, skip: tuple[str, int] | None = None) -> str:
    """The newest commit on ``worktree``'s branch since ``base`` that Alphred made for run ``run_id`` (its
    trailers), else ``base``: where a parallel branch's interrupted attempt resets to. ``skip``: a
    ``(phase, attempt)`` whose own commits do not count (the attempt being settled).

    Alphred commits a phase only after recording its outcome, so such a commit is recorded work; commits an
    agent made itself after it are not (they belong to the attempt that was interrupted).
    """
    fields = "%x00".join(
        f"%(trailers:key={key},valueonly,separator=%x2C)" for key in (TRAILER_RUN, TRAILER_PHASE, TRAILER_ATTEMPT)
    )
    result = run_git(("log", f"--format=%H%x00{fields}", f"{base}..HEAD"), worktree, git_environment(), check=False)
    if result.returncode != 0:
        return base
    for line in result.stdout.decode("utf-8", "replace").splitlines():
        sha, run, phase, attempt = [*line.split("\0"), "", "", ""][:4]
        if run.strip() != str(run_id):
            continue
        if skip is not None and (phase.strip(), attempt.strip()) == (skip[0], str(skip[1])):
            continue
        return sha
    return base
