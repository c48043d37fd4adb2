"""Fixtures of the web view tests: a real git repository, real runs made by the CLI, the app and a server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from alphred.cli import app as cli_app

GATE = """\
alphred: 1
key: gate
inputs:
  note: {default: "plain"}
defaults: {provider: scripted}
phases:
  write:
    prompt: "Write {{ inputs.note }}"
    script:
      - report: {summary: "<script>alert('report')</script>"}
        files: {a.txt: "hello <b>\\n"}
        tokens: 12
    transitions: [{to: ask}]
  ask:
    type: approval
    message: "Ship it?"
    transitions:
      - {to: $end, when: decision == "approved"}
      - {to: $fail}
"""

SLOW = """\
alphred: 1
key: slow
phases:
  work:
    type: command
    run: "for i in 1 2 3 4 5 6 7 8; do echo line-$i; sleep 0.4; done"
    timeout: 60s
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository with one commit, isolated from the machine's git configuration."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "ALPHRED_DATABASE_URL", "ALPHRED_BRANCH_TEMPLATE"):
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "repo"
    path.mkdir()
    for args in (
        ["init", "-q", "-b", "main"],
        ["-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", "init"],
    ):
        subprocess.run(["git", *args], cwd=path, check=True, capture_output=True)
    return path


@dataclass
class Runs:
    """Makes runs in ``repo`` with the real CLI (in process)."""

    repo: Path

    @property
    def db_url(self) -> str:
        return f"sqlite:///{self.repo / '.alphred' / 'alphred.db'}"

    in_process: bool = True  # False: a separate process (where an event loop already runs, e.g. Playwright)

    def run(self, body: str, *args: str, name: str = "wf.yaml") -> dict[str, Any]:
        path = self.repo.parent / name
        path.write_text(textwrap.dedent(body))
        argv = ["run", str(path), "--repo", str(self.repo), "--json", "-q", *args]
        if self.in_process:
            result = CliRunner().invoke(cli_app, argv)
            stdout, stderr = result.stdout, result.stderr
        else:
            done = subprocess.run([sys.executable, "-m", "alphred", *argv], capture_output=True, text=True, timeout=120)
            stdout, stderr = done.stdout, done.stderr
        assert stdout.strip(), stderr
        status: dict[str, Any] = json.loads(stdout)
        return status

    def gate(self, *args: str) -> dict[str, Any]:
        """A run paused at its approval phase, whose report holds a <script>."""
        status = self.run(GATE, *args, name="gate.yaml")
        assert (status["status"], status["reason"]) == ("paused", "awaiting_approval")
        return status

    def cli(self, *args: str) -> Any:
        return CliRunner().invoke(cli_app, [*args, "--repo", str(self.repo)])


@pytest.fixture
def runs(repo: Path) -> Runs:
    return Runs(repo)


TOKEN = "test-token-0123456789"
BASE = "http://127.0.0.1:8765"


@pytest.fixture
def make_client(runs: Runs) -> Iterator[Callable[..., Any]]:
    """``make_client(read_only=..., no_exec=...)``: a Starlette TestClient on the app over ``runs``' database."""
    from starlette.testclient import TestClient

    from alphred.ui.app import UiSettings, create_app

    clients: list[Any] = []

    def make(**overrides: Any) -> Any:
        settings = UiSettings(db_url=runs.db_url, token=TOKEN, repo=str(runs.repo), **overrides)
        client = TestClient(create_app(settings), base_url=BASE)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.app.state.data.close()
        client.close()


def auth(token: str = TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until(check: Callable[[], Any], timeout: float = 30.0, what: str = "condition") -> Any:
    """Poll ``check`` until it returns something truthy (the deadline is generous: the machine is shared)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@dataclass
class Server:
    """A real ``alphred ui`` process on a free port."""

    process: subprocess.Popen[str]
    url: str  # with ?token=
    base: str
    token: str
    stderr_lines: list[str]
    reader: threading.Thread


@pytest.fixture
def start_server(runs: Runs) -> Iterator[Callable[..., Server]]:
    """``start_server(*extra_args)``: run ``python -m alphred ui --port 0`` and wait until it answers."""
    import httpx

    started: list[Server] = []

    def start(*extra: str) -> Server:
        argv = [sys.executable, "-m", "alphred", "ui", "--port", "0", "--repo", str(runs.repo), *extra]
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert process.stdout is not None and process.stderr is not None
        line = process.stdout.readline().strip()
        errors: list[str] = []
        reader = threading.Thread(target=lambda: errors.extend(process.stderr or []), daemon=True)
        reader.start()
        server = Server(process, line, "", "", errors, reader)
        started.append(server)
        assert line.startswith("http://"), f"no URL printed; stderr: {errors}"
        server.base, server.token = line.split("/?token=")
        base = server.base
        started.append(server)

        def ready() -> bool:
            try:
                return httpx.get(f"{base}/healthz", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(ready, what="the server to answer")
        return server

    yield start
    for server in started:
        server.process.terminate()
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()
        server.reader.join(timeout=10)
        for pipe in (server.process.stdout, server.process.stderr):
            if pipe is not None:
                pipe.close()
