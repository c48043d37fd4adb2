"""Crash points for durability tests: ``ALPHRED_CRASH_AT=NAME`` makes this process SIGKILL itself there."""

from __future__ import annotations

import os
import signal

CRASH_ENV = "ALPHRED_CRASH_AT"

# Read once, as the process starts (issue 29: a crash point is passed a few times a phase, and an absent variable
# cost a lookup, a key encoding and a KeyError each time). Tests set it in the environment of the ``alphred``
# process they start, never in a running one.
_WANTED = os.environ.get(CRASH_ENV) or None
_seen: dict[str, int] = {}


def crash_point(name: str) -> None:
    """Die at once, like ``kill -9``, when ``ALPHRED_CRASH_AT`` is ``NAME`` or ``NAME@N`` (N-th passage)."""
    wanted = _WANTED
    if wanted is None or not wanted.startswith(name):
        return
    _seen[name] = _seen.get(name, 0) + 1
    target, _, count = wanted.partition("@")
    if target == name and _seen[name] == (int(count) if count.isdigit() else 1):
        os.kill(os.getpid(), signal.SIGKILL)
