"""The schema's rules are enforced by the database itself, not only by the store's Python code (SPEC §5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Table, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from alphred.store import EventRow, SqlRunStore
from alphred.store.tables import (
    GuardDefinition,
    PhaseArtifact,
    RoutingDecision,
    RunNode,
    RunNodeDiagnostic,
    RunNodeStreamEvent,
    TreeEdge,
    TreeNode,
    WorkflowRun,
    WorkflowTree,
    table,
)
from alphred.workflow.model import Workflow

TREES, NODES, EDGES = table(WorkflowTree), table(TreeNode), table(TreeEdge)
GUARDS, RUNS, RUN_NODES = table(GuardDefinition), table(WorkflowRun), table(RunNode)
CHILDREN = (table(RoutingDecision), table(PhaseArtifact), table(RunNodeDiagnostic), table(RunNodeStreamEvent))


def insert_row(store: SqlRunStore, into: Table, /, **values: Any) -> int:
    with store.engine.begin() as conn:
        key = conn.execute(insert(into).values(**values)).inserted_primary_key
        assert key is not None
        return int(key[0])


def count(store: SqlRunStore, target: Table, *where: Any) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(target).where(*where)).scalar_one())


def node_ids(store: SqlRunStore, tree_id: int) -> dict[str, int]:
    with store.engine.connect() as conn:
        rows = conn.execute(select(NODES.c.node_key, NODES.c.id).where(NODES.c.tree_id == tree_id))
        return {key: node_id for key, node_id in rows}


def new_tree(store: SqlRunStore, key: str = "bare", version: int = 1) -> int:
    return insert_row(store, TREES, tree_key=key, version=version, content_hash=f"h{version}", start_node_key="a")


def new_node(store: SqlRunStore, tree_id: int, key: str, index: int, **values: Any) -> int:
    values = {"node_type": "command", **values}
    return insert_row(store, NODES, tree_id=tree_id, node_key=key, sequence_index=index, **values)


def test_tree_key_and_version_are_unique(store: SqlRunStore) -> None:
    new_tree(store, "k", 1)
    with pytest.raises(IntegrityError):
        new_tree(store, "k", 1)
    new_tree(store, "k", 2)
    assert count(store, TREES, TREES.c.tree_key == "k") == 2


def test_node_key_and_sequence_index_are_unique_within_a_tree(store: SqlRunStore) -> None:
    tree = new_tree(store)
    new_node(store, tree, "a", 0)
    with pytest.raises(IntegrityError):
        new_node(store, tree, "a", 1)
    with pytest.raises(IntegrityError):
        new_node(store, tree, "b", 0)
    other = new_tree(store, "other")
    new_node(store, other, "a", 0)  # same key and index in another tree is fine
    assert count(store, NODES) == 2


def test_agent_node_needs_a_provider(store: SqlRunStore) -> None:
    tree = new_tree(store)
    with pytest.raises(IntegrityError):
        new_node(store, tree, "a", 0, node_type="agent", provider=None)
    with pytest.raises(IntegrityError):
        new_node(store, tree, "a", 0, node_type="robot")
    new_node(store, tree, "a", 0, node_type="agent", provider="claude")
    assert count(store, NODES, NODES.c.tree_id == tree) == 1


def test_edge_source_and_priority_are_unique(store: SqlRunStore) -> None:
    tree = new_tree(store)
    a, b = new_node(store, tree, "a", 0), new_node(store, tree, "b", 1)
    edge = {"tree_id": tree, "source_node_id": a, "target_node_id": b, "target_kind": "node", "auto": True}
    insert_row(store, EDGES, priority=0, **edge)
    with pytest.raises(IntegrityError):
        insert_row(store, EDGES, priority=0, **edge)
    insert_row(store, EDGES, priority=1, **edge)
    assert count(store, EDGES, EDGES.c.source_node_id == a) == 2


def test_edge_is_either_auto_or_guarded(store: SqlRunStore) -> None:
    tree = new_tree(store)
    a = new_node(store, tree, "a", 0)
    guard = insert_row(store, GUARDS, guard_key="g", version=1, expression="exit_code == 0")
    edge = {"tree_id": tree, "source_node_id": a, "target_kind": "end"}
    with pytest.raises(IntegrityError):
        insert_row(store, EDGES, priority=0, auto=True, guard_definition_id=guard, **edge)
    with pytest.raises(IntegrityError):
        insert_row(store, EDGES, priority=0, auto=False, guard_definition_id=None, **edge)
    insert_row(store, EDGES, priority=0, auto=False, guard_definition_id=guard, **edge)
    insert_row(store, EDGES, priority=1, auto=True, guard_definition_id=None, **edge)
    assert count(store, EDGES) == 2


def test_edge_target_kind_matches_its_target_node(store: SqlRunStore) -> None:
    tree = new_tree(store)
    a = new_node(store, tree, "a", 0)
    edge = {"tree_id": tree, "source_node_id": a, "auto": True}
    with pytest.raises(IntegrityError):
        insert_row(store, EDGES, priority=0, target_kind="node", target_node_id=None, **edge)
    with pytest.raises(IntegrityError):
        insert_row(store, EDGES, priority=0, target_kind="end", target_node_id=a, **edge)
    with pytest.raises(IntegrityError):
        insert_row(store, EDGES, priority=0, target_kind="moon", target_node_id=None, **edge)
    assert count(store, EDGES) == 0


def test_trigger_rejects_an_edge_between_trees(store: SqlRunStore) -> None:
    first, second = new_tree(store, "one"), new_tree(store, "two")
    a1, a2 = new_node(store, first, "a", 0), new_node(store, second, "a", 0)
    b1 = new_node(store, first, "b", 1)
    edge = {"target_kind": "node", "auto": True, "priority": 0}
    with pytest.raises(IntegrityError, match=r"same|tree"):
        insert_row(store, EDGES, tree_id=first, source_node_id=a1, target_node_id=a2, **edge)
    with pytest.raises(IntegrityError):
        insert_row(store, EDGES, tree_id=second, source_node_id=a1, target_node_id=b1, **edge)
    ok = insert_row(store, EDGES, tree_id=first, source_node_id=a1, target_node_id=b1, **edge)
    with pytest.raises(IntegrityError), store.engine.begin() as conn:
        conn.execute(update(EDGES).where(EDGES.c.id == ok).values(target_node_id=a2))
    assert count(store, EDGES) == 1


def test_compiled_topology_satisfies_every_rule(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> None:
    tree_id, _ = store.compile(make_workflow())
    assert count(store, EDGES, EDGES.c.tree_id == tree_id) == 6
    assert count(store, EDGES, EDGES.c.auto.is_(False)) == 4


def _run_with_history(store: SqlRunStore, workflow: Workflow) -> tuple[int, int]:
    tree_id, _ = store.compile(workflow)
    run_id = store.create_run(tree_id, workflow, {"issue": "x"})
    node = store.set_node_status(run_id, "implement", "running")
    store.append_events([EventRow(run_id, node.id, 1, 1, "assistant", "hi"), EventRow(run_id, node.id, 1, 2, "result")])
    store.add_artifact(run_id, "implement", 1, "report", text="done")
    store.add_routing_decision(run_id, "implement", 1, "tests", priority=0)
    store.add_diagnostic(run_id, "implement", 1, "completed")
    return tree_id, run_id


def test_deleting_a_run_cascades_to_its_children(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> None:
    _, run_id = _run_with_history(store, make_workflow())
    _, kept = _run_with_history(store, make_workflow())
    assert all(count(store, child, child.c[_run_column(child)] == run_id) == 1 for child in CHILDREN[:3])
    with store.engine.begin() as conn:
        conn.execute(delete(RUNS).where(RUNS.c.id == run_id))
    assert count(store, RUN_NODES, RUN_NODES.c.run_id == run_id) == 0
    for child in CHILDREN:
        assert count(store, child, child.c[_run_column(child)] == run_id) == 0
        assert count(store, child, child.c[_run_column(child)] == kept) > 0


def _run_column(child: Table) -> str:
    return "workflow_run_id" if "workflow_run_id" in child.c else "run_id"


def test_a_tree_with_runs_cannot_be_deleted(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> None:
    tree_id, _ = _run_with_history(store, make_workflow())
    with pytest.raises(IntegrityError), store.engine.begin() as conn:
        conn.execute(delete(TREES).where(TREES.c.id == tree_id))
    assert count(store, TREES, TREES.c.id == tree_id) == 1
    unused, _ = store.compile(make_workflow(key="unused"))
    with store.engine.begin() as conn:
        conn.execute(delete(TREES).where(TREES.c.id == unused))
    assert count(store, NODES, NODES.c.tree_id == unused) == 0  # topology cascades with its tree


def test_child_rows_must_point_at_a_node_of_their_own_run(
    store: SqlRunStore, make_workflow: Callable[..., Workflow]
) -> None:
    _, first = _run_with_history(store, make_workflow())
    _, second = _run_with_history(store, make_workflow())
    foreign_node = store.node_id(second, "implement")
    with pytest.raises(IntegrityError):
        insert_row(store, table(RoutingDecision), run_id=first, run_node_id=foreign_node, attempt=1, target="$end")
    with pytest.raises(IntegrityError):
        store.append_events([EventRow(first, foreign_node, 1, 9, "assistant", "x")])
    assert len(store.routing_decisions(first)) == 1


def test_status_and_kind_columns_are_checked(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> None:
    _, run_id = _run_with_history(store, make_workflow())
    node = store.node_id(run_id, "implement")
    with pytest.raises(IntegrityError), store.engine.begin() as conn:
        conn.execute(update(RUNS).where(RUNS.c.id == run_id).values(status="exploded"))
    with pytest.raises(IntegrityError), store.engine.begin() as conn:
        conn.execute(update(RUN_NODES).where(RUN_NODES.c.id == node).values(status="done"))
    with pytest.raises(IntegrityError), store.engine.begin() as conn:
        conn.execute(update(RUN_NODES).where(RUN_NODES.c.id == node).values(attempt=-1))
    with pytest.raises(IntegrityError):
        store.append_events([EventRow(run_id, node, 1, 3, "thought", "x")])
    with pytest.raises(IntegrityError):
        store.add_diagnostic(run_id, "implement", 2, "exploded")
    assert store.get_run(run_id).node("implement").attempt == 1


def test_event_sequence_and_diagnostic_attempt_are_unique(
    store: SqlRunStore, make_workflow: Callable[..., Workflow]
) -> None:
    _, run_id = _run_with_history(store, make_workflow())
    node = store.node_id(run_id, "implement")
    with pytest.raises(IntegrityError):
        store.append_events([EventRow(run_id, node, 1, 2, "assistant", "again")])
    with pytest.raises(IntegrityError):
        store.add_diagnostic(run_id, "implement", 1, "failed")
    assert [e.sequence for e in store.events(run_id)] == [1, 2]
