"""``alphred gc``: remove worktrees that no run needs any more (finishing cut-short removals first).

It removes the worktrees of every completed or cancelled run, its parallel branches' included (failed runs
keep theirs for inspection and ``retry``), and directories of runs that do not exist; a run whose process
still holds its lease removes its worktrees itself. Branches are never deleted. The same runs' files
directories (``.alphred/runs/<id>``: ``$ALPHRED_ARTIFACTS``, ``$ALPHRED_MEMORY``, SPEC §17) go too: what
they held is stored with the run after every phase (``alphred artifacts`` still prints it, a ``resume``
writes it back). Removing a directory is safe to repeat: a kill half-way leaves the rest to the next ``gc``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from alphred.git import GitWorktrees, RepoLocation
from alphred.runtime.cleanup import (
    ENDED_FOR_GC,
    NOT_ENDED_FOR_GC,
    Leftover,
    ours,
    remove_worktree,
    runs_with_worktrees,
)
from alphred.runtime.run_files import runs_directory
from alphred.store import SqlRunStore
from alphred.store.owners import lease_free


def collect(store: SqlRunStore, location: RepoLocation, *, dry_run: bool) -> list[Leftover]:
    """``alphred gc``: remove (or with ``dry_run`` only list) worktrees no run needs any more."""
    ended = runs_with_worktrees(store, ENDED_FOR_GC)
    found = [
        Leftover(run_id, Path(path), f"run {status}")
        for run_id, status, path, repo, _keep, held in ended
        if ours(location, repo) and not held
    ]
    known = {leftover.path.resolve() for leftover in found}
    held = {run_id for run_id, *_rest, is_held in ended if is_held}  # finishing: its process removes them
    live = {Path(path).resolve() for _id, _s, path, *_rest in runs_with_worktrees(store, NOT_ENDED_FOR_GC)}
    live |= {Path(path).resolve() for run_id, _s, path, *_rest in ended if run_id in held}
    directory = location.worktrees_dir
    for child in sorted(directory.iterdir()) if directory.is_dir() else ():
        resolved = child.resolve()
        run, dot, _lane = child.name.partition(".")
        if resolved in known or resolved in live or not run.isdigit() or int(run) in held:
            continue
        record = store.find_run(int(run))
        if record is None:
            found.append(Leftover(None, child, "no such run"))
        elif record.status.value in ENDED_FOR_GC:
            # a parallel branch's worktree (``<run>.<phase>``) is removed alone: the run's own path stays recorded
            found.append(Leftover(None if dot else record.id, child, f"run {record.status.value}"))
    found += _run_files(store, location, held)
    if dry_run:
        return found
    for leftover in [f for f in found if f.files]:
        shutil.rmtree(leftover.path, ignore_errors=True)  # safe to repeat; what it held is stored
    found_worktrees = [f for f in found if not f.files]
    worktrees = GitWorktrees(location)
    for leftover in found_worktrees:
        if leftover.run_id is not None:
            remove_worktree(store, worktrees, leftover.run_id, leftover.path)
        elif leftover.path.exists():
            worktrees.remove(leftover.path)
    worktrees.prune()
    return found


def _run_files(store: SqlRunStore, location: RepoLocation, held: set[int]) -> list[Leftover]:
    """The files directories (``.alphred/runs/<id>``) of completed and cancelled runs no process holds, and
    of runs that do not exist."""
    directory = runs_directory(location.alphred_dir)
    found: list[Leftover] = []
    for child in sorted(directory.iterdir(), key=lambda p: p.name) if directory.is_dir() else ():
        if not child.name.isdigit() or int(child.name) in held or not child.is_dir() or child.is_symlink():
            continue
        record = store.find_run(int(child.name))
        if record is None:
            found.append(Leftover(None, child, "no such run", files=True))
        elif record.status.value in ENDED_FOR_GC and lease_free(record.lease_owner, record.lease_expires_at):
            found.append(Leftover(record.id, child, f"run {record.status.value}, its files stored", files=True))
    return found
