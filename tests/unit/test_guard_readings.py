"""Routing explanations (issue 28 item 3): what each guard read, computed by the engine when it routes."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_support import Driver, build_workflow

from alphred.engine import PhaseCompleted, RecordRouting, RunStarted
from alphred.guards import parse_guard
from alphred.guards.explain import SHOWN_CHARS, PathReading, read_paths, show_reading, shown_value
from alphred.views.routing_text import NOT_STORED, explanation_lines, transition_lines


def readings(guard: str, context: dict[str, Any]) -> list[str]:
    return [show_reading(r) for r in read_paths(parse_guard(guard), context)]


def test_a_typo_reads_null_and_names_the_nearest_key() -> None:
    context = {"report": {"risk": "high", "summary": "ok"}, "decision": "changes"}
    assert readings('report.riks == "high" and decision == "approved"', context) == [
        "report.riks = null (no such key; did you mean risk?)",
        'decision = "changes"',
    ]


def test_a_key_with_no_near_name_and_an_empty_object() -> None:
    assert readings("report.zzz", {"report": {"risk": 1}}) == ["report.zzz = null (no such key)"]
    assert readings("report.zzz", {"report": {}}) == ["report.zzz = null (no such key; the object is empty)"]


def test_a_path_through_null_or_a_scalar_says_what_was_there() -> None:
    context = {"report": "plain text report", "exit_code": None}
    assert readings("report.risk", context) == ["report.risk = null (report is a string, not an object)"]
    assert readings("exit_code.x", context) == ["exit_code.x = null (exit_code is null, not an object)"]
    assert readings("report.a.b", {"report": {"a": [1, 2]}}) == [
        "report.a.b = null (report.a is a list, not an object)"
    ]


def test_a_present_null_has_no_note_and_each_path_is_read_once() -> None:
    context = {"report": {"risk": None}, "visits": 2}
    assert readings("report.risk == null or (visits > 1 and report.risk != 1)", context) == [
        "report.risk = null",
        "visits = 2",
    ]


def test_long_values_are_cut_and_odd_values_are_shown() -> None:
    long = shown_value({"text": "x" * 500})
    assert len(long) == SHOWN_CHARS and long.endswith("…")
    assert shown_value(float("nan")) == "nan"
    circular: list[Any] = []
    circular.append(circular)
    assert shown_value(circular) == "<list>"
    assert shown_value(("a", 1, True)) == '["a", 1, true]'


class Exploding(dict[str, Any]):
    def __contains__(self, key: object) -> bool:
        raise RuntimeError("boom")


def test_a_mapping_that_raises_reads_null() -> None:
    assert read_paths(parse_guard("report.x"), {"report": Exploding()}) == (
        PathReading("report.x", "null", "report cannot be read"),
    )


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=12,
)


@settings(deadline=None, max_examples=200)
@given(report=json_values, name=st.sampled_from(["risk", "riks", "a", "x"]))
def test_reading_never_raises_and_agrees_with_the_evaluator(report: Any, name: str) -> None:
    from alphred.guards import evaluate_value

    guard = parse_guard(f"report.{name}.a == 1")
    (reading,) = read_paths(guard, {"report": report})
    value = evaluate_value(parse_guard(f"report.{name}.a"), {"report": report})
    assert reading.path == f"report.{name}.a"
    assert (reading.value == "null") == (value is None)
    assert (reading.note is not None) <= (value is None)


def test_no_route_stores_every_guard_tried_with_what_it_read() -> None:
    wf = build_workflow(
        {
            "review": {
                "decisions": ("approved", "changes"),
                "to": [("fix", 'report.riks == "high"'), ("$end", 'decision == "approved"')],
            },
            "fix": {},
        }
    )
    d = Driver(wf)
    d.send(RunStarted())
    effects = d.send(PhaseCompleted("review", 1, decision="changes", report={"risk": "high"}))
    (routing,) = [e for e in effects if isinstance(e, RecordRouting)]
    assert routing.target == "no_route"
    assert routing.explanation == (
        {
            "priority": 1, "to": "fix", "when": 'report.riks == "high"', "result": "no match",
            "reads": [{"path": "report.riks", "value": "null", "note": "no such key; did you mean risk?"}],
        },
        {
            "priority": 2, "to": "$end", "when": 'decision == "approved"', "result": "no match",
            "reads": [{"path": "decision", "value": '"changes"', "note": None}],
        },
    )  # fmt: skip


def test_the_explanation_stops_at_the_chosen_transition_and_names_exhausted_ones() -> None:
    wf = build_workflow(
        {"t": {"type": "command", "to": [("t", "exit_code != 0", 1), ("$end", None), ("x", None)]}, "x": {}}
    )
    d = Driver(wf)
    d.send(RunStarted())
    first = next(e for e in d.send(PhaseCompleted("t", 1, exit_code=1)) if isinstance(e, RecordRouting))
    assert [(e["to"], e["result"]) for e in first.explanation] == [("t", "matched")]
    second = next(e for e in d.send(PhaseCompleted("t", 2, exit_code=1)) if isinstance(e, RecordRouting))
    assert [(e["to"], e["result"], e.get("taken")) for e in second.explanation] == [
        ("t", "exhausted", 1),
        ("$end", "matched", None),
    ]
    lines = [line for entry in second.explanation for line in transition_lines(entry, 1)]
    assert lines == [
        "  - when exit_code != 0 → t: exhausted (its max was reached: taken 1 times)",
        "       exit_code = 1",
        "  - auto → $end: matched",
    ]


def test_a_plain_auto_transition_has_nothing_to_explain() -> None:
    d = Driver(build_workflow({"a": {"to": ["b"]}, "b": {}}))
    d.send(RunStarted())
    (routing,) = [e for e in d.send(PhaseCompleted("a", 1)) if isinstance(e, RecordRouting)]
    assert routing.explanation == ()


def test_a_routing_without_a_stored_explanation_says_so() -> None:
    from datetime import UTC, datetime

    from alphred.store.records import RoutingRecord

    def route(target: str, priority: int | None) -> RoutingRecord:
        return RoutingRecord(1, 1, 1, "a", 1, None, target, priority, None, None, datetime.now(UTC), None)

    assert explanation_lines(route("no_route", None)) == [f"  {NOT_STORED}"]
    assert explanation_lines(route("b", 1)) == ["  its first transition is `auto`: taken without a guard"]
