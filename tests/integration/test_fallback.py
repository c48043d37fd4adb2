"""Fail-over (SPEC §15): after a usage limit, an auth failure or an outage that outlived its retries, the next
attempt runs on the phase's next ``fallback`` provider; each step records the provider that ran it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.cli import cli, run_json, write_workflow
from helpers.providers import wrapper
from helpers.repos import make_repo, process_env

from alphred.scm.body import steps_table

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_an_outage_that_outlived_its_retries_moves_to_the_fallback(repo: Path) -> None:
    path = write_workflow(
        repo.parent,
        """\
        phases:
          build:
            provider: scripted
            script: [{fail: "upstream 503"}]
            max_retries: 1
            fallback:
              - {provider: scripted, script: [{report: done by the fallback, files: {out.txt: ok}}]}
            transitions: [{to: $end}]
        """,
    )
    code, obj, err = run_json(repo, path)
    assert code == 0, err
    assert [(s["attempt"], s["outcome"], s["provider"]) for s in obj["steps"]] == [
        (1, "failed", "scripted"),
        (2, "failed", "scripted"),  # the retry, on the same provider
        (3, "completed", "scripted"),  # the fallback (its own script)
    ]
    done = cli("status", "1", "--repo", str(repo))
    assert done.exit_code == 0 and "build #3 completed" in done.stdout


@pytest.fixture
def agents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[str, str]]:
    """A repository with the fake claude and the fake codex wired in (this process's environment)."""
    wiring = {
        "ALPHRED_CLAUDE_CLI": str(wrapper(tmp_path / "bin", "claude", FIXTURES / "fake_claude_cli.py")),
        "ALPHRED_CODEX_BIN": str(wrapper(tmp_path / "bin", "codex", FIXTURES / "fake_codex.py")),
        "ANTHROPIC_API_KEY": "fake-key",
        "OPENAI_API_KEY": "fake-openai-key",
        "IS_SANDBOX": "1",
        "CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK": "1",
        "FAKE_CLAUDE_LOG": str(tmp_path / "claude.log"),
        "FAKE_CODEX_LOG": str(tmp_path / "codex.log"),
        "FAKE_CLAUDE_DECISION": "done",
        "FAKE_CODEX_DECISION": "done",
    }
    home = tmp_path / "home"
    home.mkdir()
    env = process_env(home, identity=True, drop=("FAKE_", "ANTHROPIC_", "CLAUDE_", "OPENAI_", "CODEX_"), **wiring)
    for key, value in env.items():
        if key.startswith(("FAKE_", "ANTHROPIC_", "CLAUDE_", "OPENAI_", "CODEX_", "ALPHRED_", "IS_SANDBOX", "GIT_")):
            monkeypatch.setenv(key, value)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    return make_repo(tmp_path / "repo", {"README.md": "# project\n"}, env=env), env


AGENT_WORKFLOW = """\
phases:
  implement:
    provider: claude
    permission_mode: acceptEdits
    prompt: Implement it.
    decisions: [done]
    fallback: [codex]
    transitions: [{to: $end}]
"""


@pytest.mark.parametrize(
    ("scenario", "outcome", "reason"),
    [("usage_limit", "interrupted", "usage_limit"), ("auth_error", "failed", "auth")],
)
def test_a_usage_limit_or_an_auth_failure_moves_to_the_fallback_at_once(
    agents: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch, scenario: str, outcome: str, reason: str
) -> None:
    pytest.importorskip("claude_agent_sdk")
    repo, _ = agents
    monkeypatch.setenv("FAKE_CLAUDE_SCENARIO", scenario)
    path = write_workflow(repo.parent, AGENT_WORKFLOW)
    code, obj, err = run_json(repo, path)
    assert code == 0, err
    assert "waiting until" not in err  # a fallback takes over: nothing to wait for
    assert [(s["attempt"], s["outcome"], s["provider"]) for s in obj["steps"]] == [
        (1, outcome, "claude"),
        (2, "completed", "codex"),
    ]
    assert obj["wake_at"] is None
    table = steps_table(obj["steps"])
    assert "| Provider |" in table and "| codex |" in table and "| claude |" in table
    done = cli("status", "1", "--repo", str(repo))
    assert "implement (claude) #1" in done.stdout and "implement (codex) #2 completed" in done.stdout
    from alphred.store import SqlRunStore

    store = SqlRunStore(f"sqlite:///{repo / '.alphred' / 'alphred.db'}")
    try:
        assert [s.reason for s in store.list_steps(1)] == [reason, None]
    finally:
        store.close()


def test_validate_lists_the_keys_a_fallback_drops_as_info(tmp_path: Path) -> None:
    path = write_workflow(tmp_path, AGENT_WORKFLOW.replace("[codex]", "[codex, {provider: openai, model: m}]"))
    done = cli("validate", str(path))
    assert done.exit_code == 0, done.stderr
    assert "info: fallback 'codex' of phase 'implement' does not know permission_mode: dropped for it" in done.stderr
    assert "info: fallback 'openai'" in done.stderr
    strict = cli("validate", "--strict", str(path))
    assert strict.exit_code == 0  # a note, not a warning
    bad = write_workflow(tmp_path, AGENT_WORKFLOW.replace("[codex]", "[nope, {model: x}, {provider: codex, foo: 1}]"))
    done = cli("validate", str(bad))
    assert done.exit_code == 2
    assert "unknown provider 'nope'" in done.stderr and "needs 'provider'" in done.stderr
    assert "unknown key 'foo' for fallback provider 'codex'" in done.stderr


def test_the_pr_steps_table_has_no_provider_column_without_a_fallback() -> None:
    steps = [{"phase": "a", "attempt": 1, "outcome": "completed", "provider": "claude"}]
    assert "Provider" not in steps_table(steps)


def test_a_usage_limit_in_a_parallel_branch_moves_that_branch_to_the_fallback_without_waiting(
    agents: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("claude_agent_sdk")
    repo, _ = agents
    monkeypatch.setenv("FAKE_CLAUDE_SCENARIO", "usage_limit")
    branches = """\
limits: {max_wait: 1s}  # without the fail-over the run would fail usage_limit at once instead of waiting
phases:
  plan: {type: command, run: "true", transitions: [{to: [implement, docs]}]}
  docs: {type: command, run: "echo docs > docs.txt", transitions: [{to: join}]}
  join: {join: all, type: command, run: "true"}
"""
    path = write_workflow(repo.parent, branches + AGENT_WORKFLOW.replace("phases:\n", "").replace("$end", "join"))
    code, obj, err = run_json(repo, path)
    assert code == 0, err
    assert "waiting until" not in err and obj["wake_at"] is None  # the branch's fallback took over: no pause
    assert [
        (s["attempt"], s["outcome"], s["provider"], s["branch"]) for s in obj["steps"] if s["phase"] == "implement"
    ] == [
        (1, "interrupted", "claude", obj["branch"] + ".implement"),
        (2, "completed", "codex", obj["branch"] + ".implement"),
    ]
    assert [s["outcome"] for s in obj["steps"] if s["phase"] == "docs"] == ["completed"]  # never stopped
