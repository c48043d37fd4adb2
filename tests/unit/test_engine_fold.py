"""``Fold`` copies the state it is given once and changes its own copies after that (issue 29): the state it
started from, or was handed, is never changed."""

from __future__ import annotations

import pytest
from test_engine_support import build_workflow

from alphred.engine import RunStarted, initial_state, state_to_json, transition
from alphred.engine.fold import Fold
from alphred.engine.state import evolve
from alphred.engine.statuses import NodeStatus
from alphred.workflow.model import Workflow

pytestmark = pytest.mark.quick


def _workflow() -> Workflow:
    return build_workflow({"a": {"to": ["b"]}, "b": {}})


def test_a_fold_never_changes_the_state_it_started_from_or_was_handed() -> None:
    started, _ = transition(initial_state(_workflow(), {}), RunStarted())
    kept = state_to_json(started)
    fold = Fold(started)
    fold.update(steps=7)
    fold.phase_status("b", NodeStatus.RUNNING, attempt=1)
    fold.phase_status("b", NodeStatus.COMPLETED, visits=1)  # its own copy of b, changed in place
    handed = evolve(fold.state, steps=9)
    handed_before = state_to_json(handed)
    fold.state = handed  # not the fold's copy: the next change copies it again
    fold.update(steps=10)
    fold.phase_status("a", NodeStatus.COMPLETED, visits=1)
    state, _ = fold.result()
    assert state_to_json(started) == kept
    assert state_to_json(handed) == handed_before
    assert (state.steps, state.phase("a").status, state.phase("b").status) == (10, "completed", "completed")


def test_a_change_of_no_such_field_is_refused() -> None:
    fold = Fold(initial_state(_workflow(), {}))
    with pytest.raises(TypeError, match="no field"):
        fold.update(stepz=1)
    fold = Fold(initial_state(_workflow(), {}))
    fold.update(steps=1)  # its own copy from here: changed in place, and still checked
    with pytest.raises(TypeError, match="no field"):
        fold.update(stepz=1)
    with pytest.raises(TypeError, match="no field"):
        fold.change_phase("a", visitz=1)
    with pytest.raises(TypeError, match="no field"):
        evolve(fold.state, stepz=1)
