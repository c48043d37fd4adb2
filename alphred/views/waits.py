"""The words of a usage-limit wait (SPEC §15): when the run goes on, and how long until then."""

from __future__ import annotations

from datetime import UTC, datetime


def clock_time(moment: float) -> str:
    """``moment`` (seconds since the epoch) as ``2026-11-26 17:10:00 UTC``."""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def countdown(seconds: float) -> str:
    """A duration as ``2h03m04s``, ``3m04s`` or ``4s`` (rounded up: it never shows 0s while time is left)."""
    whole = max(0, int(-(-seconds // 1)))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m{secs:02d}s"
    if minutes:
        return f"{minutes}m{secs:02d}s"
    return f"{secs}s"


def waiting_note(wake_at: float, now: float) -> str:
    """The line a foreground run or resume prints when it starts waiting out a usage limit."""
    return (
        f"usage limit: waiting until {clock_time(wake_at)} (in {countdown(wake_at - now)}), then going on by "
        "itself; Ctrl+C leaves the run waiting"
    )
