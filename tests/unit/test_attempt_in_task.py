"""An attempt's work runs in the run loop's own task, not a task made for it (``Runner._work``, issue 29): a stop
still cancels the work, and the cancellation it requested never reaches the loop's later awaits (its
transactions), however the work ends."""

from __future__ import annotations

import asyncio
import functools
from types import SimpleNamespace
from typing import Any

import pytest

from alphred.engine import PhaseCompleted
from alphred.runtime.attempt_context import AttemptStats
from alphred.runtime.attempts import Active
from alphred.runtime.runner import Runner

pytestmark = pytest.mark.quick

DONE = PhaseCompleted("a", 1)


def runner_part(stop: str | None = None) -> Any:
    """The part of a ``Runner`` that ``_work`` reads: its supervisor's stop reason and ``_stop_taken``."""
    part = SimpleNamespace(supervisor=SimpleNamespace(stop=stop))
    part._stop_taken = functools.partial(Runner._stop_taken, part)
    return part


def active() -> Active:
    return Active("a", 1, None, AttemptStats())


async def awaits_after(work: Any, runner: Any, attempt: Active) -> tuple[str, int]:
    """``_work`` then an await of the loop's own (a transaction's hop): what happened, and the task's count of
    cancellations requested and not taken back."""
    task = asyncio.current_task()
    assert task is not None
    try:
        ended = f"returned {type(await Runner._work(runner, work, attempt)).__name__}"
    except asyncio.CancelledError:
        ended = "cancelled"
    try:
        await asyncio.sleep(0)  # the loop's next await
    except asyncio.CancelledError:
        return ended + ", then the next await was cancelled", task.cancelling()
    return ended, task.cancelling()


def test_a_stop_while_the_work_awaits_cancels_it_and_is_taken_back() -> None:
    async def main() -> tuple[tuple[str, int], bool, object]:
        attempt, runner = active(), runner_part()
        reached = asyncio.Event()
        cleaned = []

        async def work() -> PhaseCompleted:
            try:
                reached.set()
                await asyncio.Event().wait()
            finally:
                cleaned.append(True)
            return DONE

        async def stopper() -> None:
            await reached.wait()
            attempt.stopped = True  # StopPhase: ``Attempts.stop``
            attempt.stop()
            attempt.stop()  # asked twice (an interrupt, then a cancel): both taken back

        helper = asyncio.ensure_future(stopper())
        found = await awaits_after(work(), runner, attempt)
        await helper
        return found, bool(cleaned), attempt.task

    assert asyncio.run(main()) == (("cancelled", 0), True, None)


def test_a_stop_in_the_last_step_of_the_work_is_taken_before_the_loop_awaits_again() -> None:
    """A stop requested from inside the work as it returns (a child run stopping its parent) leaves the task's
    cancellation due with no await left in the work: it must not land in the loop's next await."""

    async def main() -> tuple[str, int]:
        attempt, runner = active(), runner_part()

        async def work() -> PhaseCompleted:
            runner.supervisor.stop = "interrupt"  # ``Supervisor.request_stop``: the reason, then the attempts
            attempt.stop()
            return DONE

        return await awaits_after(work(), runner, attempt)

    assert asyncio.run(main()) == ("returned PhaseCompleted", 0)


def test_a_stop_as_the_work_raises_is_taken_too() -> None:
    async def main() -> tuple[str, int]:
        attempt, runner = active(), runner_part()

        async def work() -> PhaseCompleted:
            attempt.stopped = True
            attempt.stop()
            raise RuntimeError("the runtime failed")

        task = asyncio.current_task()
        assert task is not None
        with pytest.raises(RuntimeError):
            await Runner._work(runner, work(), attempt)
        await asyncio.sleep(0)  # not cancelled
        return "ok", task.cancelling()

    assert asyncio.run(main()) == ("ok", 0)


def test_a_cancellation_that_is_no_stop_goes_on() -> None:
    """The run's task cancelled from outside (no stop asked): the work is cancelled and the cancellation is
    left to the caller, as an attempt's own task passed it on."""

    async def main() -> tuple[str, int, bool]:
        attempt, runner = active(), runner_part()
        reached = asyncio.Event()

        async def work() -> PhaseCompleted:
            reached.set()
            await asyncio.Event().wait()
            return DONE

        async def drive() -> str:
            try:
                await Runner._work(runner, work(), attempt)
            except asyncio.CancelledError:
                return f"cancelled, {asyncio.current_task().cancelling()} left"  # type: ignore[union-attr]
            return "returned"

        task = asyncio.ensure_future(drive())
        await reached.wait()
        task.cancel()
        found = await task
        return found, 0, attempt.task is None

    assert asyncio.run(main()) == ("cancelled, 1 left", 0, True)


def test_the_work_runs_in_the_callers_task() -> None:
    async def main() -> bool:
        attempt, runner = active(), runner_part()
        seen: list[asyncio.Task[Any] | None] = []

        async def work() -> PhaseCompleted:
            seen.append(asyncio.current_task())
            seen.append(attempt.task)  # type: ignore[arg-type]
            return DONE

        await Runner._work(runner, work(), attempt)
        return seen == [asyncio.current_task()] * 2 and attempt.task is None

    assert asyncio.run(main())
