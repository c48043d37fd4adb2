"""``--db`` URLs checked before anything else runs: a clear ``BAD_DATABASE_URL`` instead of a crash later."""

from __future__ import annotations

from typing import Any


def check_db_url(value: str | None) -> str | None:
    """``value`` unchanged when it is a SQLite or PostgreSQL URL Alphred can use; DatabaseUrlError otherwise."""
    if value is None or not value.strip():
        return None
    from alphred.store import check_database_url  # the store knows its URLs (and loads SQLAlchemy for them)

    return check_database_url(value)


def db_url_callback(ctx: Any, param: Any, value: str | None) -> str | None:
    """click callback for ``--db`` options."""
    return check_db_url(value)
