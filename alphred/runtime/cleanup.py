"""Worktree removal as recorded, finishable work (``alphred gc`` itself is ``operations/gc.py``).

A completed run whose worktree should go (no ``--keep-worktree``) is stored ``completed`` with its
``worktree_path`` still set before the removal starts: that pair *is* the pending cleanup. The path is
cleared only once the directory and its git registration are gone, so a kill in between leaves work that
``resume``, ``worker`` and ``gc`` finish. ``gc`` also removes the worktrees of every completed or cancelled
run, its parallel branches' included (failed runs keep theirs for inspection and ``retry``), and directories
of runs that do not exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from alphred.engine import RunStatus
from alphred.git import GitWorktrees, RepoLocation
from alphred.git.merges import LaneGit
from alphred.runtime.crash import crash_point
from alphred.store import SqlRunStore
from alphred.store.owners import lease_free

ENDED_FOR_GC = (RunStatus.COMPLETED.value, RunStatus.CANCELLED.value)


@dataclass(frozen=True)
class Leftover:
    """A worktree (or with ``files`` a run's files directory) that can go: its run (None when no run owns
    the directory) and why."""

    run_id: int | None
    path: Path
    why: str
    files: bool = False


def remove_worktree(store: SqlRunStore, worktrees: GitWorktrees, run_id: int, path: Path) -> None:
    """Remove a run's worktree and its parallel branches' (their branches stay), then forget its path.

    The path is forgotten last, so a kill anywhere in between leaves the whole removal pending.
    """
    crash_point("removing_worktree")
    lanes = LaneGit(worktrees)
    for lane in lanes.lane_worktrees(run_id):  # branches a join: any did not merge, or a kill left
        lanes.remove_lane(lane)
    if path.exists():
        worktrees.remove(path)
    crash_point("worktree_removed")
    store.update_run(run_id, worktree_path=None)


def runs_with_worktrees(
    store: SqlRunStore, statuses: tuple[str, ...]
) -> list[tuple[int, str, str, str | None, bool, bool]]:
    """``(id, status, worktree_path, repo_path, keep_worktree, held)`` of runs in ``statuses`` that have a
    worktree; ``held``: a live process holds its lease (a run that just completed removes its worktree itself)."""
    return [
        (
            row.run_id,
            row.status,
            row.worktree_path,
            row.repo_path,
            row.keep_worktree,
            not lease_free(row.lease_owner, row.lease_expires_at),
        )
        for row in store.runs_with_worktrees(statuses)
    ]


def ours(location: RepoLocation, repo_path: str | None) -> bool:
    return repo_path is None or Path(repo_path).resolve() == location.root.resolve()


def pending_cleanups(store: SqlRunStore, location: RepoLocation) -> list[Leftover]:
    """Completed runs of this repository whose worktree removal has not finished."""
    return [
        Leftover(run_id, Path(path), "pending cleanup")
        for run_id, _status, path, repo, keep, held in runs_with_worktrees(store, (RunStatus.COMPLETED.value,))
        if not keep and not held and ours(location, repo)
    ]


def finish_cleanups(store: SqlRunStore, location: RepoLocation) -> list[int]:
    """Finish every pending worktree removal of this repository; the runs cleaned."""
    worktrees = GitWorktrees(location)
    done = []
    for leftover in pending_cleanups(store, location):
        assert leftover.run_id is not None
        remove_worktree(store, worktrees, leftover.run_id, leftover.path)
        done.append(leftover.run_id)
    return done


NOT_ENDED_FOR_GC = tuple(s.value for s in RunStatus if s.value not in ENDED_FOR_GC)
