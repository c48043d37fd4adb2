"""The progress view with parallel branches (SPEC §8): several running phases, lane-tagged lines, one live line."""

from __future__ import annotations

import asyncio
import io
import re
import threading

from alphred.engine import RecordStep, RunFinished, RunStatus, StartPhase, StepOutcome
from alphred.runtime.phase import AttemptStats
from alphred.views.progress import CLEAR_LINE, Progress
from alphred.views.style import display_width


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class State:
    steps = 2
    tokens = 500


STATE = State()
LINE = re.compile(r"^\[run 4 \+ *\d+\.\ds\] (\[\w+\] )?[▶✓✗‖■•] .+$")


def visible_lines(text: str) -> list[str]:
    """What a terminal shows, line by line: escapes dropped, each ``\\r`` restarting the line."""
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)
    return [segment.split("\r")[-1] for segment in text.split("\n")]


def start(progress: Progress, phase: str, lane: str | None, attempt: int = 1) -> None:
    progress.phase_started(StartPhase(phase, attempt, 1, lane), "agent", STATE)  # type: ignore[arg-type]


def finish(progress: Progress, phase: str, lane: str | None, outcome: StepOutcome = StepOutcome.COMPLETED) -> None:
    progress.step_finished(RecordStep(phase, 1, outcome, "approved", "verdict", branch=lane), AttemptStats(tokens=10))


def test_off_a_terminal_lines_of_a_branch_start_with_its_head_and_stay_whole() -> None:
    stream = io.StringIO()
    progress = Progress(stream=stream, run_id=4, environ={"COLUMNS": "30"})
    start(progress, "scope", None)
    finish(progress, "scope", None)
    for head in ("security", "tests", "style"):
        start(progress, head, head)
    finish(progress, "tests", "tests")
    finish(progress, "security", "security", StepOutcome.CANCELLED)
    progress.note("retrying style", "yellow", branch="style")
    lines = stream.getvalue().splitlines()
    assert CLEAR_LINE not in stream.getvalue() and "⟳" not in stream.getvalue()
    assert all(LINE.match(line) for line in lines), lines
    assert "] ▶ scope (agent) attempt 1, visit 1" in lines[0]  # the run branch: no tag
    # a branch counts its own steps: three branches started at once are each at their first, not all at "step 4"
    assert "] [security] ▶ security (agent) attempt 1, visit 1 · branch step 1 · 500 tokens" in lines[2]
    assert [line.split(" · ")[1] for line in lines[2:5]] == ["branch step 1"] * 3
    assert "] [tests] ✓ tests attempt 1 completed · decision approved · → verdict" in lines[5]
    assert "] [security] ■ security attempt 1 cancelled" in lines[6]
    assert lines[7].endswith("] [style] • retrying style")
    assert max(display_width(line) for line in lines) > 30  # off a terminal nothing is cut
    assert progress.running() == [("style", 1)]
    start(progress, "style", "style", attempt=2)
    assert "] [style] ▶ style (agent) attempt 2, visit 1 · branch step 2 · " in stream.getvalue().splitlines()[-1]


def test_the_live_line_lists_every_running_phase_and_fits_the_terminal() -> None:
    stream = Terminal()
    progress = Progress(stream=stream, run_id=4, environ={"NO_COLOR": "1", "COLUMNS": "200"})
    for head in ("security", "tests", "style"):
        start(progress, head, head)
    progress.tick()
    live = visible_lines(stream.getvalue())[-1]
    assert live.startswith("⟳ 3 running: [security] security (agent) attempt 1 ")
    assert "[tests] tests (agent) attempt 1" in live and "[style] style (agent) attempt 1" in live
    assert live.endswith("· run 500 tokens")
    finish(progress, "tests", "tests")
    shown = visible_lines(stream.getvalue())
    assert "[tests] ✓ tests attempt 1 completed" in shown[-2]  # the line, then the live line below it
    assert shown[-1].startswith("⟳ 2 running: [security] security") and "tests (agent)" not in shown[-1]
    assert shown[-1].endswith("· run 510 tokens")
    finish(progress, "security", "security")
    assert visible_lines(stream.getvalue())[-1].startswith("⟳ [style] style (agent) attempt 1 · ")
    progress.run_finished(RunFinished(RunStatus.COMPLETED, None))
    assert progress.running() == [] and "⟳" not in visible_lines(stream.getvalue())[-1]


def test_on_a_narrow_terminal_no_line_wraps_and_the_tokens_stay_visible() -> None:
    for columns in (20, 45, 60, 80):
        stream = Terminal()
        progress = Progress(stream=stream, run_id=4, environ={"COLUMNS": str(columns), "TERM": "xterm"})
        heads = ("security_review_of_everything", "tests_review", "style", "docs", "界面审查")
        for head in heads:
            start(progress, head, head)
            progress.tick()
        progress.note("a note that is much longer than the terminal, so it must be cut to fit the terminal")
        finish(progress, "style", "style", StepOutcome.FAILED)
        shown = visible_lines(stream.getvalue())
        for line in shown:
            assert display_width(line) <= columns - 1, (columns, line)
        live = shown[-1]
        assert live.startswith("⟳ 4 running: ")
        if columns >= 60:
            assert live.endswith(" · run 510 tokens") and "securit" in live
        if columns == 60:
            assert ", +" in live  # the phases that do not fit are counted
        if columns >= 80:
            assert "docs" in live and "界" in live


def test_lane_tasks_on_one_event_loop_never_interleave_lines() -> None:
    stream = Terminal()
    progress = Progress(stream=stream, run_id=4, environ={"NO_COLOR": "1", "COLUMNS": "300"})

    async def lane(head: str) -> None:
        for attempt in range(1, 6):
            progress.phase_started(StartPhase(head, attempt, attempt, head), "agent", STATE)  # type: ignore[arg-type]
            await asyncio.sleep(0)
            progress.tick()
            await asyncio.sleep(0)
            progress.step_finished(RecordStep(head, attempt, StepOutcome.COMPLETED, branch=head), AttemptStats())

    async def main() -> None:
        await asyncio.gather(*(lane(head) for head in ("a", "b", "c", "d")))

    asyncio.run(main())
    lines = [line for line in visible_lines(stream.getvalue()) if line and not line.startswith("⟳")]
    assert len(lines) == 40
    assert all(LINE.match(line) for line in lines), lines
    for head in "abcd":
        mine = [line for line in lines if f"[{head}] " in line]
        assert [line.split("] ", 2)[2][:1] for line in mine] == ["▶", "✓"] * 5
    assert progress.running() == []


def test_threads_writing_at_once_keep_every_line_whole() -> None:
    stream = Terminal()
    progress = Progress(stream=stream, run_id=4, environ={"NO_COLOR": "1", "COLUMNS": "300"})
    go = threading.Barrier(4)

    def lane(head: str) -> None:
        go.wait()
        for attempt in range(1, 31):
            start(progress, head, head, attempt)
            progress.tick()
            progress.step_finished(RecordStep(head, attempt, StepOutcome.COMPLETED, branch=head), AttemptStats())

    threads = [threading.Thread(target=lane, args=(head,)) for head in ("a", "b", "c", "d")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = [line for line in visible_lines(stream.getvalue()) if line and not line.startswith("⟳")]
    assert len(lines) == 240 and all(LINE.match(line) for line in lines)


def test_one_phase_on_the_run_branch_keeps_the_single_phase_live_line() -> None:
    stream = Terminal()
    progress = Progress(stream=stream, run_id=4, environ={"NO_COLOR": "1", "COLUMNS": "200"})
    start(progress, "implement", None)
    progress.tick()
    assert visible_lines(stream.getvalue())[-1].startswith("⟳ implement (agent) attempt 1 · ")


def test_the_running_items_of_a_for_each_are_one_entry_of_the_live_line() -> None:
    stream = Terminal()
    progress = Progress(stream=stream, run_id=4, environ={"NO_COLOR": "1", "COLUMNS": "200"})
    for index in range(3):
        start(progress, f"implement-{index}", f"implement-{index}")
    start(progress, "docs", "docs")
    progress.tick()
    live = visible_lines(stream.getvalue())[-1]
    assert live.startswith("⟳ 4 running: implement ×3 ") and "[docs] docs (agent) attempt 1" in live
    assert "implement-1" not in live
    finish(progress, "implement-0", "implement-0")
    finish(progress, "implement-1", "implement-1")
    live = visible_lines(stream.getvalue())[-1]
    assert live.startswith("⟳ 2 running: [implement-2] implement-2 (agent) attempt 1 ")  # one item: itself
