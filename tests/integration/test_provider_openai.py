"""The ``openai`` provider through the real ``openai`` client against a fake OpenAI-compatible server."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers import providers
from helpers.processes import alive, wait_gone
from hypothesis import given, settings
from hypothesis import strategies as st

from alphred.engine import TokenCounter
from alphred.errors import ProviderError
from alphred.providers import EventType, ProviderEvent, ProviderOptions
from alphred.providers.openai import OpenAIProvider

pytest.importorskip("openai")

ROOT = Path(__file__).resolve().parents[2]

DECISIONS = ("approved", "changes_requested")
APIS = ("responses", "chat")
PATHS = {"responses": "/responses", "chat": "/chat/completions"}


@pytest.fixture
def worktree(tmp_path: Path) -> Path:
    root = tmp_path / "worktree"
    root.mkdir()
    (root / "README.md").write_text("# project\nhello world\n")
    return root


def options(worktree: Path, server: Any, api: str = "responses", **settings: Any) -> ProviderOptions:
    model = settings.pop("model", "m")
    cancel = settings.pop("cancel", None)
    return ProviderOptions(
        working_directory=worktree,
        phase="implement",
        attempt=1,
        model=model,
        decisions=DECISIONS,
        settings={"base_url": server.url, "api": api, **settings},
        cancel=cancel,
    )


def provider(**kw: Any) -> OpenAIProvider:
    return OpenAIProvider(env={"OPENAI_API_KEY": "sk-test"}, **kw)


def collect(prov: OpenAIProvider, opts: ProviderOptions) -> tuple[list[ProviderEvent], ProviderError | None]:
    return providers.collect(prov, "Do the work.", opts)


def tokens_and_cost(events: list[ProviderEvent]) -> tuple[int, float]:
    counter = TokenCounter()  # fed exactly as the runtime feeds it
    for e in events:
        if e.type is EventType.USAGE or (e.type is EventType.RESULT and "usage" in e.metadata):
            counter.feed(e.metadata)
    return counter.total, counter.cost_usd


def results(events: list[ProviderEvent]) -> list[str]:
    return [e.content for e in events if e.type is EventType.TOOL_RESULT]


def finish(decision: str = "approved", report: Any = "all done") -> dict[str, Any]:
    return {"calls": [{"name": "finish", "arguments": {"decision": decision, "report": report}}]}


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"calls": [{"name": name, "arguments": arguments}]}


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "no-stream"])
@pytest.mark.parametrize("api", APIS)
def test_every_tool_works_on_both_apis(server: Any, worktree: Path, api: str, stream: bool) -> None:
    server.script(
        "m",
        [
            {"text": "Let me look.", **call("list_files")},
            call("read_file", path="README.md", offset=2, limit=1),
            call("write_file", path="src/new.py", content="print('hi')\n"),
            call("edit_file", path="README.md", old="hello world", new="hello there"),
            call("shell", command="cat README.md src/new.py; echo to-stderr >&2; exit 3"),
            finish("approved", {"summary": "edited", "files": 2}),
        ],
    )
    events, error = collect(provider(stream=stream), options(worktree, server, api))
    assert error is None
    assert (worktree / "src" / "new.py").read_text() == "print('hi')\n"
    assert (worktree / "README.md").read_text() == "# project\nhello there\n"
    out = results(events)
    assert out[0] == "README.md"
    assert out[1] == "     2\thello world"
    assert out[2] == "wrote 12 bytes to src/new.py" and out[3] == "edited README.md: 1 occurrence replaced"
    assert out[4] == "exit code 3\n# project\nhello there\nprint('hi')\nto-stderr"
    kinds = [e.type for e in events]
    assert kinds[0] is EventType.SYSTEM and kinds[1] is EventType.ASSISTANT and events[1].content == "Let me look."
    assert kinds.count(EventType.USAGE) == 6 and kinds.count(EventType.TOOL_USE) == 6 and kinds[-1] is EventType.RESULT
    result = events[-1]
    assert result.metadata["routingDecision"] == "approved"
    assert result.metadata["report"] == {"summary": "edited", "files": 2}
    assert tokens_and_cost(events) == (6 * 120, 0.0)
    bodies = server.bodies(PATHS[api])
    assert len(bodies) == 6 and all(bool(b.get("stream")) is stream for b in bodies)
    tools = bodies[0]["tools"]
    names = [t["name"] if api == "responses" else t["function"]["name"] for t in tools]
    assert names == ["shell", "read_file", "write_file", "edit_file", "list_files", "finish"]
    finish_spec = tools[-1]["parameters"] if api == "responses" else tools[-1]["function"]["parameters"]
    assert finish_spec["properties"]["decision"]["enum"] == list(DECISIONS)
    last = json.dumps(bodies[-1])
    assert "exit code 3" in last and "to-stderr" in last  # the shell's output went back to the model
    if api == "chat":
        assert bodies[0]["stream_options"] == {"include_usage": True} if stream else "stream_options" not in bodies[0]


def test_string_report_and_system_prompt_and_key(server: Any, worktree: Path) -> None:
    server.script("m", [finish("changes_requested", "needs tests")])
    events, error = collect(provider(), options(worktree, server, system_prompt="Be careful."))
    assert error is None
    result = events[-1]
    assert result.content == "needs tests" and "report" not in result.metadata
    assert result.metadata["routingDecision"] == "changes_requested"
    request = server.requests[0]
    assert request["body"]["instructions"] == "Be careful."
    assert {k.lower(): v for k, v in request["headers"].items()}["authorization"] == "Bearer sk-test"
    server.script("c", [finish()])
    collect(provider(), options(worktree, server, "chat", model="c", system_prompt="Be careful."))
    assert server.bodies("/chat/completions")[0]["messages"][0] == {"role": "system", "content": "Be careful."}


def test_api_key_env_names_the_variable_and_none_sends_no_real_key(server: Any, worktree: Path) -> None:
    server.script("m", [finish()])
    prov = OpenAIProvider(env={"OPENAI_API_KEY": "", "MY_KEY": "sk-mine"})
    assert collect(prov, options(worktree, server, api_key_env="MY_KEY"))[1] is None
    assert collect(prov, options(worktree, server, api_key_env="none"))[1] is None
    auth = [{k.lower(): v for k, v in r["headers"].items()}["authorization"] for r in server.requests]
    assert auth == ["Bearer sk-mine", "Bearer no-key"]
    _events, error = collect(prov, options(worktree, server))
    assert error is not None and error.code == "OPENAI_NO_KEY" and error.kind == "auth" and not error.retryable
    assert "OPENAI_API_KEY" in error.message and len(server.requests) == 2


@pytest.mark.parametrize("api", APIS)
def test_an_answer_without_a_tool_call_ends_the_phase_without_a_decision(server: Any, worktree: Path, api: str) -> None:
    server.script("m", [{"text": "I think it is fine."}])
    events, error = collect(provider(), options(worktree, server, api))
    assert error is None
    assert events[-1].content == "I think it is fine." and events[-1].metadata["routingDecision"] is None


@pytest.mark.parametrize(
    "given",
    ["../outside.txt", "src/../../outside.txt", "/etc/passwd", "ABSOLUTE", "link-out/secret.txt", "file-link"],
)
def test_paths_outside_the_worktree_are_refused_and_never_followed(
    server: Any, worktree: Path, tmp_path: Path, given: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    (tmp_path / "outside.txt").write_text("outside\n")
    (worktree / "link-out").symlink_to(outside, target_is_directory=True)
    (worktree / "file-link").symlink_to(outside / "secret.txt")
    path = str(outside / "secret.txt") if given == "ABSOLUTE" else given
    server.script(
        "m",
        [
            call("read_file", path=path),
            call("write_file", path=path, content="pwned"),
            call("edit_file", path=path, old="secret", new="pwned"),
            call("list_files", path=path),
            finish(),
        ],
    )
    events, error = collect(provider(), options(worktree, server))
    assert error is None
    out = results(events)[:4]
    assert all(o.startswith("error: ") for o in out), out
    assert all(("outside the worktree" in o) or ("absolute path" in o) for o in out), out
    assert (outside / "secret.txt").read_text() == "secret\n" and (tmp_path / "outside.txt").read_text() == "outside\n"
    assert all(e.metadata.get("is_error") for e in events if e.type is EventType.TOOL_RESULT and "error:" in e.content)


def test_symlinks_inside_the_worktree_and_dotdot_that_stays_inside_are_fine(server: Any, worktree: Path) -> None:
    (worktree / "docs").mkdir()
    (worktree / "alias.md").symlink_to(worktree / "README.md")
    server.script("m", [call("read_file", path="alias.md"), call("read_file", path="docs/../README.md"), finish()])
    events, _ = collect(provider(), options(worktree, server))
    assert results(events)[:2] == ["     1\t# project\n     2\thello world"] * 2


@pytest.mark.parametrize("api", APIS)
def test_bad_calls_get_a_tool_error_and_the_loop_goes_on(server: Any, worktree: Path, api: str) -> None:
    server.script(
        "m",
        [
            call("delete_everything", path="."),
            {"calls": [{"name": "shell", "arguments": "{not json"}]},
            {"calls": [{"name": "shell", "arguments": "[1, 2]"}]},
            call("write_file", path="a.txt"),
            call("edit_file", path="README.md", old="nowhere", new="x"),
            call("edit_file", path="README.md", old="o", new="0"),
            call("read_file", path="missing.txt"),
            call("read_file", path="README.md", offset=0),
            call("shell", command="true", timeout_s="soon"),
            finish("shipped"),
            {"calls": [{"name": "finish", "arguments": {"report": "no decision"}}]},
            finish("approved"),
        ],
    )
    events, error = collect(provider(), options(worktree, server, api))
    assert error is None and events[-1].metadata["routingDecision"] == "approved"
    out = results(events)
    assert len(out) == 12 and all(o.startswith("error: ") for o in out[:11])
    assert "unknown tool 'delete_everything'" in out[0] and "shell, read_file" in out[0]
    assert "not valid JSON" in out[1] and "must be a JSON object" in out[2]
    assert "'content' must be a string" in out[3]
    assert "does not occur" in out[4] and "occurs 3 times" in out[5]
    assert "is not a file" in out[6] and "'offset' must be an integer of at least 1" in out[7]
    assert "'timeout_s' must be a positive number" in out[8]
    assert "'shipped'" in out[9] and "approved, changes_requested" in out[9] and "missing" in out[10]
    assert (worktree / "README.md").read_text() == "# project\nhello world\n"


def test_tool_failures_of_any_kind_are_tool_errors(server: Any, worktree: Path) -> None:
    (worktree / "blob.bin").write_bytes(b"\xff\xfe\x00binary")
    (worktree / "docs").mkdir()
    server.script(
        "m",
        [
            call("edit_file", path="blob.bin", old="binary", new="text"),
            {"calls": [{"name": "write_file", "arguments": '{"path": "x.txt", "content": "\\ud800"}'}]},
            call("write_file", path="docs", content="x"),
            call("list_files", path="README.md"),
            finish(),
        ],
    )
    events, error = collect(provider(), options(worktree, server))
    assert error is None and events[-1].metadata["routingDecision"] == "approved"
    out = results(events)[:4]
    assert all(o.startswith("error: ") for o in out), out
    assert "UnicodeDecodeError" in out[0] and "UnicodeEncodeError" in out[1]
    assert "is a directory" in out[2] and "is not a directory" in out[3]
    assert not (worktree / "x.txt").exists() and (worktree / "blob.bin").read_bytes() == b"\xff\xfe\x00binary"


def test_max_turns_fails_the_attempt(server: Any, worktree: Path) -> None:
    server.script("m", [call("shell", command="echo again")])
    events, error = collect(provider(), options(worktree, server, max_turns=3))
    assert error is not None and error.code == "OPENAI_MAX_TURNS" and error.kind == "internal"
    assert len(server.requests) == 3 and "3 turns" in error.message
    assert not any(e.type is EventType.RESULT for e in events)


def test_shell_timeout_kills_the_group_and_output_is_cut_head_and_tail(server: Any, worktree: Path) -> None:
    server.script(
        "m",
        [
            call("shell", command="sleep 30 & echo $! > bg.pid; echo started; sleep 30; echo finished", timeout_s=0.5),
            call("shell", command="printf 'HEAD'; head -c 100000 /dev/zero | tr '\\0' x; printf 'TAIL'"),
            finish(),
        ],
    )
    events, error = collect(provider(), options(worktree, server))
    assert error is None
    timed, big = results(events)[:2]
    assert timed.startswith("timed out after 0.5s") and "started" in timed
    assert "finished" not in timed  # cut at its timeout, not let run its 30 s
    assert not alive(int((worktree / "bg.pid").read_text()))
    sent = server.bodies("/responses")[2]["input"][-1]["output"]
    assert sent.startswith("exit code 0\nHEAD") and sent.endswith("TAIL") and "output cut" in sent
    assert len(sent) < 30_200
    assert len(big) <= 16_100  # the stored event is capped further


@pytest.mark.parametrize(
    ("entry", "kind", "code", "retryable", "retry_after"),
    [
        ({"error": 401}, "auth", "OPENAI_AUTH", False, None),
        ({"error": 403}, "auth", "OPENAI_AUTH", False, None),
        ({"error": 429, "headers": {"retry-after": "7"}}, "rate_limit", "OPENAI_RATE_LIMIT", True, 7.0),
        ({"error": 429, "headers": {"retry-after-ms": "1500"}}, "rate_limit", "OPENAI_RATE_LIMIT", True, 1.5),
        ({"error": 400, "message": "bad tool schema"}, "invalid_request", "OPENAI_INVALID_REQUEST", False, None),
        ({"error": 404}, "invalid_request", "OPENAI_INVALID_REQUEST", False, None),
        ({"error": 500}, "internal", "OPENAI_SERVER_ERROR", True, None),
        ({"error": 503}, "internal", "OPENAI_SERVER_ERROR", True, None),
    ],
)
@pytest.mark.parametrize("api", APIS)
def test_http_errors_are_classified_by_exception_class(
    server: Any,
    worktree: Path,
    api: str,
    entry: dict[str, Any],
    kind: str,
    code: str,
    retryable: bool,
    retry_after: float | None,
) -> None:
    server.script("m", [entry])
    _events, error = collect(provider(), options(worktree, server, api))
    assert error is not None
    assert (error.kind, error.code, error.retryable, error.retry_after) == (kind, code, retryable, retry_after)
    assert f"HTTP {entry['error']}" in error.message and server.url in error.message
    assert len(server.requests) == 1  # the SDK's own retries are off
    if entry.get("message"):
        assert entry["message"] in error.message
    if kind == "auth":
        assert "OPENAI_API_KEY" in error.message


def test_connection_refused_and_timeout_are_retryable(server: Any, worktree: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    refused = options(worktree, server)
    refused = ProviderOptions(**{**refused.__dict__, "settings": {"base_url": f"http://127.0.0.1:{port}/v1"}})
    _, error = collect(provider(), refused)
    assert error is not None and (error.kind, error.code, error.retryable) == ("transport", "OPENAI_CONNECTION", True)
    assert f"127.0.0.1:{port}" in error.message
    server.script("m", [{"stall": 30}])
    _, error = collect(provider(request_timeout=0.5), options(worktree, server))
    assert error is not None and (error.kind, error.code, error.retryable) == ("timeout", "OPENAI_TIMEOUT", True)
    assert server.stalls_ran_out == 0  # the client gave up at its timeout, long before the server's 30 s stall


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "no-stream"])
def test_a_failed_response_is_classified_by_its_error_code(server: Any, worktree: Path, stream: bool) -> None:
    server.script("m", [{"failed": {"code": "rate_limit_exceeded", "message": "slow down"}}])
    _, error = collect(provider(stream=stream), options(worktree, server))
    assert error is not None and (error.kind, error.code, error.retryable) == (
        "rate_limit",
        "OPENAI_RESPONSE_FAILED",
        True,
    )
    assert "slow down" in error.message
    server.script("m2", [{"failed": {"code": "invalid_prompt", "message": "no"}}])
    _, error = collect(provider(stream=stream), options(worktree, server, model="m2"))
    assert error is not None and (error.kind, error.retryable) == ("invalid_request", False)


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        ({"error": 401}, "OPENAI_AUTH"),
        ({"error": 429, "headers": {"retry-after": "3"}}, "OPENAI_RATE_LIMIT"),
        ({"error": 400}, "OPENAI_INVALID_REQUEST"),
        ({"error": 500}, "OPENAI_SERVER_ERROR"),
    ],
)
@pytest.mark.parametrize("api", APIS)
def test_http_errors_without_streaming(server: Any, worktree: Path, api: str, entry: dict[str, Any], code: str) -> None:
    server.script("m", [entry])
    _, error = collect(provider(stream=False), options(worktree, server, api))
    assert error is not None and error.code == code and len(server.requests) == 1
    assert error.retry_after == (3.0 if code == "OPENAI_RATE_LIMIT" else None)
    assert server.requests[0]["body"].get("stream") in (None, False)


@pytest.mark.parametrize("api", APIS)
def test_cancellation_stops_the_stream_in_flight(server: Any, worktree: Path, api: str) -> None:
    server.script("m", [{"stall_midway": 30, "text": "a long answer that never ends " * 5}])

    async def go() -> ProviderError | None:
        cancel = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.call_later(1.0, cancel.set)
        try:
            async for _ in provider().run("go", options(worktree, server, api, cancel=cancel)):
                pass
        except ProviderError as exc:
            return exc
        return None

    error = asyncio.run(go())
    assert error is not None and error.code == "OPENAI_INTERRUPTED" and not error.retryable
    assert server.stalls_ran_out == 0  # stopped in flight, long before the server's 30 s stall ran out


def test_cancellation_and_closing_kill_a_running_shell(server: Any, worktree: Path) -> None:
    server.script("m", [call("shell", command="sleep 60 & echo $! > bg.pid; echo $$ > sh.pid; wait")])

    async def go(close: bool) -> ProviderError | None:
        cancel = asyncio.Event()
        stream = provider().run("go", options(worktree, server, cancel=cancel))
        try:
            async for event in stream:
                if event.type is EventType.TOOL_USE:
                    await _wait_for(worktree / "sh.pid")
                    if close:
                        await stream.aclose()  # type: ignore[attr-defined]
                        return None
                    cancel.set()
        except ProviderError as exc:
            return exc
        return None

    for close in (False, True):
        for name in ("bg.pid", "sh.pid"):
            (worktree / name).unlink(missing_ok=True)
        error = asyncio.run(go(close))
        assert (error is None) if close else (error is not None and error.code == "OPENAI_INTERRUPTED")
        for name in ("bg.pid", "sh.pid"):
            assert wait_gone(int((worktree / name).read_text())), name


def test_usage_and_cost_from_price_per_mtok_or_the_known_model_table(server: Any, worktree: Path) -> None:
    usage = {"input": 1_000_000, "output": 500_000, "cached": 200_000}
    server.script("m", [{**call("list_files"), "usage": usage}, {**finish(), "usage": usage}])
    price = {"input": 2.0, "output": 10.0, "cached_input": 0.5}
    events, error = collect(provider(), options(worktree, server, price_per_mtok=price))
    assert error is None
    tokens, cost = tokens_and_cost(events)
    assert tokens == 3_000_000 and cost == pytest.approx(2 * (0.8 * 2.0 + 0.2 * 0.5 + 0.5 * 10.0))
    assert events[-1].metadata["usage"]["total_cost_usd"] == pytest.approx(cost)
    server.script("gpt-4o-mini-2024-07-18", [{**finish(), "usage": {"input": 1_000_000, "output": 1_000_000}}])
    events, _ = collect(provider(), options(worktree, server, model="gpt-4o-mini-2024-07-18"))
    assert tokens_and_cost(events)[1] == pytest.approx(0.15 + 0.60)
    server.script("local-llama", [finish()])
    events, _ = collect(provider(), options(worktree, server, model="local-llama"))
    assert tokens_and_cost(events) == (120, 0.0) and "total_cost_usd" not in events[-1].metadata["usage"]


def test_preflight_reports_missing_keys_and_unreachable_servers(server: Any) -> None:
    pytest.importorskip("openai")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    no_key = OpenAIProvider(env={"OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""})
    default = no_key.check()
    assert not default.ready and default.depends_on_phase and "OPENAI_API_KEY is not set" in default.detail
    assert OpenAIProvider(env={"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": ""}).check().ready
    assert not OpenAIProvider(env={"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": dead}).check().ready
    phase = no_key.check_phase({"base_url": server.url, "api_key_env": "none"})
    assert phase.ready and "no key" in phase.detail
    missing = no_key.check_phase({"base_url": server.url, "api_key_env": "LOCAL_KEY"})
    assert not missing.ready and "LOCAL_KEY is not set" in missing.detail
    unreachable = no_key.check_phase({"base_url": dead, "api_key_env": "none"})
    assert not unreachable.ready and "unreachable" in unreachable.detail and dead in unreachable.detail
    assert not no_key.check_phase({"api": "completions", "api_key_env": "none"}).ready
    assert server.requests == []  # a probe opens a connection, never sends a request


def test_cli_start_validate_and_preflight_do_not_import_the_sdk(tmp_path: Path) -> None:
    workflow = ROOT / "tests" / "fixtures" / "workflows" / "openai-local.yaml"
    code = (
        "import sys\n"
        "from alphred.cli import main\n"
        "for argv in (['--help'], ['validate', sys.argv[1]], ['providers']):\n"
        "    sys.argv = ['alphred', *argv]\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit:\n"
        "        pass\n"
        "assert 'openai' not in sys.modules and 'httpx2' not in sys.modules, 'SDK imported'\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code, str(workflow)], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "openai" in done.stdout and "ok: workflow 'openai-local'" in done.stdout + done.stderr


async def _wait_for(path: Path, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not (path.exists() and path.read_text().strip()):
        assert time.monotonic() < deadline, f"{path} never appeared"
        await asyncio.sleep(0.02)


def test_retry_after_headers() -> None:
    from alphred.providers.openai_errors import retry_after_seconds

    assert retry_after_seconds({"retry-after-ms": "250"}) == 0.25
    assert retry_after_seconds({"retry-after": "12"}) == 12.0
    assert retry_after_seconds({"retry-after": "Wed, 21 Oct 2026 07:28:10 GMT"}, now=1792567680.0) == 10.0
    assert retry_after_seconds({"retry-after": "soon"}) is None and retry_after_seconds({}) is None
    assert retry_after_seconds({"retry-after": "999999"}) == 3600.0
    assert retry_after_seconds({"retry-after-ms": "nan", "retry-after": "3"}) == 3.0


def test_head_tail_keeps_both_ends_with_bounded_memory() -> None:
    from alphred.providers.openai_tools import HeadTail, cut

    buffer = HeadTail(100)
    for _ in range(1000):
        buffer.add(b"0123456789")
    buffer.add(b"THE-END")
    text = buffer.text()
    assert text.startswith("0123456789") and text.endswith("THE-END") and "output cut" in text
    assert len(buffer.head) + len(buffer.tail) <= 400 and len(text) < 200
    short = HeadTail(100)
    short.add("é".encode() * 10)
    assert short.text() == "é" * 10
    assert cut("x" * 10, 4) == "xx\n[... output cut: 6 characters left out ...]\nxx"


def test_prices() -> None:
    from alphred.providers.openai import price_for

    assert price_for("gpt-4o", None) == (2.5, 1.25, 10.0)
    assert price_for("gpt-4o-mini-2024-07-18", None) == (0.15, 0.075, 0.6)
    assert price_for("gpt-4o-audio-preview", None) is None and price_for("llama3", None) is None
    assert price_for("llama3", {"input": 1, "output": 2}) == (1.0, 1.0, 2.0)


@pytest.fixture(scope="module")
def property_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("resolve")
    root = base / "worktree"
    (root / "a" / "b").mkdir(parents=True)
    (base / "outside").mkdir()
    (root / "in-link").symlink_to(root / "a")
    (root / "out-link").symlink_to(base / "outside")
    (root / "a" / "out-link").symlink_to(base)
    return root


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["..", ".", "a", "b", "in-link", "out-link", "/", "/etc"]), min_size=1, max_size=6))
def test_resolve_never_gives_a_path_outside_the_worktree(property_root: Path, parts: list[str]) -> None:
    from alphred.providers.openai_tools import Toolbox, ToolError

    try:
        resolved = Toolbox(property_root, (), {}).resolve("/".join(parts))
    except ToolError:
        return
    assert resolved == property_root.resolve() or property_root.resolve() in resolved.parents


def test_read_file_pages_through_a_file(tmp_path: Path) -> None:
    from alphred.providers.openai_tools import Toolbox

    (tmp_path / "f.txt").write_text("".join(f"line {n}\n" for n in range(1, 6)))
    toolbox = Toolbox(tmp_path, (), {})
    assert toolbox.read_file({"path": "f.txt", "offset": 2, "limit": 2}).output == (
        "     2\tline 2\n     3\tline 3\n[2 more line(s): read on with offset 4]"
    )
    assert toolbox.read_file({"path": "f.txt", "offset": 4}).output == "     4\tline 4\n     5\tline 5"
    assert toolbox.read_file({"path": "f.txt", "offset": 9}).output == "[no lines from line 9; the file has 5]"


TYPED = {
    "type": "object",
    "required": ["severity", "decision"],
    "properties": {
        "severity": {"enum": ["low", "high"]},
        "decision": {"type": "string", "enum": ["approved", "changes_requested"]},
    },
}


def typed_options(worktree: Path, server: Any, api: str = "responses") -> ProviderOptions:
    return replace(options(worktree, server, api), output=TYPED)


@pytest.mark.parametrize("api", APIS)
def test_a_typed_phase_gets_its_schema_as_the_finish_report_parameter(server: Any, worktree: Path, api: str) -> None:
    server.script("m", [finish("approved", {"severity": "urgent"}), finish("approved", {"severity": "high"})])
    events, error = collect(provider(), typed_options(worktree, server, api))
    assert error is None
    assert results(events)[0].startswith(
        "error: the report does not match its schema: severity: 'urgent' is not one of"
    )
    assert events[-1].metadata["report"] == {"severity": "high"}
    assert events[-1].metadata["routingDecision"] == "approved"
    body = server.bodies(PATHS[api])[0]
    tools = body["tools"]
    spec = next(t for t in tools if (t.get("name") or t.get("function", {}).get("name")) == "finish")
    parameters = spec.get("parameters") or spec["function"]["parameters"]
    report = parameters["properties"]["report"]
    assert report["properties"] == {"severity": {"enum": ["low", "high"]}} and report["required"] == ["severity"]


def test_a_typed_phase_s_plain_answer_is_read_as_json(server: Any, worktree: Path) -> None:
    server.script("m", [{"text": '```json\n{"severity": "low", "decision": "changes_requested"}\n```'}])
    events, error = collect(provider(), typed_options(worktree, server))
    assert error is None
    assert events[-1].metadata["report"] == {"severity": "low", "decision": "changes_requested"}
    assert events[-1].metadata["routingDecision"] == "changes_requested"
