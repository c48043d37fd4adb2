"""The run's attempt deadlines (``attempt_deadlines.Deadlines``): one timer for every attempt under way, with
``asyncio.timeout_at``'s behaviour (issue 29: it was a ``Timeout``, a timer armed and cancelled, per attempt)."""

from __future__ import annotations

import asyncio

import pytest
from helpers.timers import count_timers

from alphred.runtime.attempt_deadlines import Deadlines

pytestmark = pytest.mark.quick


async def _until_cancelled(deadlines: Deadlines, when: float, started: asyncio.Event | None = None) -> str:
    """Wait forever under a deadline at loop time ``when``; what ended the wait."""
    try:
        with deadlines.watch(when):
            if started is not None:
                started.set()
            await asyncio.Event().wait()
    except TimeoutError:
        return "timed out"
    return "never"


def test_an_attempt_past_its_deadline_times_out_and_the_timer_is_not_armed_again() -> None:
    async def attempt() -> tuple[str, float, int]:
        deadlines = Deadlines()
        found = await _until_cancelled(deadlines, deadlines.loop.time() + 0.05)
        return found, deadlines.armed_at, len(deadlines.watches)

    assert asyncio.run(attempt()) == ("timed out", float("inf"), 0)


def test_parallel_attempts_each_time_out_at_their_own_deadline() -> None:
    async def branches() -> tuple[list[str], list[str]]:
        deadlines = Deadlines()
        now = deadlines.loop.time()
        late = asyncio.ensure_future(_until_cancelled(deadlines, now + 3600))
        order: list[str] = []

        async def timed(name: str, when: float) -> str:
            found = await _until_cancelled(deadlines, when)
            order.append(name)
            return found

        found = await asyncio.gather(timed("second", now + 0.1), timed("first", now + 0.02))
        assert not late.done()  # its deadline is an hour away: the timer was re-armed for it, nothing more
        late.cancel()
        with pytest.raises(asyncio.CancelledError):
            await late
        return order, list(found)

    assert asyncio.run(branches()) == (["first", "second"], ["timed out", "timed out"])


def test_a_stop_during_an_attempt_cancels_it_rather_than_timing_it_out() -> None:
    async def stopped() -> None:
        deadlines = Deadlines()
        started = asyncio.Event()
        task = asyncio.ensure_future(_until_cancelled(deadlines, deadlines.loop.time() + 3600, started))
        await started.wait()
        task.cancel()  # Ctrl+C, a cancel, a branch's stop
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(stopped())


def test_a_stop_racing_the_deadline_still_cancels() -> None:
    async def raced() -> None:
        deadlines = Deadlines()
        started = asyncio.Event()
        task = asyncio.ensure_future(_until_cancelled(deadlines, deadlines.loop.time() + 3600, started))
        await started.wait()
        (watch,) = deadlines.watches
        watch.reschedule(deadlines.loop.time() - 1)  # due: the timer fires on a next turn of the loop
        while not watch.expired:
            await asyncio.sleep(0)  # one turn of the loop
        assert not task.done()  # expired: its task is cancelled, and has not run since
        task.cancel()  # a stop before it runs: two cancellations, one of them not the deadline's
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(raced())


def test_moving_a_deadline_forward_arms_nothing() -> None:
    async def attempts() -> tuple[int, list[str]]:
        deadlines = Deadlines()
        loop = deadlines.loop
        armed = count_timers(loop)
        found: list[str] = []
        for index in range(50):  # one attempt after another, each with a later deadline than the one armed
            with deadlines.watch(loop.time() + 600 + index) as watch:
                watch.reschedule(loop.time() + 700 + index)
                await asyncio.sleep(0)
            found.append("ended")
        return len(armed), found

    timers, found = asyncio.run(attempts())
    assert (timers, found) == (1, ["ended"] * 50)


def test_a_watch_needs_a_task() -> None:
    def outside() -> None:
        loop = asyncio.new_event_loop()
        try:
            deadlines = loop.run_until_complete(_made())
            with pytest.raises(RuntimeError):
                deadlines.watch(0.0)
        finally:
            loop.close()

    outside()


async def _made() -> Deadlines:
    return Deadlines()
