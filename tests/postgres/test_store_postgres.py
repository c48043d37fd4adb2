"""PostgreSQL specifics: driver choice, schema isolation, the plpgsql trigger, read-only opening, compile races."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import event, inspect, text

from alphred.store import SqlRunStore, open_engine
from alphred.store.connect import normalize_url
from alphred.store.tables import TABLE_NAMES
from alphred.workflow.model import Workflow

pytestmark = pytest.mark.postgres


def test_a_postgresql_url_without_driver_uses_psycopg3(postgres_url: str) -> None:
    assert normalize_url("postgresql://u@h/db").drivername == "postgresql+psycopg"
    assert normalize_url("postgres://u@h/db").drivername == "postgresql+psycopg"
    bare = postgres_url.replace("postgresql+psycopg://", "postgresql://")
    with SqlRunStore(bare) as store:
        assert store.engine.driver == "psycopg"
        assert store.list_runs() == []


def test_tables_live_in_the_schema_of_the_search_path(fresh_postgres_url: str) -> None:
    with SqlRunStore(fresh_postgres_url) as store, store.engine.connect() as conn:
        schema = conn.execute(text("SELECT current_schema()")).scalar_one()
        assert schema.startswith("alphred_test_")
        assert set(TABLE_NAMES) <= set(inspect(conn).get_table_names(schema=schema))
        public = set(inspect(conn).get_table_names(schema="public"))
        assert not (set(TABLE_NAMES) & public) or schema == "public"


def test_the_same_tree_rule_is_a_plpgsql_trigger(postgres_url: str) -> None:
    with SqlRunStore(postgres_url) as store, store.engine.connect() as conn:
        found = conn.execute(
            text(
                "SELECT t.tgname, l.lanname FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid "
                "JOIN pg_language l ON l.oid = p.prolang "
                "WHERE t.tgrelid = 'tree_edges'::regclass AND NOT t.tgisinternal"
            )
        ).all()
    assert [tuple(row) for row in found] == [("trg_tree_edges_same_tree", "plpgsql")]


def test_open_existing_on_an_empty_schema_creates_nothing(fresh_postgres_url: str) -> None:
    assert SqlRunStore.open_existing(fresh_postgres_url) is None
    engine = open_engine(fresh_postgres_url)
    try:
        assert inspect(engine).get_table_names() == []
    finally:
        engine.dispose()
    SqlRunStore(fresh_postgres_url).close()
    existing = SqlRunStore.open_existing(fresh_postgres_url)
    assert existing is not None
    existing.close()


@pytest.mark.parametrize("before", ["SELECT max(", "WHERE workflow_trees.tree_key", "INSERT INTO workflow_trees"])
def test_a_compile_committed_by_another_process_midway_is_found(
    postgres_url: str, make_workflow: Callable[..., Workflow], before: str
) -> None:
    """Another process commits the same workflow at each point of our compile: we still end on its row."""
    racing, other = SqlRunStore(postgres_url), SqlRunStore(postgres_url)
    fired: list[str] = []

    def interleave(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if before in statement and not fired:
            fired.append(statement)
            assert other.compile(make_workflow()) == (1, 1)  # commits while our transaction is open

    event.listen(racing.engine, "before_cursor_execute", interleave)
    try:
        assert racing.compile(make_workflow()) == (1, 1)
        assert fired
        assert racing.compile(make_workflow(prompt="changed"))[1] == 2
    finally:
        racing.close()
        other.close()
