"""Progress on stderr: plain lines off a terminal, a live status line on one."""

from __future__ import annotations

import io
import re

from alphred.engine import RecordStep, RunFinished, RunStatus, StartPhase, StepOutcome
from alphred.runtime.phase import AttemptStats
from alphred.views.progress import CLEAR_LINE, Progress
from alphred.views.style import display_width, fit


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
    progress = Progress(stream=stream, run_id=1, environ={"NO_COLOR": "1", "COLUMNS": "200"})
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


class State:
    steps = 3
    tokens = 123_456


def visible_lines(text: str) -> list[str]:
    """What a terminal shows, line by line: escapes dropped, each ``\\r`` restarting the line."""
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)
    return [segment.split("\r")[-1] for segment in text.split("\n")]


def test_every_line_fits_a_60_column_terminal() -> None:
    stream = Terminal()
    progress = Progress(stream=stream, run_id=12, environ={"COLUMNS": "60", "TERM": "xterm"})
    long = "a_phase_with_a_really_long_name_that_goes_on_and_on"
    progress.phase_started(StartPhase(long, 2, 3), "command", State())  # type: ignore[arg-type]
    progress.tick()
    progress.note("a note that is much longer than sixty columns, so it must be cut to fit the terminal")
    stats = AttemptStats(message="command exited with 3")
    stats.output_tail = "E   AssertionError: " + "x" * 100 + "\nFAILED tests/test_a_very_long_file_name.py::test_x\n"
    progress.step_finished(RecordStep(long, 2, StepOutcome.FAILED, None, None, "exit_code"), stats)
    progress.run_finished(RunFinished(RunStatus.FAILED, "retries_exhausted"))
    shown = visible_lines(stream.getvalue())
    assert len(shown) >= 5
    for line in shown:
        assert display_width(line) <= 60, line
    assert any(line.endswith("…") for line in shown)  # cut, and says so
    assert "\x1b[" in stream.getvalue()  # a terminal without NO_COLOR gets colour


def test_no_color_and_non_terminals_get_no_escapes() -> None:
    for stream, env in ((Terminal(), {"NO_COLOR": "1"}), (io.StringIO(), {})):
        progress = Progress(stream=stream, run_id=1, environ=env)
        progress.step_finished(RecordStep("x", 1, StepOutcome.FAILED, None, None, "exit_code"), AttemptStats())
        assert "\x1b[3" not in stream.getvalue() and "\x1b[1" not in stream.getvalue()


def test_plain_lines_are_whole_and_a_failed_command_shows_its_tail() -> None:
    stream = io.StringIO()
    progress = Progress(stream=stream, run_id=1, environ={"COLUMNS": "40"})
    stats = AttemptStats(message="command exited with 3")
    stats.details["exit_code"] = 3
    stats.output_tail = "line 1\nline 2\nline 3\nFAILED test_x - assert 1 == 2\n"
    progress.step_finished(RecordStep("tests", 1, StepOutcome.FAILED, None, None, "exit_code"), stats)
    text = stream.getvalue()
    assert "✗ tests attempt 1 failed · exit code 3 · " in text and "command exited with 3" not in text
    assert "│ FAILED test_x - assert 1 == 2" in text and "line 1" not in text  # the last 3 lines
    assert max(len(line) for line in text.splitlines()) > 40  # off a terminal nothing is cut


def test_an_allowed_failure_shows_its_exit_code() -> None:
    stream = io.StringIO()
    stats = AttemptStats()
    stats.details["exit_code"] = 1
    Progress(stream=stream, run_id=1).step_finished(RecordStep("tests", 1, StepOutcome.COMPLETED, None, "fix"), stats)
    assert "✓ tests attempt 1 completed · exit code 1 (allowed) · → fix" in stream.getvalue()


def test_fit_counts_wide_characters() -> None:
    assert fit("abc", 3) == "abc" and fit("abcd", 3) == "ab…"
    assert display_width(fit("界" * 10, 7)) <= 7


def test_at_80_columns_a_long_routing_line_goes_on_below_and_nothing_is_cut() -> None:
    stream = Terminal()
    progress = Progress(stream=stream, run_id=10, environ={"COLUMNS": "80", "NO_COLOR": "1"})
    stats = AttemptStats(tokens=12_345)
    stats.details["exit_code"] = 1
    step = RecordStep("security_review", 3, StepOutcome.COMPLETED, "changes_requested", "implement_the_fix")
    progress.step_finished(step, stats)
    shown = [line for line in visible_lines(stream.getvalue()) if line]
    assert all(display_width(line) <= 79 for line in shown), shown
    assert re.match(r"\[run 10 \+\d+\.\ds\] ✓ security_review attempt 3 completed · exit code 1 \(allowed\)", shown[0])
    assert shown[1].startswith("    ") and "→ implement_the_fix" in " ".join(shown)  # the routing is all there
    assert "…" not in "".join(shown)
    assert " ".join(part.strip() for part in shown).count("12345 tokens") == 1


def test_the_elapsed_time_in_the_prefix_stays_short() -> None:
    from alphred.views.progress import elapsed_text

    assert [elapsed_text(s) for s in (0.04, 59.94, 65, 3599, 7380)] == [
        "+0.0s",
        "+59.9s",
        "+1m05s",
        "+59m59s",
        "+2h03m",
    ]


def test_the_live_line_shows_the_last_line_the_command_printed_cleaned_and_redacted() -> None:
    from alphred.redact import register_secrets

    register_secrets(["hunter2-secret-value"])
    stream = Terminal()
    progress = Progress(stream=stream, run_id=1, environ={"NO_COLOR": "1", "COLUMNS": "120"})
    progress.phase_started(StartPhase("tests", 1, 1), "command", State())  # type: ignore[arg-type]
    progress.output("tests", 1, "collected 3 items\n")
    progress.output("tests", 1, "\x1b[31mtest_a.py ..\x1b[0m \x07token hunter2-secret-value\n\n")
    progress.output("tests", 1, "   \n")  # a blank line keeps the last one shown
    progress.output("other", 1, "not running: ignored")
    progress.tick()
    live = visible_lines(stream.getvalue())[-1]
    assert live.startswith("⟳ tests (command) attempt 1 · ")
    assert live.endswith(" · run 123456 tokens · │ test_a.py ..  token [REDACTED]"), live
    assert "hunter2" not in stream.getvalue() and "\x07" not in stream.getvalue()


def test_a_command_output_line_reaches_the_live_line_through_the_observer() -> None:
    from alphred.providers import EventType, ProviderEvent
    from alphred.views.observers import RunObservers

    stream = Terminal()
    progress = Progress(stream=stream, run_id=1, environ={"NO_COLOR": "1", "COLUMNS": "120"})
    observers = RunObservers(1, progress)
    progress.phase_started(StartPhase("build", 1, 1), "command", State())  # type: ignore[arg-type]
    observers.provider_event("build", 1, 1, ProviderEvent(EventType.TOOL_USE, "make all"))
    observers.provider_event("build", 1, 2, ProviderEvent(EventType.TOOL_RESULT, "compiling foo.c"))
    progress.tick()
    assert visible_lines(stream.getvalue())[-1].endswith(" · │ compiling foo.c")


def test_a_long_sentence_goes_on_below_between_its_words() -> None:
    stream = Terminal()
    progress = Progress(stream=stream, run_id=3, environ={"COLUMNS": "60", "NO_COLOR": "1"})
    text = "run 3 of longish_workflow_name on branch alphred/longish_workflow_name/3 in .alphred/worktrees/3"
    progress.note(text)
    shown = [line for line in visible_lines(stream.getvalue()) if line]
    assert all(display_width(line) <= 59 for line in shown), shown
    assert re.fullmatch(r"\[run 3 \+\d+\.\ds\] run 3 of longish_workflow_name on branch", shown[0]), shown
    assert " ".join(line.strip() for line in shown).endswith(text)  # every word is there, in order


def test_a_usage_limit_countdown_is_drawn_on_the_live_line_only() -> None:
    from alphred.views.waits import countdown, waiting_note

    stream = Terminal()
    progress = Progress(stream=stream, run_id=1, environ={"NO_COLOR": "1", "COLUMNS": "60"})
    progress.countdown(f"⏸ usage limit · goes on in {countdown(3725.2)} · at 2026-11-26 17:10:00 UTC and more words")
    text = stream.getvalue()
    assert text.startswith(CLEAR_LINE) and "in 1h02m06s" in text and "\n" not in text
    assert display_width(text[len(CLEAR_LINE) :]) <= 59  # cut to the terminal's width
    plain = io.StringIO()
    Progress(stream=plain, run_id=1).countdown("⏸ usage limit")
    assert plain.getvalue() == ""  # off a terminal: no countdown, only the note that says when
    assert countdown(0.2) == "1s" and countdown(61) == "1m01s" and countdown(0) == "0s"
    assert "(in 1h00m00s)" in waiting_note(7200.0, 3600.0) and "Ctrl+C leaves the run waiting" in waiting_note(1, 0)
