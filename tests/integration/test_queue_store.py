"""The queue in SQL (SPEC §10): claimable runs by priority then age, atomic claims, the worker registry."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import text

from alphred.store import SqlRunStore
from alphred.workflow.model import Workflow

HOST = "queue-test-host"


def test_claims_take_pending_runs_by_priority_then_age_once_each(
    store: SqlRunStore, make_workflow: Callable[..., Workflow]
) -> None:
    tree_id, _ = store.compile(make_workflow())
    finished = [store.create_run(tree_id) for _ in range(5)]
    for run_id in finished:
        store.set_run_status(run_id, "running")
        store.set_run_status(run_id, "completed")
    low = store.create_run(tree_id, priority=0, queued=True)
    gpu = store.create_run(tree_id, priority=9, queued=True, requires=["gpu"])
    high = store.create_run(tree_id, priority=9, queued=True)
    paused = store.create_run(tree_id)
    store.set_run_status(paused, "running")
    store.set_run_status(paused, "paused", "paused")  # a user's pause: not the workers' to continue
    with store.reading() as tx:
        listed = [c.id for c in tx.claimable_runs(HOST)]
    assert listed == [gpu, high, low]  # priority, then age; finished and user-paused runs are not listed
    taken = []
    for owner in ("w1", "w2", "w3", "w4"):
        with store.transaction() as tx:
            got = tx.claim_run(HOST, owner, 30, lambda c: "gpu" not in c.requires)
        taken.append(None if got is None else got.id)
    assert taken == [high, low, None, None]  # no run twice; the gpu run is left to a gpu worker
    record = store.get_run(low)
    assert record.lease_owner == "w2" and record.queued


def test_the_claimable_runs_query_reads_the_queue_index(store: SqlRunStore) -> None:
    if store.dialect != "sqlite":
        return  # PostgreSQL's planner picks by table statistics; the index exists there too
    with store.reading() as tx:
        plan = " ".join(
            str(row[-1])
            for row in tx.connection.execute(
                text(
                    "EXPLAIN QUERY PLAN SELECT id FROM workflow_runs WHERE status IN ('pending', 'running') "
                    "ORDER BY priority DESC, id LIMIT 50"
                )
            )
        )
    assert "ix_workflow_runs_queue" in plan


def test_worker_registry_lists_live_and_lost_workers_with_their_runs(
    store: SqlRunStore, make_workflow: Callable[..., Workflow]
) -> None:
    tree_id, _ = store.compile(make_workflow())
    run_id = store.create_run(tree_id, lease_owner="h:1:2:abc")
    with store.transaction() as tx:
        tx.register_worker("h:1:2:abc", "h", 1, ["scripted", "gpu"])
        tx.register_worker("h:2:3:def", "h", 2, [])
    with store.reading() as tx:
        live = tx.list_workers(lost_after=60)
        lost = tx.list_workers(lost_after=-1)
    assert [(w["id"], w["runs"], w["state"]) for w in live] == [
        ("h:1:2:abc", [run_id], "live"),
        ("h:2:3:def", [], "live"),
    ]
    assert {w["state"] for w in lost} == {"lost"} and live[0]["capabilities"] == ["gpu", "scripted"]
    with store.transaction() as tx:
        tx.unregister_worker("h:2:3:def")
    with store.reading() as tx:
        assert [w["id"] for w in tx.list_workers(60)] == ["h:1:2:abc"]


def test_a_run_waiting_out_a_usage_limit_is_claimable_only_after_wake_at(
    store: SqlRunStore, make_workflow: Callable[..., Workflow]
) -> None:
    from datetime import UTC, datetime, timedelta

    tree_id, _ = store.compile(make_workflow())
    wake_at = datetime.now(UTC).replace(microsecond=0) + timedelta(hours=2)
    waiting = store.create_run(tree_id, queued=True)
    store.set_run_status(waiting, "running")
    store.set_run_status(waiting, "paused", "usage_limit")
    store.update_run(waiting, wake_at=wake_at, request={"action": "resume", "steps": 0})  # a detached resume too
    with store.reading() as tx:
        assert [c.id for c in tx.claimable_runs(HOST)] == []
        assert [c.id for c in tx.claimable_runs(HOST, now=wake_at - timedelta(seconds=1))] == []
        found = tx.claimable_runs(HOST, now=wake_at)
    assert [c.id for c in found] == [waiting] and found[0].wake_at == wake_at
    with store.transaction() as tx:
        assert tx.claim_run(HOST, "w1", 30, lambda c: True) is None  # now: still before wake_at
    with store.transaction() as tx:
        got = tx.claim_run(HOST, "w1", 30, lambda c: True, now=wake_at + timedelta(seconds=1))
    assert got is not None and got.id == waiting
    record = store.get_run(waiting)
    assert record.lease_owner == "w1" and record.lease_expires_at is not None
    assert record.lease_expires_at < datetime.now(UTC) + timedelta(minutes=5)  # the lease counts from now
    if store.dialect == "sqlite":
        with store.reading() as tx:
            plan = " ".join(
                str(row[-1])
                for row in tx.connection.execute(
                    text("EXPLAIN QUERY PLAN SELECT id FROM workflow_runs WHERE status = 'paused' AND wake_at <= 1")
                )
            )
        assert "ix_workflow_runs_wake" in plan


def test_a_worker_records_the_providers_it_paused(store: SqlRunStore) -> None:
    store.register_worker("host:1:2:t", "host", 1, ["claude", "codex"])
    store.set_worker_paused("host:1:2:t", {"claude": "2026-11-26T17:10:00+00:00"})
    assert store.list_workers(60)[0]["paused"] == {"claude": "2026-11-26T17:10:00+00:00"}
    store.set_worker_paused("host:1:2:t", {})
    assert store.list_workers(60)[0]["paused"] == {}
