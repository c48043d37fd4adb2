"""How each branch of a fan-out stands (SPEC §8 Output), from engine states the pure machine produces, and
the Branches section of the PR body and the step summary built from it."""

from __future__ import annotations

import json
from typing import Any

from test_engine_lanes import HEAD, THREE

from alphred.engine import PhaseCompleted, PhaseFailed, RunStarted, RunState, state_from_json, state_to_json, transition
from alphred.engine.events import Event, MergeConflicted, MergeDone
from alphred.providers import default_registry
from alphred.scm.body import build_pr_body, run_summary_markdown
from alphred.views.branch_status import BranchView, branch_views, phase_branches
from alphred.workflow import load_workflow
from alphred.workflow.model import Workflow

PROVIDERS = default_registry()  # every installed provider, as the CLI has them

RUN_BRANCH = "alphred/wf/7"


def workflow(mode: str = "all") -> Workflow:
    return load_workflow("wf.yaml", HEAD + THREE % mode, providers=PROVIDERS)


class Run:
    """Drives the pure machine; every state goes through the JSON the runtime stores (as status reads it)."""

    def __init__(self, wf: Workflow) -> None:
        from alphred.engine import initial_state

        self.state: RunState = initial_state(wf, {})
        self.send(RunStarted())

    def send(self, event: Event) -> None:
        state, _ = transition(self.state, event)
        self.state = state_from_json(state.workflow, json.loads(json.dumps(state_to_json(state))))

    def done(self, *phases: str, decision: str = "approved") -> None:
        for phase in phases:
            self.send(PhaseCompleted(phase, self.state.phase(phase).attempt, decision))

    def views(self, merges: dict[str, tuple[str, ...]] | None = None, stored: bool = False) -> dict[str, BranchView]:
        steps: list[Any] = list(self.state.history)
        if stored:  # as the store gives them back: the fan-out step's next names the first branch only
            steps = [
                {"phase": s.phase, "outcome": s.outcome.value, "next": (s.next or "").split(",")[0] or None}
                for s in steps
            ]
        found = branch_views(self.state.workflow, RUN_BRANCH, steps, self.state, merges, self.state.status.value)
        return {view.head: view for view in found}


def standing(views: dict[str, BranchView]) -> dict[str, tuple[str, str | None]]:
    return {head: (view.state, view.phase) for head, view in views.items()}


def test_phase_branches_name_the_lane_branch_of_every_phase_inside_a_branch() -> None:
    found = phase_branches(workflow(), RUN_BRANCH)
    assert found == {"a": "alphred/wf/7.a", "a2": "alphred/wf/7.a", "b": "alphred/wf/7.b", "c": "alphred/wf/7.c"}
    assert phase_branches(workflow(), None) == {}
    plain = load_workflow(
        "wf.yaml", HEAD + "phases:\n  one: {transitions: [{to: two}]}\n  two: {}\n", providers=PROVIDERS
    )
    assert phase_branches(plain, RUN_BRANCH) == {} and branch_views(plain, RUN_BRANCH, []) == []


def test_running_queued_arrived_then_merging_conflicted_and_merged() -> None:
    run = Run(workflow())
    assert standing(run.views()) == {"a": ("pending", None), "b": ("pending", None), "c": ("pending", None)}
    run.done("plan")
    assert standing(run.views()) == {"a": ("running", "a"), "b": ("running", "b"), "c": ("queued", "c")}
    run.done("a", "b")
    views = run.views()
    assert standing(views) == {"a": ("running", "a2"), "b": ("arrived", "b"), "c": ("running", "c")}
    assert views["a"].phases == ("a", "a2") and views["a"].branch == "alphred/wf/7.a"
    assert views["b"].join == "join" and views["b"].join_mode == "all" and views["b"].resolver == "fix"
    run.done("a2", "c")
    assert [v.state for v in run.views().values()] == ["merging", "waiting to merge", "waiting to merge"]
    run.send(MergeDone("join", "a"))
    run.send(MergeConflicted("join", "b", ("x.py", "y.py"), "alphred/wf/7.b"))
    views = run.views()
    assert [v.state for v in views.values()] == ["merged", "conflicted", "waiting to merge"]
    assert views["b"].conflicts == ("x.py", "y.py")
    run.done("fix")
    run.send(MergeDone("join", "c"))
    run.done("join")
    for stored in (False, True):
        assert {v.state for v in run.views(stored=stored).values()} == {"merged"}
    shas = {"a": ("a" * 40,), "b": ("b" * 40,), "c": ("c" * 40,)}
    assert run.views(shas)["b"].merges == ("b" * 40,)


def test_join_any_cancels_the_branches_that_did_not_arrive_first() -> None:
    run = Run(workflow("any"))
    run.done("plan", "b")
    views = run.views()
    assert standing(views) == {"a": ("cancelled", "a"), "b": ("merging", None), "c": ("cancelled", None)}
    run.send(MergeDone("join", "b"))
    run.done("join")
    for stored in (False, True):
        views = run.views({"b": ("1234567890abcdef" * 2,)}, stored=stored)
        assert standing(views) == {"a": ("cancelled", "a"), "b": ("merged", "b"), "c": ("cancelled", None)}
    markdown = run_summary_markdown(
        {"run_id": 7, "phases": [], "status": "completed"}, branches=[v.as_dict() for v in views.values()]
    )
    assert "| plan → join | a | `alphred/wf/7.a` | a, a2 | cancelled (join: any) |" in markdown
    assert "| plan → join | b | `alphred/wf/7.b` | b | merged `1234567890ab` |" in markdown
    assert "| plan → join | c | `alphred/wf/7.c` | c | cancelled (join: any) |" in markdown


def test_a_failed_branch_fails_the_run_and_the_others_are_cancelled() -> None:
    run = Run(workflow())
    run.done("plan", "a")
    run.send(PhaseFailed("a2", 1, "timeout"))
    run.send(PhaseFailed("a2", 2, "timeout"))
    assert run.state.status.value == "failed"
    assert standing(run.views()) == {"a": ("failed", "a2"), "b": ("cancelled", "b"), "c": ("cancelled", None)}
    run = Run(workflow())
    run.done("plan")
    run.done("b", decision="changes_requested")  # b routes to $fail
    assert run.views()["b"].state == "failed"


def test_the_pr_body_lists_branches_only_when_there_are_some() -> None:
    status = {
        "run_id": 7,
        "workflow": {"key": "wf", "version": 1},
        "status": "completed",
        "phases": [{"key": "plan", "status": "completed", "attempt": 1, "visits": 1, "tokens": 0, "branch": None}],
        "steps": [{"phase": "plan", "attempt": 1, "outcome": "completed", "next": "a", "branch": None}],
        "tokens": 0,
        "cost_usd": 0.0,
        "branch": RUN_BRANCH,
    }
    plain = build_pr_body(status, "the report")
    assert "Branches" not in plain and plain == build_pr_body(status, "the report", branches=())
    view = BranchView("plan", "join", "all", "a|b", "alphred/wf/7.a", ("a", "a2"), "merged", merges=("f" * 40,))
    body = build_pr_body(status, "the report", branches=[view.as_dict()])
    assert body.startswith("the report\n") and "**Branches**" in body
    assert "| plan → join | a\\|b | `alphred/wf/7.a` | a, a2 | merged `ffffffffffff` |" in body
    conflicted = BranchView(
        "plan", "join", "all", "b", "x.b", ("b",), "conflicted", conflicts=("x.py",), resolver="fix"
    )
    assert "merge conflicted on `x.py` (resolver fix)" in run_summary_markdown(status, branches=[conflicted.as_dict()])
