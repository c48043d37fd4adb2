"""``allowed_actions``: the one place that says what an operator may do with a run (CLI, web view, closing)."""

from __future__ import annotations

import pytest

from alphred.engine import AWAITING_APPROVAL, Action, RunStatus, allowed_actions

A = Action
R = RunStatus


@pytest.mark.parametrize(
    ("status", "reason", "holder_alive", "retryable", "expected"),
    [
        (R.PENDING, None, False, False, (A.PAUSE, A.CANCEL, A.RESUME)),
        (R.PENDING, None, True, False, (A.PAUSE, A.CANCEL)),  # its process is starting it
        (R.RUNNING, None, True, False, (A.PAUSE, A.CANCEL)),
        (R.RUNNING, None, False, False, (A.PAUSE, A.CANCEL, A.RESUME)),  # its process is gone
        (R.PAUSED, "paused", False, False, (A.CANCEL, A.RESUME)),
        (R.PAUSED, "interrupted", True, False, (A.CANCEL, A.RESUME)),  # a pause holds no lease worth asking
        (R.PAUSED, AWAITING_APPROVAL, False, False, (A.APPROVE, A.REJECT, A.CANCEL)),
        (R.FAILED, "retries_exhausted", False, True, (A.RETRY,)),
        (R.FAILED, "fail_target", False, False, ()),  # routed to $fail: nothing to run again
        (R.COMPLETED, None, False, True, ()),
        (R.CANCELLED, "cancelled", False, True, ()),
    ],
)
def test_allowed_actions_by_status_reason_and_lease(
    status: RunStatus, reason: str | None, holder_alive: bool, retryable: bool, expected: tuple[Action, ...]
) -> None:
    assert allowed_actions(status, reason, holder_alive=holder_alive, retryable=retryable) == expected


def test_every_action_names_an_alphred_command() -> None:
    assert [a.value for a in Action] == ["approve", "reject", "pause", "cancel", "resume", "retry"]
