"""The store accepts exactly the status moves of SPEC §5's tables and rejects every other one."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alphred.engine import statuses as engine_status
from alphred.errors import InvalidTransitionError
from alphred.store import (
    NODE_TRANSITIONS,
    RUN_TRANSITIONS,
    NodeStatus,
    RunStatus,
    SqlRunStore,
    check_node_transition,
    check_run_transition,
)
from alphred.workflow.model import Workflow

R, N = RunStatus, NodeStatus
SPEC_RUN_MOVES = {
    (R.PENDING, R.RUNNING), (R.RUNNING, R.COMPLETED), (R.RUNNING, R.FAILED), (R.RUNNING, R.CANCELLED),
    (R.RUNNING, R.PAUSED), (R.PAUSED, R.RUNNING), (R.PENDING, R.CANCELLED), (R.PAUSED, R.CANCELLED),
    (R.FAILED, R.RUNNING),
}  # fmt: skip
SPEC_NODE_MOVES = {
    (N.PENDING, N.RUNNING), (N.RUNNING, N.COMPLETED), (N.RUNNING, N.FAILED), (N.RUNNING, N.PENDING),
    (N.PENDING, N.SKIPPED), (N.FAILED, N.RUNNING), (N.COMPLETED, N.PENDING), (N.SKIPPED, N.PENDING),
    (N.PENDING, N.CANCELLED), (N.RUNNING, N.CANCELLED),
}  # fmt: skip
DB_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def test_tables_are_the_moves_written_in_the_spec() -> None:
    assert {(old, new) for old, targets in RUN_TRANSITIONS.items() for new in targets} == SPEC_RUN_MOVES
    assert {(old, new) for old, targets in NODE_TRANSITIONS.items() for new in targets} == SPEC_NODE_MOVES
    assert set(RUN_TRANSITIONS) == set(RunStatus) and set(NODE_TRANSITIONS) == set(NodeStatus)


def test_store_and_engine_agree_on_the_tables() -> None:
    assert {(str(a), str(b)) for a, b in engine_status.RUN_MOVES} == {(str(a), str(b)) for a, b in SPEC_RUN_MOVES}
    assert {(str(a), str(b)) for a, b in engine_status.NODE_MOVES} == {(str(a), str(b)) for a, b in SPEC_NODE_MOVES}


@pytest.mark.parametrize(("old", "new"), list(product(RunStatus, RunStatus)))
def test_check_run_transition_over_every_pair(old: RunStatus, new: RunStatus) -> None:
    if (old, new) in SPEC_RUN_MOVES:
        assert check_run_transition(old, new) is new
    else:
        with pytest.raises(InvalidTransitionError):
            check_run_transition(old, new)


@pytest.mark.parametrize(("old", "new"), list(product(NodeStatus, NodeStatus)))
def test_check_node_transition_over_every_pair(old: NodeStatus, new: NodeStatus) -> None:
    if (old, new) in SPEC_NODE_MOVES:
        assert check_node_transition(old, new) is new
    else:
        with pytest.raises(InvalidTransitionError):
            check_node_transition(old, new)


def test_unknown_status_names_are_rejected() -> None:
    with pytest.raises(InvalidTransitionError):
        check_run_transition("pending", "done")
    with pytest.raises(InvalidTransitionError):
        check_node_transition("limbo", "running")


@DB_SETTINGS
@given(moves=st.lists(st.sampled_from(list(RunStatus)), min_size=1, max_size=12))
def test_store_run_moves_follow_the_table(
    store: SqlRunStore, make_workflow: Callable[..., Workflow], moves: list[RunStatus]
) -> None:
    tree_id, _ = store.compile(make_workflow())
    run_id = store.create_run(tree_id)
    current = RunStatus.PENDING
    for new in moves:
        if (current, new) in SPEC_RUN_MOVES:
            assert store.set_run_status(run_id, new) is current
            current = new
        else:
            with pytest.raises(InvalidTransitionError):
                store.set_run_status(run_id, new)
        assert store.get_run(run_id).status is current


@DB_SETTINGS
@given(moves=st.lists(st.sampled_from(list(NodeStatus)), min_size=1, max_size=12))
def test_store_node_moves_follow_the_table(
    store: SqlRunStore, make_workflow: Callable[..., Workflow], moves: list[NodeStatus]
) -> None:
    tree_id, _ = store.compile(make_workflow())
    run_id = store.create_run(tree_id)
    current, executions = NodeStatus.PENDING, 0
    for new in moves:
        if (current, new) in SPEC_NODE_MOVES:
            node = store.set_node_status(run_id, "tests", new)
            current = new
            executions += new is NodeStatus.RUNNING
            assert node.attempt == executions  # every new execution is attempt + 1
        else:
            with pytest.raises(InvalidTransitionError):
                store.set_node_status(run_id, "tests", new)
        assert store.get_node(run_id, "tests").status is current
