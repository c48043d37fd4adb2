"""Whether a worktree is still exactly as git last saw it clean, answered with ``lstat`` instead of git.

After ``commit_phase`` has staged and committed everything, the worktree holds exactly ``HEAD``'s tree
(ignored files apart). ``take_snapshot`` then records the stat data of every entry under the worktree
(files, symbolic links and directories, ignored ones included) and of the files that decide what
``git add -A`` would stage (the worktree's index, the repository's config and exclude files, the user's).
``unchanged`` later compares them again: the next phase that changed nothing costs ``lstat`` calls and
no git process.

Why stat data is enough (the same reasoning as git's own index and untracked cache):

- a file's content cannot change without its ``mtime`` and ``ctime`` moving (``ctime`` cannot be set back
  by a program), nor be replaced without a new inode;
- an entry cannot be created, removed or renamed in a directory without that directory's ``mtime``
  moving: new untracked files show up on their directory, however deep, because every directory is
  recorded, ignored ones included;
- **racy entries**: a file system stamps times with a coarse clock (a kernel tick, a second on some file
  systems), so a change made in the same tick as the snapshot may leave every stat field as it was. An
  entry whose ``mtime`` or ``ctime`` is not older than the reference (the index file's ``mtime``, which
  git wrote before the snapshot started) is racy: its content (files) or its list of names (directories)
  is recorded too and compared every time.

The snapshot is taken right after git's own check, so it assumes nothing writes the worktree while
``commit_phase`` runs (the attempt's processes have ended; leftovers of a dead attempt are killed before
the next one starts): a file written in that window would be committed with the next change, not this one.

Anything unusual answers "changed" and lets git decide: a nested ``.git`` (a submodule or an embedded
repository), more entries than ``ENTRY_LIMIT``, racy files too large to hash, an unreadable directory.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections.abc import Iterable
from pathlib import Path

from alphred.lazy import deferred_dataclass

# Beyond this many entries the walk after a commit (~3-8 us an entry) costs more than the ``git add -A`` an
# unchanged phase saves (~5 ms + ~3 us an entry; measured at 200 and 10,000 entries): git decides instead.
ENTRY_LIMIT = 2_000
RACY_BYTES_LIMIT = 4 << 20  # racy files are hashed at every check: not above this many bytes in all

_StatKey = tuple[int, int, int, int, int, int]


def _key(st: os.stat_result) -> _StatKey:
    return (st.st_mode, st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _watch_key(path: str) -> _StatKey | None:
    """A watched file's stat data; only the type of a device (``/dev/null`` as a config file)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return _key(st) if stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode) else (st.st_mode, 0, 0, 0, 0, 0)


def _content(path: str, mode: int | None) -> bytes | None:
    """What a racy entry holds: a regular file's SHA-256, a symbolic link's target; None if neither."""
    try:
        if mode is None:
            mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            return b"link:" + os.fsencode(os.readlink(path))
        if not stat.S_ISREG(mode):
            return None
        with open(path, "rb") as handle:
            return b"file:" + hashlib.file_digest(handle, "sha256").digest()
    except OSError:
        return None


def _names(path: str) -> tuple[str, ...] | None:
    try:
        return tuple(sorted(os.listdir(path)))
    except OSError:
        return None


@deferred_dataclass(frozen=True)
class WorktreeSnapshot:
    """The stat data of a clean worktree at commit ``head``, with what is needed to re-check racy entries."""

    head: str
    entries: tuple[tuple[str, _StatKey], ...]
    watched: tuple[tuple[str, _StatKey | None], ...]
    racy_files: tuple[tuple[str, bytes], ...]
    racy_dirs: tuple[tuple[str, tuple[str, ...]], ...]


def watched_files(common_dir: Path, gitdir: Path, excludes_file: Path | None) -> list[Path]:
    """Files outside a worktree whose change alone can change what ``git add -A`` stages there."""
    home = Path(os.environ.get("HOME") or "~").expanduser()
    xdg = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "git"
    files = [common_dir / "config", common_dir / "info" / "exclude", gitdir / "config.worktree"]
    files += [Path(os.environ.get("GIT_CONFIG_GLOBAL") or home / ".gitconfig"), xdg / "config", xdg / "ignore"]
    if os.environ.get("GIT_CONFIG_SYSTEM"):
        files.append(Path(os.environ["GIT_CONFIG_SYSTEM"]))
    if excludes_file is not None:
        files.append(excludes_file)
    return files


def take_snapshot(root: Path, head: str, index: Path, watched: Iterable[Path]) -> WorktreeSnapshot | None:
    """Record ``root`` as the clean state of ``head``; None when it cannot be checked safely by stat.

    ``index`` is the worktree's index file, just written or refreshed by git (its ``mtime`` is the racy
    reference); ``watched`` are further files whose change alone can change what git would stage.
    """
    try:
        index_stat = os.stat(index)
    except OSError:
        return None
    reference = min(index_stat.st_mtime_ns, time.time_ns())
    entries: list[tuple[str, _StatKey]] = []
    racy_files: list[tuple[str, bytes]] = []
    racy_dirs: list[tuple[str, tuple[str, ...]]] = []
    racy_bytes = 0
    top = str(root)
    pending = [top]
    try:
        entries.append((top, _key(os.lstat(top))))
        while pending:
            directory = pending.pop()
            names: list[str] = []
            with os.scandir(directory) as listing:
                for entry in listing:
                    names.append(entry.name)
                    if entry.name == ".git":
                        if directory == top:
                            continue  # the worktree's own ``.git`` file: never staged
                        return None  # a submodule or an embedded repository: git decides
                    st = entry.stat(follow_symlinks=False)
                    entries.append((entry.path, _key(st)))
                    is_dir = entry.is_dir(follow_symlinks=False)
                    if is_dir:
                        pending.append(entry.path)
                    elif max(st.st_mtime_ns, st.st_ctime_ns) >= reference:
                        racy_bytes += st.st_size
                        content = _content(entry.path, st.st_mode)
                        if content is None or racy_bytes > RACY_BYTES_LIMIT:
                            return None
                        racy_files.append((entry.path, content))
            if len(entries) > ENTRY_LIMIT:
                return None
            dir_stat = os.lstat(directory)
            if max(dir_stat.st_mtime_ns, dir_stat.st_ctime_ns) >= reference:
                racy_dirs.append((directory, tuple(sorted(names))))
    except OSError:
        return None
    watched_keys: list[tuple[str, _StatKey | None]] = [(str(index), _key(index_stat))]
    watched_keys.extend((str(path), _watch_key(str(path))) for path in watched)
    return WorktreeSnapshot(head, tuple(entries), tuple(watched_keys), tuple(racy_files), tuple(racy_dirs))


def unchanged(snapshot: WorktreeSnapshot) -> bool:
    """Whether nothing recorded in ``snapshot`` changed (False means "ask git", not "changed")."""
    lstat = os.lstat
    try:
        for path, key in snapshot.entries:
            st = lstat(path)
            if (st.st_mode, st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_ctime_ns) != key:
                return False
    except OSError:
        return False
    for path, watched in snapshot.watched:
        if watched is None:  # absent when taken: changed if anything is there now (no exception when still absent)
            if os.access(path, os.F_OK, follow_symlinks=False):
                return False
        elif _watch_key(path) != watched:
            return False
    if any(_names(path) != names for path, names in snapshot.racy_dirs):
        return False
    return all(_content(path, None) == content for path, content in snapshot.racy_files)
