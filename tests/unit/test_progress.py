"""Progress on stderr: plain lines off a terminal, a live status line on one."""

from __future__ import annotations

import io

from alphred.engine import RecordStep, RunFinished, RunStatus, StartPhase, StepOutcome
from alphred.runtime.phase import AttemptStats
from alphred.runtime.progress import CLEAR_LINE, Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_lines_when_not_a_terminal() -> None:
    stream = io.StringIO()
    progress = Progress(stream=stream, run_id=3)
    progress.note("hello")
    progress.step_finished(RecordStep("review", 2, StepOutcome.FAILED, None, None, "timeout"), AttemptStats())
    progress.run_finished(RunFinished(RunStatus.FAILED, "retries_exhausted"))
    lines = stream.getvalue().splitlines()
    assert not progress.live and CLEAR_LINE not in stream.getvalue()
    assert lines[0].startswith("[run 3 +") and lines[0].endswith("] hello")
    assert "✗ review attempt 2 failed · reason timeout" in lines[1]
    assert lines[2].endswith("run failed (retries_exhausted)")


def test_live_status_line_on_a_terminal() -> None:
    stream = Terminal()
    progress = Progress(stream=stream, run_id=1)
    assert progress.live

    class State:
        steps = 1
        tokens = 40

    progress.phase_started(StartPhase("implement", 1, 1), "agent", State())  # type: ignore[arg-type]
    progress.tick()
    text = stream.getvalue()
    assert text.rstrip().endswith("run 40 tokens") and "⟳ implement (agent) attempt 1" in text
    progress.step_finished(RecordStep("implement", 1, StepOutcome.COMPLETED, None, "review"), AttemptStats())
    after = stream.getvalue()[len(text) :]
    assert after.startswith(CLEAR_LINE) and "✓ implement attempt 1 completed" in after
    assert "⟳" not in after  # nothing is active any more: no status line is redrawn


def test_disabled_progress_writes_nothing() -> None:
    stream = Terminal()
    progress = Progress(enabled=False, stream=stream)
    progress.note("x")
    progress.tick()
    assert stream.getvalue() == "" and not progress.live
