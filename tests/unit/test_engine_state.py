"""Run state: status tables, initial state, guard and template contexts, JSON round trip."""

from __future__ import annotations

import json

import pytest
from test_engine_support import Driver, build_workflow

from alphred.engine import (
    NODE_MOVES,
    RUN_MOVES,
    TERMINAL_RUN_STATUSES,
    NodeStatus,
    PhaseCompleted,
    RunStarted,
    RunStatus,
    guard_context,
    initial_state,
    node_move_allowed,
    run_move_allowed,
    state_from_json,
    state_to_json,
    template_context,
)
from alphred.workflow.model import InputSpec

N = NodeStatus
R = RunStatus


def test_run_moves_are_exactly_spec_section_5() -> None:
    assert {(a.value, b.value) for a, b in RUN_MOVES} == {
        ("pending", "running"),
        ("running", "completed"),
        ("running", "failed"),
        ("running", "cancelled"),
        ("running", "paused"),
        ("paused", "running"),
        ("pending", "cancelled"),
        ("paused", "cancelled"),
        ("failed", "running"),
    }
    assert {R.COMPLETED, R.FAILED, R.CANCELLED} == TERMINAL_RUN_STATUSES
    assert run_move_allowed("failed", "running") and not run_move_allowed("completed", "running")


def test_node_moves_are_exactly_spec_section_5() -> None:
    assert {(a.value, b.value) for a, b in NODE_MOVES} == {
        ("pending", "running"),
        ("running", "completed"),
        ("running", "failed"),
        ("running", "pending"),
        ("running", "cancelled"),
        ("pending", "skipped"),
        ("pending", "cancelled"),
        ("failed", "running"),
        ("completed", "pending"),
        ("skipped", "pending"),
    }
    assert not node_move_allowed("pending", "failed")
    assert node_move_allowed(N.SKIPPED, N.PENDING)


def test_initial_state_fills_input_defaults_and_lists_phases_in_file_order() -> None:
    wf = build_workflow(
        {"z": {}, "a": {}},
        inputs=(InputSpec("issue", required=True), InputSpec("style", default="concise")),
    )
    state = initial_state(wf, {"issue": "bug"})
    assert dict(state.inputs) == {"style": "concise", "issue": "bug"}
    assert list(state.phases) == ["z", "a"]
    assert initial_state(wf, {"issue": "x", "style": "long"}).inputs["style"] == "long"
    assert state.status is R.PENDING and state.steps == 0


def test_guard_context_has_every_spec_path() -> None:
    wf = build_workflow(
        {
            "build": {"type": "command", "to": ["review"]},
            "review": {"to": [("$end", 'decision == "approved"')]},
        },
        inputs=(InputSpec("issue"),),
    )
    d = Driver(wf, {"issue": "42"})
    d.send(RunStarted(), PhaseCompleted("build", 1, exit_code=0, tokens=10, cost_usd=0.25))
    d.send(PhaseCompleted("review", 1, decision="approved", report={"score": 3}, tokens=5))
    context = guard_context(d.state, wf, "review")
    assert context == {
        "decision": "approved",
        "report": {"score": 3},
        "exit_code": None,
        "attempt": 1,
        "visits": 1,
        "stalled_visits": 0,  # SPEC §15
        "merge": None,  # SPEC §8: null outside a join and its resolver
        "branches": None,  # SPEC §13: null before the first join
        "checks": {},
        "inputs": {"issue": "42"},
        "phases": {
            "build": {"decision": None, "report": None, "exit_code": 0, "visits": 1, "status": "completed"},
            "review": {
                "decision": "approved",
                "report": {"score": 3},
                "exit_code": None,
                "visits": 1,
                "status": "completed",
            },
        },
        "run": {"tokens": 15, "cost_usd": 0.25, "steps": 2},
    }


def test_guards_read_reports_inputs_and_run_counters() -> None:
    wf = build_workflow(
        {
            "a": {"to": [("b", 'report.verdict == "ok" and inputs.mode == "fast" and run.steps == 1'), "c"]},
            "b": {},
            "c": {},
        },
        inputs=(InputSpec("mode"),),
    )
    d = Driver(wf, {"mode": "fast"})
    d.send(RunStarted(), PhaseCompleted("a", 1, report={"verdict": "ok"}))
    assert d.state.current == "b"
    d = Driver(wf, {"mode": "slow"})
    d.send(RunStarted(), PhaseCompleted("a", 1, report={"verdict": "ok"}))
    assert d.state.current == "c"


def test_template_context_shows_the_phase_that_routed_in() -> None:
    wf = build_workflow({"tests": {"type": "command", "to": ["fix"]}, "fix": {}})
    d = Driver(wf)
    d.send(RunStarted())
    start = template_context(d.state, wf, "tests")
    assert (start["decision"], start["report"], start["exit_code"], start["attempt"]) == (None, None, None, 1)
    d.send(PhaseCompleted("tests", 1, exit_code=2, report="3 failed"))
    context = template_context(d.state, wf, "fix")
    assert (context["exit_code"], context["report"], context["attempt"], context["visits"]) == (
        2,
        "3 failed",
        1,
        0,
    )
    assert context["phases"]["tests"]["status"] == "completed"


def test_json_round_trip_of_a_mid_run_state() -> None:
    wf = build_workflow({"a": {"to": [("a", "visits < 2", 1), "b"]}, "b": {}, "c": {}})
    d = Driver(wf)
    d.send(RunStarted(), PhaseCompleted("a", 1, report={"x": [1, 2]}, tokens=3, cost_usd=0.1))
    d.send(PhaseCompleted("a", 2, report="text"))
    data = json.loads(json.dumps(state_to_json(d.state)))
    assert data["edges"] == [["a", 1, 1], ["a", 2, 1]]
    assert state_from_json(wf, data) == d.state


def test_state_from_json_rejects_data_that_does_not_fit() -> None:
    wf = build_workflow({"a": {}})
    good = state_to_json(initial_state(wf, {}))
    with pytest.raises(ValueError, match="unsupported run state format"):
        state_from_json(wf, {**good, "format": 99})
    with pytest.raises(ValueError, match="does not have: zz"):
        state_from_json(wf, {**good, "phases": {**good["phases"], "zz": good["phases"]["a"]}})
    with pytest.raises(ValueError, match="malformed run state"):
        state_from_json(wf, {k: v for k, v in good.items() if k != "steps"})
    with pytest.raises(ValueError, match="not in the workflow"):
        state_from_json(wf, {**good, "current": "nope"})


def test_state_from_json_adds_phases_missing_from_old_data() -> None:
    wf = build_workflow({"a": {}, "b": {}})
    data = state_to_json(initial_state(wf, {}))
    del data["phases"]["b"]
    assert state_from_json(wf, data) == initial_state(wf, {})


def test_evolve_copies_like_replace_and_leaves_the_original_alone() -> None:
    from dataclasses import replace

    from alphred.engine.state import evolve

    d = Driver(build_workflow({"a": {}, "b": {}}))
    d.send(RunStarted())
    state = d.state
    copied = evolve(state, steps=7, reason="x")
    assert copied == replace(state, steps=7, reason="x")
    assert (state.steps, state.reason) != (7, "x")  # the original is unchanged
    phase = evolve(state.phase("a"), visits=3)
    assert phase == replace(state.phase("a"), visits=3) and state.phase("a").visits != 3
    with pytest.raises(AttributeError):
        copied.steps = 1  # type: ignore[misc]  # still frozen
    with pytest.raises(TypeError, match="no field"):
        evolve(state, no_such_field=1)
