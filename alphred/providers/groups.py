"""Process groups started for attempts (commands, agent CLIs, MCP servers): one registry for every place that
spawns.

``register`` is called right after a child starts in its own session, ``unregister`` once its group is killed (or
ended); listeners (the runner) record the group with its attempt in the database (a group that lives on), and
``kill_all`` stops every live group at once (a second Ctrl+C).
A child another package starts (the ``mcp`` package's stdio servers) is found with ``session_holding``.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable

ACTIVE: set[int] = set()
_listeners: list[Callable[[int], None]] = []
_ended_listeners: list[Callable[[int], None]] = []


def register(pgid: int) -> None:
    """A process group was started for the running attempt."""
    ACTIVE.add(pgid)
    for listener in list(_listeners):
        listener(pgid)


def unregister(pgid: int) -> None:
    """The process group ended (or was killed)."""
    ACTIVE.discard(pgid)
    for listener in list(_ended_listeners):
        listener(pgid)


def kill_all() -> None:
    """SIGKILL every registered process group (a second Ctrl+C stops at once, leaving no orphan)."""
    for pgid in list(ACTIVE):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)


def listen(listener: Callable[[int], None], ended: Callable[[int], None] | None = None) -> Callable[[], None]:
    """Call ``listener(pgid)`` for every group registered from now on (and ``ended(pgid)`` for every group
    unregistered); returns the function that stops both."""
    _listeners.append(listener)
    if ended is not None:
        _ended_listeners.append(ended)

    def stop() -> None:
        if listener in _listeners:
            _listeners.remove(listener)
        if ended is not None and ended in _ended_listeners:
            _ended_listeners.remove(ended)

    return stop


def session_holding(pipe: int) -> int | None:
    """The child of this process that leads its own session and holds the pipe ``pipe`` (a file descriptor of
    this process) as its stderr: a child another package started (an MCP stdio server) with a stderr pipe
    of ours. Its pid is its group's id. None when there is none or ``/proc`` cannot say (no blocking I/O
    beyond ``/proc``; call it off the event loop all the same)."""
    try:
        wanted = f"pipe:[{os.fstat(pipe).st_ino}]"
        me = os.getpid()
        tasks = os.listdir(f"/proc/{me}/task")
    except OSError:
        return None
    for task in tasks:
        try:
            with open(f"/proc/{me}/task/{task}/children", encoding="ascii") as handle:
                children = [int(pid) for pid in handle.read().split()]
        except (OSError, ValueError):
            continue
        for pid in children:
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/2") == wanted and os.getpgid(pid) == pid:
                    return pid
    return None
