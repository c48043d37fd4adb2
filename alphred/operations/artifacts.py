"""``alphred artifacts RUN [PATH] [-o DIR]`` (SPEC §17): a run's stored artifacts, listed, printed or written out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from alphred.errors import UsageError
from alphred.runtime.run_files import ARTIFACTS, safe_target, write_file
from alphred.store import RunFileRecord, SqlRunStore


def chosen_files(store: SqlRunStore, run_id: int, path: str | None) -> list[RunFileRecord]:
    """The run's artifact files: all, the one at ``path``, or those under the directory ``path``."""
    files = store.run_files(run_id, ARTIFACTS)
    if path is None:
        return files
    wanted = path.strip("/")
    chosen = [f for f in files if f.path == wanted or f.path.startswith(wanted + "/")]
    if not chosen:
        raise UsageError(f"run {run_id} has no artifact '{path}'")
    return chosen


def write_artifacts(store: SqlRunStore, files: list[RunFileRecord], out: Path) -> list[Path]:
    """Write ``files`` under ``out`` with their relative paths (through temporary files); return the paths."""
    written = []
    out.mkdir(parents=True, exist_ok=True)
    for record in files:
        target = safe_target(out, record.path)
        if target is None:  # never stored by Alphred: refuse rather than write outside ``out``
            raise UsageError(f"artifact path '{record.path}' would leave {out}")
        with store.reading() as tx:
            write_file(target, tx.blob_chunks(record.sha256), record.mode, out)
        written.append(target)
    return written


def copy_artifact(store: SqlRunStore, record: RunFileRecord, sink: BinaryIO) -> int:
    """Write one artifact's content to ``sink`` piece by piece; return its size."""
    size = 0
    for piece in artifact_pieces(store, record):
        sink.write(piece)
        size += len(piece)
    return size


def artifact_pieces(store: SqlRunStore, record: RunFileRecord) -> Iterator[bytes]:
    """One artifact's content, piece by piece (each read in a short transaction of its own: a slow reader,
    such as a download, holds no transaction open)."""
    seq = 0
    while (piece := store.blob_chunk(record.sha256, seq)) is not None:
        yield piece
        seq += 1
