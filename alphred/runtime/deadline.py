"""``limits.timeout``: the run's wall-clock deadline, measured from its stored ``started_at`` (SPEC §8).

The deadline is read from the store, never from this process's start: a resume, a retry or a worker's
take-over keeps the deadline the run had. ``now`` is the one clock this reads (tests inject it).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from alphred.store import SqlRunStore


def now() -> datetime:
    """The current time (UTC); the clock the deadline is compared with."""
    return datetime.now(UTC)


def run_deadline(store: SqlRunStore, run_id: int, timeout: float | None) -> datetime | None:
    """When run ``run_id`` times out: its stored start plus ``timeout`` (None: no limit, or not started yet)."""
    if timeout is None:
        return None
    record = store.find_run(run_id)
    if record is None or record.started_at is None:
        return None
    return record.started_at + timedelta(seconds=timeout)


def passed(deadline: datetime | None) -> bool:
    """True once ``deadline`` (if any) is reached."""
    return deadline is not None and now() >= deadline
