"""Progress off a terminal (a CI log, a pipe): lines held a moment while the run's event loop runs, written
together, in order, none lost (``views.held_lines``, issue 29). The event loop's clock is a fake one: time moves
only when the test moves it, and no test sleeps."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable

from alphred.engine import RecordStep, RunFinished, RunStatus, StartPhase, StepOutcome
from alphred.runtime.attempt_context import AttemptStats
from alphred.views.held_lines import HOLD_SECONDS, flush_held, held_for
from alphred.views.observers import RunObservers
from alphred.views.progress import Progress


class Pipe(io.StringIO):
    """A stream that counts its writes (each one a write to the pipe and a wake-up of its reader)."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


class FakeClockLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock moves only by ``advance``."""

    now = 1000.0

    def time(self) -> float:
        return self.now


def on_fake_loop(test: Callable[[FakeClockLoop], Awaitable[None]]) -> None:
    loop = FakeClockLoop()
    try:
        loop.run_until_complete(test(loop))
    finally:
        loop.close()


async def advance(loop: FakeClockLoop, seconds: float) -> None:
    """Move the loop's clock on and let it run what is due (a few turns: ``call_later`` handles, then tasks)."""
    loop.now += seconds
    for _ in range(3):
        await asyncio.sleep(0)


class State:
    steps = 1
    tokens = 0


def test_lines_are_held_while_the_loop_runs_then_written_together_in_order() -> None:
    pipe = Pipe()
    progress = Progress(stream=pipe, run_id=7)

    async def run(loop: FakeClockLoop) -> None:
        for attempt in range(1, 4):
            progress.phase_started(StartPhase("review", attempt, attempt), "agent", State())  # type: ignore[arg-type]
            step = RecordStep("review", attempt, StepOutcome.COMPLETED, "approved", "fix")
            progress.step_finished(step, AttemptStats())
        assert pipe.getvalue() == "" and pipe.writes == 0  # six lines, none written yet
        await advance(loop, HOLD_SECONDS * 0.9)
        assert pipe.getvalue() == ""
        await advance(loop, HOLD_SECONDS * 0.2)  # the first line has waited HOLD_SECONDS: all six go out
        assert pipe.writes == 1
        lines = pipe.getvalue().splitlines()
        assert [line.split("] ", 1)[1][:28] for line in lines] == [
            "▶ review (agent) attempt 1, ",
            "✓ review attempt 1 completed",
            "▶ review (agent) attempt 2, ",
            "✓ review attempt 2 completed",
            "▶ review (agent) attempt 3, ",
            "✓ review attempt 3 completed",
        ]
        progress.note("later")  # the next line arms the timer again
        assert pipe.getvalue().count("\n") == 6
        await advance(loop, HOLD_SECONDS)
        assert pipe.getvalue().endswith("] later\n") and pipe.writes == 2

    on_fake_loop(run)


def test_flush_writes_at_once_what_is_held_and_the_timer_writes_nothing_twice() -> None:
    pipe = Pipe()
    observers = RunObservers(3, Progress(stream=pipe, run_id=3))

    async def run(loop: FakeClockLoop) -> None:
        observers.note("one")
        observers.run_finished(RunFinished(RunStatus.COMPLETED), None)
        assert pipe.getvalue() == ""
        observers.flush()  # the runner's drive ends: the closing block is written next, by someone else
        assert pipe.getvalue().splitlines()[-1].endswith("✓ run completed") and pipe.writes == 1
        await advance(loop, HOLD_SECONDS * 2)
        assert pipe.writes == 1 and pipe.getvalue().count("\n") == 2

    on_fake_loop(run)


def test_progress_objects_on_one_stream_keep_their_order() -> None:
    """The operations make a ``Progress`` per use (a note before the drive, the run's own, one after): they share
    the stream's held lines, so a line written at once never overtakes one held."""
    pipe = Pipe()
    first, second = Progress(stream=pipe, run_id=1), Progress(stream=pipe, run_id=1)

    async def run(loop: FakeClockLoop) -> None:
        first.note("held")
        second.note("after it")
        assert pipe.getvalue() == ""
        await advance(loop, HOLD_SECONDS)

    on_fake_loop(run)
    assert [line.split("] ", 1)[1] for line in pipe.getvalue().splitlines()] == ["held", "after it"]
    third = Progress(stream=pipe, run_id=1)
    third.note("no loop: at once")
    assert pipe.getvalue().endswith("] no loop: at once\n")


def test_a_line_held_when_its_loop_ended_goes_out_before_the_next_one() -> None:
    """A loop that closed with its timer armed never fires it: the next line, written without a loop (or on
    another loop), writes the held one first; ``atexit`` writes what nothing wrote."""
    pipe = Pipe()
    progress = Progress(stream=pipe, run_id=2)

    async def hold(loop: FakeClockLoop) -> None:
        progress.note("held by a loop that ends")

    on_fake_loop(hold)
    assert pipe.getvalue() == ""
    on_fake_loop(hold)  # on another loop: the first loop's line goes out now, with this one
    assert pipe.getvalue().count("held by a loop that ends") == 2
    progress.note("without a loop")
    assert [line.split("] ", 1)[1] for line in pipe.getvalue().splitlines()] == [
        "held by a loop that ends",
        "held by a loop that ends",
        "without a loop",
    ]
    other = Pipe()

    async def leave(loop: FakeClockLoop) -> None:
        Progress(stream=other, run_id=4).note("left at exit")

    on_fake_loop(leave)
    assert other.getvalue() == ""
    flush_held()  # what ``atexit`` runs
    assert other.getvalue().endswith("] left at exit\n")


def test_a_terminal_and_a_disabled_progress_hold_nothing() -> None:
    class Terminal(Pipe):
        def isatty(self) -> bool:
            return True

    terminal, quiet = Terminal(), Pipe()

    async def run(loop: FakeClockLoop) -> None:
        Progress(stream=terminal, run_id=1, environ={"COLUMNS": "100"}).note("drawn now")
        Progress(enabled=False, stream=quiet).note("never")

    on_fake_loop(run)
    assert "drawn now" in terminal.getvalue() and quiet.getvalue() == ""
    held_for(quiet).flush()
    assert quiet.getvalue() == ""


def test_a_reader_gone_stops_nothing() -> None:
    """A broken pipe (the log's reader gone) loses the lines, never the run: the timer's write raises nothing."""

    class Broken(Pipe):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    broken = Broken()
    progress = Progress(stream=broken, run_id=5)

    async def run(loop: FakeClockLoop) -> None:
        progress.note("to nobody")
        await advance(loop, HOLD_SECONDS)
        progress.flush()

    on_fake_loop(run)
    progress.note("without a loop, to nobody")


def test_a_stream_that_cannot_be_referenced_weakly_is_shared_too() -> None:
    class Slotted:
        """A text stream with ``__slots__``: no weak reference to it."""

        __slots__ = ("text",)

        def __init__(self) -> None:
            self.text = ""

        def write(self, text: str) -> int:
            self.text += text
            return len(text)

        def flush(self) -> None:
            pass

        def isatty(self) -> bool:
            return False

    stream = Slotted()
    first, second = Progress(stream=stream, run_id=6), Progress(stream=stream, run_id=6)  # type: ignore[arg-type]

    async def run(loop: FakeClockLoop) -> None:
        first.note("one")
        second.note("two")
        assert stream.text == ""
        await advance(loop, HOLD_SECONDS)

    on_fake_loop(run)
    assert [line.split("] ", 1)[1] for line in stream.text.splitlines()] == ["one", "two"]
