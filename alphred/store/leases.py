"""Leases on runs and phases: which process may execute them, until when (renewed by heartbeat)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Integer, Table, Text, Update, bindparam, or_, select, update
from sqlalchemy.engine import Connection

from alphred.errors import UnknownRunError
from alphred.store.columns import utcnow
from alphred.store.enums import NodeStatus
from alphred.store.prepared import named
from alphred.store.runs import NODES, RUN_FIELDS, RUNS, RunOps, checked_fields


def _lease_statements(kind: str, source: Table, where: tuple[Any, ...]) -> dict[str, Update]:
    """The lease UPDATEs of one table, built once (bound: ``_owner``, ``_now``, ``_steal``, ``_expires``)."""
    owners, expiry = source.c.lease_owner, source.c.lease_expires_at
    owner = bindparam("_owner", type_=owners.type)
    expires = bindparam("_expires", type_=expiry.type)
    free = (owners.is_(None), owners == owner, expiry < bindparam("_now", type_=expiry.type))
    take: dict[str, Any] = {"lease_owner": owner, "lease_expires_at": expires}
    held = (*where, owners == owner)
    statements = {
        "acquire": update(source).where(*where, or_(*free)).values(take),
        "steal": update(source)
        .where(*where, or_(*free, owners == bindparam("_steal", type_=owners.type)))
        .values(take),
        "renew": update(source).where(*held).values(lease_expires_at=expires),
        "release": update(source).where(*held).values(lease_owner=None, lease_expires_at=None),
    }
    return {name: named(f"leases.{kind}.{name}", statement) for name, statement in statements.items()}


_STATEMENTS = {
    "run": _lease_statements("run", RUNS, (RUNS.c.id == bindparam("_run_id", type_=Integer),)),
    "node": _lease_statements(
        "node",
        NODES,
        (NODES.c.run_id == bindparam("_run_id", type_=Integer), NODES.c.node_key == bindparam("_key", type_=Text)),
    ),
}


def _params(run_id: int, node_key: str | None, **values: Any) -> dict[str, Any]:
    params = {"_run_id": run_id, **values}
    if node_key is not None:
        params["_key"] = node_key
    return params


_LEASED_RUN = named(  # a runner's write to its own run, fenced by its lease; the flags other processes set come back
    "leases.leased_run",
    update(RUNS)
    .where(RUNS.c.id == bindparam("_run_id", type_=Integer), RUNS.c.lease_owner == bindparam("_owner", type_=Text))
    .returning(RUNS.c.pause_requested, RUNS.c.cancel_requested),
)
_REQUESTS = select(RUNS.c.pause_requested, RUNS.c.cancel_requested).where(RUNS.c.id == bindparam("_run_id"))


class LeaseOps(RunOps):
    """Conditional lease updates on ``workflow_runs`` (``node_key=None``) or ``run_nodes`` rows, and the writes
    a lease fences (a runner's own run row, a phase it starts)."""

    _conn: Connection

    def renew_run(self, /, run_id: int, owner: str, ttl_seconds: float, **fields: Any) -> tuple[bool, bool] | None:
        """Renew ``owner``'s lease on run ``run_id`` and set ``fields`` (as ``update_run``) in one statement,
        fenced by that lease; the run's ``(pause_requested, cancel_requested)`` flags as they stand after it
        (another process sets them), or None (nothing written) when ``owner`` no longer holds the lease."""
        values = checked_fields(fields, RUN_FIELDS, "run")
        now = utcnow()
        if not self._conn.dialect.update_returning:  # the portable way: three statements
            if not self.renew_lease(run_id, owner, ttl_seconds, now=now):
                return None
            self.update_run(run_id, **values)
            flags = self._conn.execute(_REQUESTS, {"_run_id": run_id}).one()
            return bool(flags[0]), bool(flags[1])
        values.update(lease_expires_at=now + timedelta(seconds=ttl_seconds), updated_at=now)
        row = self._writes.first(_LEASED_RUN, {**values, "_run_id": run_id, "_owner": owner})
        return None if row is None else (bool(row[0]), bool(row[1]))

    def start_node(
        self, /, run_id: int, node_key: str, owner: str, ttl_seconds: float, *, via: str | None = None, **fields: Any
    ) -> int | None:
        """Move a phase to ``running`` (``move_node``) and take its lease for ``owner`` (``acquire_lease``), in
        one statement where the dialect allows; None (nothing written) while another live owner holds it."""

        def acquire() -> bool:
            return self.acquire_lease(run_id, owner, ttl_seconds, node_key=node_key)

        lease = (owner, ttl_seconds)
        return self._move(run_id, node_key, NodeStatus.RUNNING.value, via, lease, fields, acquire)

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
        if self._writes.rowcount(statement, params) == 1:
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
        return self._writes.rowcount(statement, _params(run_id, node_key, _owner=owner, _expires=expires)) == 1

    def release_lease(self, run_id: int, owner: str, *, node_key: str | None = None) -> bool:
        """Give up ``owner``'s lease; False when ``owner`` did not hold it."""
        statement = _STATEMENTS["run" if node_key is None else "node"]["release"]
        return self._writes.rowcount(statement, _params(run_id, node_key, _owner=owner)) == 1
