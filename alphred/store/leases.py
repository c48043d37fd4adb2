"""Leases on runs and phases: which process may execute them, until when (renewed by heartbeat)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Integer, Table, Text, Update, bindparam, or_, select, update
from sqlalchemy.engine import Connection

from alphred.errors import UnknownRunError
from alphred.store.columns import utcnow
from alphred.store.runs import NODES, RUNS


def _lease_statements(source: Table, where: tuple[Any, ...]) -> dict[str, Update]:
    """The lease UPDATEs of one table, built once (bound: ``_owner``, ``_now``, ``_steal``, ``_expires``)."""
    owners, expiry = source.c.lease_owner, source.c.lease_expires_at
    owner = bindparam("_owner", type_=owners.type)
    expires = bindparam("_expires", type_=expiry.type)
    free = (owners.is_(None), owners == owner, expiry < bindparam("_now", type_=expiry.type))
    take: dict[str, Any] = {"lease_owner": owner, "lease_expires_at": expires}
    held = (*where, owners == owner)
    return {
        "acquire": update(source).where(*where, or_(*free)).values(take),
        "steal": update(source)
        .where(*where, or_(*free, owners == bindparam("_steal", type_=owners.type)))
        .values(take),
        "renew": update(source).where(*held).values(lease_expires_at=expires),
        "release": update(source).where(*held).values(lease_owner=None, lease_expires_at=None),
    }


_STATEMENTS = {
    "run": _lease_statements(RUNS, (RUNS.c.id == bindparam("_run_id", type_=Integer),)),
    "node": _lease_statements(
        NODES,
        (NODES.c.run_id == bindparam("_run_id", type_=Integer), NODES.c.node_key == bindparam("_key", type_=Text)),
    ),
}


def _params(run_id: int, node_key: str | None, **values: Any) -> dict[str, Any]:
    params = {"_run_id": run_id, **values}
    if node_key is not None:
        params["_key"] = node_key
    return params


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
        now = now or utcnow()
        statements = _STATEMENTS["run" if node_key is None else "node"]
        params = _params(run_id, node_key, _owner=owner, _now=now, _expires=now + timedelta(seconds=ttl_seconds))
        if steal_from is not None:
            params["_steal"] = steal_from
        statement = statements["acquire" if steal_from is None else "steal"]
        if self._conn.execute(statement, params).rowcount == 1:
            return True
        source, where = self._lease_target(run_id, node_key)
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
        expires = (now or utcnow()) + timedelta(seconds=ttl_seconds)
        statement = _STATEMENTS["run" if node_key is None else "node"]["renew"]
        return self._conn.execute(statement, _params(run_id, node_key, _owner=owner, _expires=expires)).rowcount == 1

    def release_lease(self, run_id: int, owner: str, *, node_key: str | None = None) -> bool:
        """Give up ``owner``'s lease; False when ``owner`` did not hold it."""
        statement = _STATEMENTS["run" if node_key is None else "node"]["release"]
        return self._conn.execute(statement, _params(run_id, node_key, _owner=owner)).rowcount == 1
