"""The read commands stay off SQLModel, pydantic and the ORM; the Core tables they use are ``tables.py``'s.

``alphred.store.schema`` is generated from the SQLModel classes of ``tables.py`` (``python -m
alphred.store.schemagen``): these tests fail when the two drift apart.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import modules_imported
from helpers.runs import alphred, base_env, workflow
from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.schema import CreateIndex, CreateTable

from alphred.store import schema, tables
from alphred.store.schemagen import render_schema

ONE = """\
phases:
  say:
    type: command
    run: echo hello
"""

HEAVY = (
    "sqlmodel",
    "pydantic",
    "sqlalchemy.orm",
    "alphred.store.tables",
    "alphred.operations.workspace",
    "alphred.runtime.runner",
    "git",
)


def column_facts(table: Table) -> list[tuple[Any, ...]]:
    """What DDL does not show of a column: its key, Python-side default, server default, autoincrement."""
    facts = []
    for column in table.columns:
        default = column.default
        arg = getattr(default, "arg", None)
        shown = "callable" if getattr(default, "is_callable", False) else repr(arg)
        server = str(getattr(column.server_default, "arg", None))
        facts.append((column.key, column.name, shown, server, column.autoincrement, column.nullable))
    return facts


@pytest.mark.parametrize("dialect", [sqlite.dialect(), postgresql.dialect()], ids=["sqlite", "postgresql"])
def test_the_core_tables_are_the_sqlmodel_tables(dialect: Any) -> None:
    every = (*tables.TOPOLOGY_MODELS, *tables.RUN_MODELS, *tables.FILE_MODELS)
    models = {t.name: t for t in (tables.table(m) for m in every)}
    models |= {
        tables.table(m).name: tables.table(m) for m in (tables.SchemaMigration, tables.RunProcess, tables.Worker)
    }
    assert set(models) == set(schema.METADATA.tables)
    for name, model in models.items():
        core = schema.METADATA.tables[name]
        assert str(CreateTable(core).compile(dialect=dialect)) == str(CreateTable(model).compile(dialect=dialect))
        indexes = [sorted(str(CreateIndex(i).compile(dialect=dialect)) for i in t.indexes) for t in (core, model)]
        assert indexes[0] == indexes[1], name
        assert column_facts(core) == column_facts(model), name
        assert dict(core.dialect_kwargs) == dict(model.dialect_kwargs), name
    assert [t.name for t in schema.TOPOLOGY_TABLES] == [tables.table(m).name for m in tables.TOPOLOGY_MODELS]
    assert [t.name for t in schema.RUN_TABLES] == [tables.table(m).name for m in tables.RUN_MODELS]
    assert [t.name for t in schema.FILE_TABLES] == [tables.table(m).name for m in tables.FILE_MODELS]
    assert schema.QUEUE_COLUMNS == tables.QUEUE_COLUMNS


def test_schema_py_is_what_schemagen_writes() -> None:
    """Compared without formatting (the file is ruff-formatted after generation: spaces, commas, quotes)."""
    written = Path(schema.__file__).read_text(encoding="utf-8")
    squeeze = str.maketrans("'", '"', " \n,")
    assert written.translate(squeeze) == render_schema().translate(squeeze)


def test_a_second_run_of_a_workflow_never_imports_sqlmodel_pydantic_or_the_orm(repo: Path) -> None:
    """The tree is stored already: it is found with Core statements (the ORM only writes a new version)."""
    wf = workflow(repo, ONE)
    assert alphred(repo, "run", str(wf)).returncode == 0
    code, loaded = modules_imported(
        ["run", str(wf), "--quiet"], ["sqlmodel", "pydantic", "sqlalchemy.orm", "alphred.store.tables"],
        env=base_env(repo.parent), cwd=repo,
    )  # fmt: skip
    assert not code, code
    assert loaded == []
    runs = alphred(repo, "runs", "--json")
    assert [(r["run_id"], r["status"], r["workflow"]["version"]) for r in json.loads(runs.stdout)] == [
        (2, "completed", 1),
        (1, "completed", 1),
    ]


def test_status_runs_and_logs_never_import_sqlmodel_pydantic_or_the_orm(repo: Path) -> None:
    wf = workflow(repo, ONE)
    assert alphred(repo, "run", str(wf)).returncode == 0
    for args in (
        ["status", "1", "--repo", str(repo)],
        ["status", "--json", "--repo", str(repo)],
        ["runs", "--repo", str(repo)],
        ["runs", "--json", "--repo", str(repo)],
        ["logs", "1", "--repo", str(repo)],
    ):
        _, loaded = modules_imported(args, HEAVY, env=base_env(repo.parent))
        assert loaded == [], (args, loaded)


LAZY_TABLES = """\
import sys, threading
from sqlalchemy.schema import CreateTable
from sqlalchemy.dialects import sqlite
from alphred.store import schema
print(sorted(name for name in vars(schema) if (name in schema._TABLES or name == "METADATA")))
found = []
threads = [threading.Thread(target=lambda: found.append(schema.RUN_PROCESSES)) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(len(found), len({id(table) for table in found}), found[0] is schema.RUN_PROCESSES)
print(sorted(name for name in vars(schema) if (name in schema._TABLES or name == "METADATA")))
print("REFERENCES" in str(CreateTable(schema.RUN_PROCESSES).compile(dialect=sqlite.dialect())))
print(len(schema.METADATA.tables), len(schema.FILE_TABLES), schema.FILE_TABLES[0] is schema.FILE_BLOBS)
"""


def test_the_core_tables_are_built_on_first_use_with_those_they_refer_to() -> None:
    """In a fresh interpreter no table exists until asked for; threads asking at once get one table; a table
    comes with the tables its foreign keys name (its DDL compiles: a migration may create it alone); METADATA
    and the groups hold every table."""
    done = subprocess.run([sys.executable, "-c", LAZY_TABLES], capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert lines[0] == "[]"
    assert lines[1] == "8 1 True"
    assert lines[2] == "['RUN_PROCESSES', 'WORKFLOW_RUNS', 'WORKFLOW_TREES']"
    assert lines[3:] == ["True", "21 6 True"]
