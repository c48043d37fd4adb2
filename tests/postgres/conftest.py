"""In ``tests/postgres`` every store test runs on PostgreSQL only (skipped when none is reachable)."""

from __future__ import annotations

import pytest


@pytest.fixture(params=[pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str:
    """The run's migrated PostgreSQL schema, emptied for this test."""
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture(params=[pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_db_url(request: pytest.FixtureRequest) -> str:
    """A fresh PostgreSQL schema without tables, for this test alone."""
    url: str = request.getfixturevalue("fresh_postgres_url")
    return url
