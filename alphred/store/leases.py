"""Leases on runs and phases: which process may execute them, until when (renewed by heartbeat)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Table, or_, select, update
from sqlalchemy.engine import Connection

from alphred.errors import UnknownRunError
from alphred.store.columns import utcnow
from alphred.store.runs import NODES, RUNS


class LeaseOps:
    """Conditional lease updates on ``workflow_runs`` (``node_key=None``) or ``run_nodes`` rows."""

    _conn: Connection

    def _lease_target(self, run_id: int, node_key: str | None) -> tuple[Table, tuple[Any, ...]]:
        if node_key is None:
            return RUNS, (RUNS.c.id == run_id,)
        return NODES, (NODES.c.run_id == run_id, NODES.c.node_key == node_key)

    def _lease_missing(self, source: Table, where: tuple[Any, ...], run_id: int, node_key: str | None) -> None:
        if self._conn.execute(select(source.c.id).where(*where)).first() is None:
            if node_key is None:
                raise UnknownRunError(run_id)
            raise KeyError(f"run {run_id} has no phase {node_key!r}")

    def acquire_lease(
        self,
        run_id: int,
        owner: str,
        ttl_seconds: float,
        *,
        node_key: str | None = None,
        steal_from: str | None = None,
        now: datetime | None = None,
    ) -> bool:
        """Lease the run (or one of its phases) to ``owner``; False while someone else holds a live lease.

        A lease is free when unheld, held by ``owner``, expired, or held by ``steal_from`` (a dead owner).
        """
        source, where = self._lease_target(run_id, node_key)
        now = now or utcnow()
        owners = source.c.lease_owner
        free = [owners.is_(None), owners == owner, source.c.lease_expires_at < now]
        if steal_from is not None:
            free.append(owners == steal_from)
        statement = (
            update(source)
            .where(*where, or_(*free))
            .values(lease_owner=owner, lease_expires_at=now + timedelta(seconds=ttl_seconds))
        )
        if self._conn.execute(statement).rowcount == 1:
            return True
        self._lease_missing(source, where, run_id, node_key)
        return False

    def renew_lease(
        self,
        run_id: int,
        owner: str,
        ttl_seconds: float,
        *,
        node_key: str | None = None,
        now: datetime | None = None,
    ) -> bool:
        """Extend ``owner``'s lease; False when ``owner`` no longer holds it."""
        source, where = self._lease_target(run_id, node_key)
        expires = (now or utcnow()) + timedelta(seconds=ttl_seconds)
        statement = update(source).where(*where, source.c.lease_owner == owner).values(lease_expires_at=expires)
        return self._conn.execute(statement).rowcount == 1

    def release_lease(self, run_id: int, owner: str, *, node_key: str | None = None) -> bool:
        """Give up ``owner``'s lease; False when ``owner`` did not hold it."""
        source, where = self._lease_target(run_id, node_key)
        statement = (
            update(source).where(*where, source.c.lease_owner == owner).values(lease_owner=None, lease_expires_at=None)
        )
        return self._conn.execute(statement).rowcount == 1
