"""Fixtures shared by the integration tests (``repo`` itself is in ``tests/conftest.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.providers import fixture_module
from helpers.repos import isolate


@pytest.fixture
def isolated_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No global or system git configuration and no identity, like a fresh CI machine."""
    isolate(monkeypatch, tmp_path / "home")


@pytest.fixture
def server() -> Iterator[Any]:
    """The fake OpenAI-compatible model server (``tests/fixtures/fake_openai_server.py``), on a free port for the
    test: ``server.url``, ``server.script(model, entries)``, ``server.requests``."""
    fake = fixture_module("fake_openai_server").FakeOpenAIServer().start()
    yield fake
    fake.stop()
