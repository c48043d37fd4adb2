"""A run's files outside the branch (SPEC §17): ``$ALPHRED_ARTIFACTS`` and ``$ALPHRED_MEMORY`` on disk.

Each run has ``.alphred/runs/<id>/artifacts`` (and ``.../memory`` when its workflow says ``memory:``) in
the main checkout, outside every worktree: nothing there is ever committed. ``RunFiles.store`` keeps the
two directories with the run when a phase ends: it walks them (regular files only, symlinks skipped),
refuses the lot when either is over ``limits.max_artifact_bytes`` (``ARTIFACTS_TOO_LARGE``), and in ONE
transaction stores what changed (redacted, by sha256, in pieces: memory stays flat whatever the size),
forgets what was deleted and notes the stat of each file, so an unchanged file is not read again. It runs
before the attempt's outcome is recorded: a kill during it stores nothing and the attempt runs again; a
kill after it leaves the files stored once, and the next store finds them unchanged.

``RunFiles.restore`` writes the stored files a directory lacks (a run taken over on another machine, a
resumed run whose directory was removed), or whose stored copy is newer than the file there. Files the
directory has that are not stored (what an interrupted attempt left) stay.
"""

from __future__ import annotations

import hashlib
import os
import stat
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import field
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from alphred.errors import ArtifactsTooLargeError, ProviderError
from alphred.lazy import deferred_dataclass
from alphred.redact import Redactor
from alphred.runtime.crash import crash_point
from alphred.store import SqlRunStore, StoreTransaction

if TYPE_CHECKING:
    from alphred.store import RunFileRecord

ARTIFACTS = "artifacts"
MEMORY = "memory"
ENV_ARTIFACTS = "ALPHRED_ARTIFACTS"
ENV_MEMORY = "ALPHRED_MEMORY"
READ_BYTES = 1 << 20  # a piece of a file read at once (stored as one chunk, give or take a line)
FILES_CHANGED = "ARTIFACTS_CHANGED"  # a file changed while it was stored (retryable: nothing was stored)
MAX_CARRY = 4 << 20  # a line longer than this is cut where it stands (redaction works line by line)


def runs_directory(alphred_dir: Path) -> Path:
    """``.alphred/runs``: where every run's files directory lies."""
    return alphred_dir / "runs"


def run_directory(alphred_dir: Path, run_id: int) -> Path:
    """``.alphred/runs/<run id>``: where a run keeps its files outside the branch."""
    return runs_directory(alphred_dir) / str(run_id)


@deferred_dataclass(frozen=True)
class LocalFile:
    """A regular file found in an area: its path relative to the area (with ``/``) and its stat."""

    path: str
    full: Path
    size: int
    mode: int
    mtime_ns: int


@deferred_dataclass
class RunFiles:
    """The on-disk areas of one run (artifacts always, memory when the workflow has ``memory:``)."""

    run_id: int
    root: Path  # .alphred/runs/<id>
    limit: int  # limits.max_artifact_bytes, per area
    memory: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    # areas with no stored file, as this runner last read or wrote them (it holds the run's lease: nobody else
    # stores the run's files while it runs): an attempt that leaves them empty needs no read
    _empty: set[str] = field(default_factory=set, repr=False)

    @property
    def areas(self) -> dict[str, Path]:
        """Each area's directory."""
        found = {ARTIFACTS: self.root / ARTIFACTS}
        if self.memory:
            found[MEMORY] = self.root / MEMORY
        return found

    def environment(self) -> dict[str, str]:
        """``ALPHRED_ARTIFACTS`` (and ``ALPHRED_MEMORY``) for every process of a phase."""
        return {ENV_MEMORY if area == MEMORY else ENV_ARTIFACTS: path for area, path in self._paths.items()}

    def template_values(self) -> dict[str, dict[str, str]]:
        """``artifacts.dir`` (and ``memory.dir``) for a phase's templates."""
        return {area: {"dir": path} for area, path in self._paths.items()}

    @cached_property
    def _paths(self) -> dict[str, str]:
        """Each area's directory as text (``root`` and ``memory`` never change: built once a run)."""
        return {area: str(path) for area, path in self.areas.items()}

    def make(self) -> None:
        """Create the directories (private to the user)."""
        for path in self.areas.values():
            path.mkdir(parents=True, exist_ok=True, mode=0o700)

    def restore(self, store: SqlRunStore) -> int:
        """Write the stored files each area lacks, or holds older than stored; return how many were written."""
        self.make()
        written = 0
        with store.reading() as tx:
            for area, directory in self.areas.items():
                records = tx.run_files(self.run_id, area)
                if not records:
                    self._empty.add(area)
                for record in records:
                    target = safe_target(directory, record.path)
                    if target is None or not _stale(target, record):
                        continue
                    write_file(target, tx.blob_chunks(record.sha256), record.mode, directory)
                    written += 1
        return written

    def store(self, store: SqlRunStore, redactor: Redactor) -> int:
        """Keep both areas with the run (see the module docstring); return how many files were stored anew.

        Raises ArtifactsTooLargeError (nothing stored) when an area is over the limit.
        """
        with self._lock:  # parallel branches end in threads of their own: one store at a time
            if self._still_empty():
                return 0  # as above, without a walk: one directory read per area (issue 29)
            self.make()
            found = {area: list(walk(directory)) for area, directory in self.areas.items()}
            for area, files in found.items():
                total = sum(f.size for f in files)
                if total > self.limit:
                    raise ArtifactsTooLargeError(_too_large(area, total, self.limit, files))
            if all(not files and area in self._empty for area, files in found.items()):
                return 0  # nothing here, nothing stored: nothing to read or write
            with store.reading() as tx:
                stored = {area: {r.path: r for r in tx.run_files(self.run_id, area)} for area in found}
            changed = {area: _changed(files, stored[area]) for area, files in found.items()}
            gone = {area: set(stored[area]) - {f.path for f in files} for area, files in found.items()}
            self._empty = {area for area, files in found.items() if not stored[area]}
            if not any(changed.values()) and not any(gone.values()):
                return 0
            self._empty = set()  # written below: read again next time
            count = 0
            with store.transaction() as tx:
                for area, files in changed.items():
                    for local in files:
                        count += _store_one(tx, self.run_id, area, local, stored[area].get(local.path), redactor)
                    tx.remove_run_files(self.run_id, area, sorted(gone[area]))
                crash_point("storing_artifacts")  # written, not committed: a kill here stores nothing
            crash_point("artifacts_stored")
            return count

    def _still_empty(self) -> bool:
        """Whether every area is known to have no stored file and holds no entry at all (an empty directory:
        nothing to walk, store or forget); False when one is missing (``store`` makes it) or holds anything."""
        for area, path in self._paths.items():
            if area not in self._empty:
                return False
            try:
                with os.scandir(path) as entries:
                    if next(entries, None) is not None:
                        return False
            except OSError:
                return False
        return True


def walk(directory: Path) -> Iterator[LocalFile]:
    """The regular files under ``directory`` (symlinks and special files skipped), in path order."""
    for base, dirs, names in os.walk(directory):
        dirs.sort()
        for name in sorted(names):
            full = Path(base) / name
            try:
                info = full.lstat()
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                relative = full.relative_to(directory).as_posix()
                yield LocalFile(relative, full, info.st_size, stat.S_IMODE(info.st_mode), info.st_mtime_ns)


def redacted_pieces(path: Path, redactor: Redactor | None, masked: list[bool] | None = None) -> Iterator[bytes]:
    """The file's content, redacted line by line (not at all without ``redactor``), in pieces of about
    READ_BYTES; ``masked`` gets True appended when redaction changed something."""

    def redact(block: bytes) -> bytes:
        if redactor is None:
            return block
        done = redactor.redact_bytes(block)
        if masked is not None and done is not block:
            masked.append(True)
        return done

    carry = b""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))  # a file swapped for a symlink is refused
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ProviderError(f"{path.name} is no longer a regular file", code=FILES_CHANGED)
    with os.fdopen(fd, "rb") as handle:
        while True:
            block = handle.read(READ_BYTES)
            if not block:
                break
            block = carry + block
            cut = block.rfind(b"\n") + 1
            if cut == 0 and len(block) < MAX_CARRY:
                carry = block
                continue
            cut = cut or len(block)
            carry = block[cut:]
            yield redact(block[:cut])
    if carry:
        yield redact(carry)


def safe_target(directory: Path, relative: str) -> Path | None:
    """``directory / relative`` for a stored relative path; None for one that would leave ``directory``."""
    pure = PurePosixPath(relative)
    if pure.is_absolute() or not pure.parts or any(part in ("", ".", "..") for part in pure.parts):
        return None
    return directory.joinpath(*pure.parts)


def write_file(target: Path, pieces: Iterable[bytes], mode: int, top: Path | None = None) -> None:
    """Write ``pieces`` to ``target`` through a temporary file renamed in place (a kill leaves no half file);
    a symlink or directory in the way is replaced, never followed — below ``top`` (the area), a symlink
    standing for one of ``target``'s parent directories too (what an agent left cannot redirect the write)."""
    if top is not None:
        _real_parents(top, target)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_symlink() or target.is_dir():
        if target.is_dir() and not target.is_symlink():
            import shutil

            shutil.rmtree(target)
        else:
            target.unlink()
    partial = target.with_name(f".{target.name}.alphred-partial")
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(partial, flags, 0o600)
    with os.fdopen(fd, "wb") as handle:
        for piece in pieces:
            handle.write(piece)
    os.chmod(partial, (mode & 0o777) or 0o644)
    os.replace(partial, target)


def _real_parents(top: Path, target: Path) -> None:
    """Make every directory between ``top`` and ``target`` a real directory (a symlink there is removed)."""
    current = top
    for part in target.relative_to(top).parts[:-1]:
        current = current / part
        if current.is_symlink() or (current.exists() and not current.is_dir()):
            current.unlink()
        current.mkdir(exist_ok=True)


def _stale(target: Path, record: RunFileRecord) -> bool:
    """Whether ``target`` must be (re)written from ``record``: missing, or older than the stored copy."""
    try:
        info = target.lstat()
    except FileNotFoundError:
        return True
    if not stat.S_ISREG(info.st_mode):
        return True
    if info.st_size == record.size and record.mtime_ns == info.st_mtime_ns:
        return False  # the file the copy was stored from
    return info.st_mtime_ns < int(record.updated_at.timestamp() * 1_000_000_000)


def _changed(files: list[LocalFile], stored: Mapping[str, RunFileRecord]) -> list[LocalFile]:
    """The files whose stat differs from the one noted when they were last stored."""
    changed = []
    for local in files:
        record = stored.get(local.path)
        if record is None or (record.size, record.mtime_ns, record.mode) != (local.size, local.mtime_ns, local.mode):
            changed.append(local)
    return changed


def _store_one(
    tx: StoreTransaction, run_id: int, area: str, local: LocalFile, record: RunFileRecord | None, redactor: Redactor
) -> int:
    """Store one changed file (its content only when no blob holds it yet); 1 when a blob was written."""
    digest = hashlib.sha256()
    size = 0
    masked: list[bool] = []
    for piece in redacted_pieces(local.full, redactor, masked):
        digest.update(piece)
        size += len(piece)
    sha = digest.hexdigest()
    wrote = 0
    if (record is None or record.sha256 != sha) and not tx.has_blob(sha):
        again = hashlib.sha256()

        def pieces() -> Iterator[bytes]:  # the same pieces again (redacted again only if it had to be)
            for piece in redacted_pieces(local.full, redactor if masked else None):
                again.update(piece)
                yield piece

        wrote = int(tx.add_blob(sha, size, pieces()))
        if again.hexdigest() != sha:  # changed between the two reads: roll the whole store back
            raise ProviderError(f"{area} file {local.path} changed while it was being stored", code=FILES_CHANGED)
    tx.put_run_file(run_id, area, local.path, sha, size, local.mode, local.mtime_ns)
    return wrote


def _too_large(area: str, total: int, limit: int, files: list[LocalFile]) -> str:
    largest = sorted(files, key=lambda f: f.size, reverse=True)[:3]
    named = ", ".join(f"{f.path} ({f.size:,} bytes)" for f in largest)
    variable = ENV_ARTIFACTS if area == ARTIFACTS else ENV_MEMORY
    return (
        f"${variable} holds {total:,} bytes, over limits.max_artifact_bytes ({limit:,}); largest: {named}. "
        "Nothing of it was stored"
    )
