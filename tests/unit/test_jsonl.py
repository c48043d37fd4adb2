"""``--events jsonl``: one flushed JSON object per line, each with run, phase, attempt, sequence and type."""

from __future__ import annotations

import io
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from alphred.engine import RecordRouting, RecordStep, RunFinished, RunStatus, StartPhase, StepOutcome
from alphred.providers.base import EventType, ProviderEvent, result_event
from alphred.redact import Redactor
from alphred.views.jsonl import JsonlEvents

KEYS = {"type", "run_id", "phase", "attempt", "sequence", "timestamp"}


class CountingStream(io.StringIO):
    """A text stream that counts flushes."""

    flushes = 0

    def flush(self) -> None:
        self.flushes += 1
        super().flush()


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_a_run_s_lifecycle_and_provider_events() -> None:
    stream = CountingStream()
    events = JsonlEvents(stream, clock=lambda: 0.0)
    events.run_started(3, "demo", "alphred/demo/3")
    events.effect(3, StartPhase("implement", 1, 1))
    on_event = events.provider_callback(3)
    on_event("implement", 1, 1, ProviderEvent(EventType.ASSISTANT, "Working.", timestamp=1.5))
    on_event("implement", 1, 2, result_event("Done.", "approved", report={"ok": True}))
    events.effect(3, RecordStep("implement", 1, StepOutcome.COMPLETED, "approved", "review"))
    events.effect(3, RecordRouting("implement", 1, "approved", "review", 0))
    events.effect(3, RunFinished(RunStatus.COMPLETED))  # not mapped: the caller reports run_finished
    events.run_finished(3, "completed", None, pr_url="https://github.com/a/w/pull/1")
    out = lines(stream)
    assert [line["type"] for line in out] == [
        "run_started", "phase_started", "assistant", "result", "phase_finished", "routed", "run_finished"
    ]  # fmt: skip
    assert all(set(line) >= KEYS and line["run_id"] == 3 for line in out)
    assert stream.flushes == len(out)
    assert out[0] == {
        "type": "run_started", "run_id": 3, "phase": None, "attempt": None, "sequence": None,
        "timestamp": "1970-01-01T00:00:00Z", "workflow": "demo", "branch": "alphred/demo/3",
    }  # fmt: skip
    assert (out[1]["phase"], out[1]["attempt"], out[1]["visit"]) == ("implement", 1, 1)
    assert out[2] == {
        "type": "assistant", "run_id": 3, "phase": "implement", "attempt": 1, "sequence": 1,
        "timestamp": "1970-01-01T00:00:01.500000Z", "content": "Working.", "metadata": None,
    }  # fmt: skip
    assert out[3]["sequence"] == 2 and out[3]["metadata"]["routingDecision"] == "approved"
    assert out[3]["metadata"]["report"] == {"ok": True}
    assert (out[4]["outcome"], out[4]["decision"], out[4]["next"]) == ("completed", "approved", "review")
    assert (out[5]["phase"], out[5]["target"], out[5]["decision"], out[5]["priority"]) == (
        "implement", "review", "approved", 0
    )  # fmt: skip
    assert out[6]["status"] == "completed" and out[6]["pr_url"] == "https://github.com/a/w/pull/1"


def test_secrets_are_redacted_in_content_and_metadata() -> None:
    stream = io.StringIO()
    redactor = Redactor({"MY_API_TOKEN": "tok-1234567890"})
    events = JsonlEvents(stream, redact=redactor.redact)
    event = ProviderEvent(EventType.TOOL_RESULT, "echo tok-1234567890", metadata={"cmd": "x tok-1234567890"})
    events.provider_event(1, "p", 1, 1, event)
    assert "tok-1234567890" not in stream.getvalue() and "[REDACTED]" in stream.getvalue()


def test_a_broken_stream_stops_the_events_not_the_run() -> None:
    stream = io.StringIO()
    events = JsonlEvents(stream)
    stream.close()
    events.run_started(1, "demo", None)
    events.run_finished(1, "completed", None)
    assert events.broken and events.lines == 0


def test_huge_content_is_cut_like_the_stored_copy() -> None:
    stream = io.StringIO()
    JsonlEvents(stream).provider_event(1, "p", 1, 1, ProviderEvent(EventType.ASSISTANT, "x" * 70_000))
    (line,) = lines(stream)
    assert len(line["content"]) < 65_000 and line["content"].endswith("characters cut by alphred]")


@given(
    st.text(), st.dictionaries(st.text(), st.one_of(st.none(), st.integers(), st.text(), st.floats(allow_nan=False)))
)
def test_every_event_is_exactly_one_json_line(content: str, metadata: dict[str, Any]) -> None:
    stream = io.StringIO()
    JsonlEvents(stream).provider_event(2, "p", 3, 4, ProviderEvent(EventType.USAGE, content, metadata=metadata))
    text = stream.getvalue()
    assert text.endswith("\n") and text.count("\n") == 1
    (line,) = lines(stream)
    assert line["content"] == content and (line["run_id"], line["phase"], line["attempt"], line["sequence"]) == (
        2,
        "p",
        3,
        4,
    )


def test_lifecycle_lines_of_a_parallel_branch_carry_its_lane_and_a_fan_out_its_branches() -> None:
    stream = io.StringIO()
    events = JsonlEvents(stream, clock=lambda: 0.0)
    events.effect(4, RecordRouting("plan", 1, None, "a", 1, fan_out=("a", "b")))
    events.effect(4, StartPhase("a", 1, 1, branch="a"))
    events.effect(4, RecordStep("a", 1, StepOutcome.COMPLETED, None, "join", branch="a"))
    events.effect(4, StartPhase("join", 1, 1))
    routed, started, finished, joined = lines(stream)
    assert routed["fan_out"] == ["a", "b"] and routed["target"] == "a" and "lane" not in routed
    assert started["type"] == "phase_started" and started["lane"] == "a" and started["visit"] == 1
    assert finished["lane"] == "a" and finished["next"] == "join"
    assert "lane" not in joined  # the run branch
