"""What a phase's processes see and how long they live (SPEC §14, issue 22 items 2, 3, 4, 6).

Secrets planted in the run's environment never reach the model nor a command; ``sandbox:`` confines
commands, checks and the openai shell (bubblewrap; skipped with the reason where it cannot run); no process
a phase started outlives it, ``setsid`` ones included, with or without a sandbox; reads are bounded.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import kill_group, wait_until
from helpers.repos import git, make_repo
from helpers.runs import alphred, base_env, db, start, status, workflow

from alphred.runtime.sandbox import find_bwrap, sandbox_problem

SECRETS = {
    "GITHUB_TOKEN": "ghp_plantedGithubToken0123456789abcdefXYZ",
    "ANTHROPIC_API_KEY": "sk-ant-planted-anthropic-0123456789abcdef",
    "DEPLOY_PASSWORD": "planted-deploy-password-42",
    "FAKE_MODEL_KEY": "sk-planted-model-key-0123456789abcdefgh",
}
BWRAP_PROBLEM = sandbox_problem(find_bwrap())
_NO_BWRAP = pytest.mark.skipif(BWRAP_PROBLEM is not None, reason=f"no sandbox here: {BWRAP_PROBLEM}")


def needs_bwrap(test: Callable[..., None]) -> Callable[..., None]:
    """Skip ``test`` (with the reason) where bubblewrap cannot run; the summary lists it under bubblewrap."""
    return pytest.mark.optional("bubblewrap")(_NO_BWRAP(test))


def _repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo", {"README.md": "# project\n"}, env=base_env(tmp_path))


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {**base_env(tmp_path), **SECRETS, **extra}


def _processes_with(command: str) -> list[int]:
    """Live processes whose command line is exactly ``command`` (argv joined by spaces)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "cmdline").read_bytes().rstrip(b"\0").replace(b"\0", b" ") == command.encode():
                    state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                    if state not in ("Z", "X"):
                        found.append(int(entry.name))
            except OSError:
                continue
    return found


def _outside(tmp_path: Path) -> Path:
    """A path outside the worktree and outside /tmp (which a sandbox replaces by its private one)."""
    return Path("/var/tmp") / f"alphred-sandbox-{os.getpid()}-{tmp_path.name}.txt"


def _call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"calls": [{"name": name, "arguments": arguments}]}


@pytest.mark.slow
def test_no_planted_secret_reaches_the_model_or_a_command(tmp_path: Path, server: Any) -> None:
    pytest.importorskip("openai")
    repo = _repo(tmp_path)
    server.script(
        "impl",
        [
            _call("shell", command="env; tr '\\0' '\\n' < /proc/$PPID/environ; cat /proc/$PPID/cmdline"),
            _call("shell", command="git config --list; cat .env 2>/dev/null; echo ALLOWED=$ALLOWED_NAME"),
            _call("read_file", path="README.md"),
            _call("finish", decision="approved", report="done"),
        ],
    )
    wf = workflow(
        repo,
        f"""\
        phases:
          implement:
            provider: openai
            model: impl
            base_url: {server.url}
            api_key_env: FAKE_MODEL_KEY
            prompt: Go.
            transitions: [{{to: build}}]
          build:
            type: command
            run: "env > seen.txt; tr '\\\\0' '\\\\n' < /proc/$PPID/environ >> seen.txt"
            checks:
              - run: "env | grep -c TOKEN > check-count.txt || true"
        """,
    )
    done = alphred(repo, "run", str(wf), "--json", env=_env(tmp_path, ALLOWED_NAME="plain-value"))
    assert done.returncode == 0, done.stderr
    bodies = json.dumps([request["body"] for request in server.requests])
    assert "ALLOWED=plain-value" in bodies  # the shell ran and its output went back to the model
    leaked = [name for name, value in SECRETS.items() if value in bodies or value[:12] in bodies]
    assert leaked == []
    auth = {k.lower(): v for k, v in server.requests[0]["headers"].items()}["authorization"]
    assert auth == f"Bearer {SECRETS['FAKE_MODEL_KEY']}"  # the provider's own client has its key
    branch = status(repo)["branch"]
    seen = git(repo, "show", f"{branch}:seen.txt")
    assert "PATH=" in seen and not [name for name, value in SECRETS.items() if value in seen]
    assert git(repo, "show", f"{branch}:check-count.txt") == "0"


@pytest.mark.slow
def test_a_phase_env_list_lets_that_one_secret_through(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    wf = workflow(
        repo,
        """\
        phases:
          build:
            type: command
            env: [GITHUB_TOKEN]
            run: "printf '%s|%s' \\"$GITHUB_TOKEN\\" \\"$DEPLOY_PASSWORD\\" > seen.txt"
        """,
    )
    done = alphred(repo, "run", str(wf), "--json", env=_env(tmp_path))
    assert done.returncode == 0, done.stderr
    assert git(repo, "show", f"{status(repo)['branch']}:seen.txt") == f"{SECRETS['GITHUB_TOKEN']}|"


def test_without_a_sandbox_a_setsid_child_does_not_outlive_its_phase(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    word = f"{os.getpid() % 1000 + 4000}.173"
    wf = workflow(repo, f'phases:\n  build:\n    type: command\n    run: "setsid sleep {word} & echo started"\n')
    done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 0, done.stderr
    assert _processes_with(f"sleep {word}") == []


def test_the_openai_shell_setsid_child_does_not_outlive_its_phase(tmp_path: Path, server: Any) -> None:
    pytest.importorskip("openai")
    repo = _repo(tmp_path)
    word = f"{os.getpid() % 1000 + 4000}.174"
    server.script(
        "impl",
        [
            _call("shell", command=f"setsid sleep {word} > /dev/null 2>&1 &"),
            _call("finish", decision="approved", report=""),
        ],
    )
    wf = workflow(
        repo,
        f"phases:\n  a:\n    provider: openai\n    model: impl\n    base_url: {server.url}\n"
        "    api_key_env: none\n    prompt: Go.\n",
    )
    done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 0, done.stderr
    assert _processes_with(f"sleep {word}") == []


def test_a_missing_sandbox_stops_the_run_before_anything_is_created(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    wf = workflow(repo, "defaults:\n  sandbox: {network: false}\nphases:\n  build: {type: command, run: 'true'}\n")
    done = alphred(repo, "run", str(wf), env={**base_env(tmp_path), "ALPHRED_BWRAP": str(tmp_path / "no-bwrap")})
    assert done.returncode == 2, done.stderr
    assert "Error [SANDBOX_UNAVAILABLE]" in done.stderr and "build" in done.stderr
    assert not (repo / ".alphred").exists()


@needs_bwrap
def test_a_sandboxed_command_cannot_write_outside_its_worktree_nor_reach_the_network(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    outside = _outside(tmp_path)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        probe = (
            f"python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), timeout=5)' "
            "&& echo python-connected || echo python-refused"
        )
        script = " ".join(
            f"{{ {step}; }} >> result.txt;"
            for step in (
                f"(echo x > {outside}) 2>/dev/null && echo wrote-outside || echo outside-refused",
                f"(echo x > {repo}/.git/config) 2>/dev/null && echo wrote-git || echo git-refused",
                "(echo x > .git) 2>/dev/null && echo wrote-dotgit || echo dotgit-refused",
                f"curl -s -m 5 http://127.0.0.1:{port}/ >/dev/null && echo curl-connected || echo curl-refused",
                probe,
                "echo tmp > /tmp/mine && echo tmp-ok",
            )
        )
        wf = workflow(
            repo,
            f"phases:\n  build:\n    type: command\n    sandbox: {{network: false}}\n    run: {json.dumps(script)}\n",
        )
        done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 0, done.stderr
    result = git(repo, "show", f"{status(repo)['branch']}:result.txt").splitlines()
    assert result == [
        "outside-refused",
        "git-refused",
        "dotgit-refused",
        "curl-refused",
        "python-refused",
        "tmp-ok",
    ]
    assert not outside.exists()


@needs_bwrap
def test_network_true_lets_a_sandboxed_command_connect(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        script = f"python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), timeout=5)'"
        wf = workflow(
            repo,
            f"phases:\n  build:\n    type: command\n    sandbox: {{network: true}}\n    run: {json.dumps(script)}\n",
        )
        done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 0, done.stderr


@needs_bwrap
def test_a_sandboxed_background_child_is_gone_after_the_phase_and_after_kill_9(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    word = f"{os.getpid() % 1000 + 4000}.175"
    wf = workflow(
        repo, f'defaults:\n  sandbox: true\nphases:\n  build:\n    type: command\n    run: "sleep {word} & echo ok"\n'
    )
    done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 0, done.stderr
    assert _processes_with(f"sleep {word}") == []
    word = f"{os.getpid() % 1000 + 4000}.176"
    wf = workflow(
        repo,
        f'defaults:\n  sandbox: true\nphases:\n  build:\n    type: command\n    run: "setsid sleep {word} & sleep 600"\n',
    )
    process = start(repo, "run", str(wf))
    try:
        wait_until(lambda: len(_processes_with(f"sleep {word}")) == 1, 60)
        os.kill(process.pid, signal.SIGKILL)  # alphred itself, not its group
        process.wait(30)
        wait_until(lambda: _processes_with(f"sleep {word}") == [], 30)
    finally:
        kill_group(process)


@needs_bwrap
def test_a_sandboxed_check_and_openai_shell_are_confined_too(tmp_path: Path, server: Any) -> None:
    pytest.importorskip("openai")
    repo = _repo(tmp_path)
    outside = _outside(tmp_path)
    server.script(
        "impl",
        [
            _call("shell", command=f"echo x > {outside} || echo shell-refused; echo in > mine.txt"),
            _call("finish", decision="approved", report=""),
        ],
    )
    wf = workflow(
        repo,
        f"""\
        defaults:
          sandbox: {{network: false}}
        phases:
          a:
            provider: openai
            model: impl
            base_url: {server.url}
            api_key_env: none
            prompt: Go.
            checks:
              - run: "echo y > {outside}"
        """,
    )
    done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 1 and status(repo)["reason"] == "checks_failed", done.stderr
    assert not outside.exists()
    answers = json.dumps(server.bodies("/responses")[1])
    assert "shell-refused" in answers and "Read-only file system" in answers


def test_read_file_of_a_3_gb_single_line_file_reads_at_most_1_mb(tmp_path: Path) -> None:
    from alphred.providers.openai_tools import READ_BYTES, Toolbox, ToolError

    big = tmp_path / "big.bin"
    with open(big, "wb") as handle:
        handle.truncate(3 << 30)  # sparse: 3 GB of zeros, no newline, no disk used
    (tmp_path / "lines.txt").write_text("".join(f"{n}\n" for n in range(1, 200_001)))
    toolbox = Toolbox(tmp_path, (), {})
    tracemalloc.start()
    try:
        outcome = toolbox.read_file({"path": "big.bin"})
        paged = toolbox.read_file({"path": "lines.txt", "offset": 150_000, "limit": 2})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not outcome.is_error and "longer than" in outcome.output and len(outcome.output) < 40_000
    assert paged.output == "150000\t150000\n150001\t150001\n[49999 more line(s): read on with offset 150002]"
    assert peak < 4 * READ_BYTES
    (tmp_path / "large.txt").write_text("a" * (READ_BYTES + 1))
    with pytest.raises(ToolError, match="over 1048576 bytes"):
        toolbox.edit_file({"path": "large.txt", "old": "a", "new": "b"})


@pytest.mark.slow
def test_200_mb_of_command_output_completes_under_a_400_mb_address_space(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    script = "python3 -c \"import sys; line = 'x' * 999 + chr(10); [sys.stdout.write(line) for _ in range(200_000)]\""
    wf = workflow(repo, f"phases:\n  build:\n    type: command\n    run: {json.dumps(script)}\n")
    env = {**base_env(tmp_path), "MALLOC_ARENA_MAX": "2"}
    done = subprocess.run(
        ["prlimit", "--as=400000000", "--", *_alphred_argv(), "run", str(wf), "--repo", str(repo), "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = db(repo).execute("select count(*) from run_node_stream_events where event_type = 'tool_result'")
    assert rows.fetchone()[0] == 200_000


def _alphred_argv() -> list[str]:
    import sys

    return [sys.executable, "-m", "alphred"]


@needs_bwrap
def test_alphreds_python_environment_below_tmp_stays_visible_in_the_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # CI may clone (and create its venv) below /tmp, which the sandbox's private /tmp hides: an MCP server or command
    # started with Alphred's interpreter must still find it (read-only); the rest of the host's /tmp stays hidden
    from alphred.runtime.sandbox import Sandbox

    prefix, other, worktree, private = (tmp_path / name for name in ("venv", "other", "wt", "private"))
    for place in (prefix, other, worktree, private):
        place.mkdir()
    (prefix / "marker").write_text("seen\n")
    (other / "secret").write_text("hidden\n")
    monkeypatch.setattr("sys.prefix", str(prefix))
    sandbox = Sandbox(str(find_bwrap()), worktree, (), private)
    seen = subprocess.run(sandbox.confine(["cat", str(prefix / "marker")]), capture_output=True, text=True)
    assert (seen.returncode, seen.stdout) == (0, "seen\n"), seen.stderr
    write = subprocess.run(sandbox.confine(["touch", str(prefix / "new")]), capture_output=True, text=True)
    assert write.returncode != 0 and not (prefix / "new").exists()
    hidden = subprocess.run(sandbox.confine(["cat", str(other / "secret")]), capture_output=True, text=True)
    assert hidden.returncode != 0 and "hidden" not in hidden.stdout
