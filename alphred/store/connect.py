"""Database URLs and errors, for every database: parsing and checking URLs, the busy timeout, and turning a
locked, corrupt or unreachable database into Alphred's errors.

What differs between databases — how an engine is created and configured, how claims lock, how workers
are woken — belongs to the store subclass of each (``sqlite_store.py``, ``postgres_store.py``).
PostgreSQL URLs without a driver use psycopg 3.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from sqlalchemy import Engine, event
from sqlalchemy.engine import URL, ExceptionContext, make_url
from sqlalchemy.exc import ArgumentError

from alphred.errors import DatabaseUrlError
from alphred.settings import seconds_setting
from alphred.store.db_errors import translate_error

BUSY_TIMEOUT_ENV = "ALPHRED_DB_BUSY_TIMEOUT"
DEFAULT_BUSY_TIMEOUT = 10.0
READ_ONLY = "alphred_read_only"
"""Execution option: begin a deferred (read) transaction instead of ``BEGIN IMMEDIATE`` on SQLite."""

_PASSWORD = re.compile(r"(//[^/:@]*:)[^/@]*@")
URL_USAGE = "use sqlite:///PATH or postgresql://USER@HOST/DB"


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


def absolute_database_url(url: str) -> str:
    """``url`` with a relative SQLite path made absolute (against the current directory), so that a process
    started elsewhere opens the same file; other URLs unchanged."""
    parsed = make_url(url)
    path = sqlite_file(parsed)
    if path is None or path.is_absolute():
        return url
    return parsed.set(database=str(path.resolve())).render_as_string(hide_password=False)


def check_database_url(value: str | None) -> str | None:
    """``value`` unchanged when it is a SQLite or PostgreSQL URL Alphred can use; DatabaseUrlError otherwise."""
    if value is None or not value.strip():
        return None
    shown = _PASSWORD.sub(r"\1***@", value)[:200]
    if "\x00" in value or "%00" in value:
        raise DatabaseUrlError(shown.replace("\x00", "\\0"), "contains a NUL byte")
    try:
        url = make_url(value)
    except (ArgumentError, ValueError, TypeError):
        raise DatabaseUrlError(shown, f"not a database URL ({URL_USAGE})") from None
    backend, _, driver = url.drivername.partition("+")
    if backend in ("postgresql", "postgres"):
        if driver not in ("", "psycopg"):
            raise DatabaseUrlError(
                shown, f"driver '{driver}' is not supported (use postgresql:// or postgresql+psycopg://)"
            )
    elif backend == "sqlite":
        if driver not in ("", "pysqlite"):
            raise DatabaseUrlError(shown, f"driver '{driver}' is not supported (use sqlite:///PATH)")
        database = url.database or ""
        if database in ("", ":memory:") or "mode=memory" in database or url.query.get("mode") == "memory":
            raise DatabaseUrlError(
                shown, "an in-memory database keeps nothing once the command ends: use sqlite:///PATH (a file)"
            )
        if not database.startswith("file:"):
            path = Path(database)
            if path.exists() and not path.is_file():
                raise DatabaseUrlError(shown, f"{database} is not a regular file")
    else:
        raise DatabaseUrlError(shown, f"unsupported database '{backend}': Alphred stores runs in SQLite or PostgreSQL")
    return value


def install_error_translation(engine: Engine, busy_timeout: float) -> None:
    """Turn the database errors ``engine`` meets into Alphred's (``translate_error``)."""
    shown = display_url(engine.url)

    @event.listens_for(engine, "handle_error")
    def _on_error(context: ExceptionContext) -> None:
        if context.is_pre_ping:  # the pool recovers from a dead pooled connection by itself
            return
        translate_error(context.original_exception, shown, busy_timeout, connecting=context.connection is None)
