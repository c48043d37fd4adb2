"""Where things live: the repository, its ``.alphred/`` directory and the default database URL."""

from __future__ import annotations

from pathlib import Path

from alphred.git.location import RepoLocation, ensure_alphred_dir, locate_repository

DB_FILE = "alphred.db"


def default_db_url(location: RepoLocation) -> str:
    """SQLite at ``.alphred/alphred.db`` in the root of the main working tree."""
    return f"sqlite:///{location.alphred_dir / DB_FILE}"


def resolve_for_write(repo: str | None, db: str | None) -> tuple[RepoLocation, str]:
    """Locate the repository, create ``.alphred/`` (excluded from git) and pick the database URL."""
    location = locate_repository(repo)
    ensure_alphred_dir(location)
    return location, db or default_db_url(location)


def resolve_for_read(repo: str | None, db: str | None) -> str:
    """The database URL for read commands; creates nothing."""
    if db:
        return db
    return default_db_url(locate_repository(Path(repo) if repo else None))
