"""The pure machine with parallel branches (SPEC §8): lanes, max_parallel, joins, merges, failures, pause."""

from __future__ import annotations

import json

from alphred.engine import (
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
    RunStarted,
    RunState,
    RunStatus,
    StartPhase,
    can_retry,
    initial_state,
    state_from_json,
    state_to_json,
    template_context,
    transition,
)
from alphred.engine.events import MergeBranch, MergeConflicted, MergeDone, StopPhase
from alphred.providers import default_registry
from alphred.workflow import load_workflow
from alphred.workflow.model import Workflow

PROVIDERS = default_registry()  # every installed provider, as the CLI has them

HEAD = "alphred: 1\nkey: wf\ndefaults: {provider: scripted}\n"


def workflow(body: str) -> Workflow:
    return load_workflow("wf.yaml", HEAD + body, providers=PROVIDERS)


THREE = """\
limits: {max_parallel: 2}
phases:
  plan: {transitions: [{to: [a, b, c]}]}
  a: {transitions: [{to: a2}]}
  a2: {max_retries: 1, transitions: [{to: join}]}
  b: {transitions: [{to: join, when: decision == "approved"}, {to: $fail}]}
  c: {transitions: [{to: join}]}
  join:
    join: %s
    on_conflict: fix
    transitions: [{to: $end, when: merge.status == "clean"}, {to: after}]
  after: {}
  fix: {prompt: "{{ merge.branch }} {{ merge.conflicts }}"}
"""


class Driver:
    """Feeds events, keeps every effect, checks determinism and the JSON round trip at each step."""

    def __init__(self, wf: Workflow) -> None:
        self.state = initial_state(wf, {})
        self.effects: list[Effect] = []

    def send(self, event: Event) -> tuple[Effect, ...]:
        new, effects = transition(self.state, event)
        assert transition(self.state, event) == (new, effects)
        assert state_from_json(new.workflow, json.loads(json.dumps(state_to_json(new)))) == new
        self.state = new
        self.effects.extend(effects)
        return effects

    def done(self, phase: str, decision: str | None = "approved") -> tuple[Effect, ...]:
        return self.send(PhaseCompleted(phase, self.state.phase(phase).attempt, decision))

    def running(self) -> list[str]:
        return sorted(k for k, ps in self.state.phases.items() if ps.status is NodeStatus.RUNNING)


def starts(effects: tuple[Effect, ...] | list[Effect]) -> list[tuple[str, int, str | None]]:
    return [(e.phase, e.attempt, e.branch) for e in effects if isinstance(e, StartPhase)]


def test_fan_out_starts_lanes_up_to_max_parallel_and_join_all_merges_in_fan_out_order() -> None:
    d = Driver(workflow(THREE % "all"))
    d.send(RunStarted())
    assert starts(d.done("plan")) == [("a", 1, "a"), ("b", 1, "b")]  # c waits: max_parallel 2
    assert d.state.phase("c").status is NodeStatus.PENDING and d.state.history[-1].next == "a,b,c"
    assert d.state.phase("after").status is NodeStatus.PENDING  # not a target of plan: untouched
    assert starts(d.done("b")) == [("c", 1, "c")]  # b arrived; its slot goes to c
    assert starts(d.done("a")) == [("a2", 1, "a")]
    assert starts(d.done("c")) == []
    effects = d.done("a2")
    assert [e for e in effects if isinstance(e, MergeBranch)] == [MergeBranch("join", "a")]
    assert d.state.lanes == () and d.state.status is RunStatus.RUNNING
    assert d.send(MergeDone("join", "b")) == ()  # not the branch being merged: stale
    assert d.send(MergeDone("join", "a")) == (MergeBranch("join", "b"),)
    assert d.send(MergeDone("join", "b")) == (MergeBranch("join", "c"),)
    assert starts(d.send(MergeDone("join", "c"))) == [("join", 1, None)]
    d.done("join")
    assert d.state.status is RunStatus.COMPLETED and d.state.merge is None  # merge.status was clean
    lanes = {(s.phase, s.branch) for s in d.state.history}
    assert ("a2", "a") in lanes and ("c", "c") in lanes and ("plan", None) in lanes and ("join", None) in lanes


def test_join_any_runs_at_the_first_arrival_and_cancels_the_other_branches() -> None:
    d = Driver(workflow(THREE % "any"))
    d.send(RunStarted())
    d.done("plan")
    effects = d.done("b")
    assert StopPhase("a", 1, "a") in effects and effects[-1] == MergeBranch("join", "b")
    cancelled = [e for e in effects if isinstance(e, RecordStep) and e.outcome.value == "cancelled"]
    assert [(e.phase, e.branch) for e in cancelled] == [("a", "a")]
    assert d.state.phase("a").status is NodeStatus.PENDING and d.state.phase("c").attempt == 0
    assert starts(d.send(MergeDone("join", "b"))) == [("join", 1, None)]
    assert d.send(PhaseCompleted("a", 1, "approved")) == ()  # the cancelled attempt's late result is dropped


def test_a_failed_branch_fails_the_run_at_once_and_cancels_the_rest() -> None:
    d = Driver(workflow(THREE % "all"))
    d.send(RunStarted())
    d.done("plan")
    d.done("a")
    d.send(PhaseFailed("a2", 1, "timeout"))
    assert starts(d.effects[-1:]) == [("a2", 2, "a")]  # a retry, in its lane
    effects = d.send(PhaseFailed("a2", 2, "timeout"))
    assert d.state.status is RunStatus.FAILED and d.state.reason == "retries_exhausted"
    assert StopPhase("b", 1, "b") in effects and ("b", 1, "cancelled") in [
        (s.phase, s.attempt, s.outcome.value) for s in d.state.history
    ]
    # the lanes stay for a retry: the failed phase, the stopped one again, and the one that was waiting
    assert [(lane.head, lane.queued) for lane in d.state.lanes] == [("a", "a2"), ("b", "b"), ("c", "c")]
    assert d.state.phase("b").status is NodeStatus.PENDING and can_retry(d.state)
    effects = d.send(RetryRun())
    assert d.state.status is RunStatus.RUNNING and d.state.phase("a2").consecutive_failures == 0
    assert starts(effects) == [("a2", 3, "a"), ("b", 2, "b")]  # max_parallel 2: c waits its turn


def test_a_non_retryable_failure_in_a_branch_can_be_retried_by_hand() -> None:
    d = Driver(workflow(THREE % "all"))
    d.send(RunStarted())
    d.done("plan")
    d.send(PhaseCompleted("a", 1))
    d.send(PhaseFailed("a2", 1, "auth", retryable=False))
    assert d.state.status is RunStatus.FAILED and d.state.reason == "auth"
    assert can_retry(d.state)  # a non-retryable failure is retried by hand, like one on the run branch


def test_fail_target_and_no_route_inside_a_branch_fail_the_run() -> None:
    d = Driver(workflow(THREE % "all"))
    d.send(RunStarted())
    d.done("plan")
    d.done("b", "changes_requested")
    assert d.state.status is RunStatus.FAILED and d.state.reason == "fail_target"


def test_a_conflict_runs_the_resolver_with_merge_paths_then_the_next_merge() -> None:
    d = Driver(workflow(THREE % "all"))
    d.send(RunStarted())
    for phase in ("plan", "a", "b", "a2", "c"):
        d.done(phase)
    d.send(MergeDone("join", "a"))
    effects = d.send(MergeConflicted("join", "b", ("x.py", "y.py"), "alphred/wf/1.b"))
    assert starts(effects) == [("fix", 1, None)]
    context = template_context(d.state, d.state.workflow, "fix")
    assert context["merge"] == {"branch": "alphred/wf/1.b", "conflicts": ["x.py", "y.py"]}
    d.send(PhaseFailed("fix", 1, "unresolved_conflicts"))
    assert d.state.status is RunStatus.FAILED  # fix has no retries left
    d2 = Driver(workflow((THREE % "all").replace("fix: {", "fix: {max_retries: 1, ")))
    d2.send(RunStarted())
    for phase in ("plan", "a", "b", "a2", "c"):
        d2.done(phase)
    d2.send(MergeDone("join", "a"))
    d2.send(MergeConflicted("join", "b", ("x.py",)))
    d2.send(PhaseFailed("fix", 1, "unresolved_conflicts"))
    assert starts(d2.effects[-1:]) == [("fix", 2, None)]
    d2.done("fix", None)
    assert d2.effects[-1] == MergeBranch("join", "c") and d2.state.history[-1].next == "join"
    assert starts(d2.send(MergeDone("join", "c"))) == [("join", 1, None)]
    assert template_context(d2.state, d2.state.workflow, "join")["merge"] == {"status": "resolved"}
    d2.done("join")
    assert d2.state.history[-1].next == "after"  # merge.status == "resolved" routed away from $end


def test_a_conflict_without_resolver_fails_the_run_with_merge_conflict() -> None:
    d = Driver(
        workflow((THREE % "all").replace("    on_conflict: fix\n", "").replace("  fix: {prompt", "  _x: {prompt"))
    )
    d.send(RunStarted())
    for phase in ("plan", "a", "b", "a2", "c"):
        d.done(phase)
    d.send(MergeConflicted("join", "a", ("x.py",)))
    assert d.state.status is RunStatus.FAILED and d.state.reason == "merge_conflict"


def test_interruption_waits_for_every_lane_then_pauses_and_resume_restarts_them() -> None:
    d = Driver(workflow(THREE % "all"))
    d.send(RunStarted())
    d.done("plan")
    d.send(PhaseInterrupted("a", 1))
    assert d.state.status is RunStatus.RUNNING and d.running() == ["b"]  # c does not start meanwhile
    d.send(PhaseInterrupted("b", 1))
    assert d.state.status is RunStatus.PAUSED and d.state.reason == "interrupted" and d.running() == []
    assert starts(d.send(Resume())) == [("a", 2, "a"), ("b", 2, "b")]


def test_pause_lets_running_lanes_finish_then_pauses_and_cancel_stops_every_lane() -> None:
    d = Driver(workflow(THREE % "all"))
    d.send(RunStarted())
    d.done("plan")
    d.send(PauseRequested())
    assert starts(d.done("a")) == [] and d.state.status is RunStatus.RUNNING
    d.done("b")
    assert d.state.status is RunStatus.PAUSED and d.state.reason == "paused"
    assert starts(d.send(Resume())) == [("a2", 1, "a"), ("c", 1, "c")]
    d.send(CancelRequested())
    assert d.state.status is RunStatus.CANCELLED and d.state.lanes == ()
    assert d.state.phase("a2").status is NodeStatus.CANCELLED and d.state.phase("c").status is NodeStatus.CANCELLED


def test_max_steps_counts_across_lanes() -> None:
    d = Driver(workflow((THREE % "all").replace("max_parallel: 2", "max_parallel: 3, max_steps: 4")))
    d.send(RunStarted())
    d.done("plan")
    assert d.running() == ["a", "b", "c"]
    effects = d.done("a")  # a2 would be the 5th execution
    assert d.state.status is RunStatus.FAILED and d.state.reason == "max_steps"
    assert {e.phase for e in effects if isinstance(e, StopPhase)} == {"b", "c"}


def test_a_take_over_mid_merge_asks_for_the_merge_again() -> None:
    d = Driver(workflow(THREE % "all"))
    d.send(RunStarted())
    for phase in ("plan", "a", "b", "a2", "c"):
        d.done(phase)
    d.send(MergeDone("join", "a"))
    assert d.send(Resume()) == (MergeBranch("join", "b"),)
    assert d.send(RetryRun()) == ()


def test_every_phase_state_stays_in_one_lane_at_most() -> None:
    d = Driver(workflow(THREE % "all"))
    d.send(RunStarted())
    d.done("plan")
    state: RunState = d.state
    active = [lane.current for lane in state.lanes if lane.current] + [
        lane.queued for lane in state.lanes if lane.queued
    ]
    assert sorted(active) == ["a", "b", "c"] and len(set(active)) == len(active)


def test_the_offline_parallel_review_runs_through_the_engine() -> None:
    """tests/fixtures/workflows/parallel-review-offline.yaml: scope, three reviewers at once, one verdict."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "fixtures" / "workflows" / "parallel-review-offline.yaml"
    d = Driver(load_workflow(path, providers=PROVIDERS))
    d.send(RunStarted())
    reviewers = starts(d.send(PhaseCompleted("scope", 1, exit_code=0)))
    assert reviewers == [("security", 1, "security"), ("tests", 1, "tests"), ("style", 1, "style")]
    for phase in ("tests", "style", "security"):  # any order of arrival; merges follow the fan-out's order
        script = d.state.workflow.phase(phase).options["script"][0]
        d.send(PhaseCompleted(phase, 1, script["decision"], script["report"]))
    merged = [d.effects[-1]]
    for branch in ("security", "tests", "style"):
        merged.extend(d.send(MergeDone("verdict", branch)))
    assert [e.branch for e in merged if isinstance(e, MergeBranch)] == ["security", "tests", "style"]
    assert starts(merged) == [("verdict", 1, None)]
    d.done("verdict", "changes_requested")
    assert d.state.status is RunStatus.COMPLETED and d.state.phase("verdict").decision == "changes_requested"


def test_a_fan_out_skips_the_other_targets_of_its_source_but_none_of_its_branches() -> None:
    body = (THREE % "all").replace(
        "plan: {transitions: [{to: [a, b, c]}]}",
        'plan: {transitions: [{to: [a, b, c], when: decision == "approved"}, {to: after}]}',
    )
    d = Driver(workflow(body))
    d.send(RunStarted())
    d.done("plan")
    assert d.state.phase("after").status is NodeStatus.SKIPPED
    assert {k: d.state.phase(k).status for k in "abc"} == {
        "a": NodeStatus.RUNNING, "b": NodeStatus.RUNNING, "c": NodeStatus.PENDING
    }  # fmt: skip


def test_an_unvalidated_end_inside_a_branch_fails_the_run_instead_of_crashing() -> None:
    from dataclasses import replace

    wf = workflow(THREE % "all")
    b = wf.phase("b")
    bad = replace(b, transitions=(replace(b.transitions[0], target="$end", guard=None, when=None),))
    wf = replace(wf, phases=tuple(bad if p.key == "b" else p for p in wf.phases))
    d = Driver(wf)
    d.send(RunStarted())
    d.done("plan")
    d.done("b")
    assert d.state.status is RunStatus.FAILED and d.state.reason == "no_route"
