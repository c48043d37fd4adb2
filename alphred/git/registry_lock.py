"""The lock of a repository's worktree registry (``<common dir>/worktrees``), across threads and processes.

``git worktree add``, ``remove`` and ``prune`` and ``git branch -D`` read every entry of the registry, and
git (2.39) dies on an entry another of them is still writing (``fatal: failed to read .../commondir``):
the registry is changed by one such command at a time, whoever runs it (two runs in one repository, a run
and ``alphred gc``, workers). Within a process a thread lock serialises them; across processes an
exclusive ``flock`` on ``.alphred/worktrees.lock`` at the root of the main working tree, held only around
those commands (``GitWorktrees``, ``LaneGit``).

Why there, and why the wait is bounded (docs/architecture.md, Git): every process working on a repository
finds the same ``.alphred/`` (it is derived from the repository's common git directory, not from the
environment, as ``$ALPHRED_HOME`` would be), and it is Alphred's own state, not the repository's. An agent
must not be able to stall every run by holding the lock: the file is made write-only (mode 0200) and opened
write-only, and ``flock`` needs an open descriptor, so a sandboxed agent (the file system read-only, only its
worktree writable, no capabilities even under root: ``runtime.sandbox``) can open it neither way. An agent
without a sandbox can do whatever the user can; against that, and against any stray holder, the wait is
bounded: after ``REGISTRY_WAIT`` seconds the command fails ``GIT_LOCKED`` (retryable), naming the file. A
holder killed with ``kill -9`` holds nothing: the kernel drops a ``flock`` with the process's last
descriptor (close-on-exec: no git process it starts keeps it).
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from types import TracebackType

from alphred.errors import GitLockedError
from alphred.git.location import RepoLocation, ensure_alphred_dir

LOCK_FILE = "worktrees.lock"
REGISTRY_WAIT = 120.0
"""Seconds a command waits for another process's hold on the registry before it fails ``GIT_LOCKED``
(a ``worktree add`` that checks out a large tree, with the repository's hooks on, holds it for seconds)."""
_MAX_POLL = 0.02  # seconds between two tries while another process holds it

_LOCKS: dict[Path, RegistryLock] = {}
_LOCKS_GUARD = threading.Lock()


class RegistryLock:
    """Re-entrant: a thread lock of this process, and at the outermost hold the ``flock`` of the file."""

    def __init__(self, location: RepoLocation, wait: float = REGISTRY_WAIT) -> None:
        self.location = location
        self.path = location.alphred_dir / LOCK_FILE
        self.wait = wait
        self._threads = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    def __enter__(self) -> None:
        self._threads.acquire()
        try:
            if self._depth == 0:
                self._fd = self._take()
            self._depth += 1
        except BaseException:
            self._threads.release()
            raise

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            os.close(self._fd)  # closing the only descriptor drops the flock
            self._fd = None
        self._threads.release()

    def _take(self) -> int | None:
        """The descriptor holding the file's exclusive ``flock``; None where there is no ``flock`` (Windows:
        the thread lock alone). GitLockedError after ``wait`` seconds held by another process."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - no flock: threads of this process are still serialised
            return None
        ensure_alphred_dir(self.location)
        flags = os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(self.path, flags, 0o200)
        except OSError as exc:
            raise GitLockedError(f"cannot open the worktree registry lock {self.path}: {exc.strerror}") from None
        try:
            deadline = time.monotonic() + self.wait
            pause = 0.001
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return fd
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise GitLockedError(self._held_message()) from None
                    time.sleep(pause)  # another process changes the registry: wait for its command to end
                    pause = min(pause * 2, _MAX_POLL)
        except BaseException:
            os.close(fd)
            raise

    def _held_message(self) -> str:
        return (
            f"the worktree registry lock {self.path} stayed held by another process for {self.wait:g} s "
            "(an alphred run, worker or gc of this repository changes its worktrees one at a time; if none "
            f"is running, `fuser {self.path}` names the holder)"
        )


def registry_lock(location: RepoLocation) -> RegistryLock:
    """The worktree registry's lock of ``location``'s repository (one per repository in a process)."""
    key = location.git_common_dir
    with _LOCKS_GUARD:
        found = _LOCKS.get(key)
        if found is None:
            found = _LOCKS[key] = RegistryLock(location)
        return found
