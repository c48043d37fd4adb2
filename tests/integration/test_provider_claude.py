"""The ``claude`` provider through the real claude-agent-sdk, driving a fake Claude Code CLI (stream-json)."""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import alive
from helpers.providers import DECISIONS, TWO_MCP_SERVERS, FakeClaude, collect

from alphred.engine import TokenCounter
from alphred.errors import ProviderError
from alphred.providers import EventType, ProviderOptions
from alphred.providers import claude as claude_module
from alphred.providers.claude import (
    ClaudeProvider,
    credentials_source,
    root_bypass_problem,
    rule_permits,
    tool_settings,
)
from alphred.providers.contract import checked
from alphred.workflow import ToolPolicy

pytest.importorskip("claude_agent_sdk")


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeClaude:
    monkeypatch.setenv("IS_SANDBOX", "1")  # tests may run as root: bypassPermissions needs it, as with the real CLI
    monkeypatch.setenv("CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK", "1")
    found: FakeClaude = FakeClaude.install(tmp_path, monkeypatch, "claude")
    return found


def test_success_maps_messages_to_events_and_takes_the_structured_decision(fake: FakeClaude) -> None:
    fake.scenario("ok", FAKE_CLAUDE_FILE="notes/hello.txt")
    events, error = collect(ClaudeProvider(str(fake.cli)), "Fix the bug", fake.options())
    assert error is None
    types = [e.type for e in events]
    assert types[0] is EventType.SYSTEM and types[-1] is EventType.RESULT and types.count(EventType.RESULT) == 1
    assert [e.metadata["tool"] for e in events if e.type is EventType.TOOL_USE] == ["Bash", "Write", "StructuredOutput"]
    assert sum(e.type is EventType.TOOL_RESULT for e in events) == 3
    assert (fake.worktree / "notes" / "hello.txt").read_text().startswith("written by the fake claude")
    result = events[-1]
    assert result.metadata["routingDecision"] == "approved"
    assert result.metadata["report"] == {"decision": "approved", "summary": "fake claude did the work"}
    assert result.content == "All done."
    counter = TokenCounter()  # fed exactly as the runtime feeds it
    for e in events:
        if e.type is EventType.USAGE or (e.type is EventType.RESULT and "usage" in e.metadata):
            counter.feed(e.metadata)
    assert counter.total == 450 and counter.cost_usd == pytest.approx(0.0042)


def test_session_is_hermetic_in_the_worktree_with_the_phase_settings(fake: FakeClaude) -> None:
    settings = {"permission_mode": "acceptEdits", "max_turns": 7}
    options = fake.options(
        model="claude-test",
        system_prompt="Be terse.",
        settings=settings,
        context=("<upstream>plan</upstream>",),
        tools=ToolPolicy(deny=("WebFetch",)),
    )
    _, error = collect(ClaudeProvider(str(fake.cli)), "Implement it", options)
    assert error is None
    call = fake.invocation()
    argv = call["argv"]
    assert Path(call["cwd"]).resolve() == fake.worktree.resolve()
    assert "--setting-sources=" in argv
    pairs = {argv[i]: argv[i + 1] for i in range(len(argv) - 1)}
    assert pairs["--permission-mode"] == "acceptEdits"
    assert pairs["--max-turns"] == "7" and pairs["--model"] == "claude-test"
    assert "--allowedTools" not in pairs and pairs["--disallowedTools"] == "WebFetch"
    assert pairs["--append-system-prompt"] == "Be terse."
    assert json.loads(pairs["--json-schema"])["properties"]["decision"]["enum"] == list(DECISIONS)
    prompt = next(e for e in fake.entries() if e.get("type") == "user")["message"]["content"]
    assert prompt.index("<upstream>plan</upstream>") < prompt.index("Implement it") < prompt.index("changes_requested")


def test_the_attempts_lease_marker_reaches_the_cli_whatever_the_process_environment_says(fake: FakeClaude) -> None:
    fake.monkeypatch.setenv("ALPHRED_LEASE_OWNER", "another-run-in-this-worker")
    options = fake.options(environment={"ALPHRED_LEASE_OWNER": "this-run"})
    _, error = collect(ClaudeProvider(str(fake.cli)), "go", options)
    assert error is None and fake.invocation()["marker"] == "this-run"


def test_default_permission_mode_is_bypass_inside_the_worktree(fake: FakeClaude) -> None:
    events, error = collect(ClaudeProvider(str(fake.cli)), "go", fake.options())
    assert error is None
    argv = fake.invocation()["argv"]
    assert argv[argv.index("--permission-mode") + 1] == "bypassPermissions"
    assert events[0].metadata["permissionMode"] == "bypassPermissions"


def test_cli_path_comes_from_the_environment(fake: FakeClaude) -> None:
    fake.monkeypatch.setenv("ALPHRED_CLAUDE_CLI", str(fake.cli))
    fake.scenario("ok", FAKE_CLAUDE_DECISION="changes_requested")
    events, error = collect(ClaudeProvider(), "go", fake.options())
    assert error is None and fake.invocation()["argv"]
    assert events[-1].metadata["routingDecision"] == "changes_requested"


def test_null_structured_output_is_a_missing_decision_never_a_success_with_one(fake: FakeClaude) -> None:
    fake.scenario("no_decision")
    events, error = collect(ClaudeProvider(str(fake.cli)), "go", fake.options())
    assert error is None
    assert events[-1].metadata["routingDecision"] is None and "report" not in events[-1].metadata
    assert any("no routing decision" in e.content for e in events if e.type is EventType.SYSTEM)


def test_without_decisions_no_schema_is_requested(fake: FakeClaude) -> None:
    events, error = collect(ClaudeProvider(str(fake.cli)), "go", fake.options(decisions=()))
    assert error is None and "--json-schema" not in fake.invocation()["argv"]
    assert events[-1].metadata["routingDecision"] is None


def test_not_logged_in_is_an_auth_failure_that_is_not_retried(fake: FakeClaude) -> None:
    fake.scenario("auth_error")
    events, error = collect(ClaudeProvider(str(fake.cli)), "go", fake.options())
    assert error is not None
    assert (error.kind, error.retryable, error.code) == ("auth", False, "CLAUDE_AUTH")
    assert "Not logged in" in error.message and "ANTHROPIC_API_KEY" in error.message
    assert not any(e.type is EventType.RESULT for e in events)
    assert any(e.type is EventType.USAGE and "usage" in e.metadata for e in events)  # the failed session's cost


def test_an_auth_failure_the_cli_keeps_retrying_fails_at_once(fake: FakeClaude) -> None:
    fake.scenario("api_retry_auth", FAKE_CLAUDE_HANG="30")
    events, error = collect(ClaudeProvider(str(fake.cli)), "go", fake.options())
    assert not any("slept" in e for e in fake.entries())  # stopped, not waited for: its 30 s never ran out
    assert error is not None and (error.kind, error.retryable, error.code) == ("auth", False, "CLAUDE_AUTH")
    assert "HTTP 401" in error.message and "ANTHROPIC_API_KEY" in error.message
    assert [e.metadata.get("subtype") for e in events] == ["init", "api_retry"]
    assert not alive(fake.invocation()["pid"])


@pytest.mark.parametrize(
    ("scenario", "kind", "retryable", "code", "words"),
    [
        ("rate_limit", "rate_limit", True, "CLAUDE_RATE_LIMIT", "429"),
        ("crash", "internal", True, "CLAUDE_CRASH", "simulated crash"),
        ("bad_json", "internal", True, "CLAUDE_BAD_OUTPUT", "oops"),
        ("max_turns", "internal", True, "CLAUDE_MAX_TURNS", "max_turns"),
        ("root_refusal", "invalid_request", False, "CLAUDE_ROOT_BYPASS", "IS_SANDBOX=1"),
    ],
)
def test_failures_are_classified_with_deterministic_codes(
    fake: FakeClaude, scenario: str, kind: str, retryable: bool, code: str, words: str
) -> None:
    fake.scenario(scenario)
    _, error = collect(ClaudeProvider(str(fake.cli)), "go", fake.options())
    assert error is not None
    assert (error.kind, error.retryable, error.code) == (kind, retryable, code)
    assert words in error.message


def test_a_hung_cli_is_stopped_promptly_when_the_stream_is_closed(fake: FakeClaude) -> None:
    fake.scenario("hang", FAKE_CLAUDE_HANG="30")

    async def go() -> EventType:
        stream = ClaudeProvider(str(fake.cli)).run("go", fake.options())
        assert isinstance(stream, AsyncIterator)
        first = await anext(stream)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(anext(stream), 0.3)  # what the runtime's idle_timeout does
        await stream.aclose()  # type: ignore[attr-defined]
        return first.type

    first = asyncio.run(go())
    assert first is EventType.SYSTEM
    assert not any("slept" in e for e in fake.entries())  # stopped when closed: its 30 s hang never ran out
    pid = fake.invocation()["pid"]
    assert not alive(pid)


def test_setting_the_cancel_event_interrupts_the_session(fake: FakeClaude) -> None:
    fake.scenario("interrupt")

    async def go() -> ProviderError:
        cancel = asyncio.Event()
        with pytest.raises(ProviderError) as caught:
            async for event in ClaudeProvider(str(fake.cli)).run("go", fake.options(cancel=cancel)):
                if event.type is EventType.TOOL_RESULT:
                    cancel.set()
        return caught.value

    error = asyncio.run(go())
    assert (error.code, error.retryable) == ("CLAUDE_INTERRUPTED", False)
    requests = [e["request"]["subtype"] for e in fake.entries() if e.get("type") == "control_request"]
    assert requests == ["initialize", "interrupt"]


def test_bypass_as_root_without_sandbox_is_refused_before_the_cli_starts(fake: FakeClaude) -> None:
    fake.monkeypatch.setattr(claude_module, "_euid", lambda: 0)
    fake.monkeypatch.delenv("IS_SANDBOX")
    provider = ClaudeProvider(str(fake.cli))
    _, error = collect(provider, "go", fake.options())
    assert error is not None and error.code == "CLAUDE_ROOT_BYPASS" and not error.retryable
    assert not fake.log.exists()
    assert not provider.check_phase({}).ready
    assert provider.check_phase({"permission_mode": "acceptEdits"}).ready
    assert not provider.check_phase({"permission_mode": "acceptEdits", "max_turns": 0}).ready
    _, error = collect(provider, "go", fake.options(settings={"permission_mode": "yolo"}))
    assert error is not None and error.code == "CLAUDE_BAD_SETTINGS" and "permission_mode" in error.message


def test_a_missing_cli_is_a_deterministic_not_found_error(fake: FakeClaude, tmp_path: Path) -> None:
    _, error = collect(ClaudeProvider(str(tmp_path / "no-such-claude")), "go", fake.options())
    assert error is not None and (error.code, error.kind, error.retryable) == (
        "CLAUDE_NOT_FOUND",
        "invalid_request",
        False,
    )


def test_root_bypass_rule() -> None:
    assert root_bypass_problem("bypassPermissions", 0, {}) is not None
    assert root_bypass_problem("bypassPermissions", 0, {"IS_SANDBOX": "1"}) is None
    assert root_bypass_problem("bypassPermissions", 1000, {}) is None
    assert root_bypass_problem("acceptEdits", 0, {}) is None


def test_contract_wrapper_passes_a_good_stream_through_unchanged(fake: FakeClaude) -> None:
    plain, _ = collect(ClaudeProvider(str(fake.cli)), "go", fake.options())
    wrapped, error = collect(checked(ClaudeProvider(str(fake.cli))), "go", fake.options())
    assert error is None
    assert [(e.type, e.content) for e in wrapped] == [(e.type, e.content) for e in plain]


def test_preflight_reports_missing_cli_and_credentials_with_the_fix(
    fake: FakeClaude, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in (*claude_module.CREDENTIAL_VARS, *claude_module.CLOUD_VARS, "CLAUDE_CONFIG_DIR"):
        monkeypatch.delenv(var, raising=False)
    provider = ClaudeProvider(str(fake.cli))
    missing = provider.check()
    assert not missing.ready and "ANTHROPIC_API_KEY" in missing.detail and "claude /login" in missing.detail
    (home / ".claude").mkdir()
    (home / ".claude" / ".credentials.json").write_text("{}")
    assert provider.check().ready
    monkeypatch.setenv("ALPHRED_CLAUDE_CLI", str(tmp_path / "nowhere"))
    no_cli = ClaudeProvider().check()
    assert not no_cli.ready and "ALPHRED_CLAUDE_CLI" in no_cli.detail


def test_credentials_sources() -> None:
    nowhere = Path("/nonexistent-home")
    assert credentials_source({"ANTHROPIC_API_KEY": "k"}, nowhere) == "ANTHROPIC_API_KEY"
    assert credentials_source({"CLAUDE_CODE_OAUTH_TOKEN": "t"}, nowhere) == "CLAUDE_CODE_OAUTH_TOKEN"
    assert credentials_source({"CLAUDE_CODE_USE_BEDROCK": "1"}, nowhere) == "CLAUDE_CODE_USE_BEDROCK"
    assert credentials_source({"CLAUDE_CODE_USE_BEDROCK": "0"}, nowhere) is None


def test_cli_start_and_provider_preflight_do_not_import_the_sdk() -> None:
    code = (
        "import sys\n"
        "from alphred.cli import app\n"
        "from alphred.providers import default_registry\n"
        "registry = default_registry()\n"
        "[registry.resolve(n).check() for n in registry.names]\n"
        "assert 'claude_agent_sdk' not in sys.modules and 'openai' not in sys.modules, 'SDK imported'\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


# --- the real Claude Code CLI (bundled in the SDK wheel) against a local fake Anthropic Messages API -------


class _Messages(BaseHTTPRequestHandler):
    """Turn 1: a Write tool call; turn 2: the StructuredOutput call; then text. ``status`` != 200 fails all."""

    status = 200
    requests = 0  # POSTs answered (the fixture makes a subclass per test)

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        type(self).requests += 1
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        if self.status != 200:
            payload = json.dumps({"type": "error", "error": {"type": "authentication_error", "message": "bad key"}})
            self.send_response(self.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload.encode())
            return
        done = sum(
            1
            for m in body["messages"]
            if m["role"] == "user" and isinstance(m["content"], list)
            for b in m["content"]
            if b.get("type") == "tool_result"
        )
        block: dict[str, Any] = {"type": "text", "text": "done"}
        arguments: dict[str, Any] | None = None
        if done == 0:
            block = {"type": "tool_use", "id": "toolu_w", "name": "Write", "input": {}}
            arguments = {"file_path": "hello.txt", "content": "hi from claude\n"}
        elif done == 1:
            block = {"type": "tool_use", "id": "toolu_s", "name": "StructuredOutput", "input": {}}
            arguments = {"decision": "approved", "summary": "wrote hello.txt"}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(arguments)} if arguments else None
        message: dict[str, Any] = {
            "id": f"msg_{done}",
            "type": "message",
            "role": "assistant",
            "model": "claude-fake",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 7, "output_tokens": 1},
        }
        events: list[tuple[str, dict[str, Any]]] = [
            ("message_start", {"type": "message_start", "message": message}),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
            *([("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta})] if delta else []),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "usage": {"output_tokens": 5},
                               "delta": {"stop_reason": "tool_use" if delta else "end_turn", "stop_sequence": None}}),
            ("message_stop", {"type": "message_stop"}),
        ]  # fmt: skip
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for name, data in events:
            self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
        self.wfile.flush()


@pytest.fixture
def real_claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[type[_Messages], Path]]:
    """The real CLI's environment: a fake Messages API on 127.0.0.1, a scratch HOME, no side traffic."""
    monkeypatch.delenv("ALPHRED_CLAUDE_CLI", raising=False)
    cli, _ = claude_module.find_cli()
    if cli is None:
        pytest.skip("no Claude Code CLI installed")
    handler = type("Messages", (_Messages,), {})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    home = tmp_path / "home"
    home.mkdir()
    worktree = tmp_path / "worktree"
    worktree.mkdir()
    for var in (*claude_module.CREDENTIAL_VARS, *claude_module.CLOUD_VARS, "CLAUDE_CONFIG_DIR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://127.0.0.1:{server.server_address[1]}")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "fake-key")
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
    monkeypatch.setenv("IS_SANDBOX", "1")
    yield handler, worktree
    server.shutdown()
    server.server_close()


def test_real_claude_code_cli_edits_the_worktree_and_returns_the_structured_decision(
    real_claude: tuple[type[_Messages], Path],
) -> None:
    _, worktree = real_claude
    options = ProviderOptions(worktree, "implement", 1, model="claude-fake", decisions=DECISIONS)
    events, error = collect(ClaudeProvider(), "Write hello.txt, then approve.", options)
    assert error is None, error
    assert (worktree / "hello.txt").read_text() == "hi from claude\n"
    assert [e.metadata["tool"] for e in events if e.type is EventType.TOOL_USE] == ["Write", "StructuredOutput"]
    assert events[-1].metadata["routingDecision"] == "approved"
    assert events[-1].metadata["report"] == {"decision": "approved", "summary": "wrote hello.txt"}


def test_real_claude_code_cli_with_a_rejected_key_fails_fast_as_auth(real_claude: tuple[type[_Messages], Path]) -> None:
    handler, worktree = real_claude
    handler.status = 401
    _, error = collect(ClaudeProvider(), "hi", ProviderOptions(worktree, "implement", 1, model="claude-fake"))
    assert error is not None and (error.kind, error.code, error.retryable) == ("auth", "CLAUDE_AUTH", False)
    # The CLI alone retries a 401 ten times, for minutes (measured with Claude Code 2.1: 11 requests over 182 s, the
    # delay doubling from 0.5 s); the provider stops it at the first retry, long before that budget runs out.
    assert handler.requests < 11, handler.requests


def test_an_allow_list_offers_only_its_tools_and_refuses_the_rest(fake: FakeClaude) -> None:
    policy = ToolPolicy(allow=("Read", "Bash(pytest:*)", "mcp__issues__get"), deny=("WebFetch",))
    options = fake.options(settings={"permission_mode": "bypassPermissions"}, tools=policy)
    _, error = collect(ClaudeProvider(str(fake.cli)), "go", options)
    assert error is None
    argv = fake.invocation()["argv"]
    pairs = {argv[i]: argv[i + 1] for i in range(len(argv) - 1)}
    assert pairs["--permission-mode"] == "dontAsk"  # every tool the allow-list does not cover: refused
    assert pairs["--tools"] == "Read,Bash"
    assert pairs["--allowedTools"] == "Read,Bash(pytest:*),mcp__issues__get"
    assert pairs["--disallowedTools"] == "WebFetch"
    assert pairs["--permission-prompt-tool"] == "stdio"  # the can_use_tool callback answers any question


def test_the_permission_callback_follows_the_rules() -> None:
    assert rule_permits("Bash(pytest:*)", "Bash", {"command": "pytest -q"})
    assert not rule_permits("Bash(pytest:*)", "Bash", {"command": "pytestx; rm -rf /"})
    assert not rule_permits("Bash(pytest:*)", "Read", {})
    assert rule_permits("mcp__issues", "mcp__issues__get", {})
    assert not rule_permits("mcp__issues", "mcp__issuesx__get", {})
    decide = tool_settings(ToolPolicy(allow=("Read", "Bash(git status)"), deny=("Bash(git status)",)))["can_use_tool"]
    import asyncio

    from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

    assert isinstance(asyncio.run(decide("Read", {}, None)), PermissionResultAllow)
    assert isinstance(asyncio.run(decide("Write", {}, None)), PermissionResultDeny)
    assert isinstance(asyncio.run(decide("Bash", {"command": "git status"}, None)), PermissionResultDeny)


def test_mcp_servers_reach_the_cli_in_a_file_removed_before_the_first_turn(fake: FakeClaude) -> None:
    servers = TWO_MCP_SERVERS
    secrets = {"issues": {"GH_TOKEN": "ghs-secret-value"}, "web": {"W_TOKEN": "web-secret-value"}}
    _, error = collect(ClaudeProvider(str(fake.cli)), "go", fake.options(mcp=servers, mcp_env=secrets))
    assert error is None
    argv = fake.invocation()["argv"]
    assert not any("secret-value" in arg for arg in argv)  # never on a command line
    assert "--strict-mcp-config" in argv
    config = Path(argv[argv.index("--mcp-config") + 1])
    assert not config.exists()  # removed once the CLI started
    seen = fake.invocation().get("mcp_config")
    assert seen is not None, "the fake CLI records the file it was given"
    issues, web = seen["mcpServers"]["issues"], seen["mcpServers"]["web"]
    assert issues["command"] == "env" and issues["args"][:2] == ["-C", str(fake.worktree / "tools")]
    assert issues["args"][2:] == ["python", "-m", "srv"] and issues["env"] == {"GH_TOKEN": "ghs-secret-value"}
    assert web == {
        "type": "http",
        "url": "http://127.0.0.1:9/mcp",
        "headers": {"Authorization": "Bearer web-secret-value"},
    }


TYPED = {
    "type": "object",
    "required": ["severity", "decision"],
    "properties": {
        "severity": {"enum": ["low", "high"]},
        "decision": {"type": "string", "enum": ["approved", "changes_requested"]},
    },
}


def test_a_typed_phase_asks_for_its_output_schema_and_gets_the_object(fake: FakeClaude) -> None:
    fake.scenario("ok", FAKE_CLAUDE_REPORT='{"severity": "high"}')
    events, error = collect(ClaudeProvider(str(fake.cli)), "Triage", fake.options(output=TYPED))
    assert error is None
    assert json.loads(_flag(fake.invocation()["argv"], "--json-schema")) == TYPED  # SDK output_format
    result = events[-1]
    assert result.metadata["report"] == {"severity": "high", "decision": "approved"}
    assert result.metadata["routingDecision"] == "approved"


def _flag(argv: list[str], name: str) -> str:
    return argv[argv.index(name) + 1]


def test_real_claude_code_cli_refuses_a_tool_its_allow_list_leaves_out(
    real_claude: tuple[type[_Messages], Path],
) -> None:
    handler, worktree = real_claude
    offered: list[list[str]] = []
    answer = handler.do_POST

    def record(self: _Messages) -> None:  # the tools the CLI offers the model, then the scripted answer
        length = int(self.headers.get("Content-Length", 0))
        raw = self.rfile.read(length)
        offered.append([tool.get("name") for tool in json.loads(raw).get("tools", [])])
        self.rfile = io.BytesIO(raw)
        answer(self)

    handler.do_POST = record  # type: ignore[method-assign]
    options = ProviderOptions(
        worktree, "implement", 1, model="claude-fake", decisions=DECISIONS, tools=ToolPolicy(allow=("Read",))
    )
    events, error = collect(ClaudeProvider(), "Write hello.txt, then approve.", options)
    assert error is None, error
    assert not (worktree / "hello.txt").exists()  # Write is not the agent's: refused, nothing written
    assert offered and "Write" not in offered[0] and "Read" in offered[0]
    refused = [e for e in events if e.type is EventType.TOOL_RESULT and e.metadata.get("is_error")]
    assert refused, [e.content for e in events]
    assert events[-1].metadata["routingDecision"] == "approved"  # the structured answer still reaches Alphred
