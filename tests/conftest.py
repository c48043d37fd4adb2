"""Shared fixtures: ``repo`` is a git repository with one commit; ``db_url`` runs a store test on a SQLite file
and on PostgreSQL (when one is reachable). The helpers behind them, and more set-up, are in ``tests/helpers``.

PostgreSQL: ``postgresql+psycopg://postgres@127.0.0.1:5432/test`` (override with
``ALPHRED_TEST_POSTGRES_URL``). Schemas are named after a random prefix for this test run and selected
through the connection's ``search_path``: one migrated schema shared by the run (emptied before each test)
and a fresh empty one for each test that needs a database without tables; all are dropped afterwards.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from helpers.optional import Tally, tag
from helpers.repos import isolate, make_repo
from hypothesis import HealthCheck, settings
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

if TYPE_CHECKING:
    from alphred.store import SqlRunStore
    from alphred.workflow.model import Workflow

# Hypothesis: a test's budget is its number of examples, never time. No per-example deadline and no "too slow"
# health check: a loaded machine makes examples slower, not wrong (tests may still ask for more or fewer examples).
settings.register_profile("alphred", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("alphred")

POSTGRES_URL = os.environ.get("ALPHRED_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
_RUN_PREFIX = f"alphred_test_{uuid.uuid4().hex[:8]}"
_schema_counter = iter(range(1, 1_000_000))


@cache
def postgres_reachable() -> bool:
    """True when something accepts TCP connections at the test PostgreSQL's host and port."""
    url = make_url(POSTGRES_URL)
    try:
        with socket.create_connection((url.host or "127.0.0.1", url.port or 5432), timeout=0.5):
            return True
    except OSError:
        return False


def schema_url(schema: str) -> str:
    """The test PostgreSQL URL with ``search_path`` set to ``schema``."""
    url = make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


@contextmanager
def _postgres_schema(suffix: str) -> Iterator[str]:
    """Create schema ``<run prefix>_<suffix>``, yield its URL, drop it (with everything in it) afterwards."""
    if not postgres_reachable():
        pytest.skip("no PostgreSQL reachable at 127.0.0.1:5432")
    schema = f"{_RUN_PREFIX}_{suffix}"
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        yield schema_url(schema)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(scope="session")
def postgres_run_schema() -> Iterator[Engine]:
    """This test run's migrated PostgreSQL schema (an engine on it); dropped when the run ends."""
    from alphred.store import open_engine
    from alphred.store.migrations import migrate

    with _postgres_schema("shared") as url:
        engine = open_engine(url)
        try:
            migrate(engine)
            yield engine
        finally:
            engine.dispose()


@pytest.fixture
def postgres_url(postgres_run_schema: Engine) -> str:
    """The URL of the run's migrated PostgreSQL schema, emptied (ids restarted) for this test."""
    from alphred.store.tables import TABLE_NAMES

    with postgres_run_schema.begin() as conn:
        conn.execute(text(f"TRUNCATE {', '.join(TABLE_NAMES)} RESTART IDENTITY CASCADE"))
    return postgres_run_schema.url.render_as_string(hide_password=False)


@pytest.fixture
def fresh_postgres_url() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL schema of this test alone (dropped afterwards)."""
    with _postgres_schema(str(next(_schema_counter))) as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A URL of a SQLite file (not yet created) in this test's temporary directory."""
    return f"sqlite:///{tmp_path / 'db' / 'alphred.db'}"


_DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(params=_DATABASES)
def db_url(request: pytest.FixtureRequest) -> str:
    """A database with no rows: a SQLite file (not yet created), then the run's PostgreSQL schema."""
    url: str = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")
    return url


@pytest.fixture(params=_DATABASES)
def empty_db_url(request: pytest.FixtureRequest) -> str:
    """A database with no tables at all: a SQLite file (not yet created), then a fresh PostgreSQL schema."""
    url: str = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "fresh_postgres_url")
    return url


_OPTIONAL = Tally()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Count the optional tests that ran or were skipped (``helpers/optional.py``)."""
    _OPTIONAL.add(report)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say which optional tests (Chromium, PostgreSQL, bubblewrap, codex, claude, actionlint) ran and which
    were skipped, and why."""
    terminalreporter.write_sep("-", "optional tests")
    for line in _OPTIONAL.lines():
        terminalreporter.write_line(line)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tag the optional tests; run the PostgreSQL half of a store contract test once when ``tests/postgres``
    re-collects it too; mark the quick loop (every test of ``tests/unit`` that is not slow, and the tests of
    ``tests/integration`` marked ``quick`` by hand: one pass through each room)."""
    tag(items)
    for item in items:
        if item.path.parent.name == "unit" and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.quick)
    in_postgres_dir = {
        item.function for item in items if isinstance(item, pytest.Function) and item.path.parent.name == "postgres"
    }
    if not in_postgres_dir:
        return
    keep: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        duplicate = (
            isinstance(item, pytest.Function)
            and item.path.parent.name != "postgres"
            and item.function in in_postgres_dir
            and getattr(item, "callspec", None) is not None
            and "postgresql" in (item.callspec.params.get("db_url"), item.callspec.params.get("empty_db_url"))
        )
        (dropped if duplicate else keep).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path/repo``: a git repository on ``main`` with one commit (a README), this process isolated from
    the machine's git configuration and alphred settings, ``HOME`` at ``tmp_path/home``."""
    isolate(monkeypatch, tmp_path / "home")
    return make_repo(tmp_path / "repo", {"README.md": "# project\n"})


@pytest.fixture
def store(db_url: str) -> Iterator[SqlRunStore]:
    """A migrated ``SqlRunStore`` on ``db_url``."""
    from alphred.store import SqlRunStore

    opened = SqlRunStore(db_url)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def make_workflow() -> Callable[..., Workflow]:
    """A factory of small three-phase workflows (agent, command, agent), built from the model directly.

    ``make_workflow(key="demo", prompt="...")``: ``prompt`` varies the content (a new tree version).
    """
    from alphred.workflow.model import Phase, PhaseType, Transition, Workflow

    def build(key: str = "demo", prompt: str = "Fix {{ inputs.issue }}", content_hash: str = "") -> Workflow:
        implement = Phase(
            key="implement",
            type=PhaseType.AGENT,
            sequence_index=0,
            provider="scripted",
            model="m1",
            prompt=prompt,
            max_retries=2,
            max_visits=5,
            options={"script": [{"decision": "approved"}]},
            transitions=(Transition(target="tests", priority=0),),
        )
        tests = Phase(
            key="tests",
            type=PhaseType.COMMAND,
            sequence_index=1,
            run="pytest -q",
            allow_failure=True,
            transitions=(
                Transition(target="implement", priority=0, when="exit_code != 0", max=3),
                Transition(target="review", priority=1, when="exit_code == 0"),
                Transition(target="$fail", priority=2),
            ),
        )
        review = Phase(
            key="review",
            type=PhaseType.AGENT,
            sequence_index=2,
            provider="codex",
            prompt="Review the diff.",
            decisions=("approved", "changes_requested"),
            transitions=(
                Transition(target="implement", priority=0, when='decision == "changes_requested"'),
                Transition(target="$end", priority=1, when='decision == "approved"'),
            ),
        )
        return Workflow(key=key, phases=(implement, tests, review), start="implement", content_hash=content_hash)

    return build


@pytest.fixture
def demo_run_id(store: SqlRunStore, make_workflow: Callable[..., Workflow]) -> int:
    """A pending run of ``make_workflow()`` in ``store``, with inputs and a repository."""
    workflow = make_workflow()
    tree_id, _ = store.compile(workflow)
    return store.create_run(tree_id, workflow, {"issue": "bug 7"}, repo_path="/repo", base_ref="main")
