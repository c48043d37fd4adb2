"""Numeric settings from the environment, checked once: a bad value is a clear error, never a crash later."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Mapping

from alphred.errors import SettingError

# name -> (smallest, largest) accepted number of seconds
SECONDS_SETTINGS: dict[str, tuple[float, float]] = {
    "ALPHRED_DB_BUSY_TIMEOUT": (0.0, 3600.0),
    "ALPHRED_LEASE_TTL": (0.1, 86400.0),
    "ALPHRED_RETRY_BASE_SECONDS": (0.0, 3600.0),
}


def seconds_setting(env: Mapping[str, str], name: str, default: float) -> float:
    """The number of seconds ``env[name]`` gives, or ``default`` when unset; SettingError when out of range."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    low, high = SECONDS_SETTINGS[name]
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # also refuses nan and inf
        raise SettingError(name, raw, f"a number of seconds from {low:g} to {high:g}")
    return value


def check_settings(env: Mapping[str, str]) -> None:
    """Raise SettingError for the first numeric setting in ``env`` that is set to a bad value."""
    for name in SECONDS_SETTINGS:
        seconds_setting(env, name, 0.0)


class Clock:
    """Wall-clock time in seconds since the epoch, and waiting for a moment: what a usage-limit wait reads
    (SPEC §15). Tests inject a clock whose ``sleep`` moves time on instead of taking hours."""

    def now(self) -> float:
        """Seconds since the epoch."""
        return time.time()

    def sleep(self, seconds: float, stop: threading.Event | None = None) -> bool:
        """Wait ``seconds`` (at most); True when ``stop`` was set meanwhile."""
        if stop is None:
            time.sleep(max(0.0, seconds))
            return False
        return stop.wait(max(0.0, seconds))


SYSTEM_CLOCK = Clock()
