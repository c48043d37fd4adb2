"""Process groups started for attempts (commands, agent CLIs): one registry for every place that spawns.

``register`` is called right after a child starts in its own session; listeners (the runner) record the
group with its attempt in the database, and ``kill_all`` stops every live group at once (a second Ctrl+C).
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable

ACTIVE: set[int] = set()
_listeners: list[Callable[[int], None]] = []


def register(pgid: int) -> None:
    """A process group was started for the running attempt."""
    ACTIVE.add(pgid)
    for listener in list(_listeners):
        listener(pgid)


def unregister(pgid: int) -> None:
    """The process group ended (or was killed)."""
    ACTIVE.discard(pgid)


def kill_all() -> None:
    """SIGKILL every registered process group (a second Ctrl+C stops at once, leaving no orphan)."""
    for pgid in list(ACTIVE):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)


def listen(listener: Callable[[int], None]) -> Callable[[], None]:
    """Call ``listener(pgid)`` for every group registered from now on; returns the function that stops it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener) if listener in _listeners else None
