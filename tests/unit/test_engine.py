"""The run state machine, scenario by scenario (SPEC §2 rules, §5 moves, §6 steps and reasons)."""

from __future__ import annotations

from test_engine_support import Driver, build_workflow

from alphred.engine import (
    ApprovalGiven,
    ApprovalRequested,
    AwaitApproval,
    CancelRequested,
    NodeStatus,
    PauseRequested,
    PhaseCompleted,
    PhaseFailed,
    PhaseInterrupted,
    RecordRouting,
    RecordStep,
    Resume,
    RetryRun,
    RunFinished,
    RunStarted,
    RunStatus,
    SetPhaseStatus,
    SetRunStatus,
    StartPhase,
    StepOutcome,
    can_resume,
    can_retry,
    transition,
)

N = NodeStatus
R = RunStatus


def linear() -> Driver:
    return Driver(build_workflow({"a": {"to": ["b"]}, "b": {"to": ["$end"]}}))


def test_run_started_starts_the_start_phase_as_attempt_one_visit_one() -> None:
    d = Driver(build_workflow({"a": {"to": ["b"]}, "b": {}}, start="b"))
    effects = d.send(RunStarted())
    assert effects == (
        SetRunStatus(R.RUNNING, None),
        SetPhaseStatus("b", N.RUNNING, 1),
        StartPhase("b", 1, 1),
    )
    assert d.state.current == "b" and d.state.steps == 1
    assert d.send(RunStarted()) == ()


def test_completion_routes_and_starts_the_next_phase_in_persist_first_order() -> None:
    d = linear()
    d.send(RunStarted())
    effects = d.send(PhaseCompleted("a", 1, tokens=7, cost_usd=0.5))
    assert effects == (
        SetPhaseStatus("a", N.COMPLETED, 1),
        RecordStep("a", 1, StepOutcome.COMPLETED, None, "b", None),
        RecordRouting("a", 1, None, "b", 1, None),
        SetPhaseStatus("b", N.RUNNING, 1),
        StartPhase("b", 1, 1),
    )
    assert (d.state.tokens, d.state.cost_usd, d.state.phase("a").tokens) == (7, 0.5, 7)
    assert d.state.phase("a").visits == 1
    effects = d.send(PhaseCompleted("b", 1))
    assert effects[-2:] == (SetRunStatus(R.COMPLETED, None), RunFinished(R.COMPLETED, None))
    assert [s.next for s in d.state.history] == ["b", "$end"]
    assert d.state.current is None


def test_phase_without_transitions_completes_the_run_with_null_next() -> None:
    d = Driver(build_workflow({"only": {}}))
    d.send(RunStarted())
    effects = d.send(PhaseCompleted("only", 1))
    assert effects == (
        SetPhaseStatus("only", N.COMPLETED, 1),
        RecordStep("only", 1, StepOutcome.COMPLETED, None, None, None),
        SetRunStatus(R.COMPLETED, None),
        RunFinished(R.COMPLETED, None),
    )


def test_no_matching_transition_completes_with_no_route() -> None:
    d = Driver(build_workflow({"t": {"type": "command", "to": [("x", "exit_code == 0")]}, "x": {}}))
    d.send(RunStarted())
    effects = d.send(PhaseCompleted("t", 1, exit_code=3))
    assert RecordRouting("t", 1, None, "no_route", None, "no_route") in effects
    assert (d.state.status, d.state.reason) == (R.COMPLETED, "no_route")
    assert d.state.history[-1].next == "no_route"
    assert d.state.phase("x").status is N.SKIPPED


def test_fail_target_fails_the_run() -> None:
    d = Driver(build_workflow({"a": {"to": ["$fail"]}}))
    d.send(RunStarted(), PhaseCompleted("a", 1))
    assert (d.state.status, d.state.reason) == (R.FAILED, "fail_target")
    assert d.effects[-1] == RunFinished(R.FAILED, "fail_target")
    assert not can_retry(d.state)
    assert d.send(RetryRun()) == ()


def test_priority_order_wins_over_list_order_and_auto_always_matches() -> None:
    wf = build_workflow(
        {"a": {"to": ["b", ("c", "true")], "priorities": [2, 1]}, "b": {}, "c": {}},
    )
    d = Driver(wf)
    d.send(RunStarted(), PhaseCompleted("a", 1))
    assert d.state.current == "c"
    assert d.effects[-1] == StartPhase("c", 1, 1)
    assert d.state.phase("b").status is N.SKIPPED


def test_guard_routes_on_decision() -> None:
    wf = build_workflow(
        {
            "review": {"to": [("fix", 'decision == "changes_requested"'), ("$end", 'decision == "approved"')]},
            "fix": {"to": ["review"]},
        }
    )
    d = Driver(wf)
    d.send(RunStarted(), PhaseCompleted("review", 1, decision="changes_requested"))
    assert d.state.current == "fix"
    d.send(PhaseCompleted("fix", 1))
    assert d.effects[-3:] == [
        SetPhaseStatus("review", N.PENDING, 1),
        SetPhaseStatus("review", N.RUNNING, 2),
        StartPhase("review", 2, 2),
    ]
    d.send(PhaseCompleted("review", 2, decision="approved"))
    assert d.state.status is R.COMPLETED
    assert (d.state.phase("review").visits, d.state.phase("review").attempt) == (2, 2)


def test_edge_max_falls_through_to_the_next_transition() -> None:
    wf = build_workflow(
        {
            "impl": {"to": ["tests"]},
            "tests": {
                "type": "command",
                "to": [("impl", "exit_code != 0", 2), ("$end", "exit_code == 0"), "$fail"],
            },
        }
    )
    d = Driver(wf)
    d.send(RunStarted())
    for n in (1, 2):
        d.send(PhaseCompleted("impl", n), PhaseCompleted("tests", n, exit_code=1))
        assert d.state.current == "impl"
    assert d.state.edges[("tests", 1)] == 2
    d.send(PhaseCompleted("impl", 3), PhaseCompleted("tests", 3, exit_code=1))
    assert (d.state.status, d.state.reason) == (R.FAILED, "fail_target")
    assert d.state.edges[("tests", 3)] == 1
    assert d.state.steps == 6
    assert [s.phase for s in d.state.history] == ["impl", "tests"] * 3


def test_skipped_branch_is_reactivated_when_routed_into_later() -> None:
    wf = build_workflow(
        {
            "a": {"to": [("b", 'decision == "blocked"'), "c"]},
            "b": {"to": ["$end"]},
            "c": {"to": ["b"]},
        }
    )
    d = Driver(wf)
    d.send(RunStarted(), PhaseCompleted("a", 1, decision="approved"))
    assert d.state.phase("b").status is N.SKIPPED
    effects = d.send(PhaseCompleted("c", 1))
    assert effects[-3:] == (
        SetPhaseStatus("b", N.PENDING, 0),
        SetPhaseStatus("b", N.RUNNING, 1),
        StartPhase("b", 1, 1),
    )


def test_max_steps_stops_before_the_execution_that_would_exceed_it() -> None:
    d = Driver(build_workflow({"a": {"to": ["a"]}}, max_steps=2))
    d.send(RunStarted(), PhaseCompleted("a", 1))
    effects = d.send(PhaseCompleted("a", 2))
    assert effects[-2:] == (SetRunStatus(R.FAILED, "max_steps"), RunFinished(R.FAILED, "max_steps"))
    assert d.state.steps == 2
    assert d.state.phase("a").status is N.PENDING
    assert not any(isinstance(e, StartPhase) for e in effects)


def test_a_sub_workflows_steps_count_in_the_runs_steps_once() -> None:
    """SPEC §13: the outcome of a workflow phase carries its child run's steps; the run counts them (a
    completion or a failure), a stale outcome counts nothing, and they count against ``max_steps``."""
    d = Driver(build_workflow({"a": {"to": ["a"], "max_retries": 1}}, max_steps=9))
    d.send(RunStarted(), PhaseFailed("a", 1, "timeout", child_steps=2))
    assert d.state.steps == 4  # a #1, its child's 2, a #2
    d.send(PhaseCompleted("a", 1, child_steps=5))  # stale: attempt 1 is over
    assert d.state.steps == 4
    effects = d.send(PhaseCompleted("a", 2, child_steps=5))
    assert d.state.steps == 9
    assert effects[-2:] == (SetRunStatus(R.FAILED, "max_steps"), RunFinished(R.FAILED, "max_steps"))


def test_max_steps_zero_fails_at_start() -> None:
    d = Driver(build_workflow({"a": {}}, max_steps=0))
    assert d.send(RunStarted()) == (
        SetRunStatus(R.RUNNING, None),
        SetRunStatus(R.FAILED, "max_steps"),
        RunFinished(R.FAILED, "max_steps"),
    )


def test_max_visits_counts_new_visits_not_retries() -> None:
    d = Driver(build_workflow({"a": {"to": ["a"], "max_visits": 2, "max_retries": 3}}))
    d.send(RunStarted(), PhaseFailed("a", 1, "timeout"), PhaseFailed("a", 2, "timeout"))
    assert d.state.phase("a").entries == 1
    d.send(PhaseCompleted("a", 3))
    assert d.effects[-1] == StartPhase("a", 4, 2)
    d.send(PhaseCompleted("a", 4))
    assert (d.state.status, d.state.reason) == (R.FAILED, "max_visits")


def test_token_budget_stops_the_next_start_but_not_the_running_phase() -> None:
    d = Driver(build_workflow({"a": {"to": ["b"]}, "b": {}}, max_tokens=100))
    d.send(RunStarted(), PhaseCompleted("a", 1, tokens=99))
    assert d.state.current == "b"
    d.send(PhaseCompleted("b", 1, tokens=500))
    assert (d.state.status, d.state.tokens) == (R.COMPLETED, 599)
    d = Driver(build_workflow({"a": {"to": ["b"]}, "b": {}}, max_tokens=100))
    d.send(RunStarted(), PhaseCompleted("a", 1, tokens=100))
    assert (d.state.status, d.state.reason) == (R.FAILED, "budget_exhausted")


def test_cost_budget_counts_failed_attempts_too() -> None:
    d = Driver(build_workflow({"a": {"max_retries": 5}}, max_cost_usd=1.0))
    d.send(RunStarted(), PhaseFailed("a", 1, "transport", cost_usd=0.6))
    assert d.state.current == "a"
    d.send(PhaseFailed("a", 2, "transport", cost_usd=0.4))
    assert (d.state.status, d.state.reason) == (R.FAILED, "budget_exhausted")


def test_decision_rules_for_agent_phases() -> None:
    wf = build_workflow(
        {
            "needs": {"to": [("free", 'decision == "approved"')], "max_retries": 2},
            "free": {"to": ["cmd"], "max_retries": 1, "decisions": ("approved",)},
            "cmd": {"type": "command"},
        }
    )
    d = Driver(wf)
    d.send(RunStarted(), PhaseCompleted("needs", 1))
    assert d.state.history[-1].reason == "missing_decision"
    d.send(PhaseCompleted("needs", 2, decision="maybe"))
    step = d.state.history[-1]
    assert (step.outcome, step.decision, step.reason) == (StepOutcome.FAILED, "maybe", "invalid_decision")
    d.send(PhaseCompleted("needs", 3, decision="approved"))
    assert d.state.current == "free"
    d.send(PhaseCompleted("free", 1, decision="blocked"))
    assert d.state.history[-1].reason == "invalid_decision"
    d.send(PhaseCompleted("free", 2))
    assert d.state.current == "cmd"
    d.send(PhaseCompleted("cmd", 1, decision="approved", exit_code=0))
    assert d.state.status is R.COMPLETED
    assert d.state.phase("cmd").decision is None


def test_retries_then_retries_exhausted() -> None:
    d = Driver(build_workflow({"a": {"max_retries": 1}}))
    d.send(RunStarted())
    effects = d.send(PhaseFailed("a", 1, "timeout", error_code="TIMEOUT"))
    assert effects == (
        SetPhaseStatus("a", N.FAILED, 1),
        RecordStep("a", 1, StepOutcome.FAILED, None, None, "timeout", "TIMEOUT"),
        SetPhaseStatus("a", N.RUNNING, 2),
        StartPhase("a", 2, 1),
    )
    effects = d.send(PhaseFailed("a", 2, "timeout"))
    assert effects[-2:] == (
        SetRunStatus(R.FAILED, "retries_exhausted"),
        RunFinished(R.FAILED, "retries_exhausted"),
    )
    assert d.state.phase("a").status is N.FAILED


def test_non_retryable_failure_fails_at_once_with_its_reason() -> None:
    d = Driver(build_workflow({"a": {"max_retries": 5}}))
    d.send(RunStarted(), PhaseFailed("a", 1, "auth", retryable=False))
    assert (d.state.status, d.state.reason, d.state.steps) == (R.FAILED, "auth", 1)


def test_consecutive_failures_reset_on_a_new_visit() -> None:
    d = Driver(build_workflow({"a": {"to": [("a", "visits < 2")], "max_retries": 1}}))
    d.send(RunStarted(), PhaseFailed("a", 1, "x"), PhaseCompleted("a", 2))
    assert d.state.phase("a").consecutive_failures == 0
    d.send(PhaseFailed("a", 3, "x"))
    assert d.state.current == "a" and d.attempt("a") == 4
    d.send(PhaseCompleted("a", 4))
    assert (d.state.status, d.state.reason) == (R.COMPLETED, "no_route")


def test_retry_run_restarts_the_failed_phase_as_a_new_attempt() -> None:
    d = Driver(build_workflow({"a": {"to": ["b"], "max_retries": 0}, "b": {}}))
    d.send(RunStarted(), PhaseFailed("a", 1, "timeout"))
    assert can_retry(d.state)
    effects = d.send(RetryRun())
    assert effects == (
        SetRunStatus(R.RUNNING, None),
        SetPhaseStatus("a", N.RUNNING, 2),
        StartPhase("a", 2, 1),
    )
    assert d.state.phase("a").consecutive_failures == 0
    d.send(PhaseCompleted("a", 2), PhaseCompleted("b", 1))
    assert d.state.status is R.COMPLETED


def test_retry_after_a_cap_fails_again_with_the_cap() -> None:
    d = Driver(build_workflow({"a": {"to": ["a"]}}, max_steps=1))
    d.send(RunStarted(), PhaseCompleted("a", 1))
    assert d.state.reason == "max_steps" and d.state.queued == "a"
    effects = d.send(RetryRun())
    assert effects == (
        SetRunStatus(R.RUNNING, None),
        SetRunStatus(R.FAILED, "max_steps"),
        RunFinished(R.FAILED, "max_steps"),
    )


def test_stale_events_change_nothing() -> None:
    d = Driver(build_workflow({"a": {"to": ["b"]}, "b": {}}))
    d.send(RunStarted())
    before = d.state
    for event in (
        PhaseCompleted("a", 2),
        PhaseCompleted("b", 1),
        PhaseFailed("a", 0, "x"),
        PhaseInterrupted("b", 1),
        ApprovalRequested("a", 1),
        ApprovalGiven("a", "approved"),
        Resume(),
        RetryRun(),
    ):
        assert transition(before, event) == (before, ())


def test_interrupt_pauses_and_resume_runs_a_new_attempt_of_the_same_visit() -> None:
    d = Driver(build_workflow({"a": {"to": ["b"]}, "b": {}}))
    d.send(RunStarted())
    effects = d.send(PhaseInterrupted("a", 1))
    assert effects == (
        SetPhaseStatus("a", N.PENDING, 1),
        RecordStep("a", 1, StepOutcome.INTERRUPTED, None, None, "interrupted"),
        SetRunStatus(R.PAUSED, "interrupted"),
    )
    assert d.send(PhaseCompleted("a", 1, tokens=5)) == ()  # the interrupted outcome wins
    assert d.state.tokens == 0 and can_resume(d.state)
    effects = d.send(Resume())
    assert effects == (
        SetRunStatus(R.RUNNING, None),
        SetPhaseStatus("a", N.RUNNING, 2),
        StartPhase("a", 2, 1),
    )
    assert d.state.steps == 2 and d.state.phase("a").entries == 1


def test_pause_takes_effect_after_routing_and_resume_starts_the_queued_phase() -> None:
    d = Driver(build_workflow({"a": {"to": ["b"]}, "b": {"to": ["$end"]}}))
    d.send(RunStarted(), PauseRequested())
    assert d.state.pause_requested and d.state.status is R.RUNNING
    effects = d.send(PhaseCompleted("a", 1))
    assert effects[-1] == SetRunStatus(R.PAUSED, "paused")
    assert (d.state.queued, d.state.current, d.state.pause_requested) == ("b", None, False)
    assert d.state.phase("b").status is N.PENDING
    effects = d.send(Resume())
    assert effects == (
        SetRunStatus(R.RUNNING, None),
        SetPhaseStatus("b", N.RUNNING, 1),
        StartPhase("b", 1, 1),
    )
    d.send(PauseRequested(), PhaseCompleted("b", 1))
    assert (d.state.status, d.state.pause_requested) == (R.COMPLETED, False)


def test_cancel_cancels_running_and_pending_phases() -> None:
    d = Driver(build_workflow({"a": {"to": ["b"]}, "b": {}, "c": {}}))
    d.send(RunStarted())
    effects = d.send(CancelRequested())
    assert effects == (
        SetPhaseStatus("a", N.CANCELLED, 1),
        RecordStep("a", 1, StepOutcome.CANCELLED, None, None, "cancelled"),
        SetPhaseStatus("b", N.CANCELLED, 0),
        SetPhaseStatus("c", N.CANCELLED, 0),
        SetRunStatus(R.CANCELLED, "cancelled"),
        RunFinished(R.CANCELLED, "cancelled"),
    )
    for event in (PhaseCompleted("a", 1), Resume(), RetryRun(), CancelRequested(), RunStarted()):
        assert d.send(event) == ()


def test_approval_waits_and_routes_on_the_answer() -> None:
    wf = build_workflow(
        {
            "gate": {"type": "approval", "to": [("$end", 'decision == "approved"'), ("fix", "true")]},
            "fix": {"to": ["gate"]},
        }
    )
    d = Driver(wf)
    d.send(RunStarted())
    effects = d.send(ApprovalRequested("gate", 1))
    assert effects == (SetRunStatus(R.PAUSED, "awaiting_approval"), AwaitApproval("gate", 1))
    assert not can_resume(d.state)
    assert d.send(Resume()) == ()
    assert d.send(ApprovalGiven("gate", "maybe")) == ()
    assert d.send(PhaseInterrupted("gate", 1)) == ()
    effects = d.send(ApprovalGiven("gate", "rejected", "needs tests"))
    assert effects[:3] == (
        SetRunStatus(R.RUNNING, None),
        SetPhaseStatus("gate", N.COMPLETED, 1),
        RecordStep("gate", 1, StepOutcome.COMPLETED, "rejected", "fix", None),
    )
    assert d.state.phase("gate").report == {"comment": "needs tests"}
    d.send(PhaseCompleted("fix", 1), PhaseCompleted("gate", 2, decision="approved"))
    assert d.state.status is R.COMPLETED


def test_cancel_while_awaiting_approval() -> None:
    d = Driver(build_workflow({"gate": {"type": "approval", "to": ["$end"]}}))
    d.send(RunStarted(), ApprovalRequested("gate", 1), CancelRequested())
    assert d.state.status is R.CANCELLED
    assert d.state.phase("gate").status is N.CANCELLED
    assert d.state.history[-1].outcome is StepOutcome.CANCELLED


def test_approval_request_for_a_non_approval_phase_is_ignored() -> None:
    d = Driver(build_workflow({"a": {}}))
    d.send(RunStarted())
    assert d.send(ApprovalRequested("a", 1)) == ()
