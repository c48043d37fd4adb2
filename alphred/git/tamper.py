"""Whether an attempt tampered with git (SPEC §14): the worktree's ``.git`` file and the git directories.

An agent may write any file of its worktree, and without a sandbox any file of its user. Alphred's own git
never follows the worktree's ``.git`` file (every call names the git directory Alphred recorded, see
``command.GitDirs``), so a rewritten ``.git`` cannot aim Alphred's commits elsewhere; but the agent's next
attempt, the user's tools and a later take-over would follow it, and a rewritten git configuration would
make git run commands (a filter, a merge driver, a push's ``receivepack``). So before an attempt starts,
``seal_worktree`` records what must not change:

- the worktree's ``.git`` file: a regular file naming the registered git directory;
- the worktree's git directory (``.git/worktrees/<id>``): ``HEAD`` (it must keep naming the run's branch:
  Alphred's commit lands where it points), ``commondir``, ``gitdir`` and ``config.worktree``;
- the common git directory: ``config`` (and ``hooks/`` when the workflow runs the repository's hooks).

``broken`` compares them after the attempt: ``lstat`` first, content only when a file's stat data moved
(git itself may rewrite a file with the same content), so an attempt that touched nothing costs a few
``lstat`` calls and no git process. ``restore`` puts back what was recorded. A file larger than
``KEPT_BYTES`` is compared by hash and cannot be restored (it is reported all the same).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from pathlib import Path

from alphred.lazy import deferred_dataclass

KEPT_BYTES = 256 * 1024
_StatKey = tuple[int, int, int, int, int]


@deferred_dataclass(frozen=True)
class _Watched:
    path: Path
    key: _StatKey | None  # None: absent
    digest: bytes | None  # the content's sha256 (None: absent)
    content: bytes | None  # kept to restore it (None: absent or too large)
    name: str  # how the report names it


@deferred_dataclass(frozen=True)
class WorktreeSeal:
    """What must not change in git while an attempt runs in ``worktree`` (see the module docstring)."""

    worktree: Path
    files: tuple[_Watched, ...]
    hooks: Path | None  # the hooks directory watched (``git: {hooks: true}``)
    hook_entries: tuple[tuple[str, bytes | None], ...]

    def broken(self) -> list[str]:
        """What changed since the seal was made (empty: nothing)."""
        changed = [watched.name for watched in self.files if _moved(watched)]
        if self.hooks is not None and _hook_entries(self.hooks) != self.hook_entries:
            changed.append(f"{self.hooks.name}/ (the repository's hooks)")
        return changed

    def restore(self) -> list[str]:
        """Put back every recorded file that changed; return what could not be restored."""
        left: list[str] = []
        for watched in self.files:
            if not _moved(watched):
                continue
            if watched.digest is not None and watched.content is None:
                left.append(watched.name)
                continue
            _remove(watched.path)
            if watched.content is not None:
                _write(watched.path, watched.content)
        if self.hooks is not None:
            recorded, now = dict(self.hook_entries), dict(_hook_entries(self.hooks))
            for name in set(recorded) | set(now):
                if name in now and recorded.get(name, b"-") == now[name]:
                    continue
                _remove(self.hooks / name)
                content = recorded.get(name)
                if content is not None:
                    _write(self.hooks / name, content, mode=0o755)
        return left


def seal_worktree(
    worktree: Path, admin: Path, common: Path, *, branch_ref: str | None = None, hooks: bool = False
) -> WorktreeSeal:
    """Record the git state of ``worktree`` (git directory ``admin``, common directory ``common``).

    The ``.git`` file is recorded as it should be (naming ``admin``), and ``HEAD`` as naming ``branch_ref``
    when given: a seal made after a crash does not bless what an agent left.
    """
    files = [
        _record(worktree / ".git", ".git (the worktree's git file)", f"gitdir: {admin}\n".encode(), expect=admin),
        _record(admin / "HEAD", f"{admin.name}/HEAD", f"ref: {branch_ref}\n".encode() if branch_ref else None),
        _record(admin / "commondir", f"{admin.name}/commondir"),
        _record(admin / "gitdir", f"{admin.name}/gitdir"),
        _record(admin / "config.worktree", f"{admin.name}/config.worktree"),
        _record(common / "config", "the repository's git config"),
    ]
    hooks_dir = _hooks_dir(common) if hooks else None
    entries = _hook_entries(hooks_dir) if hooks_dir is not None else ()
    return WorktreeSeal(worktree, tuple(files), hooks_dir, entries)


def _record(path: Path, name: str, wanted: bytes | None = None, *, expect: Path | None = None) -> _Watched:
    """Watch ``path``; ``wanted`` is the content it must have (when it has another, it is already broken)."""
    try:
        st = os.lstat(path)
    except OSError:
        return _Watched(path, None, None, wanted, name) if wanted is None else _broken(path, wanted, name)
    content = _read(path, st) if stat.S_ISREG(st.st_mode) else None
    if wanted is not None and content != wanted and not _names(content, expect):
        return _broken(path, wanted, name)
    if content is None:
        return _Watched(path, _key(st), _digest(path, st) or b"", None, name)
    return _Watched(path, _key(st), hashlib.sha256(content).digest(), content, name)


def _broken(path: Path, wanted: bytes, name: str) -> _Watched:
    """A file that is already not as it must be: stat data that never matches, the content to restore."""
    return _Watched(path, (-1, -1, -1, -1, -1), hashlib.sha256(wanted).digest(), wanted, name)


def _names(content: bytes | None, admin: Path | None) -> bool:
    """Whether a ``.git`` file's ``content`` names ``admin`` (relative or absolute, any spacing)."""
    if admin is None or content is None or not content.startswith(b"gitdir:"):
        return False
    named = content[len(b"gitdir:") :].strip().decode("utf-8", "replace")
    return Path(named).is_absolute() and Path(named) == admin


def _moved(watched: _Watched) -> bool:
    if watched.key is None:  # absent when sealed: moved if anything is there now (no exception when still absent)
        return os.access(watched.path, os.F_OK, follow_symlinks=False)
    try:
        st = os.lstat(watched.path)
    except OSError:
        return True
    if _key(st) == watched.key:
        return False
    if not stat.S_ISREG(st.st_mode):
        return True
    return _digest(watched.path, st) != watched.digest


def _key(st: os.stat_result) -> _StatKey:
    return (st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _read(path: Path, st: os.stat_result) -> bytes | None:
    if st.st_size > KEPT_BYTES:
        return None
    with contextlib.suppress(OSError), open(path, "rb") as handle:
        return handle.read(KEPT_BYTES + 1)
    return None


def _digest(path: Path, st: os.stat_result) -> bytes | None:
    if not stat.S_ISREG(st.st_mode):
        return None
    with contextlib.suppress(OSError), open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").digest()
    return None


def _hooks_dir(common: Path) -> Path:
    return common / "hooks"


def _hook_entries(hooks: Path) -> tuple[tuple[str, bytes | None], ...]:
    try:
        names = sorted(os.listdir(hooks))
    except OSError:
        return ()
    entries: list[tuple[str, bytes | None]] = []
    for name in names:
        path = hooks / name
        with contextlib.suppress(OSError):
            st = os.lstat(path)
            entries.append((name, _read(path, st) if stat.S_ISREG(st.st_mode) else None))
    return tuple(entries)


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        if path.is_dir() and not path.is_symlink():
            import shutil

            shutil.rmtree(path)
        else:
            path.unlink()


def _write(path: Path, content: bytes, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    with os.fdopen(os.open(path, flags, mode), "wb") as handle:
        handle.write(content)
