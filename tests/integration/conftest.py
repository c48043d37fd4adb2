"""Fixtures shared by the integration tests (``repo`` itself is in ``tests/conftest.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.repos import isolate


@pytest.fixture
def isolated_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No global or system git configuration and no identity, like a fresh CI machine."""
    isolate(monkeypatch, tmp_path / "home")
