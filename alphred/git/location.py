"""Where a command works (SPEC §5, Where): the repository, its main working tree and ``.alphred/``.

Everything here reads the repository layout in pure Python (see ``gitrepository-layout(5)``) instead of
spawning git, because every command runs it. Anything unusual (a reftable, a symbolic ref chain) makes the
ref readers answer ``None`` and the caller ask git instead.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from alphred.errors import GitError, NotAGitRepositoryError
from alphred.git.command import GitDirs
from alphred.lazy import deferred_dataclass

ALPHRED_DIR = ".alphred"
WORKTREES_DIR = "worktrees"
_EXCLUDE_ENTRY = b".alphred/"
_EXCLUDE_SPELLINGS = {b".alphred", b".alphred/", b"/.alphred", b"/.alphred/"}
_SHA_LENGTHS = {40, 64}
_READ_CHUNK = 4096
_HEX_DIGITS = "0123456789abcdef"


@deferred_dataclass(frozen=True)
class RepoLocation:
    """A repository: the root of its main working tree and its common git directory."""

    root: Path
    git_common_dir: Path

    @property
    def alphred_dir(self) -> Path:
        """The ``.alphred/`` directory at the root of the main working tree."""
        return self.root / ALPHRED_DIR

    @property
    def worktrees_dir(self) -> Path:
        """The directory holding one worktree per run."""
        return self.root / ALPHRED_DIR / WORKTREES_DIR

    def dirs(self) -> GitDirs:
        """The git directory and work tree of a git call on the main working tree (pushes, probes)."""
        return GitDirs(self.git_common_dir, self.root)


def repository_dirs(path: Path) -> GitDirs:
    """``GitDirs`` of the repository containing ``path`` (found in Python, see ``locate_repository``)."""
    return locate_repository(path).dirs()


def locate_repository(path: str | Path | None = None) -> RepoLocation:
    """Find the repository containing ``path`` (default: the current directory) without running git."""
    given = Path.cwd() if path is None else Path(path)
    try:
        start = given.resolve(strict=True)
    except (OSError, RuntimeError):
        raise NotAGitRepositoryError(str(given)) from None
    if not start.is_dir():
        start = start.parent
    for directory in (start, *start.parents):
        dotgit = directory / ".git"
        if dotgit.is_dir():
            if _is_git_dir(dotgit):
                return _location(directory, dotgit)
        elif dotgit.is_file():
            return _location(directory, read_gitfile(dotgit))
        elif directory.name != ".git" and _is_git_dir(directory):
            raise GitError(f"{directory} is a bare repository: Alphred needs a working tree (--repo PATH)")
    raise NotAGitRepositoryError(str(given))


def read_gitfile(dotgit: Path) -> Path:
    """Follow a ``.git`` file (``gitdir: PATH``) to the git directory it names."""
    try:
        text = dotgit.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise NotAGitRepositoryError(str(dotgit.parent)) from None
    if not text.startswith("gitdir:"):
        raise GitError(f"{dotgit} is not a valid .git file (expected 'gitdir: PATH')")
    gitdir = (dotgit.parent / text[len("gitdir:") :].strip()).resolve()
    if not (gitdir / "HEAD").is_file():
        raise NotAGitRepositoryError(str(dotgit.parent))
    return gitdir


def registered_gitdir(common: Path, worktree: Path) -> Path | None:
    """The git directory ``common/worktrees/<id>`` whose ``gitdir`` file names ``worktree/.git``, or None.

    git names it after the worktree's directory (``<id>`` is its name, with a number added on a clash), so
    that name is tried first; the others are read only when it does not match.
    """
    registry = common / "worktrees"
    targets = {str(worktree / ".git"), str(worktree.resolve() / ".git")}
    first = registry / worktree.name
    candidates = [first]
    with contextlib.suppress(OSError):
        candidates += sorted(p for p in registry.iterdir() if p != first)
    for admin in candidates:
        with contextlib.suppress(OSError, UnicodeDecodeError):
            if (admin / "gitdir").read_text(encoding="utf-8").strip() in targets and (admin / "HEAD").is_file():
                return admin
    return None


def ensure_alphred_dir(location: RepoLocation) -> Path:
    """Create ``.alphred/`` and list it once in ``info/exclude``; safe when several processes race."""
    target = location.alphred_dir
    target.mkdir(exist_ok=True)
    exclude = location.git_common_dir / "info" / "exclude"
    with contextlib.suppress(OSError):
        if _lists_alphred(exclude.read_bytes()):
            return target
    exclude.parent.mkdir(parents=True, exist_ok=True)
    with open(exclude, "a+b") as handle, _locked(handle):
        handle.seek(0)
        data = handle.read()
        if not _lists_alphred(data):
            separator = b"\n" if data and not data.endswith(b"\n") else b""
            handle.write(separator + _EXCLUDE_ENTRY + b"\n")
    return target


def read_head(gitdir: Path, common_dir: Path) -> tuple[str | None, str | None]:
    """Read ``HEAD`` of a git directory as ``(ref, sha)``; ``sha`` is None when unborn or unreadable."""
    try:
        head = _read_text(os.path.join(gitdir, "HEAD")).strip()
    except (OSError, UnicodeDecodeError):
        return None, None
    if head.startswith("ref:"):
        ref = head[len("ref:") :].strip()
        return ref, read_ref(common_dir, ref)
    return None, head if _is_sha(head) else None


def _read_text(path: str) -> str:
    """A small file's UTF-8 text, read with ``os.read`` (``HEAD`` and a ref are read at every phase: no file
    object, buffer or text layer, issue 29). ``O_NONBLOCK``: a FIFO an agent left there is not waited on (its
    read finds nothing, the caller then asks git); a regular file reads as without it."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    try:
        chunks = [os.read(fd, _READ_CHUNK)]
        while len(chunks[-1]) == _READ_CHUNK:  # a long symbolic ref: read to the end, as before
            chunks.append(os.read(fd, _READ_CHUNK))
    finally:
        os.close(fd)
    return b"".join(chunks).decode("utf-8")


def read_ref(common_dir: Path, ref: str) -> str | None:
    """Read a shared ref (``refs/heads/...``) as a loose file or from ``packed-refs``; None if absent."""
    if os.access(os.path.join(common_dir, "reftable"), os.F_OK):  # ``exists`` without an exception when absent
        return None
    with contextlib.suppress(OSError, UnicodeDecodeError):
        value = _read_text(os.path.join(common_dir, ref)).strip()
        return value if _is_sha(value) else None
    with contextlib.suppress(OSError, UnicodeDecodeError):
        suffix = " " + ref
        for line in (common_dir / "packed-refs").read_text(encoding="utf-8").splitlines():
            if line.endswith(suffix) and _is_sha(line[: -len(suffix)]):
                return line[: -len(suffix)]
    return None


def _location(directory: Path, gitdir: Path) -> RepoLocation:
    commondir_file = gitdir / "commondir"
    linked = commondir_file.is_file()
    common = (gitdir / commondir_file.read_text(encoding="utf-8").strip()).resolve() if linked else gitdir
    if common.name == ".git":
        return RepoLocation(root=common.parent, git_common_dir=common)
    if not linked:  # a main working tree whose git directory lives elsewhere (--separate-git-dir)
        return RepoLocation(root=directory, git_common_dir=common)
    raise GitError(
        f"{directory} is a worktree of the repository {common}, whose main working tree cannot be found "
        "(bare repositories are not supported)"
    )


def _is_git_dir(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir() and (path / "refs").is_dir()


def _is_sha(text: str) -> bool:
    return len(text) in _SHA_LENGTHS and not text.strip(_HEX_DIGITS)  # every character a hex digit (one C call)


def _lists_alphred(data: bytes) -> bool:
    return any(line.strip() in _EXCLUDE_SPELLINGS for line in data.splitlines())


@contextlib.contextmanager
def locked_file(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``path`` (created if missing) for the block."""
    with open(path, "a+b") as handle, _locked(handle):
        yield


@contextlib.contextmanager
def _locked(handle: IO[bytes]) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: appends are short; a rare duplicate line is harmless
        yield
        return
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
