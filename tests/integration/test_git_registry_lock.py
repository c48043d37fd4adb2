"""The worktree registry's lock across processes (``git/registry_lock.py``): two ``alphred`` processes in one
repository (two runs, a run and ``gc``, workers) change its worktrees one command at a time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import repos

from alphred.errors import GitLockedError
from alphred.git import GitWorktrees, locate_repository
from alphred.git.registry_lock import LOCK_FILE, RegistryLock
from alphred.runtime.sandbox import Sandbox, find_bwrap, sandbox_problem

pytestmark = pytest.mark.usefixtures("isolated_git")
BWRAP_PROBLEM = sandbox_problem(find_bwrap())

RACER = """\
import sys
from alphred.git import GitWorktrees, locate_repository

repo, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
worktrees = GitWorktrees(locate_repository(repo))
base = worktrees.resolve_base().sha
sys.stdin.readline()  # every racer starts at once
for run_id in range(first, first + count):
    made = worktrees.create(run_id, f"race/{run_id}", base, parallel_checkout=True)
    if run_id % 2:
        worktrees.remove(made.path)
print("done", flush=True)
"""

HOLDER = """\
import sys
from alphred.git import GitWorktrees, locate_repository
from alphred.git.registry_lock import RegistryLock

with RegistryLock(locate_repository(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.readline()  # until the test lets go
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return repos.make_repo(tmp_path / "repo", {"README.md": "# race\n", "src/file.txt": "1\n"}).resolve()


def _python(script: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_processes_adding_and_removing_worktrees_at_once_all_succeed(repo: Path) -> None:
    """8 processes, 20 worktrees each (half removed again) at the same moment, twice: git 2.39 dies on a registry
    entry another process is still writing (``failed to read .../commondir``) unless they take turns. With the
    lock of one process only, 2 rounds of 4 failed (a checkout of one file: the adds overlap most)."""
    expected = []
    for round_ in range(2):
        firsts = [1000 * n + 100 * round_ + 1 for n in range(8)]
        racers = [_python(RACER, str(repo), str(first), "20") for first in firsts]
        for racer in racers:
            assert racer.stdin is not None
            racer.stdin.write("go\n")
            racer.stdin.flush()
        results = [racer.communicate(timeout=300) for racer in racers]
        assert [racer.returncode for racer in racers] == [0] * 8, [err for _out, err in results if err]
        expected += [str(first + i) for first in firsts for i in range(1, 20, 2)]
    listed = repos.git(repo, "worktree", "list", "--porcelain").splitlines()
    kept = sorted(line.rsplit("/", 1)[1] for line in listed if line.startswith("worktree ") and "/.alphred/" in line)
    assert kept == sorted(expected)
    for name in kept:  # each checked out whole
        assert (repo / ".alphred" / "worktrees" / name / "src" / "file.txt").read_text() == "1\n"


def test_a_lock_held_by_another_process_fails_git_locked_after_the_bounded_wait(repo: Path) -> None:
    """Nothing can stall every run by holding the lock: the wait ends with ``GIT_LOCKED`` naming the file."""
    location = locate_repository(repo)
    holder = _python(HOLDER, str(repo))
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline() == "held\n"
        lock = RegistryLock(location, wait=0.0)
        with pytest.raises(GitLockedError, match=r"worktree registry lock .*worktrees\.lock stayed held") as caught:
            lock.__enter__()
        assert caught.value.retryable
        with pytest.raises(GitLockedError):  # the failed try left no hold behind, in this thread or another
            lock.__enter__()
    finally:
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.communicate(timeout=60)
    with RegistryLock(location, wait=0.0):
        pass  # free again once the holder has let go


def test_worktree_add_remove_and_prune_wait_for_another_processs_hold(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each command that changes the registry takes the lock another process holds (with no wait: it fails
    ``GIT_LOCKED``); the commands that only read or write a worktree's files do not."""
    worktrees = GitWorktrees(locate_repository(repo))
    base = worktrees.resolve_base().sha
    made = worktrees.create(1, "kept", base)
    monkeypatch.setattr(worktrees.registry, "wait", 0.0)
    holder = _python(HOLDER, str(repo))
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(GitLockedError):
            worktrees.create(2, "new", base)
        with pytest.raises(GitLockedError):
            worktrees.remove(made.path)
        with pytest.raises(GitLockedError):
            worktrees.prune()
        (made.path / "file.txt").write_text("changed\n")
        assert worktrees.commit_phase(made.path, "a phase") is not None  # a commit is no registry change
    finally:
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.communicate(timeout=60)
    assert worktrees.create(2, "new", base).branch == "new"
    worktrees.remove(made.path)
    assert not made.path.exists()


def test_the_lock_file_lives_in_alphreds_own_directory_write_only(repo: Path) -> None:
    """A sandboxed agent sees the file system read-only: it cannot open a write-only file, so it cannot flock
    it; the file is beside Alphred's state (``.alphred/``, ignored by git), not in the repository's."""
    lock = RegistryLock(locate_repository(repo))
    with lock, lock:  # re-entrant in one thread
        pass
    path = repo / ".alphred" / LOCK_FILE
    assert lock.path == path and (os.stat(path).st_mode & 0o777) == 0o200
    assert repos.git(repo, "status", "--porcelain") == ""


@pytest.mark.optional("bubblewrap")
@pytest.mark.skipif(BWRAP_PROBLEM is not None, reason=f"no sandbox here: {BWRAP_PROBLEM}")
def test_a_sandboxed_command_cannot_open_the_lock_file_so_cannot_hold_it(repo: Path, tmp_path: Path) -> None:
    """In Alphred's sandbox (the file system read-only, no capabilities even for root) the write-only lock
    file opens neither way: a sandboxed agent cannot take the lock and stall every run."""
    lock = RegistryLock(locate_repository(repo))
    with lock:
        pass
    probe = (
        "import fcntl, os, sys\n"
        "for flags in (os.O_RDONLY, os.O_WRONLY):\n"
        "    try:\n"
        "        fcntl.flock(os.open(sys.argv[1], flags), fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
        "        print('held')\n"
        "    except OSError as exc:\n"
        "        print(type(exc).__name__)\n"
    )
    private = tmp_path / "private-tmp"
    private.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    # the repository is below /tmp, which the sandbox replaces: its .alphred/ is mounted read-only as it
    # would be seen from anywhere else
    sandbox = Sandbox(str(find_bwrap()), work, (lock.path.parent,), private)
    done = subprocess.run(
        sandbox.confine([sys.executable, "-c", probe, str(lock.path)]), capture_output=True, text=True, timeout=60
    )
    assert done.stdout.split() == ["PermissionError", "OSError"], done.stderr  # EACCES, then EROFS
