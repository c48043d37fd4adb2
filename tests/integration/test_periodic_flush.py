"""The run's periodic flush (``attempt_stream.PeriodicFlush``): the events of an attempt under way are written
while its provider is silent, and one timer serves every attempt of the run (issue 29: it was a timer armed and
cancelled per attempt)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from helpers.timers import count_timers

from alphred.providers import EventType, ProviderEvent
from alphred.redact import Redactor
from alphred.runtime import attempt_stream
from alphred.runtime.attempt_stream import PeriodicFlush
from alphred.runtime.sink import EventSink
from alphred.store import SqlRunStore


def _sinks(store: SqlRunStore, run_id: int, count: int) -> list[EventSink]:
    node = store.set_node_status(run_id, "implement", "running")
    return [EventSink(store, run_id, node.id, 1, Redactor({}), first) for first in range(1, count + 1)]


def test_the_events_of_an_attempt_under_way_are_written_before_it_ends(
    store: SqlRunStore, demo_run_id: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(attempt_stream, "FLUSH_EVERY_SECONDS", 0.0)
    written = threading.Event()
    append = store.append_events

    def appended(rows: Any) -> int:
        count = append(rows)
        written.set()
        return count

    monkeypatch.setattr(store, "append_events", appended)
    (sink,) = _sinks(store, demo_run_id, 1)

    async def attempt() -> None:
        flusher = PeriodicFlush()
        flusher.watch(sink)
        sink.add(ProviderEvent(EventType.SYSTEM, "working"))
        assert await asyncio.to_thread(written.wait, 60), "the periodic flush never wrote the event"
        flusher.unwatch(sink)

    asyncio.run(attempt())
    assert not sink.pending
    assert [e.content for e in store.events(demo_run_id)] == ["working"]


def test_one_timer_serves_the_attempts_of_a_run(store: SqlRunStore, demo_run_id: int) -> None:
    sinks = _sinks(store, demo_run_id, 50)

    async def attempts() -> tuple[int, bool, bool]:
        loop = asyncio.get_running_loop()
        armed = count_timers(loop)
        flusher = PeriodicFlush()
        for sink in sinks:  # one attempt after another, each shorter than the interval
            flusher.watch(sink)
            flusher.unwatch(sink)
        return len(armed), flusher.armed, flusher.loop is loop

    timers, armed, same_loop = asyncio.run(attempts())
    assert (timers, armed, same_loop) == (1, True, True)
