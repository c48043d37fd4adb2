"""End to end (SPEC §14): ``alphred run`` of an openai phase with an MCP server (the ``mcp`` package's server
API, stdio) and an allow-list, against the fake model server: the model calls the MCP tool, the result
reaches its next turn, the events are stored (the server's secret redacted), and the workflow validates."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import alive, kill_group, run_alphred, spawn_alphred, wait_gone, wait_until
from helpers.providers import FIXTURES
from helpers.repos import make_repo, process_env

pytest.importorskip("openai")
pytest.importorskip("mcp")


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


@pytest.mark.slow
def test_a_kill_9_mid_mcp_call_leaves_nothing_of_the_server_after_the_take_over(tmp_path: Path, server: Any) -> None:
    # The stdio server is the mcp package's child in a session of its own, not the CLI's: its group is recorded in
    # run_processes as it starts. Its helper carries no Alphred marker (an empty environment), so only the
    # recorded group finds it once the runner died mid-call: the take-over (resume) kills it.
    held = tmp_path / "held.pids"
    home = tmp_path / "home"
    home.mkdir()
    env = process_env(home, identity=True, drop=("FAKE_", "OPENAI_"), MCP_FIXTURE_HOLD=str(held))
    repo = make_repo(tmp_path / "repo", {"README.md": "# project\n"}, env=env)
    workflow = tmp_path / "mcp.yaml"
    workflow.write_text(
        WORKFLOW.format(
            url=server.url, python=json.dumps(sys.executable), server=json.dumps(str(FIXTURES / "mcp_server.py"))
        )
    )
    finish = {"calls": [{"name": "finish", "arguments": {"decision": "done", "report": "held"}}]}
    server.script("impl", [{"calls": [{"name": "mcp__calc__hold", "arguments": {}}]}, finish])
    runner = spawn_alphred("run", str(workflow), "--repo", str(repo), "--json", env=env)
    try:
        wait_until(held.exists, what="the MCP call to be in flight")
        server_pid, helper_pid = (int(pid) for pid in held.read_text().split())
        recorded = sqlite3.connect(f"file:{repo / '.alphred' / 'alphred.db'}?mode=ro", uri=True, timeout=10)
        wait_until(
            lambda: (
                recorded.execute("select node_key, attempt from run_processes where pgid = ?", (server_pid,)).fetchall()
                == [("implement", 1)]
            ),
            what="the server's process group in run_processes",
        )
        recorded.close()
        os.kill(runner.pid, signal.SIGKILL)  # the runner alone: the server lives on in its own session
        runner.communicate(timeout=60)
    finally:
        if runner.poll() is None:
            kill_group(runner)
    assert alive(helper_pid)
    resumed = run_alphred("resume", "1", "--repo", str(repo), "--json", env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert wait_gone(helper_pid) and wait_gone(server_pid)
    assert [(s["phase"], s["attempt"], s["outcome"]) for s in json.loads(resumed.stdout)["steps"]] == [
        ("implement", 1, "interrupted"),
        ("implement", 2, "completed"),
    ]
