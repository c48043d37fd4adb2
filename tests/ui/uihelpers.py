"""Helpers of the web view tests: workflows, a run maker, the token, polling with a deadline, a server handle.

A module of its own (not ``conftest``): test modules import it by a name no other test directory uses.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import textwrap
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from helpers.processes import wait_until
from helpers.runs import APPROVAL_CHILD, APPROVAL_PARENT

from alphred.cli import app as cli_app

__all__ = [
    "BASE",
    "FOR_EACH",
    "GATE",
    "PARALLEL",
    "PARALLEL_GATE",
    "QUICK",
    "TOKEN",
    "Runs",
    "Server",
    "auth",
    "free_port",
    "held",
    "wait_until",
]

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

PARALLEL = """\
alphred: 1
key: parallel-ui
defaults: {provider: scripted}
limits: {max_parallel: 3}
phases:
  plan:
    script: [{report: {tasks: ["api", "ui"], risk: "<b>low</b>"}}]
    transitions: [{to: [backend, frontend]}]
  backend:
    script: [{report: "api done", files: {api.txt: "api\\n"}}]
    transitions: [{to: integrate}]
  frontend:
    script: [{report: "ui done", files: {ui.txt: "ui\\n"}}]
    transitions: [{to: frontend_tests}]
  frontend_tests:
    type: command
    run: "true"
    transitions:
      - {to: integrate, when: exit_code == 0}
      - {to: $fail}
  integrate:
    join: all
    type: command
    run: "true"
"""

PARALLEL_GATE = (
    PARALLEL
    + """\
    transitions: [{to: ship}]
  ship:
    type: approval
    message: "Ship both parts?"
    transitions:
      - {to: $end, when: decision == "approved"}
      - {to: $fail}
"""
)

FOR_EACH = """\
alphred: 1
key: each-ui
defaults: {provider: scripted}
limits: {max_parallel: 2}
phases:
  plan:
    script: [{report: {tasks: [{title: a}, {title: b}, {title: c}, {title: d}]}}]
    transitions: [{to: implement, for_each: report.tasks, as: task}]
  implement:
    type: command
    run: "echo {{ task.title }} > item-{{ task_index }}.txt; test {{ task.title }} != c"
    transitions: [{to: integrate}]
  integrate:
    join: all_done
    type: command
    run: "true"
"""

QUICK = """\
alphred: 1
key: quick
phases:
  work:
    type: command
    run: "echo line-1"
"""


def held(marker: Path) -> str:
    """A command phase printing line-1..line-4, then waiting until ``marker`` exists, then line-5..line-8."""
    script = (
        "for i in 1 2 3 4; do echo line-$i; sleep 0.2; done; "
        f"while [ ! -e '{marker}' ]; do sleep 0.1; done; "
        "for i in 5 6 7 8; do echo line-$i; done"
    )
    return f'alphred: 1\nkey: held\nphases:\n  work:\n    type: command\n    run: "{script}"\n    timeout: 120s\n'


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

    def child_gate(self) -> dict[str, Any]:
        """Run 1 paused (``interrupted``) while its sub-workflow run 2 waits at its approval ``gate``."""
        (self.repo.parent / "child.yaml").write_text(APPROVAL_CHILD)
        status = self.run("alphred: 1\nkey: parent\n" + APPROVAL_PARENT, name="parent.yaml")
        assert (status["status"], status["reason"]) == ("paused", "interrupted")
        return status

    def cli(self, *args: str) -> Any:
        return CliRunner().invoke(cli_app, [*args, "--repo", str(self.repo)])


TOKEN = "test-token-0123456789"
BASE = "http://127.0.0.1:8765"


def auth(token: str = TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    """A real ``alphred ui`` process on a free port."""

    process: subprocess.Popen[str]
    url: str  # with ?token=
    base: str
    token: str
    stderr_lines: list[str]
    reader: threading.Thread
