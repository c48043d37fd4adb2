"""The ``codex`` provider driving a fake ``codex exec --json`` (and the real binary, where one is installed)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import threading
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import alive
from helpers.providers import DECISIONS, TWO_MCP_SERVERS, FakeCodex, collect
from hypothesis import given
from hypothesis import strategies as st

from alphred.engine import TokenCounter
from alphred.errors import ProviderError
from alphred.providers import EventType, ProviderEvent, ProviderOptions
from alphred.providers.codex import CodexProvider, credentials_source, find_codex
from alphred.providers.codex_events import CodexEventMapper
from alphred.workflow import ToolPolicy


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeCodex:
    monkeypatch.delenv("ALPHRED_CODEX_BIN", raising=False)
    found: FakeCodex = FakeCodex.install(tmp_path, monkeypatch, "codex")
    (found.worktree / "README.md").write_text("hello\n")
    return found


def tokens_of(events: list[ProviderEvent]) -> int:
    counter = TokenCounter()  # fed exactly as the runtime feeds it
    for e in events:
        if e.type is EventType.USAGE or (e.type is EventType.RESULT and "usage" in e.metadata):
            counter.feed(e.metadata)
    return counter.total


def test_success_maps_the_jsonl_stream_and_takes_the_decision(fake: FakeCodex) -> None:
    fake.scenario("ok", FAKE_CODEX_FILE="src/new.py")
    events, error = collect(CodexProvider(str(fake.binary)), "Review it", fake.options())
    assert error is None
    assert [e.type for e in events][-1] is EventType.RESULT
    assert sum(e.type is EventType.RESULT for e in events) == 1
    uses = [e for e in events if e.type is EventType.TOOL_USE]
    assert [u.metadata["tool"] for u in uses] == ["shell", "file_change"]
    results = [e for e in events if e.type is EventType.TOOL_RESULT]
    assert results[0].content.startswith("exit 0:") and "README.md" in results[0].content
    assert (fake.worktree / "src" / "new.py").read_text().startswith("written by the fake codex")
    result = events[-1]
    assert result.metadata["routingDecision"] == "approved"
    assert result.metadata["report"]["summary"] == "fake codex reviewed the change"
    assert result.content == "fake codex reviewed the change"
    assert tokens_of(events) == 240


def test_command_line_runs_in_the_worktree_with_stdin_closed(fake: FakeCodex) -> None:
    options = fake.options(model="gpt-test", context=("<upstream>diff</upstream>",))
    _, error = collect(CodexProvider(str(fake.binary)), "Review the diff", options)
    assert error is None
    call = fake.invocation()
    argv = call["argv"]
    assert argv[:2] == ["exec", "--json"] and call["stdin"] == "chr"
    pairs = {argv[i]: argv[i + 1] for i in range(len(argv) - 1)}
    assert Path(pairs["-C"]).resolve() == fake.worktree.resolve() == Path(call["cwd"]).resolve()
    assert pairs["-s"] == "workspace-write" and pairs["-m"] == "gpt-test"
    assert "--output-schema" in argv
    prompt = argv[argv.index("--") + 1]
    assert prompt.index("<upstream>diff</upstream>") < prompt.index("Review the diff") < prompt.index("approved")


def test_the_attempts_lease_marker_reaches_codex_whatever_the_process_environment_says(fake: FakeCodex) -> None:
    fake.monkeypatch.setenv("ALPHRED_LEASE_OWNER", "another-run-in-this-worker")
    options = fake.options(environment={"ALPHRED_LEASE_OWNER": "this-run"})
    _, error = collect(CodexProvider(str(fake.binary)), "Review", options)
    assert error is None and fake.invocation()["marker"] == "this-run"


def test_read_only_sandbox_blocks_edits_yet_the_turn_completes(fake: FakeCodex) -> None:
    fake.scenario("ok", FAKE_CODEX_FILE="blocked.txt")
    events, error = collect(CodexProvider(str(fake.binary)), "go", fake.options(settings={"sandbox": "read-only"}))
    assert error is None and not (fake.worktree / "blocked.txt").exists()
    assert any(e.metadata.get("status") == "failed" for e in events if e.type is EventType.TOOL_RESULT)
    assert any("Read-only file system" in e.content for e in events if e.type is EventType.SYSTEM)


def test_decisions_come_from_the_output_schema_answer(fake: FakeCodex) -> None:
    fake.scenario("ok", FAKE_CODEX_DECISION="changes_requested")
    events, _ = collect(CodexProvider(str(fake.binary)), "go", fake.options())
    assert events[-1].metadata["routingDecision"] == "changes_requested"
    fake.scenario("no_decision")
    events, error = collect(CodexProvider(str(fake.binary)), "go", fake.options())
    assert error is None and events[-1].metadata["routingDecision"] is None and "report" not in events[-1].metadata
    events, _ = collect(CodexProvider(str(fake.binary)), "go", fake.options(decisions=()))
    assert "--output-schema" not in fake.invocation()["argv"]


@pytest.mark.parametrize(
    ("scenario", "kind", "retryable", "code", "words"),
    [
        ("auth", "auth", False, "CODEX_AUTH", "OPENAI_API_KEY"),
        ("rate_limit", "rate_limit", True, "CODEX_RATE_LIMIT", "429"),
        ("turn_failed", "transport", True, "CODEX_TRANSPORT", "stream disconnected"),
        ("crash", "internal", True, "CODEX_CRASH", "simulated crash"),
    ],
)
def test_failures_are_classified_with_deterministic_codes(
    fake: FakeCodex, scenario: str, kind: str, retryable: bool, code: str, words: str
) -> None:
    fake.scenario(scenario)
    events, error = collect(CodexProvider(str(fake.binary)), "go", fake.options())
    assert error is not None
    assert (error.kind, error.retryable, error.code) == (kind, retryable, code)
    assert words in error.message
    assert not any(e.type is EventType.RESULT for e in events)


def test_a_hung_codex_and_its_children_are_killed_when_the_stream_is_closed(fake: FakeCodex) -> None:
    fake.scenario("hang", FAKE_CODEX_HANG="30")

    async def go() -> None:
        stream = CodexProvider(str(fake.binary)).run("go", fake.options())
        assert isinstance(stream, AsyncIterator)
        assert (await anext(stream)).type is EventType.SYSTEM
        assert (await anext(stream)).type is EventType.SYSTEM
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(anext(stream), 0.5)  # what the runtime's idle_timeout does
        await stream.aclose()  # type: ignore[attr-defined]

    asyncio.run(go())
    assert not any("slept" in e for e in fake.entries())  # killed when closed: its 30 s hang never ran out
    pids = [e["pid"] for e in fake.entries() if "pid" in e] + [e["child"] for e in fake.entries() if "child" in e]
    assert len(pids) == 2 and not any(alive(pid) for pid in pids)


def test_setting_the_cancel_event_stops_codex(fake: FakeCodex) -> None:
    fake.scenario("hang", FAKE_CODEX_HANG="30")

    async def go() -> ProviderError:
        cancel = asyncio.Event()
        with pytest.raises(ProviderError) as caught:
            async for event in CodexProvider(str(fake.binary)).run("go", fake.options(cancel=cancel)):
                if event.content == "codex turn started":
                    cancel.set()
        return caught.value

    error = asyncio.run(go())
    assert (error.code, error.retryable) == ("CODEX_INTERRUPTED", False)
    assert not any("slept" in e for e in fake.entries())  # killed when cancelled: its 30 s hang never ran out


def test_binary_comes_from_the_environment_and_bad_settings_are_refused(fake: FakeCodex, tmp_path: Path) -> None:
    fake.monkeypatch.setenv("ALPHRED_CODEX_BIN", str(fake.binary))
    assert find_codex() == (str(fake.binary), "")
    events, error = collect(CodexProvider(), "go", fake.options())
    assert error is None and events[-1].type is EventType.RESULT
    _, error = collect(CodexProvider(), "go", fake.options(settings={"sandbox": "yolo"}))
    assert error is not None and error.code == "CODEX_BAD_SETTINGS"
    fake.monkeypatch.setenv("ALPHRED_CODEX_BIN", str(tmp_path / "missing"))
    _, error = collect(CodexProvider(), "go", fake.options())
    assert error is not None and (error.code, error.retryable) == ("CODEX_NOT_FOUND", False)
    assert "ALPHRED_CODEX_BIN" in error.message


def test_preflight_reports_missing_credentials_with_the_fix(fake: FakeCodex, tmp_path: Path) -> None:
    home = tmp_path / "codex-home"
    home.mkdir()
    fake.monkeypatch.setenv("CODEX_HOME", str(home))
    for var in ("OPENAI_API_KEY", "CODEX_API_KEY"):
        fake.monkeypatch.delenv(var, raising=False)
    provider = CodexProvider(str(fake.binary))
    missing = provider.check()
    assert not missing.ready and "OPENAI_API_KEY" in missing.detail and "codex login" in missing.detail
    (home / "auth.json").write_text("{}")
    assert provider.check().ready
    assert credentials_source({"CODEX_API_KEY": "k"}, tmp_path) == "CODEX_API_KEY"
    (home / "auth.json").unlink()
    (home / "config.toml").write_text('model_provider = "local"\n')
    assert provider.check().ready


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)
item_types = st.sampled_from(
    [
        "todo_list",
        "command_execution",
        "file_change",
        "mcp_tool_call",
        "web_search",
        "agent_message",
        "reasoning",
        "error",
    ]
)
items = st.fixed_dictionaries(
    {"type": item_types},
    optional={k: json_values for k in ("id", "text", "items", "changes", "status", "error", "arguments", "result")},
)
frames = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            ["item.started", "item.completed", "item.updated", "turn.completed", "turn.failed", "error"]
        )
    },
    optional={"item": items, "usage": json_values, "error": json_values, "message": json_values},
)


@given(st.lists(st.text(max_size=40) | frames.map(json.dumps), max_size=6))
def test_mapper_never_raises_on_any_line(lines: list[str]) -> None:
    mapper = CodexEventMapper(wants_decision=True)
    for line in lines:
        assert all(isinstance(e, ProviderEvent) for e in mapper.line(line))


def test_mapper_keeps_unknown_and_unparsed_lines_as_system_notes() -> None:
    mapper = CodexEventMapper(wants_decision=True)
    lines = [
        "not json at all",
        json.dumps(
            {
                "type": "item.started",
                "item": {"id": "i1", "type": "todo_list", "items": [{"text": "a", "completed": False}]},
            }
        ),
        json.dumps(
            {
                "type": "item.started",
                "item": {"id": "i2", "type": "mcp_tool_call", "server": "s", "tool": "t", "arguments": {}},
            }
        ),
        json.dumps(
            {
                "type": "item.completed",
                "item": {
                    "id": "i2",
                    "type": "mcp_tool_call",
                    "server": "s",
                    "tool": "t",
                    "error": {"message": "boom"},
                    "status": "failed",
                },
            }
        ),
        json.dumps({"type": "something.new"}),
    ]
    events = [e for line in lines for e in mapper.line(line)]
    assert [e.type for e in events] == [
        EventType.SYSTEM,
        EventType.SYSTEM,
        EventType.TOOL_USE,
        EventType.TOOL_RESULT,
        EventType.SYSTEM,
    ]
    assert events[0].metadata["unparsed"] and events[3].content == "error: boom"
    with pytest.raises(ProviderError) as caught:
        mapper.finish(0, [])
    assert caught.value.code == "NO_RESULT"


# --- the real Codex CLI against a local fake Responses API (only where a codex binary is installed) ---------


class _Responses(BaseHTTPRequestHandler):
    """Turn 1: an ``exec_command`` call writing a file; once its output comes back: the JSON decision."""

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        done = any(i.get("type") == "function_call_output" for i in body.get("input", []))
        if done:
            text = json.dumps({"decision": "approved", "summary": "wrote the file"})
            item: dict[str, Any] = {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }
        else:
            arguments = json.dumps({"cmd": "echo hello > codex_was_here.txt"})
            item = {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "call_1",
                "name": "exec_command",
                "arguments": arguments,
                "status": "completed",
            }
        usage = {
            "input_tokens": 10,
            "output_tokens": 5,
            "total_tokens": 15,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        }
        final = {
            "id": "resp_1",
            "object": "response",
            "created_at": 0,
            "model": "fake",
            "status": "completed",
            "output": [item],
            "usage": usage,
        }
        events: list[tuple[str, dict[str, Any]]] = [
            ("response.created", {"response": dict(final, status="in_progress", output=[])}),
            ("response.output_item.done", {"output_index": 0, "item": item}),
            ("response.completed", {"response": final}),
        ]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for n, (kind, data) in enumerate(events):
            self.wfile.write(
                f"event: {kind}\ndata: {json.dumps(dict(data, type=kind, sequence_number=n))}\n\n".encode()
            )
        self.wfile.flush()


def _real_codex() -> str | None:
    configured = os.environ.get("ALPHRED_TEST_CODEX_BIN")
    if configured:
        return configured
    os.environ.pop("ALPHRED_CODEX_BIN", None)
    binary, _ = find_codex()
    return binary or shutil.which("codex")


@pytest.fixture
def responses_server() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Responses)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.mark.optional("codex")
def test_real_codex_binary_against_a_local_fake_responses_api(
    responses_server: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    binary = _real_codex()
    if binary is None:
        pytest.skip("no real codex binary installed (pip install 'alphred[codex]' or set ALPHRED_TEST_CODEX_BIN)")
    home = tmp_path / "codex-home"
    home.mkdir()
    (home / "config.toml").write_text(
        'model_provider = "fake"\n[model_providers.fake]\nname = "fake"\n'
        f'base_url = "http://127.0.0.1:{responses_server}/v1"\nwire_api = "responses"\n'
        'env_key = "FAKE_OPENAI_KEY"\nrequest_max_retries = 0\nstream_max_retries = 0\n'
    )
    worktree = tmp_path / "worktree"
    worktree.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(home))
    monkeypatch.setenv("FAKE_OPENAI_KEY", "fake-key")
    provider = CodexProvider(binary)
    assert provider.check().ready
    options = ProviderOptions(worktree, "review", 1, model="fake-model", decisions=DECISIONS, timeout=60)
    events, error = collect(provider, "Write a file, then approve.", options)
    assert error is None, error
    assert (worktree / "codex_was_here.txt").read_text() == "hello\n"
    assert any(e.type is EventType.TOOL_USE and "codex_was_here.txt" in e.content for e in events)
    assert events[-1].metadata["routingDecision"] == "approved"
    assert tokens_of(events) == 30


def test_mcp_servers_and_mcp_tool_filters_become_config_overrides_without_secrets(fake: FakeCodex) -> None:
    servers = TWO_MCP_SERVERS
    options = fake.options(
        mcp=servers,
        mcp_env={"issues": {"GH_TOKEN": "ghs-secret-value"}, "web": {"W_TOKEN": "web-secret-value"}},
        tools=ToolPolicy(deny=("mcp__issues__delete", "mcp__web")),
    )
    _, error = collect(CodexProvider(str(fake.binary)), "go", options)
    assert error is None
    argv = fake.invocation()["argv"]
    assert not any("secret-value" in arg for arg in argv)
    overrides = [argv[i + 1] for i, arg in enumerate(argv) if arg == "-c"]
    assert 'mcp_servers.issues.command="python"' in overrides
    assert 'mcp_servers.issues.args=["-m", "srv"]' in overrides
    assert f'mcp_servers.issues.cwd="{fake.worktree / "tools"}"' in overrides
    assert 'mcp_servers.issues.env_vars=["GH_TOKEN"]' in overrides
    assert 'mcp_servers.web.url="http://127.0.0.1:9/mcp"' in overrides
    assert 'mcp_servers.web.bearer_token_env_var="W_TOKEN"' in overrides
    assert "mcp_servers.web.enabled=false" in overrides
    assert 'mcp_servers.issues.disabled_tools=["delete"]' in overrides
    assert 'shell_environment_policy.exclude=["GH_TOKEN", "W_TOKEN"]' in overrides


def test_codex_refuses_a_list_of_its_own_tools(fake: FakeCodex) -> None:
    _, error = collect(CodexProvider(str(fake.binary)), "go", fake.options(tools=ToolPolicy(allow=("shell",))))
    assert error is not None and error.code == "CODEX_BAD_SETTINGS" and "cannot enforce" in error.message


def test_a_typed_phase_gets_its_output_schema_from_a_file_outside_the_worktree(fake: FakeCodex) -> None:
    typed = {
        "type": "object",
        "required": ["files"],
        "properties": {"files": {"type": "array"}, "decision": {"type": "string", "enum": ["approved"]}},
    }
    fake.scenario("ok", FAKE_CODEX_REPORT='{"files": ["a.py"]}')
    events, error = collect(CodexProvider(str(fake.binary)), "Review it", fake.options(output=typed))
    assert error is None
    logged = next(e for e in fake.entries() if "schema" in e)
    assert logged["schema"] == typed
    path = Path(logged["schema_path"])
    assert not path.is_relative_to(fake.worktree) and not path.exists()  # a scratch file, gone after the attempt
    assert events[-1].metadata["report"] == {"files": ["a.py"], "decision": "approved"}
