"""Fixtures shared by the integration tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture
def isolated_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No global or system git configuration and no identity, like a fresh CI machine."""
    for key in list(os.environ):
        if key.startswith("GIT_") or key == "EMAIL":
            monkeypatch.delenv(key)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
