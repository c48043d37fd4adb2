"""The engine's side of usage limits (SPEC §15): an interrupted step, a paused run with ``wake_at``, the
total wait bounded by ``limits.max_wait``, ``Resume`` clearing ``wake_at``; the state keeps both in JSON."""

from __future__ import annotations

from dataclasses import replace

from test_engine_support import Driver, build_workflow

from alphred.engine import (
    USAGE_LIMIT,
    NodeStatus,
    PhaseFailed,
    Resume,
    RunStarted,
    RunStatus,
    StartPhase,
    StepOutcome,
    state_from_json,
    state_to_json,
)
from alphred.workflow.model import Limits


def _driver(max_wait: float = 6 * 3600.0) -> Driver:
    workflow = build_workflow({"a": {"to": ["$end"]}})
    return Driver(replace(workflow, limits=replace(workflow.limits, max_wait=max_wait)))


def _limited(attempt: int, wake_at: float, wait: float) -> PhaseFailed:
    return PhaseFailed("a", attempt, USAGE_LIMIT, False, "CLAUDE_USAGE_LIMIT", 5, 0.1, wake_at, wait)


def test_a_usage_limit_pauses_the_run_until_wake_at_without_counting_a_retry() -> None:
    d = _driver()
    d.send(RunStarted())
    d.send(_limited(1, 5000.0, 3600.0))
    state = d.state
    assert (state.status, state.reason, state.wake_at, state.waited) == (RunStatus.PAUSED, USAGE_LIMIT, 5000.0, 3600.0)
    assert state.phase("a").status is NodeStatus.PENDING and state.phase("a").consecutive_failures == 0
    step = state.history[-1]
    assert (step.outcome, step.reason, step.error_code) == (StepOutcome.INTERRUPTED, USAGE_LIMIT, "CLAUDE_USAGE_LIMIT")
    assert state.tokens == 5  # what the attempt spent still counts
    assert state_from_json(state.workflow, state_to_json(state)) == state
    effects = d.send(Resume())
    assert StartPhase("a", 2, 1) in effects and d.state.wake_at is None and d.state.waited == 3600.0


def test_waits_add_up_and_past_max_wait_the_run_fails_usage_limit() -> None:
    d = _driver(max_wait=2 * 3600.0)
    d.send(RunStarted())
    d.send(_limited(1, 5000.0, 3600.0))
    d.send(Resume())
    d.send(_limited(2, 9000.0, 3600.0))  # 2h in all: still within max_wait
    assert d.state.status is RunStatus.PAUSED and d.state.waited == 7200.0
    d.send(Resume())
    d.send(_limited(3, 9500.0, 1.0))
    assert (d.state.status, d.state.reason) == (RunStatus.FAILED, USAGE_LIMIT)
    assert d.state.history[-1].outcome is StepOutcome.FAILED


def test_a_state_saved_before_usage_limits_reads_with_no_wait() -> None:
    d = _driver()
    saved = state_to_json(d.state)
    del saved["wake_at"], saved["waited"]
    assert state_from_json(d.state.workflow, saved).wake_at is None
    assert Limits().max_wait == 6 * 3600.0 and Limits().max_stalls == 3


def test_a_usage_limit_an_auth_failure_or_spent_retries_move_to_the_next_fallback() -> None:
    from alphred.workflow.model import Fallback

    fallbacks = (Fallback("codex"), Fallback("openai", "m"))
    d = Driver(build_workflow({"a": {"to": ["$end"], "fallback": fallbacks, "max_retries": 1}}))
    d.send(RunStarted())
    assert StartPhase("a", 2, 1) in d.send(_limited(1, 5000.0, 3600.0))  # no wait: the fallback runs at once
    assert d.state.status is RunStatus.RUNNING and d.state.wake_at is None and d.state.phase("a").provider == 1
    d.send(PhaseFailed("a", 2, "transport", True, "CODEX_TRANSPORT"))  # a retry on codex first
    assert d.state.phase("a").provider == 1
    d.send(PhaseFailed("a", 3, "transport", True, "CODEX_TRANSPORT"))  # retries spent: the next provider
    assert d.state.phase("a").provider == 2 and d.state.phase("a").consecutive_failures == 0
    d.send(PhaseFailed("a", 4, "auth", False, "OPENAI_AUTH"))  # nothing left: the run fails as before
    assert (d.state.status, d.state.reason) == (RunStatus.FAILED, "auth")
    assert [(s.attempt, s.outcome.value, s.provider) for s in d.state.history] == [
        (1, "interrupted", "scripted"),
        (2, "failed", "codex"),
        (3, "failed", "codex"),
        (4, "failed", "openai"),
    ]
    assert state_from_json(d.state.workflow, state_to_json(d.state)).phase("a").provider == 2


def test_checks_failed_or_invalid_output_never_move_to_a_fallback() -> None:
    from alphred.workflow.model import Fallback

    d = Driver(build_workflow({"a": {"to": ["$end"], "fallback": (Fallback("codex"),)}}))
    d.send(RunStarted())
    d.send(PhaseFailed("a", 1, "checks_failed", True, "CHECKS_FAILED"))
    assert (d.state.status, d.state.reason, d.state.phase("a").provider) == (RunStatus.FAILED, "checks_failed", 0)
