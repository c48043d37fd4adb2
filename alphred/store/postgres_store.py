"""``PostgresRunStore``: the store on PostgreSQL (psycopg 3), and how PostgreSQL locks and notifies.

Several workers share one PostgreSQL database. A claim locks its candidate row ``FOR UPDATE SKIP LOCKED``
(one row: a concurrent worker skips it and moves on to the next run) before the compare-and-set
``UPDATE`` takes the lease; status moves lock their row ``FOR UPDATE``. A submit (or a detached request)
wakes the idle workers with ``NOTIFY`` on ``CHANNEL``, delivered when its transaction commits; a worker
waits on its own ``LISTEN`` connection (``notifications``), outside the engine's pool.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Select, text

from alphred.store.sql_store import Notifications, SqlRunStore, StoreTransaction

CHANNEL = "alphred_runs"
"""The ``NOTIFY`` channel a submit (or a detached request) signals idle workers on, in the ``public`` schema;
a store in another schema (``search_path``) has its own (``channel_for``): notifications are database-wide,
and two stores in one database must not wake each other's workers."""

_NOTIFY = text("SELECT pg_notify(:channel, :payload)")
_SCHEMA = text("SELECT current_schema()")


def channel_for(schema: str | None) -> str:
    """The ``NOTIFY`` channel of the store in ``schema`` (at most 63 bytes, PostgreSQL's limit)."""
    if not schema or schema == "public":
        return CHANNEL
    name = f"{CHANNEL}:{schema}"
    if len(name.encode()) <= 63:
        return name
    return f"{CHANNEL}:{hashlib.sha256(schema.encode()).hexdigest()[:40]}"


class PostgresTransaction(StoreTransaction):
    """A transaction on PostgreSQL."""

    def _lock_claim(self, pick: Select[Any]) -> Select[Any]:
        """Lock the first claimable candidate, skipping rows another worker has locked."""
        return pick.limit(1).with_for_update(skip_locked=True)

    def notify_workers(self, payload: str = "") -> None:
        """Wake the idle workers (``NOTIFY``, delivered when this transaction commits)."""
        schema = self._conn.execute(_SCHEMA).scalar()
        self._conn.execute(_NOTIFY, {"channel": channel_for(schema), "payload": payload})


class PostgresNotifications(Notifications):
    """A ``LISTEN`` connection of its own (psycopg, autocommit), for one waiting thread."""

    def __init__(self, connection: Any) -> None:
        self._connection = connection

    def wait_for_notify(self, timeout: float) -> bool:
        """True once a ``NOTIFY`` on ``CHANNEL`` arrived within ``timeout`` seconds."""
        for _ in self._connection.notifies(timeout=timeout, stop_after=1):
            return True
        return False


class PostgresRunStore(SqlRunStore):
    """The store on a PostgreSQL database."""

    backend = "postgresql"
    transaction_class = PostgresTransaction
    notifies = True

    @contextmanager
    def notifications(self) -> Iterator[Notifications]:
        """Listen on ``CHANNEL`` on a connection of its own until the block ends."""
        import psycopg

        url = self._engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(url, autocommit=True) as connection:
            row = connection.execute("SELECT current_schema()").fetchone()
            channel = channel_for(row[0] if row else None).replace('"', '""')
            connection.execute(f'LISTEN "{channel}"')
            yield PostgresNotifications(connection)
