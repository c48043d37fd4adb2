"""Fail-over and stall detection inside parallel branches and for_each items (SPEC §15 with §8, §13): a phase
in a branch moves to its next ``fallback`` provider exactly as on the run branch (per phase instance, so per
branch and per item), a usage limit with a fallback left is not waited for, and a loop inside a branch that
stalls ``limits.max_stalls`` times in a row ends its branch ``stalled``."""

from __future__ import annotations

from test_engine_lanes import Driver, starts, workflow

from alphred.engine import (
    USAGE_LIMIT,
    NodeStatus,
    PhaseCompleted,
    PhaseFailed,
    RunStarted,
    RunStatus,
    StepOutcome,
    state_from_json,
    state_to_json,
)
from alphred.engine.events import MergeBranch, StopPhase

BRANCHES = """\
limits: {max_parallel: 2}
phases:
  plan: {transitions: [{to: [a, b]}]}
  a:
    max_retries: 1
    fallback: [scripted, {provider: scripted, model: m}]
    transitions: [{to: join}]
  b: {transitions: [{to: join}]}
  join: {join: %s}
"""

ITEMS = """\
phases:
  plan:
    transitions: [{to: work, for_each: report.tasks, as: task}]
  work:
    fallback: [scripted]
    transitions: [{to: join}]
  join: {join: all}
"""

LOOP = """\
limits: {max_parallel: 2, max_stalls: 2}
phases:
  plan: {transitions: [{to: [poll, b]}]}
  poll:
    max_visits: 20
    transitions: [{to: join, when: report == "ready"}, {to: poll}]
  b: {transitions: [{to: join}]}
  join: {join: %s}
"""


def _limited(phase: str, attempt: int) -> PhaseFailed:
    return PhaseFailed(phase, attempt, USAGE_LIMIT, False, "CLAUDE_USAGE_LIMIT", 0, 0.0, 5000.0, 3600.0)


def _started(d: Driver) -> Driver:
    d.send(RunStarted())
    d.done("plan")
    return d


def test_an_outage_in_a_branch_moves_to_the_fallback_after_the_retries_with_a_fresh_count() -> None:
    d = _started(Driver(workflow(BRANCHES % "all")))
    assert starts(d.send(PhaseFailed("a", 1, "transport", True, "X"))) == [("a", 2, "a")]  # a retry first
    assert d.state.phase("a").provider == 0
    effects = d.send(PhaseFailed("a", 2, "transport", True, "X"))  # retries spent: the next provider, in the lane
    assert starts(effects) == [("a", 3, "a")] and d.state.status is RunStatus.RUNNING
    assert (d.state.phase("a").provider, d.state.phase("a").consecutive_failures) == (1, 0)
    assert d.state.phase("b").status is NodeStatus.RUNNING  # the other branch never noticed
    d.send(PhaseFailed("a", 3, "transport", True, "X"))  # a fresh count: one retry on the fallback too
    assert d.state.phase("a").provider == 1 and d.state.status is RunStatus.RUNNING
    d.send(PhaseFailed("a", 4, "auth", False, "X"))  # an auth failure: the next fallback at once
    assert d.state.phase("a").provider == 2 and starts(d.effects[-1:]) == [("a", 5, "a")]
    d.done("a")
    assert [e for e in d.send(PhaseCompleted("b", 1, "approved")) if isinstance(e, MergeBranch)] == [
        MergeBranch("join", "a")
    ]
    assert [(s.attempt, s.outcome.value, s.branch, s.provider) for s in d.state.history if s.phase == "a"] == [
        (1, "failed", "a", "scripted"),
        (2, "failed", "a", "scripted"),
        (3, "failed", "a", "scripted"),  # the first fallback
        (4, "failed", "a", "scripted"),
        (5, "completed", "a", "scripted"),
    ]


def test_a_usage_limit_in_a_branch_with_a_fallback_left_is_not_waited_for() -> None:
    d = _started(Driver(workflow(BRANCHES % "all")))
    effects = d.send(_limited("a", 1))
    assert starts(effects) == [("a", 2, "a")]  # the fallback runs at once
    assert (d.state.status, d.state.wake_at, d.state.interrupting) == (RunStatus.RUNNING, None, False)
    assert d.state.phase("a").provider == 1 and d.state.phase("a").consecutive_failures == 0
    step = d.state.history[-1]
    assert (step.outcome, step.reason, step.branch) == (StepOutcome.INTERRUPTED, USAGE_LIMIT, "a")
    assert not any(isinstance(e, StopPhase) for e in effects)  # the other branch runs on
    restored = state_from_json(d.state.workflow, state_to_json(d.state))
    assert restored.phase("a").provider == 1  # stored with the transition: a take-over keeps the provider


def test_a_usage_limit_in_a_branch_without_a_fallback_still_pauses_the_run_for_its_reset() -> None:
    d = _started(Driver(workflow(BRANCHES % "all")))
    d.send(_limited("b", 1))  # b has no fallback: no new start, then the run waits
    assert d.state.interrupting and d.state.status is RunStatus.RUNNING
    d.send(_limited("a", 1))  # a moves to its fallback, queued behind the wait: nothing starts meanwhile
    assert d.state.phase("a").provider == 1 and d.state.phase("a").status is NodeStatus.PENDING
    assert (d.state.status, d.state.reason, d.state.wake_at) == (RunStatus.PAUSED, USAGE_LIMIT, 5000.0)


def test_each_for_each_item_moves_to_the_fallback_on_its_own() -> None:
    d = Driver(workflow(ITEMS))
    d.send(RunStarted())
    d.send(PhaseCompleted("plan", 1, "approved", {"tasks": ["x", "y"]}))
    assert starts(d.send(PhaseFailed("work-1", 1, "auth", False, "X"))) == [("work-1", 2, "work-1")]
    assert (d.state.phase("work-1").provider, d.state.phase("work-0").provider) == (1, 0)
    d.send(PhaseFailed("work-0", 1, "checks_failed", True, "CHECKS_FAILED"))  # no provider mends failed checks
    assert d.state.phase("work-0").provider == 0 and d.state.status is RunStatus.FAILED  # no retry left (0)


def _poll(d: Driver, report: str = "waiting", tree: str = "t1") -> None:
    d.send(PhaseCompleted("poll", d.state.phase("poll").attempt, None, report, tree=tree))


def test_a_loop_in_a_branch_that_changes_nothing_fails_the_run_stalled() -> None:
    d = _started(Driver(workflow(LOOP % "all")))
    _poll(d)
    _poll(d)  # stalled once
    assert d.state.phase("poll").stalls == 1 and d.state.status is RunStatus.RUNNING
    effects = d.send(PhaseCompleted("poll", 3, None, "waiting", tree="t1"))  # max_stalls (2) in a row
    assert (d.state.status, d.state.reason) == (RunStatus.FAILED, "stalled")
    assert StopPhase("b", 1, "b") in effects  # the other branch is stopped, as for any failed branch
    last = next(s for s in reversed(d.state.history) if s.phase == "poll")
    assert (last.outcome, last.reason, last.branch) == (StepOutcome.COMPLETED, "stalled", "poll")


def test_a_changed_tree_or_report_in_a_branch_resets_the_count() -> None:
    d = _started(Driver(workflow(LOOP % "all")))
    _poll(d)
    _poll(d)
    _poll(d, tree="t2")  # the tree changed
    _poll(d)
    _poll(d, report="still waiting")  # the report changed
    assert d.state.phase("poll").stalls == 0 and d.state.status is RunStatus.RUNNING
    _poll(d, report="ready", tree="t3")
    assert d.state.lanes[0].arrived


def test_under_all_done_a_stalled_branch_is_recorded_failed_and_the_others_go_on() -> None:
    d = _started(Driver(workflow(LOOP % "all_done")))
    for _ in range(3):
        _poll(d)
    assert d.state.status is RunStatus.RUNNING and d.state.lanes[0].failed
    effects = d.done("b")
    assert [e for e in effects if isinstance(e, MergeBranch)] == [MergeBranch("join", "b")]
    assert d.state.branches is not None and d.state.branches["failed"] == ["poll"]


def test_stalled_visits_steers_a_guard_inside_a_branch() -> None:
    d = _started(Driver(workflow((LOOP % "all").replace('report == "ready"', "stalled_visits >= 1"))))
    _poll(d)
    assert d.state.phase("poll").status is NodeStatus.RUNNING  # routed back into itself
    _poll(d)  # equal to the visit before: the guard takes it to the join
    assert d.state.lanes[0].arrived and d.state.status is RunStatus.RUNNING
