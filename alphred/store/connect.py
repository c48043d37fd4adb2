"""Open a SQLAlchemy engine for any URL, with Alphred's SQLite settings and database error mapping.

SQLite: WAL journal, ``foreign_keys=ON``, ``synchronous=NORMAL``, a busy timeout (10 s, or
``ALPHRED_DB_BUSY_TIMEOUT`` seconds), and write transactions that start with ``BEGIN IMMEDIATE`` so that two
writers queue on the busy timeout instead of failing on a lock upgrade. Connections carrying the
``READ_ONLY`` execution option begin a plain deferred transaction. PostgreSQL URLs without a driver use
psycopg 3.
"""

from __future__ import annotations

import os
import time
import weakref
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, Connection, ExceptionContext, make_url
from sqlalchemy.pool import ConnectionPoolEntry

from alphred.errors import DatabaseCorruptError, DatabaseLockedError, StoreError
from alphred.settings import seconds_setting

BUSY_TIMEOUT_ENV = "ALPHRED_DB_BUSY_TIMEOUT"
DEFAULT_BUSY_TIMEOUT = 10.0
READ_ONLY = "alphred_read_only"
"""Execution option: begin a deferred (read) transaction instead of ``BEGIN IMMEDIATE`` on SQLite."""

_CONFIGURED: weakref.WeakKeyDictionary[Engine, float] = weakref.WeakKeyDictionary()
_LOCKED = ("database is locked", "database table is locked")
_CORRUPT = ("file is not a database", "database disk image is malformed", "malformed database schema")


def busy_timeout_seconds(value: float | None = None) -> float:
    """The busy timeout to use: ``value`` if given, else ``ALPHRED_DB_BUSY_TIMEOUT``, else 10 s."""
    if value is not None:
        return max(float(value), 0.0)
    return seconds_setting(os.environ, BUSY_TIMEOUT_ENV, DEFAULT_BUSY_TIMEOUT)  # SettingError: nan, inf, text


def normalize_url(url: str | URL) -> URL:
    """Parse ``url``; a PostgreSQL URL without a driver gets psycopg 3."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def display_url(url: str | URL) -> str:
    """``url`` as text with any password hidden, for messages."""
    return make_url(url).render_as_string(hide_password=True)


def sqlite_file(url: str | URL) -> Path | None:
    """The database file of a SQLite URL; None for other databases and for in-memory SQLite."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if database in ("", ":memory:") or database.startswith("file:") or parsed.query.get("uri"):
        return None
    return Path(database)


def open_engine(url: str | URL, *, busy_timeout: float | None = None) -> Engine:
    """Create an engine for ``url`` with Alphred's settings (creating a SQLite file's parent directory)."""
    parsed = normalize_url(url)
    timeout = busy_timeout_seconds(busy_timeout)
    path = sqlite_file(parsed)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the directory of database {display_url(parsed)}: {exc}") from exc
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(parsed, connect_args={"timeout": timeout})
    else:
        engine = create_engine(parsed, pool_pre_ping=True)
    return configure_engine(engine, busy_timeout=timeout)


def configure_engine(engine: Engine, *, busy_timeout: float | None = None) -> Engine:
    """Attach Alphred's connection settings and error mapping to ``engine`` (once; later calls are no-ops)."""
    if engine in _CONFIGURED:
        return engine
    timeout = busy_timeout_seconds(busy_timeout)
    _CONFIGURED[engine] = timeout
    shown = display_url(engine.url)
    if engine.dialect.name == "sqlite":
        memory = sqlite_file(engine.url) is None

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
            dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (see _on_begin)
            cursor = dbapi_connection.cursor()
            try:
                cursor.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
                cursor.execute("PRAGMA foreign_keys = ON")
                if not memory:
                    _journal_wal(cursor, timeout)
                cursor.execute("PRAGMA synchronous = NORMAL")
            finally:
                cursor.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            read_only = conn.get_execution_options().get(READ_ONLY, False)
            conn.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")

    @event.listens_for(engine, "handle_error")
    def _on_error(context: ExceptionContext) -> None:
        if context.is_pre_ping:  # the pool recovers from a dead pooled connection by itself
            return
        translate_error(context.original_exception, shown, timeout, connecting=context.connection is None)

    return engine


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


def translate_error(error: BaseException | None, url: str, busy_timeout: float, *, connecting: bool = False) -> None:
    """Raise the Alphred error for a locked, corrupt or unreachable database; return for anything else."""
    if error is None:
        return
    text = str(error)
    lowered = text.lower()
    if any(marker in lowered for marker in _LOCKED):
        raise DatabaseLockedError(url, busy_timeout) from error
    if any(marker in lowered for marker in _CORRUPT):
        raise DatabaseCorruptError(url, text) from error
    if connecting or "unable to open database file" in lowered:
        detail = text.strip().splitlines()[0] if text.strip() else type(error).__name__
        raise StoreError(f"cannot open database {url}: {detail}") from error
