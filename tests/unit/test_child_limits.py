"""A sub-workflow's limits (SPEC §13): none above what its parent has left."""

from __future__ import annotations

from dataclasses import replace

from test_engine_support import build_workflow

from alphred.engine import initial_state
from alphred.runtime.child_run import capped_limits
from alphred.workflow.model import Limits


def test_the_child_gets_at_most_what_the_parent_has_left() -> None:
    parent = build_workflow({"a": {}}, max_steps=10, max_tokens=100, max_cost_usd=1.0)
    state = replace(initial_state(parent, {}), steps=4, tokens=60, cost_usd=0.75)
    own = Limits(max_steps=50, max_tokens=1000, max_cost_usd=5.0, timeout=3600.0)
    capped = capped_limits(own, replace(parent.limits, timeout=600.0), state, 90.0)
    assert (capped.max_steps, capped.max_tokens, capped.max_cost_usd, capped.timeout) == (6, 40, 0.25, 90.0)
    tighter = Limits(max_steps=2, max_tokens=5, max_cost_usd=0.1, timeout=30.0)
    assert capped_limits(tighter, parent.limits, state, 90.0) == tighter  # its own, when they are tighter


def test_no_time_left_no_step_left_and_no_parent_deadline() -> None:
    parent = build_workflow({"a": {}}, max_steps=4)
    state = replace(initial_state(parent, {}), steps=4)  # the workflow phase was the parent's last step
    capped = capped_limits(Limits(), parent.limits, state, 0.0)
    assert (capped.max_steps, capped.timeout) == (0, 0.0)  # the child can start nothing
    assert capped_limits(Limits(timeout=60.0), parent.limits, state, None).timeout == 60.0  # no parent deadline
    assert capped_limits(Limits(), parent.limits, state, None).timeout is None
