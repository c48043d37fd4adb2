"""Delivery as engine effects: push, then open the pull request; each step persisted before it runs."""

from __future__ import annotations

import dataclasses

from test_engine_support import Driver, build_workflow

from alphred.engine import (
    DELIVERY_FAILED,
    NOT_WANTED,
    NOTHING_TO_DELIVER,
    Deliver,
    DeliveryDone,
    DeliveryFailed,
    PhaseCompleted,
    RecordPullRequest,
    Resume,
    RetryRun,
    RunFinished,
    RunStarted,
    RunStatus,
    SetRunStatus,
    can_retry,
    state_from_json,
    state_to_json,
)
from alphred.guards import parse_guard

URL = "https://example.invalid/pull/1"


def delivering() -> Driver:
    driver = Driver(build_workflow({"a": {"to": ["$end"]}}))
    driver.state = dataclasses.replace(driver.state, deliver=True)
    driver.send(RunStarted())
    return driver


def test_a_run_with_a_pull_request_completes_only_once_delivered() -> None:
    driver = delivering()
    assert driver.send(PhaseCompleted("a", 1))[-1] == Deliver("push")
    assert (driver.state.status, driver.state.delivery) == (RunStatus.RUNNING, "push")
    assert not any(isinstance(e, RunFinished) for e in driver.effects)
    assert driver.send(DeliveryDone("push")) == (Deliver("open"),)
    assert driver.send(DeliveryDone("open", URL)) == (
        RecordPullRequest(URL),
        SetRunStatus(RunStatus.COMPLETED, None),
        RunFinished(RunStatus.COMPLETED, None),
    )
    assert (driver.state.pr_url, driver.state.delivery) == (URL, None)


def test_a_failed_step_fails_the_run_and_retry_delivers_from_that_step_only() -> None:
    driver = delivering()
    driver.send(PhaseCompleted("a", 1), DeliveryDone("push"))
    assert driver.send(DeliveryFailed("open", "pull_request"))[-1] == RunFinished(RunStatus.FAILED, DELIVERY_FAILED)
    assert can_retry(driver.state) and driver.state.delivery == "open"
    assert driver.send(RetryRun()) == (SetRunStatus(RunStatus.RUNNING, None), Deliver("open"))
    assert driver.attempt("a") == 1  # the phase did not run again


def test_resume_of_a_run_taken_over_mid_delivery_redoes_the_step_only() -> None:
    driver = delivering()
    driver.send(PhaseCompleted("a", 1))
    stored = state_from_json(driver.workflow, state_to_json(driver.state))  # what a take-over reads back
    driver.state = stored
    assert driver.send(Resume()) == (
        Deliver(
            "push",
        ),
    )
    assert driver.send(DeliveryDone("open", URL)) == ()  # a stale step answer changes nothing


def test_nothing_to_deliver_completes_the_run_with_a_note_and_no_pull_request() -> None:
    driver = delivering()
    driver.send(PhaseCompleted("a", 1))
    assert driver.send(DeliveryDone("push", nothing=True)) == (
        SetRunStatus(RunStatus.COMPLETED, None),
        RunFinished(RunStatus.COMPLETED, None),
    )
    assert (driver.state.pr_url, driver.state.delivery, driver.state.delivery_note) == (None, None, NOTHING_TO_DELIVER)
    assert state_from_json(driver.workflow, state_to_json(driver.state)).delivery_note == NOTHING_TO_DELIVER


def test_pull_request_when_is_a_guard_over_the_final_state() -> None:
    for shipped, expected in (("yes", Deliver("push")), ("no", RunFinished(RunStatus.COMPLETED, None))):
        workflow = build_workflow({"a": {"to": ["$end"]}})
        when = parse_guard('inputs.ship == "yes" and phases.a.status == "completed"')
        workflow = dataclasses.replace(workflow, pull_request_when=when)
        driver = Driver(workflow)
        driver.state = dataclasses.replace(driver.state, deliver=True, inputs={"ship": shipped})
        driver.send(RunStarted())
        assert driver.send(PhaseCompleted("a", 1))[-1] == expected
        assert driver.state.delivery_note == (None if shipped == "yes" else NOT_WANTED)
