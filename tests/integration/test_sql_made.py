"""Issue 29, the hot statements' SQL compiled once and kept as source (``store/sql_made.py``, written by
``python -m alphred.store.sql_gen``): the module is what SQLAlchemy compiles now, a run's writes find theirs in it,
and a statement taken from it writes what the compiled one writes."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert
from sqlalchemy.dialects import postgresql
from test_phase_transactions import in_process_run, loop

from alphred.errors import UnknownRunError
from alphred.store import RunStatus, SqlRunStore, prepared, sql_gen, sql_made
from alphred.store.schema import WORKFLOW_RUNS

SAMPLES: tuple[Any, ...] = (
    datetime(2026, 3, 29, 1, 30, 5, 123, tzinfo=UTC),
    datetime(2026, 1, 2, 3, 4, 5),
    {"b": [1, "ü"], "a": None},
    [1, 2.5, "x"],
    True,
    False,
    None,
    "text",
    7,
)
RESULTS = ("2026-03-29 01:30:05.000123", '{"b": [1, "\\u00fc"], "a": null}', "[]", 1, 0, 2.5, None)
"""Values as SQLite gives them back (timestamp text, JSON text, integers for booleans)."""


@pytest.mark.quick
def test_sql_made_py_is_what_sql_gen_writes() -> None:
    current = Path(sql_made.__file__).read_text(encoding="utf-8") == sql_gen.render()
    assert current, "alphred/store/sql_made.py is out of date: run `python -m alphred.store.sql_gen` and commit it"


@contextlib.contextmanager
def compiles() -> Iterator[list[tuple[str | None, tuple[str, ...], bool]]]:
    """The statements ``prepare`` compiles while the block runs (not found in ``sql_made.py``): name, keys, many."""
    seen: list[tuple[str | None, tuple[str, ...], bool]] = []
    real = prepared.Prepared.__init__

    def compiling(self: Any, statement: Any, dialect: Any, keys: Any, many: bool = False) -> None:
        seen.append((prepared._NAMES.get(statement), tuple(keys), many))
        real(self, statement, dialect, keys, many)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(prepared.Prepared, "__init__", compiling)
        patch.setattr(prepared, "_CACHES", type(prepared._CACHES)())  # every statement prepared again
        yield seen


def test_a_runs_writes_find_their_sql_in_sql_made(repo: Path) -> None:
    with compiles() as compiled, in_process_run(repo, loop(5)) as (_store, record):
        pass
    assert record.status.value == "completed", (record.status, record.reason)
    named = [entry for entry in compiled if entry[0] is not None]
    assert named == [], f"add these to sql_gen.HOT and run `python -m alphred.store.sql_gen`: {named}"


def _same_steps(mine: Any, theirs: Any, name: str, samples: tuple[Any, ...]) -> None:
    """Two processors (or None) turn each of ``samples`` they take into the same value."""
    assert (mine is None) == (theirs is None), name
    for value in samples if mine is not None else ():
        try:
            expected = theirs(value)
        except Exception:  # a value this type does not take
            continue
        assert mine(value) == expected, (name, value)


def _same_processing(made: Any, compiled: Any) -> None:
    """Both ``Prepared``s turn the same parameters into the same driver values, a SELECT's rows into the same."""
    assert (made.sql, made.names) == (compiled.sql, compiled.names)
    for (name, mine, default), (other_name, theirs, other_default) in zip(made._plan, compiled._plan, strict=True):
        assert (name, default) == (other_name, other_default)
        _same_steps(mine, theirs, name, SAMPLES)
    assert (made.row is None) == (compiled.row is None)
    if made.row is not None:
        assert made.row._fields == compiled.row._fields
        mine, theirs = dict(made._results), dict(compiled._results)
        assert mine.keys() == theirs.keys()
        for at, step in mine.items():
            _same_steps(step, theirs[at], made.row._fields[at], RESULTS)


@pytest.mark.parametrize(("name", "keys", "many"), sql_gen.HOT, ids=[f"{n}-{len(k)}-{m}" for n, k, m in sql_gen.HOT])
def test_a_statement_from_sql_made_is_the_compiled_one_on_a_stores_dialect(
    sqlite_url: str, name: str, keys: tuple[str, ...], many: bool
) -> None:
    with SqlRunStore(sqlite_url) as store:
        dialect = store.engine.dialect
        assert prepared.dialect_fingerprint(dialect) == sql_made.FINGERPRINT
        statement = sql_gen.statement_named(name)
        made = prepared._made(statement, dialect, keys, many)
        assert made is not None
        _same_processing(made, prepared.Prepared(statement, dialect, keys, many))


def test_another_dialect_or_other_parameter_names_are_compiled() -> None:
    statement = sql_gen.statement_named("runs.update_run")
    keys = ("engine_state", "updated_at", "_run_id")
    assert prepared._made(statement, sql_gen.sqlite_dialect(), keys, False) is not None
    assert prepared._made(statement, postgresql.dialect(), keys, False) is None  # not SQLite's fingerprint
    assert prepared._made(statement, sql_gen.sqlite_dialect(), ("pr_url", "updated_at", "_run_id"), False) is None
    unnamed = insert(WORKFLOW_RUNS)
    assert prepared._made(unnamed, sql_gen.sqlite_dialect(), sql_gen.HOT[0][1], False) is None
    found = prepared.prepare(statement, sql_gen.sqlite_dialect(), ("pr_url", "updated_at", "_run_id"))
    assert found is not None and "pr_url=?" in found.sql


def test_a_created_run_row_is_the_row_sqlalchemy_fills_in(
    store: SqlRunStore, make_workflow: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``create_run`` gives every column with a default its default itself (so that its INSERT is one of
    ``sql_made.py``'s): the row is the one ``insert(...).values(...)`` stores with SQLAlchemy's defaults."""
    from alphred.store import runs

    now = datetime(2026, 3, 4, 5, 6, 7, 890123, tzinfo=UTC)
    monkeypatch.setattr(runs, "utcnow", lambda: now)
    workflow = make_workflow()
    tree_id, _ = store.compile(workflow)
    fields = {"base_sha": "a" * 40, "repo_path": "/r", "lease_owner": "o", "lease_expires_at": now}
    ours = store.create_run(tree_id, workflow, {"issue": "ü"}, **fields)
    with store.engine.begin() as conn:
        values = {"tree_id": tree_id, "status": "pending", "inputs": {"issue": "ü"}, "created_at": now}
        theirs = conn.execute(insert(WORKFLOW_RUNS).values(**fields, **values, updated_at=now)).inserted_primary_key
        assert theirs is not None
        rows = [
            {
                k: v
                for k, v in conn.exec_driver_sql(f"SELECT * FROM workflow_runs WHERE id = {i}").one()._mapping.items()
            }
            for i in (ours, theirs[0])
        ]
    assert {**rows[0], "id": 0} == {**rows[1], "id": 0}


def test_a_run_read_the_prepared_way_is_the_run_sqlalchemy_reads(
    store: SqlRunStore, make_workflow: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    workflow = make_workflow()
    tree_id, _ = store.compile(workflow)
    run_id = store.create_run(tree_id, workflow, {"issue": "ü", "n": [1, None]}, base_sha="a" * 40, queued=True)
    assert store.acquire_lease(run_id, "owner", 30.0)
    store.set_run_status(run_id, "running")
    store.update_run(run_id, engine_state={"engine": {"ü": [1.5, None, True]}}, wake_at=datetime(2030, 1, 1))
    with store.transaction() as tx:
        assert tx.start_node(run_id, workflow.phases[0].key, "owner", 30.0, attempt=1, visits=1) is not None
    records = {}
    for driver in (True, False):  # on PostgreSQL both are ``Connection.execute``'s
        monkeypatch.setattr(store.transaction_class, "driver_writes", driver)
        with store.reading() as tx:
            records[driver] = (tx.get_run(run_id), tx.node_id(run_id, workflow.phases[0].key))
    assert records[True] == records[False]
    for driver in (True, False):  # the run row read and locked before its move
        monkeypatch.setattr(store.transaction_class, "driver_writes", driver)
        with pytest.raises(UnknownRunError), store.transaction() as tx:
            tx.set_run_status(run_id + 1, "paused")
        with store.transaction() as tx:
            assert tx.set_run_status(run_id, "paused") is RunStatus.RUNNING
            assert tx.set_run_status(run_id, "running") is RunStatus.PAUSED
    record = records[True][0]
    assert record.started_at is not None and record.started_at.tzinfo is UTC
    assert record.queued is True and record.inputs == {"issue": "ü", "n": [1, None]}
    assert [node.attempt for node in record.nodes][:1] == [1]
