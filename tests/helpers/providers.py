"""Providers under test: draining one's event stream, and the fake agent CLIs (``tests/fixtures``) wired in."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import pytest

from alphred.errors import ProviderError
from alphred.providers import ProviderEvent, ProviderOptions
from alphred.workflow import McpServer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DECISIONS = ("approved", "changes_requested")
# a stdio server and an HTTP one, each with a secret it is given by name (the MCP tests of claude and codex)
TWO_MCP_SERVERS = (
    McpServer(name="issues", command="python", args=("-m", "srv"), env=("GH_TOKEN",), cwd="tools"),
    McpServer(
        name="web",
        url="http://127.0.0.1:9/mcp",
        env=("W_TOKEN",),
        headers=(("Authorization", "Bearer ${W_TOKEN}"),),
    ),
)


def collect(provider: Any, prompt: str, options: ProviderOptions) -> tuple[list[ProviderEvent], ProviderError | None]:
    """Every event ``provider.run(prompt, options)`` yields, and the ProviderError that ended it (or None)."""

    async def go() -> tuple[list[ProviderEvent], ProviderError | None]:
        events: list[ProviderEvent] = []
        try:
            async for event in provider.run(prompt, options):
                events.append(event)
        except ProviderError as exc:
            return events, exc
        return events, None

    return asyncio.run(go())


def wrapper(directory: Path, name: str, script: Path) -> Path:
    """An executable ``directory/name`` that runs the Python ``script`` with this interpreter."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{script}" "$@"\n')
    path.chmod(0o755)
    return path


def fixture_module(name: str) -> ModuleType:
    """``tests/fixtures/NAME.py`` imported as a module (the fixtures are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(name, FIXTURES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class FakeAgentCli:
    """A fake agent CLI wired for one test: its wrapper script, its log, the worktree it runs in."""

    binary: Path
    log: Path
    worktree: Path
    monkeypatch: pytest.MonkeyPatch
    PREFIX: ClassVar[str]  # of its environment variables: FAKE_CLAUDE, FAKE_CODEX
    PHASE: ClassVar[str]

    def scenario(self, name: str, **env: str) -> None:
        """Play scenario ``name`` (see the fake's docstring), with more of its settings in ``env``."""
        self.monkeypatch.setenv(f"{self.PREFIX}_SCENARIO", name)
        for key, value in env.items():
            self.monkeypatch.setenv(key, value)

    def entries(self) -> list[dict[str, Any]]:
        """What the fake logged, one object a line, in order."""
        return [json.loads(line) for line in self.log.read_text().splitlines()] if self.log.exists() else []

    def invocation(self) -> dict[str, Any]:
        """The log entry of the last start of the fake (its argv, cwd, pid...)."""
        return next(e for e in reversed(self.entries()) if "argv" in e)

    def options(self, **kw: Any) -> ProviderOptions:
        """Provider options running in the worktree, with the decisions approved / changes_requested."""
        base: dict[str, Any] = {"working_directory": self.worktree, "phase": self.PHASE, "attempt": 1}
        base.setdefault("decisions", DECISIONS)
        base.update(kw)
        return ProviderOptions(**base)

    @classmethod
    def install(cls, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> Any:
        """``tests/fixtures/fake_<name>...`` as ``tmp_path/name``, logging to ``tmp_path/name.log``, scenario ok."""
        script = FIXTURES / {"claude": "fake_claude_cli.py", "codex": "fake_codex.py"}[name]
        worktree = tmp_path / "worktree"
        worktree.mkdir()
        log = tmp_path / f"{name}.log"
        monkeypatch.setenv(f"{cls.PREFIX}_LOG", str(log))
        monkeypatch.setenv(f"{cls.PREFIX}_SCENARIO", "ok")
        for setting in ("DECISION", "FILE", "REPORT"):
            monkeypatch.delenv(f"{cls.PREFIX}_{setting}", raising=False)
        return cls(wrapper(tmp_path, name, script), log, worktree, monkeypatch)


class FakeClaude(FakeAgentCli):
    """``tests/fixtures/fake_claude_cli.py``, speaking Claude Code's stream-json."""

    PREFIX = "FAKE_CLAUDE"
    PHASE = "implement"

    @property
    def cli(self) -> Path:
        """The CLI to hand to ClaudeProvider."""
        return self.binary


class FakeCodex(FakeAgentCli):
    """``tests/fixtures/fake_codex.py``, speaking ``codex exec --json``."""

    PREFIX = "FAKE_CODEX"
    PHASE = "review"
