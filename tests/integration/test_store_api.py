"""The one store API: a subclass per database chosen by URL, and the queries callers used to write themselves
(topology, workflow sources, snapshots and flags, worktrees, the event tail, the registry, notifications)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import pytest

from alphred.errors import RepositoryExistsError, RepositoryRegistryError, UnknownRunError
from alphred.lazy import materialised
from alphred.providers import default_registry
from alphred.store import (
    ArtifactRecord,
    Candidate,
    EventRecord,
    EventRow,
    NodeRecord,
    RepositoryRecord,
    RoutingRecord,
    RunFileRecord,
    RunRecord,
    SqlRunStore,
    schema,
)
from alphred.store.postgres_store import PostgresRunStore
from alphred.store.sqlite_store import SqliteRunStore
from alphred.workflow import load_workflow
from alphred.workflow.model import Workflow

FLOW = """\
alphred: 1
key: flow
phases:
  build:
    type: command
    run: make
    transitions:
      - to: check
  check:
    type: command
    run: make check
    transitions:
      - when: exit_code == 0
        to: $end
        max: 2
      - to: build
"""

PROVIDERS = default_registry()


def names(record: type) -> set[str]:
    return {f.name for f in fields(materialised(record))}  # a deferred_dataclass is made on first use


def columns(table: object) -> set[str]:
    return set(table.c.keys())  # type: ignore[attr-defined]


def test_records_carry_exactly_their_tables_columns() -> None:
    """The records are filled by column name (``store/rows.py``): a column added or renamed fails here."""
    assert names(NodeRecord) == columns(schema.RUN_NODES)
    runs = columns(schema.WORKFLOW_RUNS) - {"engine_state"}  # the engine's state is read through run_snapshot
    assert names(RunRecord) == runs | {"tree_key", "tree_version", "nodes"}
    assert names(ArtifactRecord) == columns(schema.PHASE_ARTIFACTS) | {"node_key"}
    events = columns(schema.RUN_NODE_STREAM_EVENTS) - {"workflow_run_id"}
    assert names(EventRecord) == events | {"run_id", "node_key"}
    assert names(EventRow) == columns(schema.RUN_NODE_STREAM_EVENTS) - {"id"}
    assert names(RoutingRecord) == columns(schema.ROUTING_DECISIONS) | {"node_key"}
    assert names(RepositoryRecord) == columns(schema.REPOSITORIES)
    assert names(Candidate) <= columns(schema.WORKFLOW_RUNS) | {"tree_key"}  # tree_key: its tree's
    assert names(RunFileRecord) == columns(schema.RUN_FILES)


def test_the_url_chooses_the_store_of_its_database(store: SqlRunStore, db_url: str, tmp_path: Path) -> None:
    expected = SqliteRunStore if store.dialect == "sqlite" else PostgresRunStore
    assert type(store) is expected and isinstance(store, SqlRunStore)
    assert store.notifies is (expected is PostgresRunStore)
    existing = SqlRunStore.open_existing(db_url)
    assert existing is not None and type(existing) is expected
    existing.close()
    assert SqlRunStore.open_existing(f"sqlite:///{tmp_path / 'none.db'}") is None
    assert not (tmp_path / "none.db").exists()


def test_tree_topology_names_phases_edges_guards_and_caps(store: SqlRunStore, tmp_path: Path) -> None:
    tree_id, _ = store.compile(load_workflow(tmp_path / "flow.yaml", FLOW, providers=PROVIDERS))
    tree = store.tree_topology(tree_id)
    assert (tree.start, tree.phases) == ("build", (("build", "command"), ("check", "command")))
    assert [(e.source, e.target_kind, e.target, e.guard, e.max_traversals) for e in tree.edges] == [
        ("build", "node", "check", None, None),
        ("check", "end", None, "exit_code == 0", 2),
        ("check", "node", "build", None, None),
    ]
    assert store.tree_topology(tree_id + 99).phases == ()


def test_workflow_sources_give_the_stored_file_back(store: SqlRunStore, tmp_path: Path) -> None:
    tree_id, _ = store.compile(load_workflow(tmp_path / "flow.yaml", FLOW, providers=PROVIDERS))
    found = store.workflow_sources([tree_id, tree_id + 99])
    assert list(found) == [tree_id]
    source = found[tree_id]
    assert (source.source_path, source.text) == (str(tmp_path / "flow.yaml"), FLOW)
    again = load_workflow(source.source_path or "", source.text, source.files, providers=PROVIDERS)
    assert again.phase_keys == ("build", "check")
    assert store.workflow_sources([]) == {}


def test_snapshot_and_requests_of_a_run(store: SqlRunStore, demo_run_id: int) -> None:
    state = {"engine": {"status": "running"}, "runtime": {"keep_worktree": True}}
    store.update_run(demo_run_id, engine_state=state)
    snapshot = store.run_snapshot(demo_run_id)
    assert (snapshot.engine, snapshot.runtime) == ({"status": "running"}, {"keep_worktree": True})
    assert store.run_requests(demo_run_id) == (False, False)
    store.request_pause(demo_run_id)
    with store.reading() as tx:
        assert tx.run_requests(demo_run_id) == (True, False)
    assert store.run_requests(999) == (False, False)
    with pytest.raises(UnknownRunError):
        store.run_snapshot(999)


def test_runs_with_worktrees_by_status(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> None:
    tree_id, _ = store.compile(make_workflow())
    kept = store.create_run(tree_id, worktree_path="/w/1", engine_state={"runtime": {"keep_worktree": True}})
    plain = store.create_run(tree_id, worktree_path="/w/2", lease_owner="h:1:2:x")
    store.create_run(tree_id)  # no worktree
    done = store.create_run(tree_id, worktree_path="/w/4")
    store.set_run_status(done, "running")
    store.set_run_status(done, "completed")
    pending = store.runs_with_worktrees(["pending"])
    assert [(r.run_id, r.worktree_path, r.keep_worktree, r.lease_owner) for r in pending] == [
        (kept, "/w/1", True, None),
        (plain, "/w/2", False, "h:1:2:x"),
    ]
    assert [r.run_id for r in store.runs_with_worktrees(["completed", "cancelled"])] == [done]


def test_latest_events_are_the_newest_oldest_first(store: SqlRunStore, demo_run_id: int) -> None:
    node = store.node_id(demo_run_id, "implement")
    assert store.latest_events(demo_run_id, 3) == []
    store.append_events(
        [EventRow(demo_run_id, node, 1, n, "assistant", content=f"e{n}") for n in range(1, 8)]  # seven events
    )
    assert [e.content for e in store.latest_events(demo_run_id, 3)] == ["e5", "e6", "e7"]
    assert [e.content for e in store.latest_events(demo_run_id, 50)] == [f"e{n}" for n in range(1, 8)]


def test_the_repository_registry(store: SqlRunStore) -> None:
    added = store.add_repository("app", path="/src/app", branch_template="feat/{run-id}")
    assert (added.name, added.clone_status, added.location) == ("app", "cloned", "/src/app")
    store.add_repository("lib", remote_url="https://example.invalid/lib.git")
    with pytest.raises(RepositoryExistsError):
        store.add_repository("app", path="/elsewhere")
    with pytest.raises(RepositoryRegistryError):
        store.add_repository("bad name", path="/x")
    store.set_clone_status("lib", "cloned", path="/home/.alphred/repos/lib")
    assert [(r.name, r.path, r.clone_status) for r in store.list_repositories()] == [
        ("app", "/src/app", "cloned"),
        ("lib", "/home/.alphred/repos/lib", "cloned"),
    ]
    found = store.find_repository_by_path("/src/app")
    assert found is not None and found.branch_template == "feat/{run-id}"
    with store.transaction() as tx:
        removed = tx.remove_repository("app")
        assert removed is not None and tx.get_repository("app") is None
    assert store.remove_repository("app") is None


def test_a_committed_notify_wakes_a_listener_and_a_rolled_back_one_does_not(store: SqlRunStore) -> None:
    with store.notifications() as channel:
        if not store.notifies:  # SQLite: nothing to wait for, the answer comes at once
            store.notify_workers("x")
            assert channel.wait_for_notify(0) is False
            return
        with pytest.raises(RuntimeError), store.transaction() as tx:
            tx.notify_workers("rolled back")
            raise RuntimeError
        assert channel.wait_for_notify(0.2) is False
        store.notify_workers("submitted")
        assert channel.wait_for_notify(30) is True
