"""The first hour's polish, second pass (issue 28 item 5): ``logs`` in aligned columns with multi-line
content indented, and ``run`` naming every provider that is not ready. Real git, real SQLite, the CLI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.cli import cli, write_workflow

OUTPUT = """\
phases:
  a_long_phase_name:
    type: command
    run: "printf 'one\\\\ntwo\\\\n'"
    transitions: [{to: b}]
  b:
    type: command
    run: "printf 'x\\\\n'"
"""
HEAD = re.compile(r"^\d\d:\d\d:\d\d \S+ (?P<label>\S+) +(?P<sequence>\d+) (?P<type>\w+) +(?P<content>\S.*)$")
PROVIDERS = """\
phases:
  plan:
    provider: claude
    prompt: plan
    transitions: [{to: build}]
  build:
    provider: codex
    prompt: build
    transitions: [{to: review}]
  review:
    provider: claude
    prompt: review
"""


@pytest.mark.quick
def test_logs_columns_line_up_and_multi_line_content_is_indented(repo: Path) -> None:
    assert cli("run", str(write_workflow(repo, OUTPUT)), "--repo", str(repo), "-q").exit_code == 0
    lines = cli("logs", "--repo", str(repo)).stdout.splitlines()
    heads = [line for line in lines if not line.startswith(" ")]
    parsed = [HEAD.match(line) for line in heads]
    assert all(parsed), heads
    assert len({m.start("sequence") for m in parsed if m}) == 1  # after phase#attempt, every column lines up
    assert len({m.start("type") for m in parsed if m}) == 1 and len({m.start("content") for m in parsed if m}) == 1
    assert {m["label"] for m in parsed if m} == {"a_long_phase_name#1", "b#1"}
    result = next(i for i, line in enumerate(lines) if "a_long_phase_name#1" in line and " result " in line)
    assert lines[result].endswith(" one")
    assert lines[result + 1].strip() == "two" and lines[result + 1].index("two") == lines[result].index("one")
    b_line = next(line for line in lines if " b#1 " in line)
    assert b_line.index("b#1") == lines[result].index("a_long_phase_name#1")


@pytest.mark.quick
def test_run_names_every_provider_that_is_not_ready(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALPHRED_CODEX_BIN", "/nonexistent/codex")
    monkeypatch.setenv("ALPHRED_CLAUDE_CLI", "/nonexistent/claude")
    result = cli("run", str(write_workflow(repo, PROVIDERS)), "--repo", str(repo))
    assert result.exit_code == 2
    assert result.stderr.splitlines()[:3] == [
        "Error [PROVIDER_NOT_READY]: 2 providers are not ready:",
        "  provider 'claude' (phases plan, review) is not ready: ALPHRED_CLAUDE_CLI=/nonexistent/claude is not an"
        " executable file: fix the path or unset it",
        "  provider 'codex' (phase build) is not ready: ALPHRED_CODEX_BIN=/nonexistent/codex is not an executable"
        " file: fix the path or unset it",
    ]
    assert not (repo / ".alphred" / "alphred.db").exists()  # nothing was created
