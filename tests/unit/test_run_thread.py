"""A run's own worker thread (``runtime.run_thread``, issue 29): what is awaited behaves as ``asyncio.to_thread``'s
(the result, the exception, the caller's context, a cancelled wait leaving the call to end), and a call is never
made to wait for another that ``to_thread`` would have run beside it."""

from __future__ import annotations

import asyncio
import contextvars
import threading

import pytest

from alphred.runtime.run_thread import RunThread, hop

pytestmark = pytest.mark.quick

NAME: contextvars.ContextVar[str] = contextvars.ContextVar("name", default="unset")


def where() -> tuple[str, str]:
    return threading.current_thread().name, NAME.get()


def test_a_call_runs_in_the_run_thread_with_the_callers_context() -> None:
    async def main() -> tuple[tuple[str, str], tuple[str, str]]:
        run_thread = RunThread()
        NAME.set("the attempt's")
        try:
            first = await run_thread.call(where)
            second = await run_thread.call(where)  # the same thread again, once the first is settled
        finally:
            run_thread.close()
        run_thread.join()
        return first, second

    assert asyncio.run(main()) == (("alphred-run", "the attempt's"), ("alphred-run", "the attempt's"))


def test_an_exception_reaches_the_awaiting_coroutine() -> None:
    def fails() -> None:
        raise ValueError("no")

    def stops() -> None:
        raise StopIteration

    async def main() -> list[str]:
        run_thread = RunThread()
        seen = []
        for call in (fails, stops):
            try:
                await run_thread.call(call)
            except Exception as exc:
                seen.append(f"{type(exc).__name__}: {exc}")
        run_thread.close()
        return seen

    assert asyncio.run(main()) == ["ValueError: no", "RuntimeError: StopIteration raised in the run's thread"]


def test_a_call_while_the_thread_is_busy_runs_beside_it() -> None:
    """A cancelled wait leaves its call running (as ``to_thread`` does); the next call does not queue behind it."""
    release = threading.Event()
    ended = threading.Event()

    def blocks() -> str:
        release.wait(30)
        ended.set()
        return "late"

    async def main() -> tuple[str, bool]:
        run_thread = RunThread()
        waiting = asyncio.ensure_future(run_thread.call(blocks))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        beside = await run_thread.call(where)  # the run thread is still in ``blocks``: to_thread's thread
        release.set()
        run_thread.close()
        await asyncio.to_thread(run_thread.join)
        return beside[0], ended.is_set()

    name, ended_first = asyncio.run(main())
    assert name != "alphred-run"
    assert ended_first  # the abandoned call ran to its end before the thread did


def test_after_close_and_on_another_loop_calls_go_to_to_thread() -> None:
    run_thread = RunThread()

    async def first() -> str:
        return (await run_thread.call(where))[0]

    async def closed() -> str:
        run_thread.close()
        return (await run_thread.call(where))[0]

    other = RunThread()

    async def on_loop() -> str:
        return (await other.call(where))[0]

    assert asyncio.run(first()) == "alphred-run"
    assert asyncio.run(on_loop()) == "alphred-run"
    assert asyncio.run(on_loop()) != "alphred-run"  # another loop than the one the thread serves
    assert asyncio.run(closed()) != "alphred-run"
    run_thread.join()
    other.close()
    other.join()


def test_hop_without_a_run_thread_is_to_thread() -> None:
    async def main() -> tuple[str, str]:
        NAME.set("kept")
        return await hop(None, where)

    name, value = asyncio.run(main())
    assert name != "alphred-run"
    assert value == "kept"
