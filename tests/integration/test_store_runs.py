"""``SqlRunStore`` as the runtime uses it: runs, phases, guarded status moves, history, leases, atomicity."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from alphred.errors import InvalidTransitionError, UnknownRunError
from alphred.store import EventRow, NodeStatus, RunStatus, SqlRunStore, StepOutcome
from alphred.workflow.model import Workflow


@pytest.mark.quick
def test_a_new_run_has_every_phase_pending_in_file_order(store: SqlRunStore, demo_run_id: int) -> None:
    run = store.get_run(demo_run_id)
    assert (run.status, run.tree_key, run.tree_version, run.inputs) == ("pending", "demo", 1, {"issue": "bug 7"})
    assert (run.repo_path, run.base_ref, run.tokens, run.steps, run.started_at) == ("/repo", "main", 0, 0, None)
    assert [(n.node_key, n.status, n.attempt, n.visits) for n in run.nodes] == [
        ("implement", NodeStatus.PENDING, 0, 0),
        ("tests", NodeStatus.PENDING, 0, 0),
        ("review", NodeStatus.PENDING, 0, 0),
    ]
    assert run.created_at.tzinfo is not None
    assert abs(run.created_at - datetime.now(UTC)) < timedelta(minutes=5)


def test_unknown_runs_raise_a_typed_error(store: SqlRunStore) -> None:
    assert store.find_run(999) is None
    with pytest.raises(UnknownRunError):
        store.get_run(999)
    with pytest.raises(UnknownRunError):
        store.set_run_status(999, "running")
    with pytest.raises(UnknownRunError):
        store.request_cancel(999)
    with pytest.raises(UnknownRunError):
        store.update_run(999, branch="x")


def test_list_runs_is_newest_first(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> None:
    tree_id, _ = store.compile(make_workflow())
    ids = [store.create_run(tree_id) for _ in range(4)]
    assert [r.id for r in store.list_runs()] == ids[::-1]
    assert [r.id for r in store.list_runs(limit=2)] == ids[:1:-1]
    store.set_run_status(ids[1], "running")
    assert [r.id for r in store.list_runs(statuses=["running"])] == [ids[1]]
    assert all(len(r.nodes) == 3 for r in store.list_runs())


def test_run_status_moves_set_timestamps_and_reason(store: SqlRunStore, demo_run_id: int) -> None:
    assert store.set_run_status(demo_run_id, "running") is RunStatus.PENDING
    started = store.get_run(demo_run_id).started_at
    assert started is not None
    store.request_pause(demo_run_id)
    assert store.get_run(demo_run_id).pause_requested
    store.set_run_status(demo_run_id, RunStatus.PAUSED, reason="interrupted")
    paused = store.get_run(demo_run_id)
    assert (paused.status, paused.reason, paused.pause_requested) == ("paused", "interrupted", False)
    store.set_run_status(demo_run_id, "running")
    store.set_run_status(demo_run_id, "failed", reason="max_steps", head_sha="f" * 40)
    failed = store.get_run(demo_run_id)
    assert (failed.reason, failed.head_sha, failed.started_at) == ("max_steps", "f" * 40, started)
    assert failed.completed_at is not None
    store.set_run_status(demo_run_id, "running")  # operator retry
    assert store.get_run(demo_run_id).completed_at is None


def test_an_invalid_run_move_raises_and_changes_nothing(store: SqlRunStore, demo_run_id: int) -> None:
    with pytest.raises(InvalidTransitionError) as caught:
        store.set_run_status(demo_run_id, "completed")
    assert (caught.value.old, caught.value.new, caught.value.code) == (
        "pending",
        "completed",
        "INVALID_STATE_TRANSITION",
    )
    with pytest.raises(InvalidTransitionError):
        store.set_run_status(demo_run_id, "exploded")
    assert store.get_run(demo_run_id).status is RunStatus.PENDING


def test_update_run_sets_fields_and_rejects_unknown_ones(store: SqlRunStore, demo_run_id: int) -> None:
    store.update_run(demo_run_id, branch="alphred/demo/1", base_sha="a" * 40, pr_url="https://x/pr/1", tokens=5)
    store.add_run_usage(demo_run_id, tokens=10, cost_usd=0.25, steps=1)
    store.add_run_usage(demo_run_id, tokens=1, steps=1)
    run = store.get_run(demo_run_id)
    assert (run.branch, run.base_sha, run.pr_url) == ("alphred/demo/1", "a" * 40, "https://x/pr/1")
    assert (run.tokens, run.cost_usd, run.steps) == (16, 0.25, 2)
    with pytest.raises(TypeError, match="status"):
        store.update_run(demo_run_id, status="completed")
    with pytest.raises(TypeError, match="colour"):
        store.update_run(demo_run_id, colour="red")


def test_node_moves_count_attempts_and_keep_fields(store: SqlRunStore, demo_run_id: int) -> None:
    first = store.set_node_status(demo_run_id, "tests", "running")
    assert (first.status, first.attempt, first.completed_at) == ("running", 1, None)
    assert first.started_at is not None
    done = store.set_node_status(demo_run_id, "tests", "completed", exit_code=1, visits=1, tokens=3)
    assert (done.attempt, done.exit_code, done.visits, done.tokens) == (1, 1, 1, 3)
    assert done.completed_at is not None
    store.set_node_status(demo_run_id, "tests", "pending")  # a loop re-queues it
    second = store.set_node_status(demo_run_id, "tests", "running")
    assert second.attempt == 2
    interrupted = store.set_node_status(demo_run_id, "tests", "pending")
    assert interrupted.attempt == 2
    assert store.set_node_status(demo_run_id, "tests", "running").attempt == 3
    updated = store.update_node(demo_run_id, "tests", decision="approved")
    assert (updated.decision, updated.status) == ("approved", "running")


def test_an_invalid_node_move_raises_and_changes_nothing(store: SqlRunStore, demo_run_id: int) -> None:
    with pytest.raises(InvalidTransitionError):
        store.set_node_status(demo_run_id, "review", "completed")
    store.set_node_status(demo_run_id, "review", "skipped")
    with pytest.raises(InvalidTransitionError):
        store.set_node_status(demo_run_id, "review", "running")
    assert store.get_node(demo_run_id, "review").status is NodeStatus.SKIPPED
    with pytest.raises(KeyError):
        store.set_node_status(demo_run_id, "nope", "running")


def test_a_transaction_is_all_or_nothing(store: SqlRunStore, demo_run_id: int) -> None:
    with store.transaction() as tx:
        tx.set_run_status(demo_run_id, "running")
        node = tx.set_node_status(demo_run_id, "implement", "running")
        tx.append_events([EventRow(demo_run_id, node.id, 1, 1, "system", "start")])
    with pytest.raises(InvalidTransitionError), store.transaction() as tx:
        tx.set_node_status(demo_run_id, "implement", "completed")
        tx.add_artifact(demo_run_id, "implement", 1, "report", text="lost")
        tx.set_run_status(demo_run_id, "pending")  # not allowed: the whole block rolls back
    run = store.get_run(demo_run_id)
    assert (run.status, run.node("implement").status) == ("running", "running")
    assert store.latest_artifact(demo_run_id, "implement", "report") is None
    assert [e.content for e in store.events(demo_run_id)] == ["start"]


def test_events_keep_their_order_and_sequences(store: SqlRunStore, demo_run_id: int) -> None:
    implement = store.set_node_status(demo_run_id, "implement", "running")
    tests = store.set_node_status(demo_run_id, "tests", "running")
    assert store.next_event_sequence(implement.id, 1) == 1
    stamp = datetime(2030, 1, 2, 3, 4, 5, 600000, tzinfo=UTC)
    store.append_events(
        [
            EventRow(demo_run_id, implement.id, 1, 1, "system", "hello", timestamp=stamp),
            {"run_id": demo_run_id, "run_node_id": implement.id, "attempt": 1, "sequence": 2, "event_type": "tool_use",
             "content": {"tool": "ls"}, "metadata": {"id": "t1"}},
            EventRow(demo_run_id, tests.id, 1, 1, "assistant", "other phase"),
            EventRow(demo_run_id, implement.id, 1, 3, "result", "done", metadata={"routingDecision": "approved"}),
        ]
    )  # fmt: skip
    assert store.next_event_sequence(implement.id, 1) == 4
    assert store.next_event_sequence(implement.id, 2) == 1
    events = store.events(demo_run_id, "implement")
    assert [(e.sequence, e.event_type) for e in events] == [(1, "system"), (2, "tool_use"), (3, "result")]
    assert events[0].timestamp == stamp
    assert events[1].content == '{"tool": "ls"}' and events[1].metadata == {"id": "t1"}
    assert events[2].metadata == {"routingDecision": "approved"}
    everything = store.events(demo_run_id)
    assert [e.id for e in everything] == sorted(e.id for e in everything)
    assert [e.node_key for e in store.events(demo_run_id, after_id=everything[1].id)] == ["tests", "implement"]
    assert len(store.events(demo_run_id, limit=1)) == 1
    assert store.append_events([]) == 0


def test_latest_artifact_is_from_the_latest_attempt(store: SqlRunStore, demo_run_id: int) -> None:
    store.add_artifact(demo_run_id, "review", 1, "report", text="first")
    store.add_artifact(demo_run_id, "review", 2, "report", text="second", data={"verdict": "ok"})
    store.add_artifact(demo_run_id, "review", 2, "diff", text="--- a")
    latest = store.latest_artifact(demo_run_id, "review", "report")
    assert latest is not None
    assert (latest.attempt, latest.content_text, latest.content_json) == (2, "second", {"verdict": "ok"})
    assert len(latest.sha256) == 64
    assert store.latest_artifact(demo_run_id, "implement", "report") is None
    assert [a.kind for a in store.artifacts(demo_run_id)] == ["report", "report", "diff"]
    assert [a.content_text for a in store.artifacts(demo_run_id, "review", "report")] == ["first", "second"]


def test_steps_join_diagnostics_with_routing_in_execution_order(store: SqlRunStore, demo_run_id: int) -> None:
    node = store.set_node_status(demo_run_id, "implement", "running")
    store.append_events([EventRow(demo_run_id, node.id, 1, i, "assistant", str(i)) for i in (1, 2, 3)])
    store.add_diagnostic(demo_run_id, "implement", 1, "failed", reason="boom", error_code="PROVIDER_ERROR")
    store.add_diagnostic(demo_run_id, "implement", 2, StepOutcome.COMPLETED, tokens=7, duration_ms=12)
    store.add_routing_decision(demo_run_id, "implement", 2, "tests", priority=0)
    store.add_diagnostic(demo_run_id, "tests", 1, "interrupted")
    store.add_diagnostic(demo_run_id, "tests", 2, "completed")
    store.add_routing_decision(demo_run_id, "tests", 2, "no_route", reason="no transition matched")
    store.add_diagnostic(demo_run_id, "review", 1, "completed")
    store.add_routing_decision(demo_run_id, "review", 1, "$end", decision="approved", priority=1)
    steps = store.list_steps(demo_run_id)
    assert [(s.phase, s.attempt, s.outcome, s.decision, s.next) for s in steps] == [
        ("implement", 1, "failed", None, None),
        ("implement", 2, "completed", None, "tests"),
        ("tests", 1, "interrupted", None, None),
        ("tests", 2, "completed", None, "no_route"),
        ("review", 1, "completed", "approved", "$end"),
    ]
    assert (steps[0].event_count, steps[0].error_code, steps[1].tokens) == (3, "PROVIDER_ERROR", 7)
    assert [r.target for r in store.routing_decisions(demo_run_id)] == ["tests", "no_route", "$end"]


def test_leases_are_exclusive_until_they_expire(store: SqlRunStore, demo_run_id: int) -> None:
    now = datetime.now(UTC)
    assert store.acquire_lease(demo_run_id, "host:1", 30, node_key="implement", now=now)
    assert not store.acquire_lease(demo_run_id, "host:2", 30, node_key="implement", now=now)
    assert store.acquire_lease(demo_run_id, "host:1", 30, node_key="implement", now=now)  # re-entrant
    assert store.renew_lease(demo_run_id, "host:1", 60, node_key="implement", now=now)
    assert not store.renew_lease(demo_run_id, "host:2", 60, node_key="implement", now=now)
    assert not store.acquire_lease(demo_run_id, "host:2", 30, node_key="implement", now=now + timedelta(seconds=59))
    assert store.acquire_lease(demo_run_id, "host:2", 30, node_key="implement", now=now + timedelta(seconds=61))
    assert store.get_node(demo_run_id, "implement").lease_owner == "host:2"
    assert store.acquire_lease(demo_run_id, "host:3", 30, node_key="implement", steal_from="host:2", now=now)
    assert not store.release_lease(demo_run_id, "host:2", node_key="implement")
    assert store.release_lease(demo_run_id, "host:3", node_key="implement")
    assert store.acquire_lease(demo_run_id, "worker-a", 30)  # the run itself can be leased too
    assert not store.acquire_lease(demo_run_id, "worker-b", 30)
    assert store.get_run(demo_run_id).lease_owner == "worker-a"
    with pytest.raises(UnknownRunError):
        store.acquire_lease(999, "worker-a", 30)


def test_leaving_running_drops_the_phase_lease(store: SqlRunStore, demo_run_id: int) -> None:
    store.set_node_status(demo_run_id, "implement", "running")
    assert store.acquire_lease(demo_run_id, "host:1", 30, node_key="implement")
    node = store.set_node_status(demo_run_id, "implement", "pending")
    assert (node.lease_owner, node.lease_expires_at) == (None, None)


def test_compile_and_create_run_share_one_transaction(
    store: SqlRunStore, make_workflow: Callable[..., Workflow]
) -> None:
    class Abort(Exception):
        pass

    with pytest.raises(Abort), store.transaction() as tx:
        tree_id, _ = tx.compile(make_workflow(key="atomic"))
        tx.create_run(tree_id)
        raise Abort
    assert store.list_runs() == []
    with store.transaction() as tx:
        tree_id, version = tx.compile(make_workflow(key="atomic"))
        run_id = tx.create_run(tree_id)
    assert version == 1  # the rolled-back compile left no version behind
    assert store.get_run(run_id).tree_key == "atomic"


def test_orphaned_child_ids_are_the_unfinished_children_of_ended_parents(
    store: SqlRunStore, make_workflow: Callable[..., Workflow]
) -> None:
    """SPEC §13: the pending work a kill between a parent's end and its children's leaves, on both databases."""
    tree_id, _ = store.compile(make_workflow())
    ended, going = store.create_run(tree_id), store.create_run(tree_id)
    paused = store.create_run(tree_id, parent_run_id=ended, parent_step="sub#1.1")
    finished = store.create_run(tree_id, parent_run_id=ended, parent_step="sub#1.2")
    grandchild = store.create_run(tree_id, parent_run_id=paused, parent_step="sub#1.1")
    beside = store.create_run(tree_id, parent_run_id=going, parent_step="sub#1.1")
    for run_id in (ended, going, paused, finished, grandchild, beside):
        store.set_run_status(run_id, "running")
    store.set_run_status(paused, "paused", reason="awaiting_approval")
    store.set_run_status(finished, "completed")
    assert store.orphaned_child_ids() == []  # every parent still runs
    store.set_run_status(ended, "failed", reason="timeout")
    assert store.orphaned_child_ids() == [paused]  # not the finished one, not the grandchild (its parent waits)
    store.set_run_status(paused, "cancelled")
    assert store.orphaned_child_ids() == [grandchild]  # ending the child makes its own child pending
