"""Compiling a workflow into topology rows: versions by content, the stored graph, concurrent compiles."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers.processes import start_together
from sqlalchemy import func, select

from alphred.providers import default_registry
from alphred.store import SqlRunStore
from alphred.store.compile import compile_workflow, workflow_content_hash
from alphred.store.tables import GuardDefinition, PromptTemplate, TreeEdge, TreeNode, WorkflowTree, table
from alphred.workflow.model import Workflow

PROVIDERS = default_registry()  # every installed provider, as the CLI has them

TREES, NODES, EDGES = table(WorkflowTree), table(TreeNode), table(TreeEdge)
PROMPTS, GUARDS = table(PromptTemplate), table(GuardDefinition)
REPO_ROOT = Path(__file__).resolve().parents[2]


def rows(store: SqlRunStore, query: Any) -> list[Any]:
    with store.engine.connect() as conn:
        return list(conn.execute(query))


def tree_count(store: SqlRunStore) -> int:
    return int(rows(store, select(func.count()).select_from(TREES))[0][0])


def test_same_content_compiles_to_the_same_version(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> None:
    first = store.compile(make_workflow())
    again = store.compile(make_workflow())
    assert first == again
    assert first[1] == 1
    assert tree_count(store) == 1


def test_changed_content_gets_the_next_version(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> None:
    v1 = store.compile(make_workflow(prompt="one"))
    v2 = store.compile(make_workflow(prompt="two"))
    back = store.compile(make_workflow(prompt="one"))
    other_key = store.compile(make_workflow(key="other", prompt="two"))
    assert (v1[1], v2[1], other_key[1]) == (1, 2, 1)
    assert back == v1  # content seen before maps to its version, not to a new one
    assert tree_count(store) == 3


def test_loader_content_hash_decides_the_version(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> None:
    a = store.compile(make_workflow(content_hash="a" * 64))
    b = store.compile(make_workflow(content_hash="b" * 64))
    assert (a[1], b[1]) == (1, 2)
    assert workflow_content_hash(make_workflow(content_hash="c" * 64)) == "c" * 64
    assert workflow_content_hash(make_workflow(prompt="x")) != workflow_content_hash(make_workflow(prompt="y"))


def test_topology_rows_mirror_the_workflow(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> None:
    tree_id, version = store.compile(make_workflow())
    nodes = {
        row.node_key: row
        for row in rows(store, select(NODES).where(NODES.c.tree_id == tree_id).order_by(NODES.c.sequence_index))
    }
    assert list(nodes) == ["implement", "tests", "review"]
    implement, tests, review = nodes["implement"], nodes["tests"], nodes["review"]
    assert (implement.node_type, implement.provider, implement.model) == ("agent", "scripted", "m1")
    assert (implement.max_retries, implement.max_visits) == (2, 5)
    assert implement.config["options"] == {"script": [{"decision": "approved"}]}
    assert (tests.node_type, tests.provider, tests.prompt_template_id) == ("command", None, None)
    assert tests.config["run"] == "pytest -q" and tests.config["allow_failure"] is True
    assert review.config["decisions"] == ["approved", "changes_requested"]
    prompt = rows(store, select(PROMPTS).where(PROMPTS.c.id == implement.prompt_template_id))[0]
    assert (prompt.content, prompt.version) == ("Fix {{ inputs.issue }}", version)

    edges = rows(
        store,
        select(EDGES, GUARDS.c.expression)
        .outerjoin(GUARDS, GUARDS.c.id == EDGES.c.guard_definition_id)
        .where(EDGES.c.source_node_id == tests.id)
        .order_by(EDGES.c.priority),
    )
    assert [(e.priority, e.target_kind, e.auto, e.expression, e.max_traversals) for e in edges] == [
        (0, "node", False, "exit_code != 0", 3),
        (1, "node", False, "exit_code == 0", None),
        (2, "fail", True, None, None),
    ]
    assert [e.target_node_id for e in edges] == [implement.id, review.id, None]
    assert store.edge_ids(tree_id)[("review", 1)] == max(e.id for e in rows(store, select(EDGES)))


def test_compile_workflow_accepts_a_session_or_a_store(
    store: SqlRunStore, make_workflow: Callable[..., Workflow]
) -> None:
    tree = compile_workflow(store, make_workflow())
    with store.session() as session:
        same = compile_workflow(session, make_workflow())
        assert (same.id, same.version, same.tree_key) == (tree.id, 1, "demo")
    assert tree.content_hash == workflow_content_hash(make_workflow())


def test_concurrent_compiles_from_threads_store_one_tree(db_url: str, make_workflow: Callable[..., Workflow]) -> None:
    stores = [SqlRunStore(db_url) for _ in range(4)]
    barrier = threading.Barrier(len(stores))
    results: list[tuple[int, int]] = []
    errors: list[BaseException] = []

    def work(store: SqlRunStore, prompt: str) -> None:
        try:
            barrier.wait()
            results.append(store.compile(make_workflow(prompt=prompt)))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(s, "same" if i < 2 else f"other-{i}")) for i, s in enumerate(stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for store in stores:
        store.close()
    assert errors == []
    assert len(results) == 4
    assert len(set(results)) == 3  # the two "same" compiles share one tree; the others got their own
    assert {version for _, version in results} == {1, 2, 3}
    with SqlRunStore(db_url) as check:
        assert tree_count(check) == 3


_SETUP = """
import sys
from alphred.workflow.model import Phase, PhaseType, Transition, Workflow
from alphred.store import SqlRunStore

phase = Phase(key="only", type=PhaseType.COMMAND, sequence_index=0, run="true",
              transitions=(Transition(target="$end", priority=0),))
workflow = Workflow(key="raced", phases=(phase,), start="only")
"""
_RACE = """
store = SqlRunStore(sys.argv[1])
print(store.compile(workflow))
"""


def test_two_processes_compiling_at_once_store_one_tree(empty_db_url: str) -> None:
    outputs = start_together(_SETUP, _RACE, [[empty_db_url]] * 2, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert [code for code, _, _ in outputs] == [0, 0], outputs
    assert outputs[0][1] == outputs[1][1] == "(1, 1)\n"
    with SqlRunStore(empty_db_url) as store:
        assert tree_count(store) == 1


def test_a_fan_out_compiles_with_every_branch_and_the_join_settings(store: SqlRunStore) -> None:
    from alphred.workflow import load_workflow

    workflow = load_workflow(REPO_ROOT / "tests" / "fixtures" / "workflows" / "parallel.yaml", providers=PROVIDERS)
    tree_id, _ = store.compile(workflow)
    nodes = {r.node_key: r for r in rows(store, select(NODES).where(NODES.c.tree_id == tree_id))}
    assert nodes["plan"].config["fan_out"] == {"1": ["backend", "frontend"]}
    assert nodes["integrate"].config["join"] == "all" and nodes["integrate"].config["on_conflict"] == "resolve"
    assert "fan_out" not in nodes["backend"].config and "join" not in nodes["backend"].config
    (edge,) = rows(store, select(EDGES).where(EDGES.c.source_node_id == nodes["plan"].id))
    assert edge.target_kind == "node" and edge.target_node_id == nodes["backend"].id  # the first branch
    again = load_workflow(REPO_ROOT / "tests" / "fixtures" / "workflows" / "parallel.yaml", providers=PROVIDERS)
    assert store.compile(again)[0] == tree_id
