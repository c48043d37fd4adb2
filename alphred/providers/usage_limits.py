"""When a provider's usage limit resets, read from what its CLI says (SPEC §15).

The adapters prefer a structured reset time (claude's ``rate_limit_event`` ``resetsAt``, an HTTP
``retry-after``); these read the words the CLIs print when that is all there is:

- Claude Code: ``Claude AI usage limit reached|1764176400`` (older CLIs: the epoch after a bar) and
  ``You've hit your limit · resets 5:10pm (Europe/Paris)`` (a time of day, in the zone it names);
- Codex: ``You've hit your usage limit. ... try again at 5:10 PM`` (same day),
  ``... try again at Nov 27th, 2026 5:10 PM`` and the older ``... try again in 2 days 3 hours 4 minutes``
  (times in the machine's local zone, where codex formats them).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_EPOCH = re.compile(r"usage limit reached\|(\d{9,11})")
_RESETS = re.compile(r"resets\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*([ap]m)?(?:\s*\(([\w/+\-]+)\))?", re.IGNORECASE)
_AGAIN_AT = re.compile(
    r"try again at\s+(?:([A-Z][a-z]{2})\s+(\d{1,2})(?:st|nd|rd|th)?,\s*(\d{4})\s+)?(\d{1,2}):(\d{2})\s*([AP]M)?",
    re.IGNORECASE,
)
_AGAIN_IN = re.compile(r"try again in\s+((?:\d+\s+(?:days?|hours?|minutes?|seconds?)[\s,and]*)+)", re.IGNORECASE)
_UNIT = re.compile(r"(\d+)\s+(day|hour|minute|second)", re.IGNORECASE)
_SECONDS = {"day": 86400, "hour": 3600, "minute": 60, "second": 1}
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def reset_from_text(text: str, now: float, local: tzinfo | None = None) -> float | None:
    """The moment (seconds since the epoch) ``text`` says a usage limit resets, or None when it names none.

    ``local`` is the zone a time without one is read in (default: this machine's).
    """
    zone = local or datetime.now().astimezone().tzinfo
    if (found := _EPOCH.search(text)) is not None:
        return float(found.group(1))
    if (found := _AGAIN_IN.search(text)) is not None:
        seconds = sum(int(n) * _SECONDS[unit.lower()] for n, unit in _UNIT.findall(found.group(1)))
        return now + seconds if seconds else None
    if (found := _AGAIN_AT.search(text)) is not None:
        month, day, year, hour, minute, half = found.groups()
        when = _hour(int(hour), int(minute), half)
        if when is None:
            return None
        if month and month.lower()[:3] in _MONTHS:
            try:
                moment = datetime(int(year), _MONTHS.index(month.lower()[:3]) + 1, int(day), *when, tzinfo=zone)
            except ValueError:
                return None
            return moment.timestamp()
        return _next_time_of_day(when, now, zone)
    if (found := _RESETS.search(text)) is not None:
        hour, minute, half, name = found.groups()
        when = _hour(int(hour), int(minute or 0), half)
        if when is None:
            return None
        return _next_time_of_day(when, now, _zone(name) or zone)
    return None


def _hour(hour: int, minute: int, half: str | None) -> tuple[int, int] | None:
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half.lower() == "pm" else 0)
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    return hour, minute


def _next_time_of_day(when: tuple[int, int], now: float, zone: tzinfo | None) -> float:
    current = datetime.fromtimestamp(now, zone)
    moment = current.replace(hour=when[0], minute=when[1], second=0, microsecond=0)
    if moment.timestamp() <= now:
        moment += timedelta(days=1)
    return moment.timestamp()


def _zone(name: str | None) -> tzinfo | None:
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None
