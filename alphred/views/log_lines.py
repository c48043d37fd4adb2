"""``alphred logs`` as text: one event per line in aligned columns, a multi-line content indented below.

::

    19:50:23 UTC implement#1    1 system      init
    19:50:24 UTC check#1        2 tool_result collected 3 items
                                              FAILED test_x - assert 1 == 2

The phase column is as wide as the run's longest ``phase#attempt``, so the columns line up for the whole
run (``--follow`` included). On a terminal, escapes and control characters in the content are dropped
(an agent's output cannot steer the terminal); into a pipe or a file the content is written as stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from alphred.views.style import printable

ATTEMPT_DIGITS = 2  # room kept for ``#NN`` after the longest phase key


def phase_width(phase_keys: Iterable[str]) -> int:
    """The width of the ``phase#attempt`` column for a run with these phases."""
    return max((len(key) for key in phase_keys), default=0) + 1 + ATTEMPT_DIGITS


def clock(value: datetime) -> str:
    """``19:50:23 UTC``: an event's time in the local zone, with the zone's name."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return str(value.astimezone().strftime("%H:%M:%S %Z"))


def event_lines(event: Any, width: int, terminal: bool = False) -> list[str]:
    """The lines of one stored event (``EventRecord``): its columns, then each further line of its content
    under the content column."""
    label = f"{event.node_key}#{event.attempt}"
    head = f"{clock(event.timestamp)} {label:<{width}} {event.sequence:>4} {event.event_type:<11}"
    content = (event.content or "").rstrip("\n").split("\n")
    if terminal:
        content = [printable(line.expandtabs()) if line.strip() else "" for line in content]
    indent = " " * (len(head) + 1)
    return [f"{head} {content[0]}".rstrip(), *(f"{indent}{line}".rstrip() for line in content[1:])]
