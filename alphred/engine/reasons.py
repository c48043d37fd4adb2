"""The reasons the machine gives: a run's ``reason`` or a failed step's ``reason`` (SPEC §5, §8, §9)."""

from __future__ import annotations

MAX_STEPS = "max_steps"
MAX_VISITS = "max_visits"
BUDGET_EXHAUSTED = "budget_exhausted"
RETRIES_EXHAUSTED = "retries_exhausted"
FAIL_TARGET = "fail_target"
AWAITING_APPROVAL = "awaiting_approval"
PAUSED = "paused"
INTERRUPTED = "interrupted"
CANCELLED = "cancelled"
MISSING_DECISION = "missing_decision"
INVALID_DECISION = "invalid_decision"
DELIVERY_FAILED = "delivery_failed"
CHECKS_FAILED = "checks_failed"  # an attempt's checks failed (SPEC §9); also the run's reason once retries are out
USAGE_LIMIT = "usage_limit"  # the run waits out a provider's usage limit; or failed: it outlasted limits.max_wait
STALLED = "stalled"  # a loop's visits changed nothing limits.max_stalls times in a row (SPEC §15)
TOO_MANY_ITEMS = "too_many_items"  # a for_each list is longer than ``limits.max_items`` (SPEC §13)
NOT_A_LIST = "for_each_not_a_list"  # a for_each path did not yield a list (SPEC §13)
OUTPUT_INVALID = "output_invalid"  # a typed report is missing or does not match its ``output:`` (SPEC §12)
TIMEOUT = "timeout"  # the run ran past ``limits.timeout``, measured from its stored start (SPEC §8)
MERGE_CONFLICT = "merge_conflict"  # a join's merge conflicted and the join has no ``on_conflict`` phase

DELIVERY_STEPS = ("push", "open")
WAITING_FOR_CI = "waiting_for_ci"
"""A ``type: ci`` phase waits for the pull request's checks: the run is paused, holding nothing (SPEC §16)."""
NOTHING_TO_DELIVER = "nothing_to_deliver"
"""Delivery note: the run branch has no commit on top of the base, so no pull request was opened."""
NOT_WANTED = "pull_request_when_false"
"""Delivery note: ``pull_request.when`` did not hold in the final state, so no pull request was opened."""
"""Delivery of a run with a pull request, in order: push the branch, then open (or find) its pull request."""
