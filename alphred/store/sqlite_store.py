"""``SqliteRunStore``: the store on a SQLite file, and how SQLite locks.

SQLite has one writer at a time. Connections run with a WAL journal (readers never wait for the writer),
``foreign_keys=ON``, ``synchronous=NORMAL`` and a busy timeout (10 s, or ``ALPHRED_DB_BUSY_TIMEOUT``
seconds); write transactions start with ``BEGIN IMMEDIATE``, so two writers queue on the busy timeout
instead of failing a lock upgrade, while read transactions (the ``READ_ONLY`` option of
``store.reading()``) begin deferred. ``SELECT ... FOR UPDATE`` does not exist here: the write lock taken at
``BEGIN IMMEDIATE`` already serialises every status move, and a worker's claim is decided by the
compare-and-set ``UPDATE`` alone. SQLite cannot notify: workers poll. The per-phase writes go to the
driver's cursor as statements SQLAlchemy compiled once (``prepared.py``), provider events to its
``executemany`` (``event_rows.insert_sqlite_events``), ``BEGIN`` to the driver too.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, Connection
from sqlalchemy.pool import ConnectionPoolEntry

from alphred.errors import StoreError
from alphred.store.columns import stored_json
from alphred.store.connect import READ_ONLY, display_url, sqlite_file
from alphred.store.event_rows import insert_sqlite_events
from alphred.store.prepared import execute_text
from alphred.store.records import EventRow
from alphred.store.sql_store import SqlRunStore, StoreTransaction


class SqliteTransaction(StoreTransaction):
    """A transaction on SQLite: its hot writes on the driver's cursor (``prepared.py``)."""

    driver_writes = True

    def _insert_events(self, rows: Iterable[EventRow | Mapping[str, Any]]) -> int:
        """Insert provider events with the driver's own ``executemany`` (``insert_sqlite_events``)."""
        return insert_sqlite_events(self._writes, rows)

    def begin_writes(self) -> None:
        """``BEGIN IMMEDIATE`` on the driver (``Writes.begin``): the write lock taken as it begins."""
        self._writes.begin("BEGIN IMMEDIATE")

    def end_writes(self, error: BaseException | None) -> None:
        """Commit on the driver, or roll back when the block raised ``error`` (``Writes.end``)."""
        self._writes.end(error is None)


class SqliteRunStore(SqlRunStore):
    """The store on a SQLite file (or in memory)."""

    backend = "sqlite"
    transaction_class = SqliteTransaction
    takes_json_text = True
    idle_connections = 4  # the run's writers at once: the persist, the heartbeat, the event sink, a command's group

    @classmethod
    def new_engine(cls, url: URL, busy_timeout: float) -> Engine:
        """An engine on the file of ``url`` (its directory created), waiting ``busy_timeout`` for locks."""
        path = sqlite_file(url)
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the directory of database {display_url(url)}: {exc}") from exc
        # the JSON columns' text as ``json.dumps`` makes it, by its C encoder made once (``json_text``), or the text
        # made already of a ``JsonText`` (a runner's state, ``state_text.py``)
        return create_engine(url, connect_args={"timeout": busy_timeout}, json_serializer=stored_json)

    @classmethod
    def prepare_engine(cls, engine: Engine, busy_timeout: float) -> None:
        """WAL, foreign keys, the busy timeout on every connection; ``BEGIN IMMEDIATE`` for writes."""
        memory = sqlite_file(engine.url) is None

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
            dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (see _on_begin)
            cursor = dbapi_connection.cursor()
            try:
                cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
                cursor.execute("PRAGMA foreign_keys = ON")
                if not memory:
                    _journal_wal(cursor, busy_timeout)
                cursor.execute("PRAGMA synchronous = NORMAL")
            finally:
                cursor.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            driver = conn.connection.dbapi_connection
            if driver is not None and driver.in_transaction:  # a store's write transaction, begun on the driver
                return  # (``SqliteTransaction.begin_writes``): SQLAlchemy's joins it
            read_only = conn.get_execution_options().get(READ_ONLY, False)
            execute_text(conn, "BEGIN" if read_only else "BEGIN IMMEDIATE")  # as ``exec_driver_sql``, cheaper

    @classmethod
    def may_exist(cls, url: URL) -> bool:
        """Only a file that is there (an in-memory database never exists before it is opened)."""
        path = sqlite_file(url)
        return path is not None and path.is_file()


def _journal_wal(cursor: Any, timeout: float) -> None:
    """Switch a SQLite file to WAL. On a new file another process may be creating the schema in rollback
    mode: the switch then meets a lock SQLite reports at once, without its busy handler (two processes each
    waiting for the other), so it is tried again until the busy timeout has passed."""
    import sqlite3

    deadline = time.monotonic() + timeout
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)
