"""The pure machine with dynamic fan-out, guarded branches and ``join: all_done`` (SPEC §13)."""

from __future__ import annotations

import json
from typing import Any

from alphred.engine import (
    NodeStatus,
    PauseRequested,
    PhaseCompleted,
    PhaseFailed,
    Resume,
    RunStarted,
    RunStatus,
    StartPhase,
    guard_context,
    initial_state,
    state_from_json,
    state_to_json,
    template_context,
    transition,
)
from alphred.engine.events import AddPhase, Effect, Event, MergeBranch, MergeDone
from alphred.providers import default_registry
from alphred.workflow import load_workflow
from alphred.workflow.model import Workflow

PROVIDERS = default_registry()
HEAD = "alphred: 1\nkey: wf\ndefaults: {provider: scripted}\n"

FOR_EACH = """\
limits: {max_parallel: 2, max_items: 4}
phases:
  plan:
    transitions: [{to: implement, for_each: report.tasks, as: task}]
  implement:
    prompt: "do {{ task.title }} ({{ task_index }})"
    transitions: [{to: test}]
  test:
    max_retries: 0
    transitions: [{to: integrate, when: decision == "approved"}, {to: $fail}]
  integrate:
    join: %s
    prompt: "{{ branches.completed }}"
"""

STATIC = """\
inputs: {lint: {default: "no"}}
phases:
  plan: {transitions: [{to: [security, {phase: style, when: 'inputs.lint == "yes"'}, docs]}]}
  security: {transitions: [{to: verdict}]}
  style: {transitions: [{to: verdict}]}
  docs: {transitions: [{to: verdict, when: decision == "approved"}, {to: $fail}]}
  verdict:
    join: %s
    prompt: "{{ branches.skipped }}"
"""


def workflow(body: str) -> Workflow:
    return load_workflow("wf.yaml", HEAD + body, providers=PROVIDERS)


class Driver:
    """Feeds events, keeps the effects, and checks determinism and the JSON round trip at each step."""

    def __init__(self, wf: Workflow, inputs: dict[str, str] | None = None) -> None:
        self.state = initial_state(wf, inputs or {})
        self.effects: list[Effect] = []

    def send(self, event: Event) -> tuple[Effect, ...]:
        new, effects = transition(self.state, event)
        assert transition(self.state, event) == (new, effects)
        assert state_from_json(new.workflow, json.loads(json.dumps(state_to_json(new)))) == new
        self.state, self.effects = new, [*self.effects, *effects]
        return effects

    def done(self, phase: str, decision: str | None = "approved", report: Any = None) -> tuple[Effect, ...]:
        return self.send(PhaseCompleted(phase, self.state.phase(phase).attempt, decision, report))

    def running(self) -> list[str]:
        return sorted(k for k, ps in self.state.phases.items() if ps.status is NodeStatus.RUNNING)


def started(effects: tuple[Effect, ...] | list[Effect]) -> list[tuple[str, str | None]]:
    return [(e.phase, e.branch) for e in effects if isinstance(e, StartPhase)]


def tasks(n: int) -> dict[str, Any]:
    return {"tasks": [{"title": f"t{i}"} for i in range(n)]}


def test_for_each_starts_one_branch_per_item_as_slots_allow_and_merges_in_item_order() -> None:
    d = Driver(workflow(FOR_EACH % "all"))
    d.send(RunStarted())
    effects = d.done("plan", None, tasks(3))
    assert [e.phase for e in effects if isinstance(e, AddPhase)] == ["implement-0", "implement-1", "implement-2"]
    assert started(effects) == [("implement-0", "implement-0"), ("implement-1", "implement-1")]  # max_parallel 2
    ctx = template_context(d.state, d.state.workflow, "implement-1")
    assert ctx["task"] == {"title": "t1"} and ctx["task_index"] == 1
    assert started(d.done("implement-1", None)) == [("test-1", "implement-1")]
    assert guard_context(d.state, d.state.workflow, "implement-1")["task_index"] == 1
    assert started(d.done("implement-0", None)) == [("test-0", "implement-0")]  # implement-2 waits for a slot
    assert d.running() == ["test-0", "test-1"]
    assert started(d.done("test-1")) == [("implement-2", "implement-2")]
    d.done("test-0")
    d.done("implement-2", None)
    effects = d.done("test-2")
    assert [e for e in effects if isinstance(e, MergeBranch)] == [MergeBranch("integrate", "implement-0")]
    assert [e for e in d.send(MergeDone("integrate", "implement-0")) if isinstance(e, MergeBranch)] == [
        MergeBranch("integrate", "implement-1")
    ]
    d.send(MergeDone("integrate", "implement-1"))
    effects = d.send(MergeDone("integrate", "implement-2"))
    assert started(effects) == [("integrate", None)]
    branches = template_context(d.state, d.state.workflow, "integrate")["branches"]
    assert branches["completed"] == ["implement-0", "implement-1", "implement-2"]
    assert branches["failed"] == [] and branches["skipped"] == [] and branches["results"] == [None, None, None]
    assert d.state.phase("implement").status is NodeStatus.PENDING  # the phase itself never runs
    assert d.state.phase("test-2").status is NodeStatus.COMPLETED


def test_the_items_are_stored_with_the_lanes_and_a_resume_never_reads_the_list_again() -> None:
    d = Driver(workflow(FOR_EACH % "all"))
    d.send(RunStarted())
    d.send(PauseRequested())
    d.done("plan", None, tasks(3))
    saved = json.loads(json.dumps(state_to_json(d.state)))
    assert [lane["item"] for lane in saved["lanes"]] == [{"title": "t0"}, {"title": "t1"}, {"title": "t2"}]
    saved["phases"]["plan"]["report"] = tasks(9)  # what the planner said no longer matters
    d.state = state_from_json(d.state.workflow, saved)
    assert d.state.status is RunStatus.PAUSED and d.running() == []
    effects = d.send(Resume())
    assert started(effects) == [("implement-0", "implement-0"), ("implement-1", "implement-1")]
    assert len(d.state.lanes) == 3
    assert template_context(d.state, d.state.workflow, "implement-1")["task"] == {"title": "t1"}


def test_a_list_longer_than_max_items_fails_the_run_before_any_branch_starts() -> None:
    d = Driver(workflow(FOR_EACH % "all"))
    d.send(RunStarted())
    effects = d.done("plan", None, tasks(5))
    assert started(effects) == [] and not [e for e in effects if isinstance(e, AddPhase)]
    assert (d.state.status, d.state.reason) == (RunStatus.FAILED, "too_many_items")


def test_a_for_each_path_that_is_not_a_list_fails_the_run() -> None:
    d = Driver(workflow(FOR_EACH % "all"))
    d.send(RunStarted())
    d.done("plan", None, {"tasks": "one, two"})
    assert (d.state.status, d.state.reason) == (RunStatus.FAILED, "for_each_not_a_list")


def test_an_empty_list_goes_straight_to_the_join_with_nothing_merged() -> None:
    d = Driver(workflow(FOR_EACH % "all_done"))
    d.send(RunStarted())
    effects = d.done("plan", None, tasks(0))
    assert started(effects) == [("integrate", None)]
    assert not [e for e in effects if isinstance(e, MergeBranch)]
    assert d.state.branches == {"completed": [], "failed": [], "skipped": [], "results": []}
    d.done("integrate")
    assert d.state.status is RunStatus.COMPLETED


def test_all_done_waits_for_every_branch_merges_the_completed_ones_and_records_the_failed() -> None:
    d = Driver(workflow(FOR_EACH % "all_done"))
    d.send(RunStarted())
    d.done("plan", None, tasks(3))
    d.done("implement-0", None)
    d.done("test-0", "changes_requested")  # → $fail: this item failed, the run goes on
    assert d.state.status is RunStatus.RUNNING
    d.done("implement-1", None, "one")
    d.send(PhaseFailed("test-1", 1, "boom", False, "X"))  # a non-retryable failure: failed too
    assert d.state.status is RunStatus.RUNNING
    d.done("implement-2", None)
    effects = d.done("test-2", report={"ok": True})
    assert [e for e in effects if isinstance(e, MergeBranch)] == [MergeBranch("integrate", "implement-2")]
    effects = d.send(MergeDone("integrate", "implement-2"))
    assert started(effects) == [("integrate", None)]
    branches = guard_context(d.state, d.state.workflow, "integrate")["branches"]
    assert branches == {
        "completed": ["implement-2"],
        "failed": ["implement-0", "implement-1"],
        "skipped": [],
        "results": [None, None, {"ok": True}],
    }
    d.done("integrate")
    assert d.state.status is RunStatus.COMPLETED
    assert d.state.branches == branches  # still readable after the join


def test_join_all_still_fails_the_run_when_one_item_fails() -> None:
    d = Driver(workflow(FOR_EACH % "all"))
    d.send(RunStarted())
    d.done("plan", None, tasks(2))
    d.done("implement-0", None)
    d.done("test-0", "changes_requested")
    assert (d.state.status, d.state.reason) == (RunStatus.FAILED, "fail_target")


def test_a_guarded_branch_whose_guard_is_false_is_skipped_and_counted_at_the_join() -> None:
    d = Driver(workflow(STATIC % "all"))
    d.send(RunStarted())
    effects = d.done("plan")
    assert started(effects) == [("security", "security"), ("docs", "docs")]
    assert d.state.phase("style").status is NodeStatus.SKIPPED
    d.done("security")
    effects = d.done("docs")
    assert [e for e in effects if isinstance(e, MergeBranch)] == [MergeBranch("verdict", "security")]
    d.send(MergeDone("verdict", "security"))
    d.send(MergeDone("verdict", "docs"))
    assert d.running() == ["verdict"]
    assert d.state.branches is not None and d.state.branches["skipped"] == ["style"]
    assert d.state.branches["completed"] == ["security", "docs"]


def test_a_guarded_branch_whose_guard_holds_starts() -> None:
    d = Driver(workflow(STATIC % "all_done"), {"lint": "yes"})
    d.send(RunStarted())
    assert [p for p, _ in started(d.done("plan"))] == ["security", "style", "docs"]
    d.done("security")
    d.done("style")
    d.done("docs", "changes_requested")  # all_done: docs failed, the others merge
    assert d.state.status is RunStatus.RUNNING
    assert d.state.merge is not None and d.state.merge.pending == ("security", "style")
