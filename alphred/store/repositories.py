"""The repository registry (``repositories`` table): named repositories that runs can be made in.

A repository has a local ``path`` (registered from a working tree, or where a URL was cloned to) and/or a
``remote_url`` (cloned on first use); ``clone_status`` tracks that clone. The methods run in the caller's
transaction (``store.transaction()``/``store.reading()``), or alone through the store's wrappers.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from alphred.errors import RepositoryExistsError, RepositoryRegistryError
from alphred.store import schema
from alphred.store.records import check_repository_name
from alphred.store.rows import RowReader

if TYPE_CHECKING:
    from alphred.store.read_records import RepositoryRecord

CLONE_STATUSES = ("pending", "cloning", "cloned", "failed")


@functools.cache
def _repository() -> RowReader[RepositoryRecord]:
    """The reader of registered repositories (their record is loaded on first use, off a run's start path)."""
    from alphred.store.read_records import RepositoryRecord

    return RowReader(RepositoryRecord)


class RepositoryOps:
    """Reads and writes of the repository registry on the transaction's connection."""

    _conn: Connection

    def add_repository(
        self,
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
        existing = self.get_repository(name)
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
            self._conn.execute(insert(schema.REPOSITORIES).values(**values))
        except IntegrityError:  # a concurrent `repo add` of the same name won the race
            raise RepositoryExistsError(name, path or remote_url or "") from None
        record = self.get_repository(name)
        assert record is not None
        return record

    def get_repository(self, name: str) -> RepositoryRecord | None:
        """The repository registered as ``name``, or None."""
        row = self._conn.execute(select(schema.REPOSITORIES).where(schema.REPOSITORIES.c.name == name)).first()
        return None if row is None else _repository()(row)

    def find_repository_by_path(self, path: str) -> RepositoryRecord | None:
        """The repository whose local path is ``path`` (the first registered), or None."""
        query = select(schema.REPOSITORIES).where(schema.REPOSITORIES.c.path == path).order_by(schema.REPOSITORIES.c.id)
        row = self._conn.execute(query).first()
        return None if row is None else _repository()(row)

    def list_repositories(self) -> list[RepositoryRecord]:
        """Every registered repository, by name."""
        query = select(schema.REPOSITORIES).order_by(schema.REPOSITORIES.c.name)
        return [_repository()(row) for row in self._conn.execute(query)]

    def remove_repository(self, name: str) -> RepositoryRecord | None:
        """Unregister ``name`` (its files, and any clone, stay); the removed record, or None if unknown."""
        record = self.get_repository(name)
        if record is not None:
            self._conn.execute(delete(schema.REPOSITORIES).where(schema.REPOSITORIES.c.name == name))
        return record

    def set_clone_status(self, name: str, status: str, *, path: str | None = None) -> None:
        """Record the clone status of ``name`` (and where the clone lives, when given)."""
        if status not in CLONE_STATUSES:
            raise ValueError(f"unknown clone status {status!r}")
        values: dict[str, Any] = {"clone_status": status}
        if path is not None:
            values["path"] = path
        self._conn.execute(update(schema.REPOSITORIES).where(schema.REPOSITORIES.c.name == name).values(**values))
