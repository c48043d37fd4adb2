"""An injected clock (``alphred.settings.Clock``) whose ``sleep`` moves time on at once: waits of hours in
no time. Installed on ``SYSTEM_CLOCK`` itself, so every part of a run in this process reads the same time."""

from __future__ import annotations

import threading
import time

import pytest

from alphred.settings import SYSTEM_CLOCK


class FakeClock:
    """Starts at the real time; ``sleep`` adds to it. ``slept`` lists every wait asked for."""

    def __init__(self) -> None:
        self.offset = 0.0
        self.slept: list[float] = []

    def now(self) -> float:
        return time.time() + self.offset

    def sleep(self, seconds: float, stop: threading.Event | None = None) -> bool:
        self.slept.append(seconds)
        self.offset += max(0.0, seconds)
        return stop is not None and stop.is_set()


def install_clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """Make ``SYSTEM_CLOCK`` a ``FakeClock`` for the test."""
    clock = FakeClock()
    monkeypatch.setattr(SYSTEM_CLOCK, "now", clock.now)
    monkeypatch.setattr(SYSTEM_CLOCK, "sleep", clock.sleep)
    return clock
