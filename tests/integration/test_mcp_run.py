"""End to end (SPEC §14): ``alphred run`` of an openai phase with an MCP server (the ``mcp`` package's server
API, stdio) and an allow-list, against the fake model server: the model calls the MCP tool, the result
reaches its next turn, the events are stored (the server's secret redacted), and the workflow validates."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import run_alphred
from helpers.providers import FIXTURES, fixture_module
from helpers.repos import make_repo, process_env

pytest.importorskip("openai")
pytest.importorskip("mcp")

fake_server = fixture_module("fake_openai_server")

WORKFLOW = """\
alphred: 1
key: mcp-agents
phases:
  implement:
    provider: openai
    base_url: {url}
    api_key_env: none
    model: impl
    prompt: Add 2 and 3 with the calc server.
    decisions: [done]
    tools: {{allow: [read_file, mcp__calc]}}
    mcp:
      calc: {{command: {python}, args: [{server}], env: [CALC_SECRET_VALUE]}}
    transitions:
      - to: $end
"""


@pytest.fixture
def server() -> Iterator[Any]:
    fake = fake_server.FakeOpenAIServer().start()
    yield fake
    fake.stop()


@pytest.mark.slow
def test_an_mcp_tool_call_is_answered_and_its_events_are_stored_redacted(tmp_path: Path, server: Any) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = process_env(home, drop=("FAKE_", "OPENAI_"), CALC_SECRET_VALUE="s3cr3t-calc-value")
    repo = make_repo(tmp_path / "repo", {"README.md": "# project\n"}, env=env)
    workflow = tmp_path / "mcp.yaml"
    workflow.write_text(
        WORKFLOW.format(
            url=server.url, python=json.dumps(sys.executable), server=json.dumps(str(FIXTURES / "mcp_server.py"))
        )
    )
    server.script(
        "impl",
        [
            {
                "calls": [
                    {"name": "mcp__calc__add", "arguments": {"a": 2, "b": 3}},
                    {"name": "shell", "arguments": {"command": "true"}},
                ]
            },
            {"calls": [{"name": "mcp__calc__secret_env", "arguments": {"name": "CALC_SECRET_VALUE"}}]},
            {
                "text": "s3cr3t-calc-value",
                "calls": [{"name": "finish", "arguments": {"decision": "done", "report": "5"}}],
            },
        ],
    )
    checked = run_alphred("validate", str(workflow), env=env)
    assert checked.returncode == 0, checked.stderr
    assert "phase implement (openai): tools read_file, mcp__calc; mcp calc: stdio" in checked.stderr
    done = run_alphred("run", str(workflow), "--repo", str(repo), "--json", env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "completed"
    second = server.bodies("/responses")[1]
    outputs = [item["output"] for item in second["input"] if item.get("type") == "function_call_output"]
    assert outputs[0] == "5" and outputs[1].startswith("error: tool 'shell' is not allowed")
    tools = [tool["name"] for tool in server.bodies("/responses")[0]["tools"]]
    assert sorted(tools) == ["finish", "mcp__calc__add", "mcp__calc__secret_env", "mcp__calc__where", "read_file"]
    logs = run_alphred("logs", "--repo", str(repo), env=env)
    assert logs.returncode == 0, logs.stderr
    assert "s3cr3t-calc-value" not in logs.stdout  # the server's variable is masked wherever it surfaces
    assert "[REDACTED]" in logs.stdout  # the assistant's text that repeated it
    assert "mcp__calc__add" in logs.stdout and "MCP server calc: 3 tool(s) offered" in logs.stdout
    assert "CALC_SECRET_VALUE: present, 17 characters" in logs.stdout
