"""End to end: ``alphred run`` (a subprocess) with openai phases on both APIs against the fake server."""

from __future__ import annotations

import json
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import run_alphred
from helpers.repos import git, make_repo, process_env

pytest.importorskip("openai")

ROOT = Path(__file__).resolve().parents[2]

WORKFLOW = """\
alphred: 1
key: local-agents
defaults:
  provider: openai
  base_url: {url}
  api_key_env: FAKE_MODEL_KEY
phases:
  implement:
    model: impl
    api: responses
    prompt: Add a greeting script.
    decisions: [done, blocked]
    transitions:
      - to: review
        when: decision == "done"
      - to: $fail
  review:
    model: rev
    api: chat
    api_key_env: none
    prompt: Review the change.
    decisions: [approved, changes_requested]
    transitions:
      - to: implement
        when: decision == "changes_requested"
      - to: $end
        when: decision == "approved"
"""


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"calls": [{"name": name, "arguments": arguments}]}


@pytest.fixture
def setup(tmp_path: Path, server: Any) -> tuple[Path, Path, dict[str, str]]:
    home = tmp_path / "home"
    home.mkdir()
    env = process_env(home, drop=("FAKE_", "OPENAI_"), FAKE_MODEL_KEY="sk-fake")
    repo = make_repo(tmp_path / "repo", {"README.md": "# project\n"}, env=env)
    workflow = tmp_path / "agents.yaml"
    workflow.write_text(WORKFLOW.format(url=server.url))
    return repo, workflow, env


def alphred(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return run_alphred(*args, env=env)


@pytest.mark.slow
def test_openai_phases_on_both_apis_edit_commit_and_route_on_their_decisions(
    setup: tuple[Path, Path, dict[str, str]], server: Any
) -> None:
    repo, workflow, env = setup
    server.script(
        "impl",
        [
            call("write_file", path="hello.py", content="print('hello')\n"),
            call("finish", decision="done", report="wrote hello.py"),
            call("edit_file", path="hello.py", old="'hello'", new="'hello, world'"),
            call("finish", decision="done", report={"summary": "greets the world", "files": ["hello.py"]}),
        ],
    )
    server.script(
        "rev",
        [
            call("shell", command="cat hello.py && git log -1 --format=%s"),
            call("finish", decision="changes_requested", report="greet the world"),
            call("finish", decision="approved", report="good"),
        ],
    )
    done = alphred(env, "run", str(workflow), "--repo", str(repo), "--json")
    assert done.returncode == 0, done.stderr
    status: dict[str, Any] = json.loads(done.stdout)
    assert status["status"] == "completed"
    assert [(s["phase"], s["attempt"], s["decision"], s["next"]) for s in status["steps"]] == [
        ("implement", 1, "done", "review"),
        ("review", 1, "changes_requested", "implement"),
        ("implement", 2, "done", "review"),
        ("review", 2, "approved", "$end"),
    ]
    assert status["tokens"] == 7 * 120
    branch = status["branch"]
    assert git(repo, "show", f"{branch}:hello.py") == "print('hello, world')"
    subjects = git(repo, "log", "--format=%s", branch).splitlines()
    assert "alphred(local-agents): implement [visit 1]" in subjects
    assert "alphred(local-agents): implement [visit 2]" in subjects
    assert not (repo / "hello.py").exists()  # the user's checkout is untouched
    assert len(server.bodies("/responses")) == 4 and len(server.bodies("/chat/completions")) == 3
    chat_shell_answer = json.dumps(server.bodies("/chat/completions")[1]["messages"])
    assert "print('hello')" in chat_shell_answer and "implement [visit 1]" in chat_shell_answer  # committed
    auth = {r["path"]: {k.lower(): v for k, v in r["headers"].items()}["authorization"] for r in server.requests}
    assert auth == {"/v1/responses": "Bearer sk-fake", "/v1/chat/completions": "Bearer no-key"}


def test_a_missing_key_or_an_unreachable_server_stops_the_run_before_anything_is_created(
    setup: tuple[Path, Path, dict[str, str]], server: Any
) -> None:
    repo, workflow, env = setup
    del env["FAKE_MODEL_KEY"]
    done = alphred(env, "run", str(workflow), "--repo", str(repo))
    assert done.returncode == 2, done.stderr
    assert "PROVIDER_NOT_READY" in done.stderr and "FAKE_MODEL_KEY is not set" in done.stderr
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    workflow.write_text(WORKFLOW.format(url=dead))
    done = alphred({**env, "FAKE_MODEL_KEY": "k"}, "run", str(workflow), "--repo", str(repo))
    assert done.returncode == 2, done.stderr
    assert "unreachable" in done.stderr and dead in done.stderr
    assert not (repo / ".alphred").exists() and git(repo, "branch", "--list") == "* main"
    assert server.requests == []


def test_providers_command_reports_the_default_setup(setup: tuple[Path, Path, dict[str, str]]) -> None:
    _, _, env = setup
    rows = {r["name"]: r for r in json.loads(alphred(env, "providers", "--json").stdout)}
    assert not rows["openai"]["ready"] and "OPENAI_API_KEY is not set" in rows["openai"]["detail"]
    rows = {r["name"]: r for r in json.loads(alphred({**env, "OPENAI_API_KEY": "k"}, "providers", "--json").stdout)}
    assert rows["openai"]["ready"] and "OPENAI_API_KEY" in rows["openai"]["detail"]


@pytest.mark.slow
def test_rate_limits_are_retried_after_retry_after_and_auth_failures_are_not(
    setup: tuple[Path, Path, dict[str, str]], server: Any
) -> None:
    repo, workflow, env = setup
    env["ALPHRED_RETRY_BASE_SECONDS"] = "0"
    workflow.write_text(
        "alphred: 1\nkey: retries\nphases:\n  implement:\n    provider: openai\n    model: impl\n"
        f"    base_url: {server.url}\n    api_key_env: FAKE_MODEL_KEY\n    max_retries: 2\n    prompt: Go.\n"
    )
    server.script(
        "impl",
        [
            {"error": 429, "headers": {"retry-after": "1"}},
            call("write_file", path="hello.py", content="print('hi')\n"),
            call("finish", decision="approved", report="ok"),
        ],
    )
    done = alphred(env, "run", str(workflow), "--repo", str(repo), "--json")
    status = json.loads(done.stdout)
    assert done.returncode == 0 and status["status"] == "completed", done.stderr
    assert [(s["attempt"], s["outcome"]) for s in status["steps"]] == [(1, "failed"), (2, "completed")]
    server.script("impl", [{"error": 401}])
    done = alphred(env, "run", str(workflow), "--repo", str(repo), "--json")
    status = json.loads(done.stdout)
    assert done.returncode == 1 and status["status"] == "failed" and status["reason"] == "auth"
    assert [(s["attempt"], s["outcome"]) for s in status["steps"]] == [(1, "failed")]
    assert "OPENAI_AUTH" in done.stderr or "FAKE_MODEL_KEY" in done.stderr
