"""A locked, corrupt or unreachable database as Alphred's errors, from the driver's message (no SQLAlchemy:
the light SQLite reader of the read commands uses it too)."""

from __future__ import annotations

from alphred.errors import DatabaseCorruptError, DatabaseLockedError, StoreError

LOCKED = ("database is locked", "database table is locked")
CORRUPT = (
    "file is not a database",
    "database disk image is malformed",
    "malformed database schema",
    "malformed",
    "database corrupt",
)


def translate_error(error: BaseException | None, url: str, busy_timeout: float, *, connecting: bool = False) -> None:
    """Raise the Alphred error for a locked, corrupt or unreachable database; return for anything else."""
    if error is None:
        return
    text = str(error)
    lowered = text.lower()
    if any(marker in lowered for marker in LOCKED):
        raise DatabaseLockedError(url, busy_timeout) from error
    if any(marker in lowered for marker in CORRUPT):
        raise DatabaseCorruptError(url, text) from error
    if connecting or "unable to open database file" in lowered:
        detail = text.strip().splitlines()[0] if text.strip() else type(error).__name__
        raise StoreError(f"cannot open database {url}: {detail}") from error
