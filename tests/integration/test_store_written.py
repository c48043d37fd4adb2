"""Issue 29, the store's per-phase transaction on SQLite and PostgreSQL: what the transaction that starts an attempt
just wrote is not read back (the attempt's first event number, its upstream report), the attempt's artifacts go
in one statement, and what was written before is still read."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event

from alphred import redact
from alphred.store import EventRow, SqlRunStore

TOKEN = "ghp_" + "Q7w8E9r0T1" * 4


@contextlib.contextmanager
def seen(store: SqlRunStore) -> Iterator[list[str]]:
    """The statements ``store`` executes in the block (BEGIN and savepoints left out)."""
    statements: list[str] = []

    def add(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if not statement.lstrip().startswith(("BEGIN", "SAVEPOINT", "RELEASE")):
            statements.append(" ".join(statement.split()))

    event.listen(store.engine, "before_cursor_execute", add)
    try:
        yield statements
    finally:
        event.remove(store.engine, "before_cursor_execute", add)


def events(run_id: int, node_id: int, attempt: int, count: int) -> list[EventRow]:
    return [EventRow(run_id, node_id, attempt, n, "tool_result", f"event {n}") for n in range(1, count + 1)]


def test_an_attempt_started_above_the_stored_one_numbers_its_events_from_one_without_a_read(
    store: SqlRunStore, demo_run_id: int
) -> None:
    node_id = store.node_id(demo_run_id, "implement")
    with seen(store) as statements, store.transaction() as tx:
        assert tx.start_node(demo_run_id, "implement", "me", 30.0, attempt=1) == node_id
        assert tx.next_event_sequence(node_id, 1) == 1
    assert [s.split()[0] for s in statements] == ["UPDATE"]  # the move, nothing read
    store.append_events(events(demo_run_id, node_id, 1, 2))
    with store.transaction() as tx:  # another transaction knows nothing: it reads
        assert tx.next_event_sequence(node_id, 1) == 3


def test_an_attempt_started_again_reads_its_events(store: SqlRunStore, demo_run_id: int) -> None:
    """The same attempt started again (not above the stored one) may have events: they are read."""
    node_id = store.node_id(demo_run_id, "implement")
    with store.transaction() as tx:
        tx.start_node(demo_run_id, "implement", "me", 30.0, attempt=1)
        tx.append_events(events(demo_run_id, node_id, 1, 2))
    with store.transaction() as tx:
        tx.move_node(demo_run_id, "implement", "pending")
        assert tx.start_node(demo_run_id, "implement", "me", 30.0, attempt=1) == node_id
        assert tx.next_event_sequence(node_id, 1) == 3
    with store.transaction() as tx:  # events appended in the transaction after the start count too
        tx.move_node(demo_run_id, "implement", "pending")
        tx.start_node(demo_run_id, "implement", "me", 30.0, attempt=2)
        tx.append_events(events(demo_run_id, node_id, 2, 1))
        assert tx.next_event_sequence(node_id, 2) == 2
    assert store.get_node(demo_run_id, "implement").attempt == 2


@pytest.fixture
def redactor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redact, "_PROCESS", None)


def test_a_report_written_in_the_transaction_is_answered_as_stored_without_a_read(
    store: SqlRunStore, demo_run_id: int, redactor: None
) -> None:
    store.add_artifact(demo_run_id, "implement", 1, "report", text="first")
    store.add_artifact(demo_run_id, "tests", 1, "report", text="older")
    store.node_id(demo_run_id, "implement"), store.node_id(demo_run_id, "tests")  # known, as a runner's phases
    with seen(store) as statements, store.transaction() as tx:
        tx.add_artifact(demo_run_id, "implement", 2, "report", text=f"second {TOKEN}")
        written = len(statements)
        found = tx.report_texts(demo_run_id, ["implement", "tests", "nothing"])
        reads = statements[written:]
    assert found == {"implement": (2, "second [REDACTED]"), "tests": (1, "older")}
    assert len([read for read in reads if "phase_artifacts" in read]) == 1  # the tests phase's report only
    with store.reading() as tx:  # what it answered is what a read gives
        assert tx.report_texts(demo_run_id, ["implement"]) == {"implement": (2, "second [REDACTED]")}
        stored = tx.latest_artifact(demo_run_id, "implement", "report")
    assert stored is not None and (stored.attempt, stored.content_text) == (2, "second [REDACTED]")


def test_a_latest_report_without_text_is_no_upstream_report(store: SqlRunStore, demo_run_id: int) -> None:
    store.add_artifact(demo_run_id, "tests", 1, "report", text="with text")
    store.add_artifact(demo_run_id, "tests", 2, "report", data={"only": "data"})
    with store.transaction() as tx:
        assert tx.report_texts(demo_run_id, ["tests"]) == {}
        tx.add_artifact(demo_run_id, "implement", 1, "report", data={"only": "data"})
        assert tx.report_texts(demo_run_id, ["implement"]) == {}


def test_an_attempts_artifacts_are_one_insert(store: SqlRunStore, demo_run_id: int) -> None:
    store.node_id(demo_run_id, "implement")  # known, as a runner's phases are
    with seen(store) as statements, store.transaction() as tx:
        with tx.deferred_artifacts():
            manifest = tx.add_artifact(demo_run_id, "implement", 1, "context_manifest", data={"included": []})
            report = tx.add_artifact(demo_run_id, "implement", 1, "report", text="done")
            assert statements == []  # queued
        assert tx.report_texts(demo_run_id, ["implement"]) == {"implement": (1, "done")}
    assert len(statements) == 1 and statements[0].startswith("INSERT INTO phase_artifacts")
    assert manifest.id == report.id == 0  # ids are given by the INSERT at the block's end
    stored = store.artifacts(demo_run_id, "implement")
    assert [(a.kind, a.content_text, a.content_json) for a in stored] == [
        ("context_manifest", None, {"included": []}),
        ("report", "done", None),
    ]
    assert stored[0].sha256 == manifest.sha256 and stored[1].sha256 == report.sha256


def test_artifacts_queued_in_a_block_that_raises_are_not_written(store: SqlRunStore, demo_run_id: int) -> None:
    with pytest.raises(RuntimeError), store.transaction() as tx, tx.deferred_artifacts():
        tx.add_artifact(demo_run_id, "implement", 1, "report", text="lost")
        raise RuntimeError("stop")
    with store.transaction() as tx:  # and the next block queues afresh
        with tx.deferred_artifacts():
            tx.add_artifact(demo_run_id, "implement", 1, "report", text="kept")
        tx.add_artifact(demo_run_id, "implement", 1, "diff", text="at once")
    assert [a.content_text for a in store.artifacts(demo_run_id)] == ["kept", "at once"]


def test_one_secret_among_clean_strings_is_masked_and_only_it(
    store: SqlRunStore, demo_run_id: int, redactor: None
) -> None:
    """The redaction looks at a write's strings joined: a secret in one string of one row is still masked, and a
    known multi-line secret whose lines fall into two strings (a match across the join) masks each line."""
    redact.register_secrets(["first-secret-line\nsecond-secret-line"])
    node_id = store.node_id(demo_run_id, "implement")
    rows = events(demo_run_id, node_id, 1, 4)
    rows[2] = EventRow(demo_run_id, node_id, 1, 3, "tool_result", f"key {TOKEN} here")
    rows[3] = EventRow(
        demo_run_id, node_id, 1, 4, "tool_result", "first-secret-line", metadata={"m": "second-secret-line"}
    )
    store.append_events(rows)
    stored = [(e.content, e.metadata) for e in store.events(demo_run_id)]
    assert stored == [
        ("event 1", None),
        ("event 2", None),
        ("key [REDACTED] here", None),
        ("[REDACTED]", {"m": "[REDACTED]"}),
    ]
