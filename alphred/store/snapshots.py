"""What resume and cleanup read back from a run's row: the engine's state snapshot with the workflow source,
the pause/cancel flags, and the runs that still have a worktree."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from alphred.errors import UnknownRunError
from alphred.store import schema
from alphred.store.assembly import run_snapshot

if TYPE_CHECKING:  # the records reading hands out: loaded on first use, off a run's start path (issue 29)
    from alphred.store.read_records import RunSnapshot, WorktreeRecord

RUNS = schema.WORKFLOW_RUNS
TREES = schema.WORKFLOW_TREES

_SNAPSHOT = (
    select(RUNS.c.engine_state, TREES.c.source_path, TREES.c.definition)
    .join(TREES, TREES.c.id == RUNS.c.tree_id)
    .where(RUNS.c.id == bindparam("_run_id"))
)
_REQUESTS = select(RUNS.c.pause_requested, RUNS.c.cancel_requested).where(RUNS.c.id == bindparam("_run_id"))


class SnapshotOps:
    """Reads of a run's stored snapshot and flags on the transaction's connection."""

    _conn: Connection

    def run_snapshot(self, run_id: int) -> RunSnapshot:
        """The run's stored engine state, runtime options and workflow source; UnknownRunError when none."""
        row = self._conn.execute(_SNAPSHOT, {"_run_id": run_id}).first()
        if row is None:
            raise UnknownRunError(run_id)
        return run_snapshot(run_id, row.engine_state, row.source_path, row.definition)

    def run_requests(self, run_id: int) -> tuple[bool, bool]:
        """The run's ``(pause_requested, cancel_requested)`` flags, in one small read (False, False: no run)."""
        row = self._conn.execute(_REQUESTS, {"_run_id": run_id}).first()
        return (False, False) if row is None else (bool(row[0]), bool(row[1]))

    def runs_with_worktrees(self, statuses: Iterable[str]) -> list[WorktreeRecord]:
        """Runs in ``statuses`` whose worktree path is still recorded, oldest first."""
        from alphred.store.read_records import WorktreeRecord

        query = (
            select(
                RUNS.c.id,
                RUNS.c.status,
                RUNS.c.worktree_path,
                RUNS.c.repo_path,
                RUNS.c.engine_state,
                RUNS.c.lease_owner,
                RUNS.c.lease_expires_at,
            )
            .where(RUNS.c.status.in_([str(s) for s in statuses]), RUNS.c.worktree_path.is_not(None))
            .order_by(RUNS.c.id)
        )
        return [
            WorktreeRecord(
                run_id=row.id,
                status=row.status,
                worktree_path=row.worktree_path,
                repo_path=row.repo_path,
                keep_worktree=bool(((row.engine_state or {}).get("runtime") or {}).get("keep_worktree")),
                lease_owner=row.lease_owner,
                lease_expires_at=row.lease_expires_at,
            )
            for row in self._conn.execute(query)
        ]
