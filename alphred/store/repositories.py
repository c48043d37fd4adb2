"""The repository registry (``repositories`` table): named repositories that runs can be made in.

Functions over an open connection (``with store.engine.begin() as conn:``), so that callers choose the
transaction. A repository has a local ``path`` (registered from a working tree, or where a URL was cloned
to) and/or a ``remote_url`` (cloned on first use); ``clone_status`` tracks that clone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from alphred.errors import RepositoryExistsError, RepositoryRegistryError
from alphred.store.schema import REPOSITORIES

CLONE_STATUSES = ("pending", "cloning", "cloned", "failed")
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
"""A registered name: also a directory name under ``~/.alphred/repos/``."""


@dataclass(frozen=True)
class RepositoryRecord:
    """One registered repository."""

    id: int
    name: str
    path: str | None
    remote_url: str | None
    branch_template: str | None
    clone_status: str
    created_at: datetime

    @property
    def location(self) -> str:
        """The URL it comes from, else its path."""
        return self.remote_url or self.path or ""

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object (``repo list --json``)."""
        return {
            "name": self.name,
            "path": self.path,
            "remote_url": self.remote_url,
            "branch_template": self.branch_template,
            "clone_status": self.clone_status,
            "created_at": self.created_at.isoformat().replace("+00:00", "Z"),
        }


def check_repository_name(name: str) -> str:
    """Return ``name`` if it is a valid registered name, else raise ``RepositoryRegistryError``."""
    if not NAME_PATTERN.fullmatch(name):
        raise RepositoryRegistryError(
            f"invalid repository name '{name}': use letters, digits, '.', '_' and '-', starting with a letter or digit"
        )
    return name


def add_repository(
    conn: Connection,
    name: str,
    *,
    path: str | None = None,
    remote_url: str | None = None,
    branch_template: str | None = None,
) -> RepositoryRecord:
    """Register a repository (a local path, or a URL to clone on first use); names are unique."""
    check_repository_name(name)
    if (path is None) == (remote_url is None):
        raise RepositoryRegistryError("a repository is registered with exactly one of a path or a URL")
    existing = get_repository(conn, name)
    if existing is not None:
        raise RepositoryExistsError(name, existing.location)
    values = {
        "name": name,
        "path": path,
        "remote_url": remote_url,
        "branch_template": branch_template or None,
        "clone_status": "cloned" if remote_url is None else "pending",
    }
    try:
        conn.execute(insert(REPOSITORIES).values(**values))
    except IntegrityError:  # a concurrent `repo add` of the same name won the race
        raise RepositoryExistsError(name, path or remote_url or "") from None
    record = get_repository(conn, name)
    assert record is not None
    return record


def get_repository(conn: Connection, name: str) -> RepositoryRecord | None:
    """The repository registered as ``name``, or None."""
    row = conn.execute(select(REPOSITORIES).where(REPOSITORIES.c.name == name)).first()
    return None if row is None else _record(row)


def find_repository_by_path(conn: Connection, path: str) -> RepositoryRecord | None:
    """The repository whose local path is ``path`` (the first registered), or None."""
    query = select(REPOSITORIES).where(REPOSITORIES.c.path == path).order_by(REPOSITORIES.c.id)
    row = conn.execute(query).first()
    return None if row is None else _record(row)


def list_repositories(conn: Connection) -> list[RepositoryRecord]:
    """Every registered repository, by name."""
    return [_record(row) for row in conn.execute(select(REPOSITORIES).order_by(REPOSITORIES.c.name))]


def remove_repository(conn: Connection, name: str) -> RepositoryRecord | None:
    """Unregister ``name`` (its files, and any clone, stay); the removed record, or None if unknown."""
    record = get_repository(conn, name)
    if record is not None:
        conn.execute(delete(REPOSITORIES).where(REPOSITORIES.c.name == name))
    return record


def set_clone_status(conn: Connection, name: str, status: str, *, path: str | None = None) -> None:
    """Record the clone status of ``name`` (and where the clone lives, when given)."""
    if status not in CLONE_STATUSES:
        raise ValueError(f"unknown clone status {status!r}")
    values: dict[str, Any] = {"clone_status": status}
    if path is not None:
        values["path"] = path
    conn.execute(update(REPOSITORIES).where(REPOSITORIES.c.name == name).values(**values))


def _record(row: Row[Any]) -> RepositoryRecord:
    m = row._mapping
    return RepositoryRecord(
        id=m["id"],
        name=m["name"],
        path=m["path"],
        remote_url=m["remote_url"],
        branch_template=m["branch_template"],
        clone_status=m["clone_status"],
        created_at=m["created_at"],
    )
