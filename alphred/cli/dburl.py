"""``--db`` URLs checked before anything else runs: a clear ``BAD_DATABASE_URL`` instead of a crash later."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from alphred.errors import DatabaseUrlError

_PASSWORD = re.compile(r"(//[^/:@]*:)[^/@]*@")
USAGE = "use sqlite:///PATH or postgresql://USER@HOST/DB"


def check_db_url(value: str | None) -> str | None:
    """``value`` unchanged when it is a SQLite or PostgreSQL URL Alphred can use; DatabaseUrlError otherwise."""
    if value is None or not value.strip():
        return None
    shown = _PASSWORD.sub(r"\1***@", value)[:200]
    if "\x00" in value or "%00" in value:
        raise DatabaseUrlError(shown.replace("\x00", "\\0"), "contains a NUL byte")
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        url = make_url(value)
    except (ArgumentError, ValueError, TypeError):
        raise DatabaseUrlError(shown, f"not a database URL ({USAGE})") from None
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
        if database and database != ":memory:" and not database.startswith("file:"):
            path = Path(database)
            if path.exists() and not path.is_file():
                raise DatabaseUrlError(shown, f"{database} is not a regular file")
    else:
        raise DatabaseUrlError(shown, f"unsupported database '{backend}': Alphred stores runs in SQLite or PostgreSQL")
    return value


def db_url_callback(ctx: Any, param: Any, value: str | None) -> str | None:
    """click callback for ``--db`` options."""
    return check_db_url(value)
