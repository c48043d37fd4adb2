"""Usage limits (SPEC §15): each adapter reads its provider's signal with the reset time; the attempt ends
``interrupted``, the run waits (durably) until ``wake_at`` and goes on; workers claim it only after then.

The fakes play the signals: the claude CLI's ``rate_limit_event`` and its "resets" text, codex's usage-limit
error, the openai server's 429 with ``retry-after``. Waits of an hour pass at once on an injected clock.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from helpers.cli import cli
from helpers.clock import install_clock
from helpers.processes import run_alphred, spawn_alphred
from helpers.providers import FakeClaude, FakeCodex, collect, wrapper
from helpers.repos import make_repo, process_env
from helpers.runs import wait_for

from alphred.errors import RateLimitError, UsageLimitError
from alphred.providers.base import ProviderOptions
from alphred.providers.codex import CodexProvider
from alphred.providers.openai import OpenAIProvider
from alphred.providers.usage_limits import reset_from_text
from alphred.store import SqlRunStore

pytest.importorskip("claude_agent_sdk")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
WORKFLOW = """\
alphred: 1
key: limited
phases:
  implement:
    provider: claude
    prompt: Implement the feature.
    decisions: [done]
    transitions:
      - to: $end
"""


# -- each adapter's signal ------------------------------------------------------------------------------


def test_claude_rate_limit_event_becomes_a_usage_limit_with_its_reset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from alphred.providers.claude import ClaudeProvider

    fake = FakeClaude.install(tmp_path, monkeypatch, "claude")
    fake.scenario("usage_limit", FAKE_CLAUDE_RESET_IN="3600", IS_SANDBOX="1", CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK="1")
    before = time.time()
    events, error = collect(ClaudeProvider(cli_path=str(fake.cli)), "Do it.", fake.options())
    assert isinstance(error, UsageLimitError), error
    assert error.code == "CLAUDE_USAGE_LIMIT" and error.kind == "usage_limit" and not error.retryable
    assert error.reset_at is not None and before + 3590 <= error.reset_at <= time.time() + 3610
    assert any(e.metadata.get("rate_limit", {}).get("status") == "rejected" for e in events)


def test_claude_usage_limit_text_alone_gives_the_reset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from alphred.providers.claude import ClaudeProvider

    fake = FakeClaude.install(tmp_path, monkeypatch, "claude")
    fake.scenario("usage_limit_text", FAKE_CLAUDE_RESET_IN="7200", IS_SANDBOX="1")
    before = time.time()
    _, error = collect(ClaudeProvider(cli_path=str(fake.cli)), "Do it.", fake.options())
    assert isinstance(error, UsageLimitError), error
    assert error.reset_at is not None and before + 7190 <= error.reset_at <= time.time() + 7210


def test_claude_short_rate_limit_stays_a_retried_rate_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from alphred.providers.claude import ClaudeProvider

    fake = FakeClaude.install(tmp_path, monkeypatch, "claude")
    fake.scenario("usage_limit", FAKE_CLAUDE_RESET_IN="30", IS_SANDBOX="1")
    _, error = collect(ClaudeProvider(cli_path=str(fake.cli)), "Do it.", fake.options())
    assert type(error) is RateLimitError and error.retryable and error.code == "CLAUDE_RATE_LIMIT"


def test_codex_usage_limit_error_becomes_a_usage_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeCodex.install(tmp_path, monkeypatch, "codex")
    fake.scenario("usage_limit", FAKE_CODEX_RESET_IN="90")
    before = time.time()
    provider = CodexProvider(binary=str(fake.binary), env={"OPENAI_API_KEY": "k", "PATH": "/usr/bin:/bin"})
    _, error = collect(provider, "Review.", fake.options())
    assert isinstance(error, UsageLimitError), error
    assert error.code == "CODEX_USAGE_LIMIT"
    assert error.reset_at is not None and before + 5390 <= error.reset_at <= time.time() + 5410


@pytest.mark.parametrize(("after", "limited"), [("3600", True), ("61", True), ("60", False), ("7", False)])
def test_openai_429_is_a_usage_limit_when_retry_after_is_over_a_minute(
    tmp_path: Path, server: Any, after: str, limited: bool
) -> None:
    server.script("m", [{"error": 429, "headers": {"retry-after": after}, "message": "quota"}])
    options = ProviderOptions(
        working_directory=tmp_path, phase="p", attempt=1, model="m", settings={"base_url": server.url}
    )
    _, error = collect(OpenAIProvider(env={"OPENAI_API_KEY": "sk"}), "Do it.", options)
    assert error is not None and error.retry_after == float(after)
    if limited:
        assert isinstance(error, UsageLimitError) and error.code == "OPENAI_USAGE_LIMIT"
        assert error.wake_at(1000.0) == 1000.0 + float(after)
    else:
        assert type(error) is RateLimitError and error.code == "OPENAI_RATE_LIMIT"


def test_reset_texts_of_the_clis() -> None:
    now = datetime(2026, 11, 26, 12, 0, tzinfo=UTC).timestamp()
    at = lambda text: datetime.fromtimestamp(reset_from_text(text, now, UTC) or 0, UTC)  # noqa: E731
    assert at("You've hit your limit · resets 5:10pm (UTC)") == datetime(2026, 11, 26, 17, 10, tzinfo=UTC)
    assert at("You've hit your limit · resets 9am") == datetime(2026, 11, 27, 9, 0, tzinfo=UTC)  # tomorrow
    assert at("resets 5pm (Europe/Paris)") == datetime(2026, 11, 26, 16, 0, tzinfo=UTC)
    assert at("Claude AI usage limit reached|1764176400") == datetime.fromtimestamp(1764176400, UTC)
    assert at("or try again at Nov 27th, 2026 5:10 PM.") == datetime(2026, 11, 27, 17, 10, tzinfo=UTC)
    assert at("try again at 1:05 PM.") == datetime(2026, 11, 26, 13, 5, tzinfo=UTC)
    assert at("try again in 1 day 2 hours 3 minutes.") == datetime(2026, 11, 27, 14, 3, tzinfo=UTC)
    assert reset_from_text("API Error: 429 rate limited", now, UTC) is None
    assert reset_from_text("resets 25:99pm", now, UTC) is None


# -- the run waits ---------------------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, dict[str, str]]:
    """A repository, the workflow, and the fake claude wired into this process's and children's environment."""
    home = tmp_path / "home"
    home.mkdir()
    wiring = {
        "ALPHRED_CLAUDE_CLI": str(wrapper(tmp_path, "claude", FIXTURES / "fake_claude_cli.py")),
        "ANTHROPIC_API_KEY": "fake-key",
        "IS_SANDBOX": "1",
        "CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK": "1",
        "FAKE_CLAUDE_LOG": str(tmp_path / "claude.log"),
        "FAKE_CLAUDE_SCENARIO": "usage_limit,ok",
        "FAKE_CLAUDE_RESET_IN": "3600",
        "FAKE_CLAUDE_DECISION": "done",
    }
    env = process_env(home, identity=True, drop=("FAKE_", "ANTHROPIC_", "CLAUDE_"), **wiring)
    for key, value in {**env, **wiring}.items():
        if key.startswith(("FAKE_", "ANTHROPIC_", "CLAUDE_", "ALPHRED_", "IS_SANDBOX", "GIT_", "HOME")):
            monkeypatch.setenv(key, value)
    repo = make_repo(tmp_path / "repo", {"README.md": "# project\n"}, env=env)
    path = tmp_path / "limited.yaml"
    path.write_text(WORKFLOW)
    return repo, path, env


def _status(repo: Path) -> dict[str, Any]:
    done = cli("status", "1", "--json", "--repo", str(repo))
    assert done.exit_code == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def _row(repo: Path, sql: str) -> Any:
    with sqlite3.connect(f"file:{repo / '.alphred' / 'alphred.db'}?mode=ro", uri=True) as db:
        return db.execute(sql).fetchone()


def test_a_foreground_run_waits_out_the_limit_and_goes_on_by_itself(
    project: tuple[Path, Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, path, _ = project
    clock = install_clock(monkeypatch)
    done = cli("run", str(path), "--repo", str(repo), "--json")
    assert done.exit_code == 0, done.stderr
    assert "usage limit: waiting until" in done.stderr
    obj = json.loads(done.stdout)
    assert obj["status"] == "completed" and obj["wake_at"] is None
    assert [(s["phase"], s["attempt"], s["outcome"]) for s in obj["steps"]] == [
        ("implement", 1, "interrupted"),
        ("implement", 2, "completed"),
    ]
    assert 3590 <= sum(clock.slept) <= 3610  # it waited the hour (on the injected clock), in short sleeps
    assert max(clock.slept) <= 1.0
    reason, code = _row(repo, "select reason, error_code from run_node_diagnostics where attempt = 1")
    assert (reason, code) == ("usage_limit", "CLAUDE_USAGE_LIMIT")


def test_ctrl_c_leaves_the_run_waiting_then_kill_9_keeps_wake_at_and_resume_waits(
    project: tuple[Path, Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, path, env = project
    child = spawn_alphred("run", str(path), "--repo", str(repo), env=env)
    said = _stderr_lines(child)
    wait_for(lambda: any("usage limit: waiting until" in line for line in said))  # it counts down
    obj = _status(repo)
    assert obj["status"] == "paused" and obj["reason"] == "usage_limit"
    wake_at = datetime.fromisoformat(obj["wake_at"].replace("Z", "+00:00"))
    assert timedelta(minutes=59) < wake_at - datetime.now(UTC) <= timedelta(minutes=61)
    child.send_signal(signal.SIGINT)
    assert child.wait(timeout=60) == 4, "".join(said)
    wait_for(lambda: any("left waiting until" in line for line in said))
    assert _status(repo)["wake_at"] == obj["wake_at"]  # Ctrl+C changed nothing: the run still waits

    again = spawn_alphred("resume", "1", "--repo", str(repo), env=env)  # waits for the reset: kill it meanwhile
    heard = _stderr_lines(again)
    wait_for(lambda: any("usage limit: waiting until" in line for line in heard))  # resume before wake_at waits
    os.killpg(again.pid, signal.SIGKILL)  # kill -9 during the wait
    again.wait(timeout=60)
    after = _status(repo)
    assert (after["status"], after["reason"], after["wake_at"]) == ("paused", "usage_limit", obj["wake_at"])

    clock = install_clock(monkeypatch)
    done = cli("resume", "1", "--repo", str(repo), "--json")
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "completed"
    assert 3500 <= sum(clock.slept) <= 3610


_CHILDREN: list[Any] = []


@pytest.fixture(autouse=True)
def _reap() -> Any:
    """Every child a test started is killed when it ends, whatever happened (a run waits for an hour)."""
    yield
    while _CHILDREN:
        child = _CHILDREN.pop()
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait(timeout=60)


def _stderr_lines(child: Any) -> list[str]:
    """The lines ``child`` writes on stderr, gathered by a thread as they come (it is reaped by ``_reap``)."""
    _CHILDREN.append(child)
    lines: list[str] = []

    def read() -> None:
        for line in child.stderr:
            lines.append(line)
        child.stderr.close()  # the child has ended
        child.stdout.close()

    threading.Thread(target=read, daemon=True).start()
    return lines


def _released(repo: Path) -> bool:
    """True once the run waits out its usage limit with no process holding its lease."""
    found = _row(repo, "select reason, lease_owner from workflow_runs where id = 1")
    return found is not None and found[0] == "usage_limit" and found[1] is None


def test_max_wait_bounds_the_waiting(
    project: tuple[Path, Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, path, _ = project
    path.write_text(WORKFLOW.replace("phases:", "limits: {max_wait: 30m}\nphases:"))
    install_clock(monkeypatch)
    done = cli("run", str(path), "--repo", str(repo), "--json")
    assert done.exit_code == 1, done.stderr
    obj = json.loads(done.stdout)
    assert (obj["status"], obj["reason"]) == ("failed", "usage_limit")


def test_workers_claim_a_waiting_run_only_after_wake_at(
    project: tuple[Path, Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, path, env = project
    child = spawn_alphred("run", str(path), "--repo", str(repo), env=env)
    said = _stderr_lines(child)
    wait_for(lambda: any("usage limit: waiting until" in line for line in said))
    child.send_signal(signal.SIGINT)
    assert child.wait(timeout=60) == 4
    assert cli("resume", "1", "--detach", "--repo", str(repo)).exit_code == 0  # left to the workers
    store = SqlRunStore(f"sqlite:///{repo / '.alphred' / 'alphred.db'}")
    try:
        wake_at = store.get_run(1).wake_at
        assert wake_at is not None
        assert [c.id for c in store.claimable_runs("host")] == []  # before wake_at: not even looked at
        assert [c.id for c in store.claimable_runs("host", now=wake_at - timedelta(seconds=1))] == []
        assert [c.id for c in store.claimable_runs("host", now=wake_at)] == [1]
        with store.reading() as tx:
            plan = tx._conn.exec_driver_sql(
                "EXPLAIN QUERY PLAN SELECT id FROM workflow_runs WHERE status = 'paused' AND wake_at <= '2100-01-01'"
            ).all()
        assert any("ix_workflow_runs_wake" in str(row) for row in plan), plan
    finally:
        store.close()
    worker = cli("worker", "--once", "--repo", str(repo))
    assert worker.exit_code == 0, worker.stderr
    assert _status(repo)["status"] == "paused"  # the worker did not take it before wake_at


CODEX_WORKFLOW = """\
alphred: 1
key: reviewing
phases:
  review:
    provider: codex
    prompt: Review.
    decisions: [done]
    transitions:
      - to: $end
"""


@pytest.mark.slow
def test_a_worker_pauses_only_the_limited_provider_and_workers_shows_it(
    project: tuple[Path, Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, path, env = project
    env = {
        **env,
        "FAKE_CLAUDE_SCENARIO": "usage_limit",
        "ALPHRED_CODEX_BIN": str(wrapper(tmp_path / "bin", "codex", FIXTURES / "fake_codex.py")),
        "OPENAI_API_KEY": "fake-openai-key",
        "CODEX_HOME": str(tmp_path / "home" / ".codex"),
        "FAKE_CODEX_LOG": str(tmp_path / "codex.log"),
        "FAKE_CODEX_DECISION": "done",
    }
    codex = tmp_path / "reviewing.yaml"
    codex.write_text(CODEX_WORKFLOW)

    def submit(workflow: Path) -> int:
        done = run_alphred("submit", str(workflow), "--repo", str(repo), env=env)
        assert done.returncode == 0, done.stderr
        return int(done.stdout)

    limited = submit(path)
    worker = spawn_alphred("worker", "--repo", str(repo), "--poll", "0.2", env=env)
    try:
        wait_for(lambda: _row(repo, f"select reason from workflow_runs where id = {limited}")[0] == "usage_limit")
        reviewed, later = submit(codex), submit(path)  # other providers go on; claude waits on this worker
        wait_for(lambda: _row(repo, f"select status from workflow_runs where id = {reviewed}")[0] == "completed")
        shown = run_alphred("workers", "--json", "--repo", str(repo), env=env)
        paused = json.loads(shown.stdout)[0]["paused"]
        assert list(paused) == ["claude"]
        assert datetime.fromisoformat(paused["claude"]) > datetime.now(UTC) + timedelta(minutes=59)
        table = run_alphred("workers", "--repo", str(repo), env=env).stdout
        assert "claude until" in table
        assert _row(repo, f"select status from workflow_runs where id = {later}")[0] == "pending"
        assert _row(repo, f"select status from workflow_runs where id = {limited}")[0] == "paused"
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.communicate(timeout=60)
