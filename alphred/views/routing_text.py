"""Why routing went where it went, as text: each transition it looked at, and what each guard read.

Read from the explanation the engine stored with the routing decision when it routed (the context the
guards saw then, exactly; ``engine.routing.explain_routing``), never recomputed::

      1. when report.riks == "high" → fix: no match
           report.riks = null (no such key; did you mean risk?)
      2. when decision == "approved" → $end: no match
           decision = "changes"
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from alphred.store import RoutingRecord

NOT_STORED = "(no guard readings stored for this routing: it was made by an older Alphred)"


def routes_by_step(routes: Iterable[RoutingRecord]) -> dict[tuple[str, int], RoutingRecord]:
    """The routing decision of each ``(phase, attempt)`` (a fan-out's rows carry the same explanation)."""
    return {(route.node_key, route.attempt): route for route in routes}


def explanation_lines(route: RoutingRecord, indent: str = "  ") -> list[str]:
    """The transitions routing looked at after ``route``'s attempt, each with what its guard read."""
    entries = route.explanation
    if not entries:
        if route.priority is None or route.target == "no_route":
            return [f"{indent}{NOT_STORED}"]
        return [f"{indent}its first transition is `auto`: taken without a guard"]
    lines: list[str] = []
    for number, entry in enumerate(e for e in entries if isinstance(e, Mapping)):
        lines += transition_lines(entry, number + 1, indent)
    return lines


def transition_lines(entry: Mapping[str, Any], number: int, indent: str = "  ") -> list[str]:
    """One transition of an explanation: ``N. when GUARD → TARGET: RESULT``, then one line per path read."""
    when = entry.get("when")
    guard = f"when {when}" if when else "auto"
    result = str(entry.get("result") or "?")
    if result == "exhausted":
        result = f"exhausted (its max was reached: taken {entry.get('taken', '?')} times)"
    lines = [f"{indent}- {guard} → {entry.get('to', '?')}: {result}"]
    reads: Sequence[Any] = entry.get("reads") or ()
    for read in reads:
        if isinstance(read, Mapping):
            note = f" ({read['note']})" if read.get("note") else ""
            lines.append(f"{indent}     {read.get('path')} = {read.get('value')}{note}")
    return lines
