"""Issue 29, the store's per-phase writes on the driver's cursor (``store/prepared.py``): the rows they store are
the rows ``Connection.execute`` stores, on SQLite and PostgreSQL (where every statement falls back to it);
bind processors, row counts, errors and redaction behave as on SQLAlchemy's way."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import DateTime, Integer, bindparam, event, insert, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from alphred import redact
from alphred.errors import DatabaseLockedError
from alphred.store import EventRow, SqlRunStore, prepared
from alphred.store import columns as store_columns
from alphred.store.columns import UtcDateTime, sqlite_time
from alphred.store.enums import NodeStatus
from alphred.store.schema import RUN_NODE_DIAGNOSTICS, RUN_NODES, WORKFLOW_RUNS

TOKEN = "ghp_" + "Z9y8X7w6V5" * 4
OWNER = "host:1:2:owner"
NOW = datetime(2026, 3, 4, 5, 6, 7, 890123, tzinfo=UTC)
TABLES = {  # table -> the column naming its run (rows compared without their own ids)
    "workflow_runs": "id",
    "run_nodes": "run_id",
    "run_node_stream_events": "workflow_run_id",
    "phase_artifacts": "run_id",
    "run_node_diagnostics": "run_id",
    "routing_decisions": "run_id",
}
IDS = {"id", "run_id", "workflow_run_id", "run_node_id"}
STATE = {
    "engine": {"phases": {"implement": {"report": f"token {TOKEN}", "cost_usd": 0.1, "n": 2**40}}, "ü": "ß∑ 'q' \"d\""},
    "runtime": {"branch": "a/b", "empty": [], "none": None, "flag": True},
}


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's clock stopped at ``NOW`` (every store module that took ``utcnow``), the redactor fresh."""
    real = store_columns.utcnow
    for name, module in list(sys.modules.items()):
        if name.startswith("alphred.store") and getattr(module, "utcnow", None) is real:
            monkeypatch.setattr(module, "utcnow", lambda: NOW)
    monkeypatch.setattr(redact, "_PROCESS", None)


def phase(store: SqlRunStore, run_id: int) -> None:
    """What the runner writes for a run's first two phases, each transition in one transaction."""
    assert store.acquire_lease(run_id, OWNER, 30.0)
    store.set_run_status(run_id, "running")
    with store.transaction() as tx:
        assert tx.renew_run(run_id, OWNER, 30.0, engine_state=STATE, tokens=0, cost_usd=0.0, steps=0) == (False, False)
        assert tx.start_node(run_id, "implement", OWNER, 30.0, attempt=1, visits=1) is not None
    node_id = store.node_id(run_id, "implement")
    naive, paris = datetime(2026, 1, 2, 3, 4, 5), datetime(2026, 7, 1, 12, 0, tzinfo=ZoneInfo("Europe/Paris"))
    with store.transaction() as tx:
        assert tx.renew_run(run_id, OWNER, 30.0, engine_state=STATE, tokens=7, cost_usd=0.25, steps=1) == (False, False)
        tx.append_events(
            [
                EventRow(run_id, node_id, 1, 1, "assistant", "plain text", naive, {"k": "v"}),
                EventRow(run_id, node_id, 1, 2, "tool_use", f"echo {TOKEN}", paris),
                EventRow(run_id, node_id, 1, 3, "result", None, None, {"secret": TOKEN, "n": 1.5}),
            ]
        )
        with tx.deferred_artifacts():
            tx.add_artifact(run_id, "implement", 1, "context", data={"reports": ["a", TOKEN], "n": None})
            tx.add_artifact(run_id, "implement", 1, "report", text=f"done; {TOKEN}")
        tx.move_node(run_id, "implement", NodeStatus.COMPLETED, attempt=1, decision="approved", tokens=7)
        tx.add_diagnostic(
            run_id, "implement", 1, "completed", duration_ms=12, tokens=7, cost_usd=0.25, details={"message": "ünï"}
        )
        explanation = [{"priority": 0, "to": "tests", "result": "matched", "reads": [{"path": "decision"}]}]
        tx.add_routing_decision(
            run_id, "implement", 1, "tests", decision="approved", priority=0, explanation=explanation
        )
        assert tx.start_node(run_id, "tests", OWNER, 30.0, attempt=1, visits=1) is not None
        tx.update_run(run_id, wake_at=datetime(2030, 1, 1, 2, 0, tzinfo=timezone(timedelta(hours=2))))
        tx.add_artifact(run_id, "tests", 1, "outcome", text="one row, outside the batch")
    assert store.renew_lease(run_id, OWNER, 60.0, node_key="tests")
    assert not store.release_lease(run_id, "someone else", node_key="tests")
    assert store.release_lease(run_id, OWNER, node_key="tests")
    store.update_node(run_id, "tests", exit_code=3)


def stored(store: SqlRunStore, run_id: int) -> dict[str, list[dict[str, Any]]]:
    """The run's rows as the database holds them (no type processing), without their ids."""
    found: dict[str, list[dict[str, Any]]] = {}
    with store.engine.connect() as conn:
        for table, column in TABLES.items():
            result = conn.exec_driver_sql(f"SELECT * FROM {table} WHERE {column} = {int(run_id)} ORDER BY id")
            found[table] = [{k: v for k, v in row._mapping.items() if k not in IDS} for row in result]
    return found


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The statements executed the prepared way."""
    seen: list[str] = []
    real = prepared.cursor_execute

    def count(conn: Any, cursor: Any, sql: str, values: Any, many: bool = False, listeners: Any = None) -> None:
        seen.append(sql)
        real(conn, cursor, sql, values, many, listeners)

    monkeypatch.setattr(prepared, "cursor_execute", count)
    return seen


def test_the_prepared_way_stores_the_rows_sqlalchemy_stores(
    store: SqlRunStore,
    make_workflow: Callable[..., Any],
    frozen: None,
    counted: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    workflow = make_workflow()
    tree_id, _ = store.compile(workflow)
    runs = {}
    for driver in (False, True):  # on PostgreSQL the driver's way falls back to ``Connection.execute``
        monkeypatch.setattr(store.transaction_class, "driver_writes", driver)
        runs[driver] = store.create_run(tree_id, workflow, {"issue": "x"})
        phase(store, runs[driver])
    fast, core = stored(store, runs[True]), stored(store, runs[False])
    assert all(fast[table] for table in TABLES)
    assert fast == core
    assert TOKEN not in repr(fast)  # redacted on the prepared way too
    assert "2026-03-04 05:06:07.890123" in repr(fast) or store.dialect != "sqlite"  # the frozen clock's text
    prepared_writes = [sql.split()[0] for sql in counted]
    if store.dialect == "sqlite":  # every per-phase write of the fast run (and BEGIN) went the prepared way
        assert prepared_writes.count("INSERT") >= 6 and prepared_writes.count("UPDATE") >= 8
    else:
        assert prepared_writes == []


HOSTILE_TIMES = [
    datetime(2026, 1, 2, 3, 4, 5),  # naive: UTC already
    datetime(2026, 1, 2, 3, 4, 5, 0, tzinfo=UTC),  # no microseconds: still six digits
    datetime(1, 1, 1, 0, 0, tzinfo=UTC),  # a year below 1000
    datetime(2026, 3, 29, 1, 30, tzinfo=ZoneInfo("Europe/Paris")),  # a zone with summer time
    datetime(2026, 12, 31, 23, 59, 59, 999999, tzinfo=timezone(timedelta(hours=-9, minutes=-30))),  # next year in UTC
    datetime(2026, 6, 1, tzinfo=UTC),
]


def test_utc_timestamps_on_sqlite_are_the_text_sqlalchemy_makes() -> None:
    dialect = sqlite.dialect()
    standard = DateTime().dialect_impl(dialect).bind_processor(dialect)
    assert standard is not None
    ours = UtcDateTime().dialect_impl(dialect).bind_processor(dialect)
    assert ours is not None and ours(None) is None
    for value in HOSTILE_TIMES:
        expected = standard(UtcDateTime().process_bind_param(value, dialect))
        assert ours(value) == sqlite_time(value) == expected


def test_utc_timestamps_of_other_minutes_one_after_another_are_each_their_own_text() -> None:
    dialect = sqlite.dialect()
    standard = DateTime().dialect_impl(dialect).bind_processor(dialect)
    assert standard is not None
    start = datetime(2026, 12, 31, 23, 58, 59, 999999, tzinfo=UTC)
    steps = [timedelta(microseconds=1), timedelta(seconds=61), timedelta(days=-400), timedelta(hours=25)]
    values = [start + step * n for n in range(12) for step in steps] + HOSTILE_TIMES * 2
    for value in values:
        assert sqlite_time(value) == standard(UtcDateTime().process_bind_param(value, dialect))


def test_a_parameter_used_at_several_places_is_processed_once_and_written_at_each() -> None:
    dialect = sqlite.dialect()
    stamp = bindparam("_now", type_=UtcDateTime())
    statement = (
        update(RUN_NODES)
        .where(RUN_NODES.c.id == bindparam("_id", type_=Integer), RUN_NODES.c.lease_expires_at < stamp)
        .values(updated_at=stamp, started_at=stamp)
    )
    found = prepared.prepare(statement, dialect, ("_now", "_id"))
    assert found is not None
    values = dict(enumerate(found.values({"_now": HOSTILE_TIMES[3], "_id": 4})))
    assert found.names.count("_now") == 3
    assert [values[i] for i, name in enumerate(found.names) if name == "_now"] == ["2026-03-29 00:30:00.000000"] * 3
    assert values[found.names.index("_id")] == 4


def test_a_prepared_statement_processes_each_parameter_by_its_type() -> None:
    dialect = sqlite.dialect()
    given = {"run_id": 1, "run_node_id": 2, "attempt": 3, "outcome": NodeStatus.COMPLETED, "reason": "ü'\"",
             "details": {"b": [1, "ü"], "a": None}, "created_at": HOSTILE_TIMES[3]}  # fmt: skip
    values = {column.name: given.get(column.name, 0) for column in RUN_NODE_DIAGNOSTICS.c if column.name != "id"}
    keys = tuple(values)
    statement = insert(RUN_NODE_DIAGNOSTICS)
    found = prepared.prepare(statement, dialect, keys)
    assert found is not None
    compiled = statement.compile(dialect=dialect, column_keys=list(keys))
    assert (found.sql, found.names) == (compiled.string, tuple(compiled.positiontup or ()))
    row = dict(zip(found.names, found.values(values), strict=True))
    assert row["outcome"] is NodeStatus.COMPLETED and row["reason"] == "ü'\""  # a str (its text), as given
    assert row["details"] == '{"b": [1, "\\u00fc"], "a": null}'  # SQLAlchemy's JSON text
    assert row["created_at"] == "2026-03-29 00:30:00.000000"  # UTC text
    with pytest.raises(TypeError, match="required"):
        found.values({key: value for key, value in values.items() if key != "attempt"})


def test_a_statement_that_needs_sqlalchemy_at_execution_is_not_prepared() -> None:
    dialect = sqlite.dialect()
    # a column default computed in Python (created_at), an IN list rendered per execution, named parameters
    assert prepared.prepare(insert(RUN_NODE_DIAGNOSTICS), dialect, ("run_id", "run_node_id", "attempt")) is None
    listed = update(RUN_NODES).where(RUN_NODES.c.id.in_(bindparam("ids", expanding=True))).values(tokens=1)
    assert prepared.prepare(listed, dialect, ("ids",)) is None
    assert prepared.prepare(update(WORKFLOW_RUNS).values(tokens=1), postgresql.dialect(), ("tokens",)) is None
    one = update(WORKFLOW_RUNS).where(WORKFLOW_RUNS.c.id == bindparam("_id", type_=Integer))
    assert prepared.prepare(one, dialect, ("tokens", "_id")) is not None


def test_row_counts_and_returned_rows_say_what_matched(store: SqlRunStore, demo_run_id: int) -> None:
    with store.transaction() as tx:
        assert tx.renew_run(demo_run_id, OWNER, 30.0, tokens=1) is None  # not the lease's owner: nothing matched
        assert not tx.renew_lease(demo_run_id, OWNER, 30.0)
        assert tx.acquire_lease(demo_run_id, OWNER, 30.0)
        assert tx.renew_run(demo_run_id, OWNER, 30.0, tokens=1) == (False, False)
        with pytest.raises(KeyError):
            tx.update_node(demo_run_id, "no-such-phase", exit_code=1)
        assert tx.start_node(demo_run_id, "implement", OWNER, 30.0, attempt=1) is not None
        assert tx.start_node(demo_run_id, "implement", "another:1:2:3", 30.0, attempt=2) is None  # leased: 0 rows
    assert store.get_node(demo_run_id, "implement").attempt == 1


def test_a_broken_constraint_is_sqlalchemys_integrity_error_and_the_transaction_goes_on(
    store: SqlRunStore, demo_run_id: int, counted: list[str]
) -> None:
    store.add_diagnostic(demo_run_id, "implement", 1, "completed", event_count=0)
    with store.transaction() as tx:
        with pytest.raises(IntegrityError), tx.connection.begin_nested():  # one diagnostics row per attempt
            tx.add_diagnostic(demo_run_id, "implement", 1, "failed", event_count=0)
        tx.add_diagnostic(demo_run_id, "implement", 2, "completed", event_count=0)  # a new cursor
    assert [step.attempt for step in store.list_steps(demo_run_id)] == [1, 2]
    assert any("run_node_diagnostics" in sql for sql in counted) or store.dialect != "sqlite"


def test_a_locked_database_is_database_locked_on_the_prepared_way(sqlite_url: str, make_workflow: Any) -> None:
    with SqlRunStore(sqlite_url) as holder, SqlRunStore(sqlite_url, busy_timeout=0.05) as waiter:
        # the holder keeps the write lock: the waiter's BEGIN IMMEDIATE waits, then gives up
        with holder.transaction(), pytest.raises(DatabaseLockedError), waiter.transaction():
            pass
        with waiter.transaction() as tx:
            tree_id, _ = tx.compile(make_workflow())
        assert tree_id


def test_the_engines_cursor_listeners_see_every_prepared_write(store: SqlRunStore, demo_run_id: int) -> None:
    seen: list[tuple[str, Any]] = []

    def listen(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        seen.append((" ".join(statement.split())[:20], parameters))

    event.listen(store.engine, "after_cursor_execute", listen)
    try:
        with store.transaction() as tx:
            tx.acquire_lease(demo_run_id, OWNER, 30.0)
            tx.update_run(demo_run_id, pr_url=f"https://x/{TOKEN}")
    finally:
        event.remove(store.engine, "after_cursor_execute", listen)
    updates = [parameters for statement, parameters in seen if statement.startswith("UPDATE workflow_runs")]
    assert len(updates) == 2
    assert TOKEN not in repr(updates) and "https://x/" in repr(updates[1])  # what was written: redacted
    assert TOKEN not in (store.get_run(demo_run_id).pr_url or "")


def test_a_cursor_listener_added_between_transactions_sees_the_next_ones_writes(
    sqlite_url: str, demo_run_id_on: Callable[[SqlRunStore], int]
) -> None:
    """A transaction takes its connection's cursor listeners once (``listeners_of``): one added to the engine
    after a transaction (its connection kept open for the next) is taken by the next one, and redaction, which
    was there from the start, still comes first."""
    with SqlRunStore(sqlite_url) as store:
        run_id = demo_run_id_on(store)
        with store.transaction() as tx:
            tx.update_run(run_id, tokens=1)
        seen: list[tuple[str, Any]] = []

        def listen(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
            seen.append((statement.split()[0], parameters))

        event.listen(store.engine, "before_cursor_execute", listen)
        try:
            with store.transaction() as tx:
                tx.update_run(run_id, tokens=2, pr_url=f"https://x/{TOKEN}")
                tx.update_run(run_id, tokens=3)
        finally:
            event.remove(store.engine, "before_cursor_execute", listen)
        assert [statement for statement, _ in seen] == ["BEGIN", "UPDATE", "UPDATE"]
        assert TOKEN not in repr(seen) and "https://x/" in repr(seen)  # redaction's listener came first
        with store.transaction() as tx:
            tx.update_run(run_id, tokens=4)
        assert len(seen) == 3  # removed: the next transaction takes the listeners without it
        assert store.get_run(run_id).tokens == 4


def test_the_listeners_read_directly_are_those_sqlalchemy_iterates(sqlite_url: str) -> None:
    """``prepared.listening`` reads an event's listener lists without SQLAlchemy's nested ``__iter__``: the same
    listeners in the same order as ``tuple(collection)``, as listeners are added to the engine class, the engine and
    one connection, and removed again."""
    from sqlalchemy import Engine

    names = ("before_cursor_execute", "after_cursor_execute", "begin", "commit", "rollback")

    def same(conn: Any) -> None:
        for name in names:
            collection = getattr(conn.dispatch, name)
            assert prepared.listening(collection) == tuple(collection), name

    def one(*_args: Any) -> None: ...
    def two(*_args: Any) -> None: ...
    def three(*_args: Any) -> None: ...

    with SqlRunStore(sqlite_url) as store, store.engine.connect() as conn:
        same(conn)
        added: list[tuple[Any, str, Any]] = []
        for target, name, listener in [
            (store.engine, "commit", one),
            (store.engine, "before_cursor_execute", two),
            (Engine, "commit", three),
            (conn, "commit", two),
            (conn, "begin", one),
            (store.engine, "commit", two),
        ]:
            event.listen(target, name, listener)
            added.append((target, name, listener))
            same(conn)
        assert sorted(f.__name__ for f in prepared.listening(conn.dispatch.commit)) == ["one", "three", "two", "two"]
        for target, name, listener in added:
            event.remove(target, name, listener)
            same(conn)


def test_begin_and_commit_listeners_added_between_transactions_are_called_by_the_next(
    sqlite_url: str, demo_run_id_on: Callable[[SqlRunStore], int]
) -> None:
    """The driver's transaction calls the engine's ``begin`` and ``commit`` listeners as they are at its start and its
    end (``Writes.begin``/``end`` read them each time): one added after a transaction, its connection kept for the
    next, is called by the next; one removed is not."""
    with SqlRunStore(sqlite_url) as store:
        run_id = demo_run_id_on(store)
        with store.transaction() as tx:
            tx.update_run(run_id, tokens=1)
        calls: list[str] = []

        def began(_conn: Any) -> None:
            calls.append("begin")

        def committed(_conn: Any) -> None:
            calls.append("commit")

        event.listen(store.engine, "begin", began)
        event.listen(store.engine, "commit", committed)
        try:
            store.add_process(run_id, "implement", 1, "host", 4321, "99")  # the group's record: its own transaction
        finally:
            event.remove(store.engine, "begin", began)
            event.remove(store.engine, "commit", committed)
        assert calls == ["begin", "commit"]
        store.add_process(run_id, "implement", 1, "host", 4322, "99")
        assert calls == ["begin", "commit"]
        assert [p.pgid for p in store.processes(run_id)] == [4321, 4322]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(JSON_VALUES)
def test_the_json_texts_are_json_dumps_texts(value: Any) -> None:
    """``json_text`` (the SQLite engine's JSON serializer, the events' JSON) writes what ``json.dumps`` writes:
    rows written before it and by PostgreSQL's way read back the same."""
    assert store_columns.json_text(value) == json.dumps(value)
    canonical = json.dumps(value, sort_keys=True, separators=(",", ":"))
    assert store_columns.canonical_json_text(value) == canonical  # an artifact's hash: the same as before


def test_json_text_refuses_what_json_dumps_refuses() -> None:
    with pytest.raises(TypeError):
        store_columns.json_text({"when": NOW})
    cyclic: list[Any] = []
    cyclic.append(cyclic)
    with pytest.raises(RecursionError):  # ``json.dumps`` says ValueError: no stored value is cyclic
        store_columns.json_text(cyclic)
    assert store_columns.json_text({"after": "a failure"}) == '{"after": "a failure"}'


def test_a_write_outside_a_transaction_begins_one_as_sqlalchemy_does(sqlite_url: str) -> None:
    with SqlRunStore(sqlite_url) as store, store.engine.connect() as conn:
        writes = prepared.Writes(conn, driver=True)
        statement = update(WORKFLOW_RUNS).where(WORKFLOW_RUNS.c.id == bindparam("_id", type_=Integer))
        assert writes.rowcount(statement, {"tokens": 1, "_id": 1}) == 0
        assert conn.in_transaction()  # ``Connection.execute`` began it (autobegin), not the driver's autocommit
        conn.rollback()


def test_a_statement_is_prepared_once_per_dialect_and_parameter_names(sqlite_url: str) -> None:
    with SqlRunStore(sqlite_url) as store:
        cache = prepared._cache_of(store.engine.dialect)
        before = set(cache)
        for _ in range(3):
            with store.transaction() as tx:
                tx.renew_lease(1, OWNER, 1.0)
        assert len(set(cache) - before) == 1


def test_a_write_transaction_reuses_the_last_ones_connection_and_an_error_drops_it(
    sqlite_url: str, demo_run_id_on: Callable[[SqlRunStore], int]
) -> None:
    with SqlRunStore(sqlite_url) as store:
        run_id = demo_run_id_on(store)
        with store.transaction() as tx:
            first = tx.connection
        with store.transaction() as tx:
            assert tx.connection is first  # kept open between transactions (the SQLite store's ``idle_connections``)
            assert tx.connection.connection.dbapi_connection.in_transaction  # begun on the driver (``Writes.begin``)
        commits: list[object] = []
        event.listen(store.engine, "commit", commits.append)  # a listener added later sees the kept connection
        with pytest.raises(ZeroDivisionError), store.transaction() as tx:
            tx.update_run(run_id, tokens=5)
            _ = 1 / 0
        assert first.closed  # after an error: back to the pool, not kept
        assert store.get_run(run_id).tokens == 0  # rolled back
        commits.clear()
        with store.transaction() as tx:
            assert tx.connection is not first
            tx.update_run(run_id, tokens=6)
        assert len(commits) == 1 and store.get_run(run_id).tokens == 6
    assert store._idle == []  # closed with the store


def _tokens(tx: Any, run_id: int) -> int:
    """The run's tokens, read through ``Connection.execute`` (``list_runs``: a query built per call, not prepared)."""
    return int(next(run.tokens for run in tx.list_runs() if run.id == run_id))


def test_a_driver_transaction_joined_by_sqlalchemy_commits_or_rolls_back_every_write(
    sqlite_url: str, demo_run_id_on: Callable[[SqlRunStore], int]
) -> None:
    """A write transaction begun on the driver (``Writes.begin``) that runs a statement through
    ``Connection.execute`` (a read; ``set_run_status``'s check) is joined by SQLAlchemy's transaction (no second
    BEGIN): the writes before and after it commit together, or roll back together on an error."""
    with SqlRunStore(sqlite_url) as store:
        run_id = demo_run_id_on(store)
        with store.transaction() as tx:
            tx.update_run(run_id, tokens=3)  # on the driver's cursor
            assert not tx.connection.in_transaction()
            assert _tokens(tx, run_id) == 3  # through ``Connection.execute``: SQLAlchemy joins
            assert tx.connection.in_transaction()
            tx.update_run(run_id, steps=2)
        assert (store.get_run(run_id).tokens, store.get_run(run_id).steps) == (3, 2)
        with pytest.raises(ZeroDivisionError), store.transaction() as tx:
            tx.update_run(run_id, tokens=4)
            assert _tokens(tx, run_id) == 4
            tx.update_run(run_id, steps=5)
            _ = 1 / 0
        assert (store.get_run(run_id).tokens, store.get_run(run_id).steps) == (3, 2)  # rolled back, both
        with store.transaction() as tx:  # the connection after a rolled-back one begins again
            tx.update_run(run_id, tokens=7)
        assert store.get_run(run_id).tokens == 7


def test_a_write_transaction_on_the_driver_holds_the_write_lock_from_its_start(
    sqlite_url: str, demo_run_id_on: Callable[[SqlRunStore], int]
) -> None:
    """``BEGIN IMMEDIATE`` on the driver, as SQLAlchemy's ``begin`` hook emitted it: another writer meets the lock
    (Alphred's error after its busy timeout) before the first statement is written."""
    with SqlRunStore(sqlite_url) as store, SqlRunStore(sqlite_url, busy_timeout=0.05) as other:
        run_id = demo_run_id_on(store)
        with store.transaction(), pytest.raises(DatabaseLockedError), other.transaction() as tx:
            tx.update_run(run_id, tokens=1)
        with other.transaction() as tx:
            tx.update_run(run_id, tokens=2)
        assert store.get_run(run_id).tokens == 2


@pytest.fixture
def demo_run_id_on(make_workflow: Callable[..., Any]) -> Callable[[SqlRunStore], int]:
    def make(store: SqlRunStore) -> int:
        workflow = make_workflow()
        tree_id, _ = store.compile(workflow)
        return store.create_run(tree_id, workflow, {})

    return make
