"""Property tests: random event sequences over small random workflows obey SPEC §2 and §5."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_support import build_workflow

from alphred.engine import (
    NODE_MOVES,
    RUN_MOVES,
    TERMINAL_RUN_STATUSES,
    ApprovalGiven,
    ApprovalRequested,
    CancelRequested,
    Effect,
    Event,
    NodeStatus,
    PauseRequested,
    PhaseCompleted,
    PhaseFailed,
    PhaseInterrupted,
    RecordStep,
    Resume,
    RetryRun,
    RunFinished,
    RunStarted,
    RunState,
    RunStatus,
    SetPhaseStatus,
    SetRunStatus,
    StartPhase,
    initial_state,
    state_from_json,
    state_to_json,
    transition,
)
from alphred.workflow.model import Workflow

GUARDS = (
    None,
    None,
    'decision == "approved"',
    'decision == "changes_requested"',
    "exit_code != 0",
    "exit_code == 0",
    "visits >= 2",
    "attempt > 1",
    'phases.p0.status == "completed"',
    "run.steps > 3",
)
KINDS = (
    *["complete"] * 8,
    *["fail"] * 2,
    "interrupt",
    *["approval_requested"] * 2,
    *["approval_given"] * 2,
    "pause",
    *["resume"] * 2,
    *["retry"] * 2,
    "start",
)


@st.composite
def workflows(draw: st.DrawFn) -> Workflow:
    keys = [f"p{i}" for i in range(draw(st.integers(1, 4)))]
    targets = st.sampled_from([*keys, *keys, *keys, "$end", "$fail"])
    phases = {}
    for key in keys:
        edges = draw(
            st.lists(st.tuples(targets, st.sampled_from(GUARDS), st.sampled_from((None, None, 1, 2))), max_size=3)
        )
        phases[key] = {
            "type": draw(st.sampled_from(("agent", "command", "approval"))),
            "to": edges,
            "max_retries": draw(st.integers(0, 2)),
            "max_visits": draw(st.integers(1, 5)),
        }
    return build_workflow(
        phases,
        start=draw(st.sampled_from(keys)),
        max_steps=draw(st.sampled_from((0, 2, 5, 8, 12, 12, 12, 12))),
        max_tokens=draw(st.sampled_from((None, 30, 100))),
        max_cost_usd=draw(st.sampled_from((None, 0.5))),
    )


# An abstract event: (kind, phase index, attempt offset, decision, report, exit code, tokens, cost,
# retryable). ``to_event`` turns it into a concrete event against the current state, so that most
# events hit the running attempt and some are stale.
EventSpec = tuple[str, int, int, str | None, object, int | None, int, float, bool]

event_specs = st.tuples(
    st.sampled_from(KINDS),
    st.integers(0, 3),
    st.sampled_from((0, 0, 0, 0, -1, 1)),
    st.sampled_from((None, "approved", "approved", "changes_requested", "rejected", "bogus")),
    st.sampled_from((None, "text", {"k": [1, "x"]})),
    st.sampled_from((None, 0, 1)),
    st.integers(0, 20),
    st.sampled_from((0.0, 0.1, 0.25)),
    st.booleans(),
)


def to_event(spec: EventSpec, state: RunState) -> Event:
    kind, index, offset, decision, report, exit_code, tokens, cost, retryable = spec
    keys = state.workflow.phase_keys
    phase = state.current or keys[index % len(keys)]
    attempt = state.phase(phase).attempt + offset
    if kind == "complete":
        assert report is None or isinstance(report, str | dict)
        return PhaseCompleted(phase, attempt, decision, report, exit_code, tokens, cost)
    if kind == "fail":
        return PhaseFailed(phase, attempt, "timeout" if retryable else "auth", retryable, None, tokens, cost)
    if kind == "interrupt":
        return PhaseInterrupted(phase, attempt)
    if kind == "approval_requested":
        return ApprovalRequested(phase, attempt)
    if kind == "approval_given":
        return ApprovalGiven(phase, decision or "approved", "ok")
    simple: dict[str, Event] = {
        "pause": PauseRequested(),
        "resume": Resume(),
        "cancel": CancelRequested(),
        "retry": RetryRun(),
        "start": RunStarted(),
    }
    return simple[kind]


def check_effects(old: RunState, event: Event, new: RunState, effects: tuple[Effect, ...]) -> None:
    """Every status move is allowed and replaying the effects on ``old`` gives ``new``'s statuses."""
    frozen = old.status in (RunStatus.COMPLETED, RunStatus.CANCELLED)
    if frozen or (old.status is RunStatus.FAILED and not isinstance(event, RetryRun)):
        assert (new, effects) == (old, ())
        return
    run = old.status
    nodes = {key: ps.status for key, ps in old.phases.items()}
    attempts = {key: ps.attempt for key, ps in old.phases.items()}
    for effect in effects:
        if isinstance(effect, SetRunStatus):
            assert (run, effect.status) in RUN_MOVES
            run = effect.status
        elif isinstance(effect, SetPhaseStatus):
            assert (nodes[effect.phase], effect.status) in NODE_MOVES
            nodes[effect.phase] = effect.status
            attempts[effect.phase] = effect.attempt
        elif isinstance(effect, StartPhase):
            assert nodes[effect.phase] is NodeStatus.RUNNING and run is RunStatus.RUNNING
            assert effect.attempt == attempts[effect.phase] and effect.visit >= 1
        elif isinstance(effect, RunFinished):
            assert effect is effects[-1] and effect.status is run and run in TERMINAL_RUN_STATUSES
    assert run is new.status
    assert nodes == {key: ps.status for key, ps in new.phases.items()}
    assert attempts == {key: ps.attempt for key, ps in new.phases.items()}
    run_moves = [e for e in effects if isinstance(e, SetRunStatus)]
    if run_moves:
        assert run_moves[-1].reason == new.reason
    finished = sum(isinstance(e, RunFinished) for e in effects)
    assert finished == (1 if run_moves and new.status in TERMINAL_RUN_STATUSES else 0)


def check_invariants(state: RunState) -> None:
    running = [key for key, ps in state.phases.items() if ps.status is NodeStatus.RUNNING]
    assert running == ([state.current] if state.current else [])
    assert state.steps <= state.workflow.limits.max_steps
    assert sum(ps.attempt for ps in state.phases.values()) == state.steps
    assert len(state.history) == state.steps - (1 if state.current else 0)
    assert state.tokens == sum(ps.tokens for ps in state.phases.values())
    if state.status is RunStatus.RUNNING:
        assert state.current is not None
    if state.status is RunStatus.PAUSED:
        waiting = state.reason == "awaiting_approval" and state.current is not None
        assert waiting or (state.queued is not None and state.current is None)
    if state.status is RunStatus.PENDING:
        assert state.steps == 0
    for key, ps in state.phases.items():
        assert ps.visits <= ps.attempt and ps.entries <= ps.attempt
        assert ps.entries <= state.workflow.phase(key).max_visits


def round_trip(state: RunState) -> RunState:
    return state_from_json(state.workflow, json.loads(json.dumps(state_to_json(state))))


def replay(workflow: Workflow, events: list[Event]) -> tuple[RunState, list[Effect]]:
    state = initial_state(workflow, {})
    emitted: list[Effect] = []
    for event in events:
        state, effects = transition(state, event)
        emitted.extend(effects)
    return state, emitted


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    workflow=workflows(),
    start=st.booleans(),
    specs=st.lists(event_specs, min_size=5, max_size=30),
    cancel_at=st.none() | st.integers(0, 30),
)
def test_random_runs_obey_the_rules(
    workflow: Workflow, start: bool, specs: list[EventSpec], cancel_at: int | None
) -> None:
    state = initial_state(workflow, {})
    events: list[Event] = []
    emitted: list[Effect] = []
    prefix: list[EventSpec] = [("start", 0, 0, None, None, None, 0, 0.0, True)] if start else []
    if cancel_at is not None:
        specs = [*specs[:cancel_at], ("cancel", 0, 0, None, None, None, 0, 0.0, True), *specs[cancel_at:]]
    for spec in [*prefix, *specs]:
        event = to_event(spec, state)
        before = state_to_json(state)
        new, effects = transition(state, event)
        assert transition(state, event) == (new, effects)
        assert state_to_json(state) == before  # a transition changes its own copies only (``Fold``)
        check_effects(state, event, new, effects)
        check_invariants(new)
        assert round_trip(new) == new
        events.append(event)
        emitted.extend(effects)
        state = new
    assert sum(isinstance(e, StartPhase) for e in emitted) == state.steps
    assert sum(isinstance(e, RecordStep) for e in emitted) == len(state.history)
    assert replay(workflow, events) == (state, emitted)


@settings(max_examples=100, deadline=None)
@given(
    workflow=workflows(),
    outcomes=st.lists(st.tuples(st.sampled_from(("approved", "changes_requested", "rejected")), st.integers(0, 1))),
)
def test_a_run_always_ends_when_phases_keep_completing(workflow: Workflow, outcomes: list[tuple[str, int]]) -> None:
    state, _ = transition(initial_state(workflow, {}), RunStarted())
    for index in range(workflow.limits.max_steps + 1):
        if state.current is None:
            break
        decision, exit_code = outcomes[index % len(outcomes)] if outcomes else ("approved", 0)
        attempt = state.phase(state.current).attempt
        state, _ = transition(state, PhaseCompleted(state.current, attempt, decision, None, exit_code, 1))
    assert state.status in TERMINAL_RUN_STATUSES
