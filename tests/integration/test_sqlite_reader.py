"""The read commands' light SQLite reader returns what ``SqlRunStore`` returns, record for record, on a
database filled by real runs (a loop, a failure, a fan-out) and a registered worker; and the read commands
import neither SQLAlchemy nor the workflow parsers (issue 28, item 2)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from helpers.processes import modules_imported, run_alphred
from helpers.runs import base_env

from alphred.store import SqlRunStore, open_reader
from alphred.store.sqlite_reader import SqliteReader, sqlite_path

ROOT = Path(__file__).resolve().parents[2]
FAILING = 'alphred: 1\nkey: red\nphases:\n  tests:\n    type: command\n    run: "echo no; exit 3"\n'


@pytest.fixture
def filled(repo: Path) -> str:
    """The URL of ``repo``'s database after a demo run, a failed run and a parallel run; one worker."""
    env = base_env(repo.parent)
    (repo.parent / "red.yaml").write_text(FAILING)
    for args in (
        ["run", str(ROOT / "workflows" / "demo.yaml")],
        ["run", str(repo.parent / "red.yaml")],
        ["run", str(ROOT / "tests" / "fixtures" / "workflows" / "parallel.yaml")],
    ):
        result = run_alphred(*args, env=env, cwd=repo)
        assert result.returncode in (0, 1), result.stderr
    url = f"sqlite:///{repo / '.alphred' / 'alphred.db'}"
    with SqlRunStore(url) as store:
        store.register_worker("host:1:2:ab", "host", 1, ["scripted"])
        store.acquire_lease(1, "host:1:2:ab", 3600)
    return url


@pytest.mark.quick
def test_the_reader_returns_what_the_store_returns(filled: str) -> None:
    reader = open_reader(filled)
    assert isinstance(reader, SqliteReader)
    with SqlRunStore(filled) as store, reader:
        runs = store.list_runs(None)
        assert len(runs) == 3
        assert reader.list_runs(None) == runs
        assert reader.list_runs(1) == store.list_runs(1)
        for run in runs:
            assert reader.find_run(run.id) == store.find_run(run.id)
            assert reader.list_steps(run.id) == store.list_steps(run.id)
            assert reader.latest_reports(run.id) == store.latest_reports(run.id)
            assert reader.routing_decisions(run.id) == store.routing_decisions(run.id)
            assert reader.events(run.id) == store.events(run.id)
            assert reader.events(run.id, "implement", 2, 3) == store.events(run.id, "implement", 2, 3)
            assert reader.run_snapshot(run.id) == store.run_snapshot(run.id)
        assert any(reader.latest_reports(run.id) for run in runs)
        trees = [r.tree_id for r in runs]
        assert reader.workflow_sources(trees) == store.workflow_sources(trees)
        assert reader.trees_with_fan_outs(trees) == store.trees_with_fan_outs(trees) != set()
        assert reader.list_workers(60) == store.list_workers(60)
        assert reader.list_workers(60)[0]["runs"] == [1]
        assert reader.live_capabilities(60) == store.live_capabilities(60)
        assert reader.find_run(99) is None


def test_only_plain_sqlite_file_urls_take_the_light_path(tmp_path: Path) -> None:
    assert sqlite_path("sqlite:////tmp/x.db") == Path("/tmp/x.db")
    assert sqlite_path("sqlite:///rel.db") == Path("rel.db")
    for other in (
        "sqlite://",
        "sqlite:///:memory:",
        "sqlite:///x.db?mode=ro",
        "postgresql://u@h/db",
        "sqlite:///a%20b",
    ):
        assert sqlite_path(other) is None
    assert open_reader(f"sqlite:///{tmp_path / 'none.db'}") is None  # nothing there: nothing created
    assert not (tmp_path / "none.db").exists()
    sqlite3.connect(tmp_path / "empty.db").close()
    assert open_reader(f"sqlite:///{tmp_path / 'empty.db'}") is None  # a file without Alphred's schema


def test_an_older_schema_is_read_by_the_store(filled: str) -> None:
    path = sqlite_path(filled)
    assert path is not None
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE workflow_runs DROP COLUMN repo_root")
    store = open_reader(filled)
    assert not isinstance(store, SqliteReader)
    store.close()


# Runs 1 and 2 have no fan-out (the third's branches need its workflow loaded again: status 3 loads it).
READS = [["status", "1"], ["status", "2"], ["status", "2", "--json"], ["runs"], ["logs", "1"], ["logs"], ["workers"]]


@pytest.mark.parametrize("command", READS)
def test_read_commands_import_no_sqlalchemy_and_no_parsers(filled: str, repo: Path, command: list[str]) -> None:
    heavy = ["sqlalchemy", "sqlmodel", "pydantic", "yaml", "lark", "git", "alphred.workflow.load"]
    code, loaded = modules_imported([*command, "--repo", str(repo)], heavy, env=base_env(repo.parent), cwd=repo)
    assert code in (0, None)
    assert loaded == [], (command, loaded)
