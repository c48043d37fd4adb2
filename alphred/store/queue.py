"""The run queue of SPEC §10 in SQL: claimable runs, atomic claims, NOTIFY, and the worker registry.

A worker never lists runs: it asks for the few claimable ones (pending; running with a free lease; queued
runs paused by an interrupt or carrying a detached request), highest ``priority`` first then oldest, through
``ix_workflow_runs_queue``. A claim is one transaction: on PostgreSQL the candidate rows are locked with
``FOR UPDATE SKIP LOCKED`` (two workers never even look at the same row), and on every database the lease
is taken by a compare-and-set ``UPDATE`` that only succeeds while the lease is free.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, insert, or_, select, text, update
from sqlalchemy.engine import Connection

from alphred.store.columns import utcnow
from alphred.store.enums import RunStatus
from alphred.store.runs import RUNS
from alphred.store.schema import WORKERS

CHANNEL = "alphred_runs"
"""The PostgreSQL ``NOTIFY`` channel a submit (or a detached request) signals idle workers on."""

_INTERRUPTED = "interrupted"


@dataclass(frozen=True)
class Candidate:
    """A run a worker might claim: what it needs to decide, nothing more."""

    id: int
    status: str
    reason: str | None
    requires: tuple[str, ...]
    lease_owner: str | None
    lease_expires_at: datetime | None
    queued: bool
    request: dict[str, Any] | None
    repo_path: str | None
    repo_url: str | None
    repo_root: str | None
    priority: int


def _claimable(now: datetime, host: str) -> Any:
    """Rows a worker on ``host`` may look at: waiting work whose lease is free or held on this host."""
    waiting = or_(
        RUNS.c.status.in_([RunStatus.PENDING.value, RunStatus.RUNNING.value]),
        and_(
            RUNS.c.queued.is_(True),
            RUNS.c.status.in_([RunStatus.PAUSED.value, RunStatus.FAILED.value]),
            or_(
                RUNS.c.request.is_not(None),
                and_(RUNS.c.status == RunStatus.PAUSED.value, RUNS.c.reason == _INTERRUPTED),
            ),
        ),
    )
    free = or_(
        RUNS.c.lease_owner.is_(None),
        RUNS.c.lease_expires_at < now,
        RUNS.c.lease_owner.startswith(f"{host}:", autoescape=True),  # on this host: dead-owner check in Python
    )
    return waiting, free


_COLUMNS = (
    RUNS.c.id, RUNS.c.status, RUNS.c.reason, RUNS.c.requires, RUNS.c.lease_owner, RUNS.c.lease_expires_at,
    RUNS.c.queued, RUNS.c.request, RUNS.c.repo_path, RUNS.c.repo_url, RUNS.c.repo_root, RUNS.c.priority,
)  # fmt: skip


def claimable_runs(conn: Connection, host: str, *, limit: int = 50) -> list[Candidate]:
    """Up to ``limit`` runs a worker on ``host`` may claim, highest priority first, then oldest."""
    waiting, free = _claimable(utcnow(), host)
    query = select(*_COLUMNS).where(waiting, free).order_by(RUNS.c.priority.desc(), RUNS.c.id).limit(limit)
    return [
        Candidate(
            id=r.id,
            status=r.status,
            reason=r.reason,
            requires=tuple(r.requires or ()),
            lease_owner=r.lease_owner,
            lease_expires_at=r.lease_expires_at,
            queued=bool(r.queued),
            request=r.request,
            repo_path=r.repo_path,
            repo_url=r.repo_url,
            repo_root=r.repo_root,
            priority=r.priority,
        )
        for r in conn.execute(query)
    ]


def claim_run(
    conn: Connection,
    host: str,
    owner: str,
    ttl_seconds: float,
    accept: Callable[[Candidate], bool],
    *,
    limit: int = 50,
) -> Candidate | None:
    """Lease the first claimable run ``accept`` takes to ``owner``, in this transaction; None if none.

    ``accept`` decides capabilities, repositories and dead owners on the unlocked candidates; then the
    first acceptable one still claimable is locked (PostgreSQL: ``FOR UPDATE SKIP LOCKED``, one row, so a
    concurrent worker moves on to the next run) and leased by a compare-and-set UPDATE: of two workers that
    both pick a run (SQLite), only one wins it.
    """
    wanted = {c.id: c for c in claimable_runs(conn, host, limit=limit) if accept(c)}
    if not wanted:
        return None
    now = utcnow()
    waiting, free = _claimable(now, host)
    pick = (
        select(RUNS.c.id, RUNS.c.status, RUNS.c.lease_owner)
        .where(RUNS.c.id.in_(list(wanted)), waiting, free)
        .order_by(RUNS.c.priority.desc(), RUNS.c.id)
    )
    postgres = conn.dialect.name == "postgresql"
    if postgres:
        pick = pick.limit(1).with_for_update(skip_locked=True)
    for run_id, status, lease_owner in conn.execute(pick).all():
        if lease_owner != wanted[run_id].lease_owner:
            continue  # its lease changed hands since we looked: not the run we accepted
        held = RUNS.c.lease_owner
        same = held.is_(None) if lease_owner is None else held == lease_owner
        taken = conn.execute(
            update(RUNS)
            .where(RUNS.c.id == run_id, RUNS.c.status == status, same)
            .values(lease_owner=owner, lease_expires_at=now + timedelta(seconds=ttl_seconds), queued=True)
        )  # a run a worker took is the workers' from now on: interrupted, another worker goes on with it
        if taken.rowcount == 1:
            return wanted[run_id]
    return None


def notify(conn: Connection, payload: str = "") -> None:
    """Wake the idle workers (PostgreSQL ``NOTIFY``, delivered when this transaction commits)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload})


# -- the worker registry ------------------------------------------------------------------------------------


def register_worker(conn: Connection, worker_id: str, host: str, pid: int, capabilities: Sequence[str]) -> None:
    """Record a worker (again: a restarted registration replaces its row)."""
    conn.execute(delete(WORKERS).where(WORKERS.c.id == worker_id))
    now = utcnow()
    conn.execute(
        insert(WORKERS).values(
            id=worker_id, host=host, pid=pid, capabilities=sorted(capabilities), started_at=now, heartbeat_at=now
        )
    )


def beat_worker(conn: Connection, worker_id: str) -> None:
    """The worker is alive now."""
    conn.execute(update(WORKERS).where(WORKERS.c.id == worker_id).values(heartbeat_at=utcnow()))


def unregister_worker(conn: Connection, worker_id: str) -> None:
    """A worker that stopped cleanly leaves the registry."""
    conn.execute(delete(WORKERS).where(WORKERS.c.id == worker_id))


def list_workers(conn: Connection, lost_after: float) -> list[dict[str, Any]]:
    """Every registered worker as SPEC §10's object; ``lost`` when silent for ``lost_after`` seconds."""
    now = utcnow()
    held: dict[str, list[int]] = {}
    rows = list(conn.execute(select(WORKERS).order_by(WORKERS.c.started_at, WORKERS.c.id)))
    if rows:
        owners = [r.id for r in rows]
        query = select(RUNS.c.id, RUNS.c.lease_owner).where(RUNS.c.lease_owner.in_(owners)).order_by(RUNS.c.id)
        for run_id, owner in conn.execute(query):
            held.setdefault(owner, []).append(run_id)
    return [
        {
            "id": r.id,
            "host": r.host,
            "pid": r.pid,
            "started_at": r.started_at.isoformat(),
            "heartbeat_at": r.heartbeat_at.isoformat(),
            "capabilities": list(r.capabilities or []),
            "runs": held.get(r.id, []),
            "state": "live" if (now - r.heartbeat_at).total_seconds() <= lost_after else "lost",
        }
        for r in rows
    ]


def live_capabilities(conn: Connection, lost_after: float) -> list[set[str]]:
    """What each live worker offers."""
    since = utcnow() - timedelta(seconds=lost_after)
    return [
        set(caps or ())
        for (caps,) in conn.execute(select(WORKERS.c.capabilities).where(WORKERS.c.heartbeat_at >= since))
    ]
