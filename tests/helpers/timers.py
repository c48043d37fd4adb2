"""Counting the timers a running event loop arms (``loop.call_at``): one timer per run, not one per attempt."""

from __future__ import annotations

import asyncio
from typing import Any


def count_timers(loop: asyncio.AbstractEventLoop) -> list[object]:
    """Make ``loop.call_at`` record each call (its arguments) in the returned list, then arm the timer."""
    armed: list[object] = []
    call_at = loop.call_at

    def counted(*args: Any) -> asyncio.TimerHandle:
        armed.append(args)
        return call_at(*args)

    loop.call_at = counted  # type: ignore[method-assign]
    return armed
