"""No orphans: what a dead run process left running on this host is found and killed before a take-over.

Two nets catch them. Every process group an attempt starts (commands, agent CLIs) that lives on is recorded
with the attempt in ``run_processes`` (see ``alphred.providers.groups``, ``Attempts.record_group``); and every
process a runner starts inherits ``ALPHRED_LEASE_OWNER=<owner>`` in its environment, so descendants that left
their group (``setsid``) or were started before their group was recorded are found by scanning ``/proc``; a
marked process that leads its group (a command's shell) takes its whole group with it, so a member that
dropped the marker is found too while the group is not recorded yet.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import time
from pathlib import Path

from alphred.store import SqlRunStore
from alphred.store.owners import process_start_time

MARKER = "ALPHRED_LEASE_OWNER"
PR_SET_CHILD_SUBREAPER = 36


_subreaper = False  # set once ``become_subreaper`` succeeded in this process


def marked_processes(owner: str, marker: str = MARKER, among: list[int] | None = None) -> list[int]:
    """Pids on this host whose environment carries ``MARKER=owner`` (never this process); ``marker`` names
    another variable (``ALPHRED_ATTEMPT``: the processes of one attempt); ``among``: only these pids are
    looked at (default: every process on the host)."""
    wanted = f"{marker}={owner}".encode()
    found = []
    me = os.getpid()
    if among is None:
        proc = Path("/proc")
        among = [int(entry.name) for entry in proc.iterdir() if entry.name.isdigit()] if proc.is_dir() else []
    for pid in among:
        if pid == me:
            continue
        with contextlib.suppress(OSError):
            if wanted in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
                found.append(pid)
    return found


def descendants() -> list[int] | None:
    """Every process below this one (children of all its threads, theirs, ...), or None when that cannot be
    known from ``/proc/<pid>/task/<tid>/children`` (another system, a kernel without it)."""
    me = os.getpid()
    if not Path(f"/proc/{me}/task/{me}/children").is_file():
        return None
    found: list[int] = []
    todo = [me]
    while todo:
        pid = todo.pop()
        try:
            tasks = list(Path(f"/proc/{pid}/task").iterdir())
        except OSError:  # it ended meanwhile
            continue
        for task in tasks:
            try:
                children = [int(child) for child in (task / "children").read_text().split()]
            except (OSError, ValueError):
                continue
            found += children
            todo += children
    return found


def kill_leftovers(store: SqlRunStore, run_id: int, dead_owner: str | None) -> int:
    """SIGKILL what the run's dead owner left on this host; return how many groups and processes were hit.

    The recorded groups stay as the run's history: a group whose pid was reused since is recognised by its
    start time and left alone.
    """
    host = socket.gethostname()
    hit = 0
    for record in store.processes(run_id):
        if record.host != host:
            continue
        if record.started and process_start_time(record.pgid) not in ("", record.started):
            continue  # that pid now belongs to someone else; its group, if any, is not ours
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(record.pgid, signal.SIGKILL)
            hit += 1
    if dead_owner:
        for pid in marked_processes(dead_owner):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                if os.getpgid(pid) == pid:  # it leads its group (a command's shell, an agent CLI): the whole
                    os.killpg(pid, signal.SIGKILL)  # group, with what in it dropped the marker (not recorded yet)
                else:
                    os.kill(pid, signal.SIGKILL)
                hit += 1
        _wait_gone(dead_owner)
    return hit


def become_subreaper() -> bool:
    """Make this process a child subreaper (Linux ``PR_SET_CHILD_SUBREAPER``): a process a phase started that
    loses its parent (a daemon, a ``setsid`` child whose shell exited) becomes this process's child instead of
    init's, so it stays under Alphred until the phase's end kills it. False where it cannot be done."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        done = int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False
    global _subreaper
    _subreaper = _subreaper or done
    return done


def nothing_below() -> bool:
    """True when no process can be below this one: a child subreaper (``become_subreaper``: an orphan is adopted
    by it, never by init) without a single child, zombies included. One ``waitid`` that reaps nothing: a
    descendant has an ancestor among the children (an exiting child hands its own over before it is a zombie)."""
    if not _subreaper:
        return False
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return False


def kill_attempt_processes(marker: str) -> int:
    """SIGKILL every process on this host whose environment says it belongs to the attempt ``marker``
    (``ALPHRED_ATTEMPT``), ``setsid`` ones included, and reap those adopted by this process; return how many.

    Called when an attempt ends or is cancelled: no process it started outlives it. In a child subreaper
    (``become_subreaper``: every runner) each process an attempt started is below this one, its orphans
    included, so only this process's descendants are looked at, not every process on the host.
    """
    from alphred.runtime.environment import ATTEMPT_MARKER

    hit = 0
    for _ in range(3):  # a process may fork while the first ones die: look again until none is left
        among = descendants() if _subreaper else None
        found = marked_processes(marker, ATTEMPT_MARKER, among)
        alive = [pid for pid in found if not _zombie(pid)]
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        hit += len(alive)
        _reap(found)
        if not alive:
            break
    return hit


def _reap(pids: list[int]) -> None:
    """Wait for the killed processes that are this process's children (adopted orphans: no one else waits)."""
    me = os.getpid()
    for pid in pids:
        if _parent(pid) != me:
            continue
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                break
            if done:
                break
            time.sleep(0.002)


def _parent(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return int(stat[stat.rfind(")") + 2 :].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _wait_gone(owner: str, seconds: float = 5.0) -> None:
    """Wait (bounded) until the killed processes are gone, so none writes after the reset that follows."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = [pid for pid in marked_processes(owner) if not _zombie(pid)]
        if not alive:
            return
        time.sleep(0.01)


def _zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rfind(")") + 2] in "ZX"
