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
from alphred.git.location import RepoLocation, registered_gitdir
from alphred.git.worktrees import TRAILER_ATTEMPT, TRAILER_PHASE, TRAILER_RUN, GitWorktrees

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
    with contextlib.suppress(OSError, GitError):
        admin = registered_gitdir(location.git_common_dir, worktree) if worktree.is_dir() else None
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


def head_made_by(worktrees: GitWorktrees, worktree: Path, run_id: int, phase: str, attempt: int) -> bool:
    """True when the worktree's ``HEAD`` commit carries this run's, phase's and attempt's trailers."""
    try:
        result = worktrees.run(worktree, "log", "-1", "--format=%B", "HEAD", check=False)
    except GitError:
        return False
    if result.returncode != 0:
        return False
    text = result.stdout.decode("utf-8", "replace")
    wanted = {f"{TRAILER_RUN}: {run_id}", f"{TRAILER_PHASE}: {phase}", f"{TRAILER_ATTEMPT}: {attempt}"}
    return wanted <= {line.strip() for line in text.splitlines()}


@dataclass(frozen=True)
class Abandoned:
    """What a dead attempt left in its worktree beyond the last recorded commit."""

    diff: str
    files: int


def save_and_reset(worktrees: GitWorktrees, worktree: Path, recorded: str) -> Abandoned | None:
    """Take what the worktree holds beyond commit ``recorded`` (edits, new files, commits) as a diff, then
    reset the worktree to ``recorded`` (ignored files are kept). None when there was nothing.
    """
    worktrees.run(worktree, "add", "-A")
    diff_args = ("diff", "--cached", "--no-color", "--no-ext-diff", "--no-textconv", "--binary", recorded)
    diff = worktrees.run(worktree, *diff_args).stdout.decode("utf-8", "replace")
    head = worktrees.run(worktree, "rev-parse", "HEAD").stdout.decode().strip()
    if not diff.strip() and head == recorded:
        return None
    worktrees.run(worktree, "reset", "-q", "--hard", recorded)
    worktrees.run(worktree, "clean", "-q", "-f", "-d")
    files = sum(1 for line in diff.splitlines() if line.startswith("diff --git "))
    return Abandoned(diff, files)


def last_recorded(
    worktrees: GitWorktrees, worktree: Path, run_id: int, base: str, skip: tuple[str, int] | None = None
) -> str:
    """The newest commit on ``worktree``'s branch since ``base`` that Alphred made for run ``run_id`` (its
    trailers), else ``base``: where a parallel branch's interrupted attempt resets to. ``skip``: a
    ``(phase, attempt)`` whose own commits do not count (the attempt being settled).

    Alphred commits a phase only after recording its outcome, so such a commit is recorded work; commits an
    agent made itself after it are not (they belong to the attempt that was interrupted).
    """
    fields = "%x00".join(
        f"%(trailers:key={key},valueonly,separator=%x2C)" for key in (TRAILER_RUN, TRAILER_PHASE, TRAILER_ATTEMPT)
    )
    result = worktrees.run(worktree, "log", f"--format=%H%x00{fields}", f"{base}..HEAD", check=False)
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
