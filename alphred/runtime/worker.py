"""``alphred worker``: take over runs that nobody executes any more (their process died) and finish them."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from alphred.errors import AlphredError, RunBusyError
from alphred.store import RunRecord

from .cleanup import finish_cleanups
from .control import Environment, continue_run, lease_is_free

CLAIMABLE = ("pending", "running")


@dataclass
class WorkerStats:
    """What one worker did."""

    finished: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)


def claimable_runs(env: Environment) -> list[RunRecord]:
    """Runs of this repository that are pending or running but whose lease is free (owner gone or expired)."""
    root = env.location.root.resolve()
    found = []
    for record in env.store.list_runs(limit=None, statuses=CLAIMABLE):
        if record.repo_path and Path(record.repo_path).resolve() != root:
            continue
        if lease_is_free(record):
            found.append(record)
    return sorted(found, key=lambda r: r.id)


def work(
    env: Environment,
    *,
    once: bool,
    poll_seconds: float,
    say: Callable[[str], None],
    max_runs: int | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> WorkerStats:
    """Claim and finish abandoned runs; with ``once``, stop when none is left.

    Each pass first finishes pending worktree removals. A pass that finishes no run sleeps ``poll_seconds``
    before the next, also when it found runs it could not take (busy, or failing to continue).
    """
    stats = WorkerStats()
    while max_runs is None or len(stats.finished) < max_runs:
        finished_before = len(stats.finished)
        for run_id in finish_cleanups(env.store, env.location):
            say(f"run {run_id}: worktree removed (pending cleanup)")
        candidates = claimable_runs(env)
        for record in candidates:
            try:
                final = continue_run(env, record.id, "resume")
            except RunBusyError:
                stats.skipped.append(record.id)  # another worker won the race
                continue
            except AlphredError as exc:
                stats.failed[record.id] = f"{exc.code}: {exc}"
                say(f"run {record.id}: {exc.code}: {exc}")
                continue
            stats.finished.append(record.id)
            reason = f" ({final.reason})" if final.reason else ""
            say(f"run {record.id}: {final.status.value}{reason}")
            if max_runs is not None and len(stats.finished) >= max_runs:
                break
        if once and not any(r.id not in stats.failed for r in claimable_runs(env)):
            break
        if len(stats.finished) == finished_before:
            sleep(poll_seconds)
    return stats
