"""Property tests: random event sequences over random workflows with a fan-out obey SPEC §5 and §8."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from alphred.engine import (
    NODE_MOVES,
    RUN_MOVES,
    CancelRequested,
    Effect,
    Event,
    NodeStatus,
    PauseRequested,
    PhaseCompleted,
    PhaseFailed,
    PhaseInterrupted,
    Resume,
    RetryRun,
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
from alphred.engine.events import MergeConflicted, MergeDone
from alphred.providers import default_registry
from alphred.workflow import load_workflow
from alphred.workflow.model import Workflow

PROVIDERS = default_registry()  # every installed provider, as the CLI has them

GUARDS = (None, None, 'decision == "approved"', "visits >= 2", "attempt > 1")


@st.composite
def parallel_workflows(draw: st.DrawFn) -> Workflow:
    width = draw(st.integers(2, 3))
    lines = [
        "alphred: 1",
        "key: wf",
        "defaults: {provider: scripted}",
        f"limits: {{max_parallel: {draw(st.integers(1, 3))}, max_steps: {draw(st.sampled_from((6, 12, 30)))}}}",
        "phases:",
    ]
    heads = [f"b{i}_0" for i in range(width)]
    lines.append(f"  plan: {{transitions: [{{to: [{', '.join(heads)}]}}]}}")
    for i in range(width):
        length = draw(st.integers(1, 2))
        for j in range(length):
            key = f"b{i}_{j}"
            nxt = f"b{i}_{j + 1}" if j + 1 < length else "join"
            edges = []
            if draw(st.booleans()):
                edges.append(f'{{to: b{i}_0, when: decision == "changes_requested", max: {draw(st.integers(1, 2))}}}')
            guard = draw(st.sampled_from(GUARDS))
            edges.append(f"{{to: {nxt}}}" if guard is None else f"{{to: {nxt}, when: '{guard}'}}")
            if guard is not None:
                edges.append("{to: $fail}")
            retries = draw(st.integers(0, 1))
            lines.append(f"  {key}: {{max_retries: {retries}, transitions: [{', '.join(edges)}]}}")
    mode = draw(st.sampled_from(("all", "any")))
    resolver = draw(st.booleans())
    loop = "{to: plan, max: 1, when: 'visits < 2'}, " if draw(st.booleans()) else ""
    on_conflict = ", on_conflict: fix" if resolver else ""
    lines.append(f"  join: {{join: {mode}{on_conflict}, transitions: [{loop}{{to: $end}}]}}")
    if resolver:
        lines.append(f"  fix: {{max_retries: {draw(st.integers(0, 1))}}}")
    return load_workflow("wf.yaml", "\n".join(lines) + "\n", providers=PROVIDERS)


KINDS = (
    *["complete"] * 10,
    *["fail"] * 2,
    "interrupt",
    "pause",
    *["resume"] * 2,
    "retry",
    *["merge"] * 4,
    "conflict",
    "cancel",
)
EventSpec = tuple[str, int, int, str]
event_specs = st.tuples(
    st.sampled_from(KINDS),
    st.integers(0, 5),
    st.sampled_from((0, 0, 0, 0, -1, 1)),
    st.sampled_from(("approved", "approved", "changes_requested", "bogus")),
)


def running(state: RunState) -> list[str]:
    return [p for p in [state.current, *(lane.current for lane in state.lanes)] if p is not None]


def to_event(spec: EventSpec, state: RunState) -> Event:
    kind, index, offset, decision = spec
    active = running(state) or list(state.workflow.phase_keys)
    phase = active[index % len(active)]
    attempt = state.phase(phase).attempt + offset
    if kind == "complete":
        return PhaseCompleted(phase, attempt, decision)
    if kind == "fail":
        return PhaseFailed(phase, attempt, "timeout", index % 2 == 0)
    if kind == "interrupt":
        return PhaseInterrupted(phase, attempt)
    if kind in ("merge", "conflict"):
        merge = state.merge
        branch = merge.pending[0] if merge is not None and merge.pending and offset == 0 else f"b{index % 3}_0"
        join = merge.join if merge is not None else "join"
        return MergeDone(join, branch) if kind == "merge" else MergeConflicted(join, branch, ("x.py",), "ref")
    simple: dict[str, Event] = {"pause": PauseRequested(), "resume": Resume(), "cancel": CancelRequested()}
    return simple.get(kind, RetryRun())


def check_step(old: RunState, event: Event, new: RunState, effects: tuple[Effect, ...]) -> None:
    frozen = old.status in (RunStatus.COMPLETED, RunStatus.CANCELLED)
    if frozen or (old.status is RunStatus.FAILED and not isinstance(event, RetryRun)):
        assert (new, effects) == (old, ())  # terminal states stay terminal
        return
    run = old.status
    nodes = {key: ps.status for key, ps in old.phases.items()}
    for effect in effects:
        if isinstance(effect, SetRunStatus):
            assert (run, effect.status) in RUN_MOVES
            run = effect.status
        elif isinstance(effect, SetPhaseStatus):
            assert (nodes[effect.phase], effect.status) in NODE_MOVES
            nodes[effect.phase] = effect.status
        elif isinstance(effect, StartPhase):
            assert nodes[effect.phase] is NodeStatus.RUNNING and run is RunStatus.RUNNING
    assert run is new.status and nodes == {key: ps.status for key, ps in new.phases.items()}


def check_invariants(state: RunState) -> None:
    active = running(state)
    assert len(active) == len(set(active))  # no phase active in two lanes
    assert sorted(active) == sorted(k for k, ps in state.phases.items() if ps.status is NodeStatus.RUNNING)
    assert sum(1 for lane in state.lanes if lane.current) <= state.workflow.limits.max_parallel
    queued = [lane.queued for lane in state.lanes if lane.queued is not None]
    assert len(queued) == len(set(queued)) and not set(queued) & set(active)
    assert not (state.lanes and state.current is not None)
    assert state.steps <= state.workflow.limits.max_steps
    assert sum(ps.attempt for ps in state.phases.values()) == state.steps
    fan_outs = sum(1 for step in state.history if step.phase == "plan" and step.next and "," in step.next)
    joins = state.phase("join").entries
    assert fan_outs - 1 <= joins <= fan_outs  # a join runs exactly once per fan-out visit
    if joins == fan_outs:
        assert state.lanes == ()


@settings(max_examples=120, deadline=None)
@given(workflow=parallel_workflows(), specs=st.lists(event_specs, min_size=5, max_size=40))
def test_random_parallel_runs_obey_the_rules(workflow: Workflow, specs: list[EventSpec]) -> None:
    state, _ = transition(initial_state(workflow, {}), RunStarted())
    events: list[Event] = [RunStarted()]
    for spec in specs:
        event = to_event(spec, state)
        before = state_to_json(state)
        new, effects = transition(state, event)
        assert transition(state, event) == (new, effects)  # deterministic
        assert state_to_json(state) == before  # a transition changes its own copies only (``Fold``)
        check_step(state, event, new, effects)
        check_invariants(new)
        assert state_from_json(workflow, json.loads(json.dumps(state_to_json(new)))) == new
        events.append(event)
        state = new
    replayed = initial_state(workflow, {})
    for event in events:
        replayed, _ = transition(replayed, event)
    assert replayed == state


@settings(max_examples=60, deadline=None)
@given(workflow=parallel_workflows(), picks=st.lists(st.integers(0, 5), min_size=1))
def test_a_parallel_run_always_ends_when_phases_and_merges_keep_succeeding(
    workflow: Workflow, picks: list[int]
) -> None:
    state, _ = transition(initial_state(workflow, {}), RunStarted())
    for index in range(4 * workflow.limits.max_steps + 8):
        if state.status is not RunStatus.RUNNING:
            break
        active = running(state)
        if active:
            phase = active[picks[index % len(picks)] % len(active)]
            state, _ = transition(state, PhaseCompleted(phase, state.phase(phase).attempt, "approved"))
        else:
            assert state.merge is not None and state.merge.pending
            state, _ = transition(state, MergeDone(state.merge.join, state.merge.pending[0]))
    assert state.status in (RunStatus.COMPLETED, RunStatus.FAILED)
