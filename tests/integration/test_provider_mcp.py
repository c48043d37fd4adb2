"""The openai provider as an MCP client (SPEC §14): a real MCP server (``tests/fixtures/mcp_server.py``,
written with the ``mcp`` package's server API) over stdio and streamable HTTP, driven by the real ``openai``
client against the fake model server; and its ``tools:`` allow/deny lists."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import providers
from helpers.processes import wait_gone
from helpers.providers import FIXTURES

from alphred.errors import ProviderError
from alphred.providers import EventType, ProviderEvent, ProviderOptions, groups
from alphred.providers.mcp_client import MCP_SERVER_FAILED
from alphred.providers.openai import OpenAIProvider
from alphred.workflow import McpServer, ToolPolicy

pytest.importorskip("openai")
pytest.importorskip("mcp")

SERVER = str(FIXTURES / "mcp_server.py")


@pytest.fixture
def model(server: Any) -> Any:
    """The shared fake model server (``conftest.py``), named as these tests read it."""
    return server


@pytest.fixture
def worktree(tmp_path: Path) -> Path:
    root = tmp_path / "worktree"
    (root / "sub").mkdir(parents=True)
    return root


def stdio(name: str = "calc", **kw: Any) -> McpServer:
    return McpServer(name=name, command=sys.executable, args=(SERVER,), **kw)


def run(
    model: Any, worktree: Path, *, api: str = "responses", **kw: Any
) -> tuple[list[ProviderEvent], ProviderError | None]:
    options = ProviderOptions(
        working_directory=worktree,
        phase="implement",
        attempt=1,
        model="m",
        decisions=("done",),
        settings={"base_url": model.url, "api": api},
        base_environment={"PATH": "/usr/bin:/bin", "HOME": str(worktree)},
        **kw,
    )
    return providers.collect(OpenAIProvider(env={"OPENAI_API_KEY": "sk-test"}), "Add 2 and 3.", options)


def tool_names(request: dict[str, Any]) -> list[str]:
    tools = request["body"]["tools"]
    return [tool.get("name") or tool["function"]["name"] for tool in tools]


def tool_outputs(request: dict[str, Any]) -> list[str]:
    body = request["body"]
    items = body.get("input") or body.get("messages") or []
    return [
        str(i.get("output") or i.get("content"))
        for i in items
        if i.get("type") == "function_call_output" or i.get("role") == "tool"
    ]


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_a_stdio_mcp_tool_call_reaches_the_next_model_turn(model: Any, worktree: Path, api: str) -> None:
    model.script(
        "m",
        [
            {"calls": [{"name": "mcp__calc__add", "arguments": {"a": 2, "b": 3}}]},
            {"calls": [{"name": "finish", "arguments": {"decision": "done", "report": "5"}}]},
        ],
    )
    events, error = run(model, worktree, api=api, mcp=(stdio(),))
    assert error is None, error
    first, second = model.requests[0], model.requests[1]
    assert {"mcp__calc__add", "mcp__calc__secret_env", "mcp__calc__where", "shell", "finish"} <= set(tool_names(first))
    add = next(t for t in first["body"]["tools"] if (t.get("name") or t["function"]["name"]) == "mcp__calc__add")
    schema = add.get("parameters") or add["function"]["parameters"]
    assert schema["required"] == ["a", "b"] and schema["properties"]["a"]["type"] == "integer"
    assert tool_outputs(second) == ["5"]
    use = next(e for e in events if e.type is EventType.TOOL_USE)
    result = next(e for e in events if e.type is EventType.TOOL_RESULT)
    assert use.metadata["tool"] == "mcp__calc__add" and json.loads(use.metadata["input"]) == {"a": 2, "b": 3}
    assert result.content == "5" and result.metadata["is_error"] is False and result.metadata["mcp_server"] == "calc"
    started = next(e for e in events if e.metadata.get("mcp_server") == "calc" and e.type is EventType.SYSTEM)
    assert started.metadata["tools"] == 3
    assert events[-1].metadata["routingDecision"] == "done"


def test_a_stdio_servers_process_group_is_registered_while_it_runs(model: Any, worktree: Path) -> None:
    # Like a command's: the runner records it with the attempt (a take-over kills it), a second Ctrl+C kills it.
    model.script("m", [{"calls": [{"name": "finish", "arguments": {"decision": "done", "report": "ok"}}]}])
    seen: list[int] = []
    stop = groups.listen(seen.append)
    try:
        _, error = run(model, worktree, mcp=(stdio(), stdio("other")))
    finally:
        stop()
    assert error is None
    assert len(seen) == 2 and not set(seen) & groups.ACTIVE  # one group per server, unregistered at the end
    assert all(wait_gone(pgid) for pgid in seen)


def test_a_server_gets_only_its_own_variables_and_runs_in_its_cwd(model: Any, worktree: Path) -> None:
    model.script(
        "m",
        [
            {
                "calls": [
                    {"name": "mcp__calc__secret_env", "arguments": {"name": "CALC_TOKEN"}},
                    {"name": "mcp__calc__secret_env", "arguments": {"name": "OPENAI_API_KEY"}},
                    {"name": "mcp__calc__where", "arguments": {}},
                    {"name": "shell", "arguments": {"command": "echo token=${CALC_TOKEN:-unset}"}},
                ]
            },
            {"calls": [{"name": "finish", "arguments": {"decision": "done", "report": "ok"}}]},
        ],
    )
    server = stdio(env=("CALC_TOKEN",), cwd="sub")
    _events, error = run(model, worktree, mcp=(server,), mcp_env={"calc": {"CALC_TOKEN": "hunter2-secret"}})
    assert error is None, error
    outputs = tool_outputs(model.requests[1])
    assert outputs[0] == "CALC_TOKEN: present, 14 characters"
    assert outputs[1] == "OPENAI_API_KEY: absent"  # the model server's key stays with the openai client
    assert outputs[2] == str((worktree / "sub").resolve())
    assert outputs[3].endswith("token=unset")  # the agent's shell never sees the server's variable


def test_tools_allow_offers_only_the_listed_tools_and_refuses_a_call_to_another(model: Any, worktree: Path) -> None:
    model.script(
        "m",
        [
            {
                "calls": [
                    {"name": "shell", "arguments": {"command": "touch made"}},
                    {"name": "mcp__calc__where", "arguments": {}},
                ]
            },
            {"calls": [{"name": "mcp__calc__add", "arguments": {"a": 1, "b": 1}}]},
            {"calls": [{"name": "finish", "arguments": {"decision": "done", "report": "ok"}}]},
        ],
    )
    policy = ToolPolicy(allow=("read_file", "mcp__calc__add"))
    _events, error = run(model, worktree, mcp=(stdio(),), tools=policy)
    assert error is None, error
    assert sorted(tool_names(model.requests[0])) == ["finish", "mcp__calc__add", "read_file"]
    refused = tool_outputs(model.requests[1])
    assert refused[0].startswith("error: tool 'shell' is not allowed in this phase")
    assert refused[1].startswith("error: tool 'mcp__calc__where' is not offered")
    assert not (worktree / "made").exists()
    assert tool_outputs(model.requests[2])[-1] == "2"
    prompt = model.requests[0]["body"]["input"][0]["content"]
    assert "through the tools read_file." in prompt


def test_tools_deny_removes_a_whole_server_or_one_tool(model: Any, worktree: Path) -> None:
    model.script("m", [{"calls": [{"name": "finish", "arguments": {"decision": "done", "report": "ok"}}]}])
    policy = ToolPolicy(deny=("shell", "mcp__calc__where", "mcp__other"))
    _, error = run(model, worktree, mcp=(stdio(), stdio("other")), tools=policy)
    assert error is None, error
    names = tool_names(model.requests[0])
    assert "shell" not in names and "mcp__calc__where" not in names
    assert "mcp__calc__add" in names and not any(n.startswith("mcp__other__") for n in names)


def test_a_server_that_fails_to_start_fails_the_attempt_with_its_stderr(model: Any, worktree: Path) -> None:
    model.script("m", [{"text": "never asked"}])
    server = stdio(env=("MCP_FIXTURE_FAIL",))
    _, error = run(model, worktree, mcp=(server,), mcp_env={"calc": {"MCP_FIXTURE_FAIL": "1"}})
    assert error is not None and error.code == MCP_SERVER_FAILED and error.retryable
    assert "MCP server 'calc'" in error.message
    assert "refusing to start (MCP_FIXTURE_FAIL is set)" in error.message
    assert model.requests == []  # no model turn without the servers


def test_a_missing_server_program_fails_the_attempt(model: Any, worktree: Path) -> None:
    _, error = run(model, worktree, mcp=(McpServer(name="gone", command="/nonexistent/mcp-server"),))
    assert error is not None and error.code == MCP_SERVER_FAILED and "/nonexistent/mcp-server" in error.message


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    log = (tmp_path / "http.log").open("w")
    process = subprocess.Popen([sys.executable, SERVER, "http", str(port)], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:  # poll the port (the server's readiness), never a fixed sleep
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((tmp_path / "http.log").read_text()) from None
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.kill()
        process.wait()
        log.close()


def test_a_streamable_http_server_with_a_header_from_env(model: Any, worktree: Path, http_server: str) -> None:
    model.script(
        "m",
        [
            {"calls": [{"name": "mcp__remote__add", "arguments": {"a": 40, "b": 2}}]},
            {"calls": [{"name": "finish", "arguments": {"decision": "done", "report": "42"}}]},
        ],
    )
    server = McpServer(
        name="remote", url=http_server, env=("REMOTE_TOKEN",), headers=(("Authorization", "Bearer ${REMOTE_TOKEN}"),)
    )
    events, error = run(model, worktree, mcp=(server,), mcp_env={"remote": {"REMOTE_TOKEN": "abc123"}})
    assert error is None, error
    assert tool_outputs(model.requests[1]) == ["42"]
    assert events[-1].metadata["routingDecision"] == "done"


def test_an_unreachable_http_server_fails_the_attempt(model: Any, worktree: Path) -> None:
    server = McpServer(name="remote", url=f"http://127.0.0.1:{free_port()}/mcp")
    _, error = run(model, worktree, mcp=(server,))
    assert error is not None and error.code == MCP_SERVER_FAILED and "remote" in error.message


def test_a_stdio_server_runs_inside_the_phase_sandbox(model: Any, worktree: Path) -> None:
    from alphred.runtime.sandbox import close_sandbox, find_bwrap, open_sandbox, sandbox_problem
    from alphred.workflow import SandboxPolicy

    if find_bwrap() is None or sandbox_problem(find_bwrap()) is not None:
        pytest.skip("bubblewrap cannot run here")
    sandbox = open_sandbox(SandboxPolicy(), worktree, [])
    try:
        model.script(
            "m",
            [
                {"calls": [{"name": "mcp__calc__where", "arguments": {}}]},
                {"calls": [{"name": "finish", "arguments": {"decision": "done", "report": "ok"}}]},
            ],
        )
        # the server's script inside the worktree: a checkout below /tmp is hidden by the sandbox's private /tmp
        inside = worktree / "mcp_server.py"
        shutil.copyfile(SERVER, inside)
        server = McpServer(name="calc", command=sys.executable, args=(str(inside),), cwd="sub")
        _events, error = run(model, worktree, mcp=(server,), sandbox=SandboxPolicy(), confine=sandbox.confine)
        assert error is None, error
        assert tool_outputs(model.requests[1]) == [str((worktree / "sub").resolve())]
    finally:
        close_sandbox(sandbox)
