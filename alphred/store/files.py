"""Files kept outside the branch (SPEC §17): a run's artifacts and memory, and memories across runs.

A file's content is a blob named by its sha256 (``file_blobs``), stored in pieces of at most CHUNK_BYTES
(``file_chunks``), so storing or reading a large file never holds it whole in memory, and the same content
is stored once however many runs and memories hold it. ``run_files`` names the files of a run's two areas
(``artifacts``: ``$ALPHRED_ARTIFACTS``, ``memory``: ``$ALPHRED_MEMORY``); ``memories`` and ``memory_files``
hold each memory (repository, workflow key, name) as the last completed run left it. ``use_memory`` copies a
memory into a new run's ``memory`` area, ``save_memory`` copies it back when the run completes: both are
row copies inside one transaction, so a save is atomic (the later completion wins) and never reads a file.
"""

from __future__ import annotations

import functools
import importlib
import zlib
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, delete, func, insert, select, text, update
from sqlalchemy.engine import Connection

from alphred.store import schema
from alphred.store.columns import utcnow
from alphred.store.rows import RowReader

if TYPE_CHECKING:
    from alphred.store.read_records import MemoryRecord, RunFileRecord

CHUNK_BYTES = 1 << 20
"""The largest piece of a blob stored in one row."""

AREAS = ("artifacts", "memory")

_INSERT_OR_NOTHING = ("sqlite", "postgresql")
"""Dialects with ``INSERT ... ON CONFLICT DO NOTHING`` (their module is loaded on first use: a SQLite run
never imports the PostgreSQL dialect)."""


@functools.cache
def _run_file() -> RowReader[RunFileRecord]:
    """The reader of run files (their record is loaded on first use, off a run's start path: issue 29)."""
    from alphred.store.read_records import RunFileRecord

    return RowReader(RunFileRecord)


def _insert_or_nothing(dialect: str) -> Any:
    """The dialect's own ``insert`` (with ``on_conflict_do_nothing``), None for a database without it."""
    if dialect not in _INSERT_OR_NOTHING:
        return None
    return importlib.import_module(f"sqlalchemy.dialects.{dialect}").insert


class FileOps:
    """Reads and writes of the stored files of runs and memories on the transaction's connection."""

    _conn: Connection

    # -- blobs ------------------------------------------------------------------------------------------

    def has_blob(self, sha256: str) -> bool:
        """Whether a content with this sha256 is stored."""
        found = self._conn.execute(
            select(schema.FILE_BLOBS.c.sha256).where(schema.FILE_BLOBS.c.sha256 == sha256)
        ).first()
        return found is not None

    def add_blob(self, sha256: str, size: int, chunks: Iterable[bytes]) -> bool:
        """Store a content (its pieces, in order) unless one with this sha256 is already; True when stored.

        Two transactions storing the same content at once: the second waits for the first and stores nothing.
        """
        values = {"sha256": sha256, "size": size, "created_at": utcnow()}
        upsert = _insert_or_nothing(self._conn.dialect.name)
        if upsert is not None:
            statement = (
                upsert(schema.FILE_BLOBS).values(values).on_conflict_do_nothing().returning(schema.FILE_BLOBS.c.sha256)
            )
            if self._conn.execute(statement).first() is None:  # (rowcount is not reliable here on every driver)
                return False
        else:  # pragma: no cover - other databases: look first
            if self.has_blob(sha256):
                return False
            self._conn.execute(insert(schema.FILE_BLOBS).values(values))
        for seq, data in enumerate(chunks):
            self._conn.execute(insert(schema.FILE_CHUNKS).values(sha256=sha256, seq=seq, data=data))
        return True

    def blob_chunks(self, sha256: str) -> Iterator[bytes]:
        """The pieces of a stored content, in order, one query each (memory stays flat)."""
        seq = 0
        while (data := self.blob_chunk(sha256, seq)) is not None:
            yield data
            seq += 1

    def blob_chunk(self, sha256: str, seq: int) -> bytes | None:
        """Piece number ``seq`` (from 0) of a stored content; None past its last."""
        query = select(schema.FILE_CHUNKS.c.data).where(
            schema.FILE_CHUNKS.c.sha256 == sha256, schema.FILE_CHUNKS.c.seq == seq
        )
        data = self._conn.execute(query).scalar()
        return None if data is None else bytes(data)

    # -- a run's files -----------------------------------------------------------------------------------

    def run_files(self, run_id: int, area: str | None = None) -> list[RunFileRecord]:
        """The stored files of a run (of one area, or both), by area and path."""
        query = select(schema.RUN_FILES).where(schema.RUN_FILES.c.run_id == run_id)
        if area is not None:
            query = query.where(schema.RUN_FILES.c.area == area)
        query = query.order_by(schema.RUN_FILES.c.area, schema.RUN_FILES.c.path)
        return [_run_file()(row) for row in self._conn.execute(query)]

    def put_run_file(
        self, run_id: int, area: str, path: str, sha256: str, size: int, mode: int, mtime_ns: int | None
    ) -> None:
        """Record that the run's file ``path`` of ``area`` holds the stored content ``sha256`` now."""
        where = and_(
            schema.RUN_FILES.c.run_id == run_id, schema.RUN_FILES.c.area == area, schema.RUN_FILES.c.path == path
        )
        values = {"sha256": sha256, "size": size, "mode": mode, "mtime_ns": mtime_ns, "updated_at": utcnow()}
        if self._conn.execute(update(schema.RUN_FILES).where(where).values(values)).rowcount == 0:
            self._conn.execute(insert(schema.RUN_FILES).values(run_id=run_id, area=area, path=path, **values))

    def remove_run_files(self, run_id: int, area: str, paths: Iterable[str]) -> int:
        """Forget the run's files ``paths`` of ``area`` (deleted from its directory); return how many."""
        removed = 0
        for path in paths:
            statement = delete(schema.RUN_FILES).where(
                schema.RUN_FILES.c.run_id == run_id, schema.RUN_FILES.c.area == area, schema.RUN_FILES.c.path == path
            )
            removed += int(self._conn.execute(statement).rowcount)
        return removed

    def run_files_size(self, run_id: int, area: str) -> int:
        """The total size of a run's stored files of ``area``."""
        query = select(func.coalesce(func.sum(schema.RUN_FILES.c.size), 0)).where(
            schema.RUN_FILES.c.run_id == run_id, schema.RUN_FILES.c.area == area
        )
        return int(self._conn.execute(query).scalar_one())

    # -- memories ------------------------------------------------------------------------------------------

    def use_memory(self, run_id: int, repository: str, tree_key: str, name: str) -> int | None:
        """Give a new run the memory (repository, workflow key, name) as its ``memory`` files; return the run
        that saved it (None: no memory yet)."""
        memory = self._memory_row(repository, tree_key, name)
        saved_by = memory.run_id if memory is not None else None
        self._conn.execute(
            insert(schema.RUN_MEMORIES).values(
                run_id=run_id, repository=repository, tree_key=tree_key, name=name, restored_from=saved_by
            )
        )
        if memory is not None:
            now = utcnow()
            for row in self._conn.execute(
                select(schema.MEMORY_FILES).where(schema.MEMORY_FILES.c.memory_id == memory.id)
            ):
                self._conn.execute(
                    insert(schema.RUN_FILES).values(
                        run_id=run_id,
                        area="memory",
                        path=row.path,
                        sha256=row.sha256,
                        size=row.size,
                        mode=row.mode,
                        mtime_ns=None,
                        updated_at=now,
                    )
                )
        return saved_by

    def save_memory(self, run_id: int) -> bool:
        """Make the run's ``memory`` files its memory's (the run completed); False when it uses none.

        The memory's files are replaced as a whole, under a lock of that memory: of two runs completing at
        once the later wins, and no reader sees a mix of both.
        """
        used = self._conn.execute(select(schema.RUN_MEMORIES).where(schema.RUN_MEMORIES.c.run_id == run_id)).first()
        if used is None:
            return False
        self._lock_memory(used.repository, used.tree_key, used.name)
        memory = self._memory_row(used.repository, used.tree_key, used.name)
        if memory is None:
            values = {"repository": used.repository, "tree_key": used.tree_key, "name": used.name}
            memory_id = int(
                self._conn.execute(
                    insert(schema.MEMORIES)
                    .values(**values, run_id=run_id, saved_at=utcnow())
                    .returning(schema.MEMORIES.c.id)
                ).scalar_one()
            )
        else:
            memory_id = int(memory.id)
            self._conn.execute(
                update(schema.MEMORIES)
                .where(schema.MEMORIES.c.id == memory_id)
                .values(run_id=run_id, saved_at=utcnow())
            )
            self._conn.execute(delete(schema.MEMORY_FILES).where(schema.MEMORY_FILES.c.memory_id == memory_id))
        for row in self.run_files(run_id, "memory"):
            self._conn.execute(
                insert(schema.MEMORY_FILES).values(
                    memory_id=memory_id, path=row.path, sha256=row.sha256, size=row.size, mode=row.mode
                )
            )
        return True

    def memories(self, repository: str, name: str, tree_key: str | None = None) -> list[MemoryRecord]:
        """The memories called ``name`` in a repository (of one workflow, or of every one), with their files."""
        from alphred.store.read_records import MemoryRecord

        query = select(schema.MEMORIES).where(
            schema.MEMORIES.c.repository == repository, schema.MEMORIES.c.name == name
        )
        if tree_key is not None:
            query = query.where(schema.MEMORIES.c.tree_key == tree_key)
        found: list[MemoryRecord] = []
        for row in self._conn.execute(query.order_by(schema.MEMORIES.c.tree_key)).all():
            listed = select(schema.MEMORY_FILES.c.path, schema.MEMORY_FILES.c.size).where(
                schema.MEMORY_FILES.c.memory_id == row.id
            )
            files = tuple(
                (str(f.path), int(f.size)) for f in self._conn.execute(listed.order_by(schema.MEMORY_FILES.c.path))
            )
            found.append(MemoryRecord(row.repository, row.tree_key, row.name, row.run_id, row.saved_at, files))
        return found

    def clear_memory(self, repository: str, name: str, tree_key: str | None = None) -> int:
        """Forget the memories called ``name`` in a repository (of one workflow, or all); return how many."""
        query = delete(schema.MEMORIES).where(
            schema.MEMORIES.c.repository == repository, schema.MEMORIES.c.name == name
        )
        if tree_key is not None:
            query = query.where(schema.MEMORIES.c.tree_key == tree_key)
        ids = select(schema.MEMORIES.c.id).where(query.whereclause)  # type: ignore[arg-type]
        self._conn.execute(delete(schema.MEMORY_FILES).where(schema.MEMORY_FILES.c.memory_id.in_(ids)))
        return int(self._conn.execute(query).rowcount)

    def _memory_row(self, repository: str, tree_key: str, name: str) -> Any:
        query = select(schema.MEMORIES).where(
            schema.MEMORIES.c.repository == repository,
            schema.MEMORIES.c.tree_key == tree_key,
            schema.MEMORIES.c.name == name,
        )
        return self._conn.execute(query).first()

    def _lock_memory(self, repository: str, tree_key: str, name: str) -> None:
        """Serialise saves of one memory (PostgreSQL: an advisory lock; SQLite's write lock already does)."""
        if self._conn.dialect.name == "postgresql":
            key = zlib.crc32(f"{repository}\0{tree_key}\0{name}".encode()) | (0x6D656D << 32)
            self._conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
