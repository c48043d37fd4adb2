"""The run queue of SPEC §10 in SQL: claimable runs, atomic claims, waking the workers, the worker registry.

A worker never lists runs: it asks for the few claimable ones (pending; running with a free lease; queued
runs paused by an interrupt or carrying a detached request), highest ``priority`` first then oldest, through
``ix_workflow_runs_queue``. A claim is one transaction: the lease is taken by a compare-and-set ``UPDATE``
that only succeeds while the lease is free, on every database; how the candidate rows are locked first is
the database's own (``_lock_claim``: PostgreSQL locks them ``FOR UPDATE SKIP LOCKED``, so two workers never
even look at the same row), and so is waking idle workers (``notify_workers``: PostgreSQL ``NOTIFY``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import Select, and_, delete, insert, or_, select, update
from sqlalchemy.engine import Connection

from alphred.store import schema
from alphred.store.assembly import worker_object
from alphred.store.columns import utcnow
from alphred.store.enums import RunStatus
from alphred.store.rows import RowReader, column_fields

if TYPE_CHECKING:
    from alphred.store.read_records import Candidate

RUNS = schema.WORKFLOW_RUNS

_INTERRUPTED = "interrupted"
_USAGE_LIMIT = "usage_limit"
_WAITING_FOR_CI = "waiting_for_ci"  # SPEC §16: any worker looks at the checks again once ``wake_at`` has come


def _claimable(now: datetime, host: str, woken_by: datetime | None = None) -> Any:
    """Rows a worker on ``host`` may look at: waiting work whose lease is free or held on this host.

    A run paused by a usage limit is claimable once its ``wake_at`` has passed, found through
    ``ix_workflow_runs_wake`` (status, wake_at); before it, not even a detached ``resume`` takes it.
    """
    paused = RunStatus.PAUSED.value
    waiting = or_(
        RUNS.c.status.in_([RunStatus.PENDING.value, RunStatus.RUNNING.value]),
        and_(RUNS.c.status == RunStatus.PAUSED.value, RUNS.c.reason == _WAITING_FOR_CI, RUNS.c.wake_at <= now),
        and_(
            RUNS.c.queued.is_(True),
            RUNS.c.status.in_([paused, RunStatus.FAILED.value]),
            or_(RUNS.c.reason.is_(None), RUNS.c.reason != _USAGE_LIMIT),  # those: the branch below
            or_(
                RUNS.c.request.is_not(None),
                and_(RUNS.c.status == paused, RUNS.c.reason == _INTERRUPTED),
            ),
        ),
        and_(
            RUNS.c.status == paused,
            RUNS.c.wake_at <= (woken_by or now),
            RUNS.c.reason == _USAGE_LIMIT,
            RUNS.c.queued.is_(True),
        ),
    )
    waiting = and_(RUNS.c.parent_run_id.is_(None), waiting)  # a sub-workflow's run goes with its parent (§13)
    free = or_(
        RUNS.c.lease_owner.is_(None),
        RUNS.c.lease_expires_at < now,
        RUNS.c.lease_owner.startswith(f"{host}:", autoescape=True),  # on this host: dead-owner check in Python
    )
    return waiting, free


TREES = schema.WORKFLOW_TREES


@functools.cache
def _candidates() -> tuple[tuple[Any, ...], RowReader[Candidate]]:
    """The columns a candidate is read from and its reader (the record is loaded on first use, off a run's start
    path: issue 29)."""
    from alphred.store.read_records import Candidate

    columns = (*(RUNS.c[name] for name in column_fields(Candidate, without=("tree_key",))), TREES.c.tree_key)
    return columns, RowReader(Candidate, convert={"requires": lambda value: tuple(value or ()), "queued": bool})


class QueueOps:
    """The queue and the worker registry on the transaction's connection."""

    _conn: Connection

    def claimable_runs(self, host: str, *, limit: int = 50, now: datetime | None = None) -> list[Candidate]:
        """Up to ``limit`` runs a worker on ``host`` may claim, highest priority first, then oldest
        (``now``: the moment a usage limit's ``wake_at`` is compared with)."""
        waiting, free = _claimable(utcnow(), host, now)
        columns, candidate = _candidates()
        query = (
            select(*columns)
            .join(TREES, TREES.c.id == RUNS.c.tree_id)
            .where(waiting, free)
            .order_by(RUNS.c.priority.desc(), RUNS.c.id)
            .limit(limit)
        )
        return [candidate(r) for r in self._conn.execute(query)]

    def claim_run(
        self,
        host: str,
        owner: str,
        ttl_seconds: float,
        accept: Callable[[Candidate], bool],
        *,
        limit: int = 50,
        now: datetime | None = None,
    ) -> Candidate | None:
        """Lease the first claimable run ``accept`` takes to ``owner``, in this transaction; None if none.

        ``accept`` decides capabilities, repositories and dead owners on the unlocked candidates; then the
        first acceptable one still claimable is locked (``_lock_claim``) and leased by a compare-and-set
        UPDATE: of two workers that both pick a run, only one wins it.
        """
        wanted = {c.id: c for c in self.claimable_runs(host, limit=limit, now=now) if accept(c)}
        if not wanted:
            return None
        moment = utcnow()
        waiting, free = _claimable(moment, host, now)
        pick = (
            select(RUNS.c.id, RUNS.c.status, RUNS.c.lease_owner)
            .where(RUNS.c.id.in_(list(wanted)), waiting, free)
            .order_by(RUNS.c.priority.desc(), RUNS.c.id)
        )
        for run_id, status, lease_owner in self._conn.execute(self._lock_claim(pick)).all():
            if lease_owner != wanted[run_id].lease_owner:
                continue  # its lease changed hands since we looked: not the run we accepted
            held = RUNS.c.lease_owner
            same = held.is_(None) if lease_owner is None else held == lease_owner
            taken = self._conn.execute(
                update(RUNS)
                .where(RUNS.c.id == run_id, RUNS.c.status == status, same)
                .values(lease_owner=owner, lease_expires_at=moment + timedelta(seconds=ttl_seconds), queued=True)
            )  # a run a worker took is the workers' from now on: interrupted, another worker goes on with it
            if taken.rowcount == 1:
                return wanted[run_id]
        return None

    def _lock_claim(self, pick: Select[Any]) -> Select[Any]:
        """The claim's candidate query as this database locks it (here: unlocked, the UPDATE decides)."""
        return pick

    def notify_workers(self, payload: str = "") -> None:
        """Wake the idle workers when this transaction commits (a no-op where the database cannot notify)."""

    # -- the worker registry --------------------------------------------------------------------------------

    def register_worker(self, worker_id: str, host: str, pid: int, capabilities: Sequence[str]) -> None:
        """Record a worker (again: a restarted registration replaces its row)."""
        self._conn.execute(delete(schema.WORKERS).where(schema.WORKERS.c.id == worker_id))
        now = utcnow()
        self._conn.execute(
            insert(schema.WORKERS).values(
                id=worker_id, host=host, pid=pid, capabilities=sorted(capabilities), started_at=now, heartbeat_at=now
            )
        )

    def beat_worker(self, worker_id: str) -> None:
        """The worker is alive now."""
        self._conn.execute(update(schema.WORKERS).where(schema.WORKERS.c.id == worker_id).values(heartbeat_at=utcnow()))

    def set_worker_paused(self, worker_id: str, paused: dict[str, str]) -> None:
        """The providers this worker claims no run for until their usage limit resets (SPEC §15):
        provider -> wake_at (ISO 8601, UTC); empty when none is paused."""
        values = {"paused": dict(paused) or None}
        self._conn.execute(update(schema.WORKERS).where(schema.WORKERS.c.id == worker_id).values(**values))

    def unregister_worker(self, worker_id: str) -> None:
        """A worker that stopped cleanly leaves the registry."""
        self._conn.execute(delete(schema.WORKERS).where(schema.WORKERS.c.id == worker_id))

    def list_workers(self, lost_after: float) -> list[dict[str, Any]]:
        """Every registered worker as SPEC §10's object; ``lost`` when silent for ``lost_after`` seconds."""
        now = utcnow()
        held: dict[str, list[int]] = {}
        rows = list(
            self._conn.execute(select(schema.WORKERS).order_by(schema.WORKERS.c.started_at, schema.WORKERS.c.id))
        )
        if rows:
            owners = [r.id for r in rows]
            query = select(RUNS.c.id, RUNS.c.lease_owner).where(RUNS.c.lease_owner.in_(owners)).order_by(RUNS.c.id)
            for run_id, owner in self._conn.execute(query):
                held.setdefault(owner, []).append(run_id)
        return [worker_object(r._mapping, held.get(r.id, []), now, lost_after) for r in rows]

    def live_capabilities(self, lost_after: float) -> list[set[str]]:
        """What each live worker offers."""
        since = utcnow() - timedelta(seconds=lost_after)
        query = select(schema.WORKERS.c.capabilities).where(schema.WORKERS.c.heartbeat_at >= since)
        return [set(caps or ()) for (caps,) in self._conn.execute(query)]
