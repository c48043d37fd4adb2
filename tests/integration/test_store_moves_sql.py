"""Issue 29, the store's per-phase transaction: a runner's phase move is ONE cached UPDATE, on SQLite and
PostgreSQL — its allowed statuses written into the statement (no IN list expanded per execution), no
``RETURNING`` (its row count says whether it moved) and no read of the row when it moved."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from alphred.store import SqlRunStore


def test_a_runners_phase_moves_are_one_update_each_without_returning(store: SqlRunStore, demo_run_id: int) -> None:
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(" ".join(statement.split()))

    node_id = store.node_id(demo_run_id, "implement")  # known, as the runner's phases are after their first read
    event.listen(store.engine, "before_cursor_execute", seen)
    try:
        with store.transaction() as tx:
            started = tx.start_node(demo_run_id, "implement", "me", 30.0)
        with store.transaction() as tx:
            moved = tx.move_node(demo_run_id, "implement", "completed", visits=1)
        with store.transaction() as tx:  # a loop enters the completed phase again: pending, then running
            again = tx.start_node(demo_run_id, "implement", "me", 30.0, via="pending", attempt=2)
    finally:
        event.remove(store.engine, "before_cursor_execute", seen)
    assert started == moved == again == node_id
    writes = [s for s in statements if not s.startswith(("BEGIN", "SAVEPOINT", "RELEASE"))]
    assert len(writes) == 3 and all(s.startswith("UPDATE run_nodes") for s in writes)  # nothing read
    assert not any("RETURNING" in s for s in writes)
    assert all("status = '" in s for s in writes)  # the statuses as literals
    assert not any(" IN (" in s for s in writes)  # each compared, not an IN list (SQLite: a temporary b-tree)
    node = store.get_node(demo_run_id, "implement")
    assert (node.status.value, node.attempt, node.lease_owner) == ("running", 2, "me")


def test_a_move_the_guard_refuses_still_says_why(store: SqlRunStore, demo_run_id: int) -> None:
    """With no row coming back, a move that matched nothing takes the slow way, which names the refused move."""
    import pytest

    from alphred.errors import InvalidTransitionError

    with pytest.raises(InvalidTransitionError, match="pending -> completed"):
        store.set_node_status(demo_run_id, "implement", "completed")
    assert store.get_node(demo_run_id, "implement").status.value == "pending"
