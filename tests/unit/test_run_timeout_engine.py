"""``limits.timeout`` in the workflow format and the engine (SPEC §8): ``TimedOut`` fails the run ``timeout``."""

from __future__ import annotations

import textwrap
from dataclasses import replace

from test_engine_support import Driver, build_workflow

from alphred.engine import (
    ApprovalRequested,
    NodeStatus,
    PhaseCompleted,
    PhaseInterrupted,
    RecordStep,
    Resume,
    RetryRun,
    RunFinished,
    RunStarted,
    RunStatus,
    SetPhaseStatus,
    SetRunStatus,
    StepOutcome,
    TimedOut,
    can_retry,
    transition,
)
from alphred.engine.state import initial_state
from alphred.providers import default_registry
from alphred.workflow import check_workflow, load_workflow

PROVIDERS = default_registry(builtin_only=True)
N = NodeStatus
R = RunStatus


def test_limits_timeout_takes_the_duration_syntax() -> None:
    text = "alphred: 1\nkey: wf\nlimits: {timeout: 2h}\nphases:\n  a: {provider: scripted}\n"
    assert load_workflow("wf.yaml", text, providers=PROVIDERS).limits.timeout == 7200.0
    plain = load_workflow("wf.yaml", text.replace("2h", "90"), providers=PROVIDERS)
    assert plain.limits.timeout == 90.0
    assert (
        load_workflow("wf.yaml", text.replace("limits: {timeout: 2h}\n", ""), providers=PROVIDERS).limits.timeout
        is None
    )


def test_a_bad_limits_timeout_is_located() -> None:
    text = textwrap.dedent(
        """\
        alphred: 1
        key: wf
        limits:
          timeout: soon
        phases:
          a: {provider: scripted}
        """
    )
    _, found = check_workflow("wf.yaml", text, providers=PROVIDERS)
    assert [d.format() for d in found] == [
        "wf.yaml:4:12: error: bad duration 'soon' for 'timeout': use 90s, 20m, 2h or a number of seconds up to a year"
    ]
    _, zero = check_workflow("wf.yaml", text.replace("soon", "0s"), providers=PROVIDERS)
    assert next(d.format() for d in zero).startswith("wf.yaml:4:12: error: bad duration '0s'")


def test_timed_out_fails_the_running_attempt_and_the_run_with_nothing_to_retry() -> None:
    d = Driver(build_workflow({"a": {"to": ["b"]}, "b": {}}))
    d.send(RunStarted())
    effects = d.send(TimedOut())
    assert effects == (
        SetPhaseStatus("a", N.FAILED, 1),
        RecordStep("a", 1, StepOutcome.FAILED, None, None, "timeout"),
        SetRunStatus(R.FAILED, "timeout"),
        RunFinished(R.FAILED, "timeout"),
    )
    assert d.state.phase("b").status is N.PENDING
    assert not can_retry(d.state)  # the deadline never restarts
    for event in (PhaseCompleted("a", 1), Resume(), RetryRun(), TimedOut()):
        assert d.send(event) == ()


def test_a_paused_run_is_taken_up_then_failed() -> None:
    d = Driver(build_workflow({"gate": {"type": "approval", "to": ["$end"]}}))
    d.send(RunStarted(), ApprovalRequested("gate", 1))
    effects = d.send(TimedOut())
    assert effects[0] == SetRunStatus(R.RUNNING, None)  # SPEC §5: paused -> running -> failed
    assert effects[-1] == RunFinished(R.FAILED, "timeout")
    assert d.state.phase("gate").status is N.FAILED and d.state.queued is None

    interrupted = Driver(build_workflow({"a": {}}))
    interrupted.send(RunStarted(), PhaseInterrupted("a", 1))
    assert interrupted.state.status is R.PAUSED
    interrupted.send(TimedOut())
    assert (interrupted.state.status, interrupted.state.reason) == (R.FAILED, "timeout")
    assert interrupted.state.phase("a").status is N.PENDING  # its interrupted attempt was already recorded


def test_a_run_not_started_or_delivering_is_left_alone() -> None:
    wf = build_workflow({"a": {}})
    pending = initial_state(wf, {})
    assert transition(pending, TimedOut()) == (pending, ())
    delivering = replace(pending, status=R.RUNNING, delivery="push")
    assert transition(delivering, TimedOut()) == (delivering, ())
