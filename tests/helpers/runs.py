"""A run driven through the CLI in a repository (``repo``, SQLite at ``repo/.alphred/alphred.db``), as child
processes: start it, signal or kill it, read its status and its stored events beside it."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers.processes import run_alphred, spawn_alphred, wait_until
from helpers.repos import process_env


def base_env(tmp_path: Path) -> dict[str, str]:
    """The environment of the run's processes: HOME at ``tmp_path``, a git identity, quick retries."""
    return process_env(tmp_path, identity=True, ALPHRED_RETRY_BASE_SECONDS="0.01")


def workflow(repo: Path, body: str) -> Path:
    """Write workflow ``wf`` (``body`` below its header, dedented) beside the repository."""
    path = repo.parent / "wf.yaml"
    path.write_text("alphred: 1\nkey: wf\n" + textwrap.dedent(body))
    return path


def start(repo: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``alphred ARGS --repo REPO`` started in its own session (see ``kill_group``)."""
    return spawn_alphred(*args, "--repo", str(repo), env=env or base_env(repo.parent))


def alphred(
    repo: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``alphred ARGS --repo REPO`` to its end."""
    return run_alphred(*args, "--repo", str(repo), env=env or base_env(repo.parent), timeout=timeout)


def db(repo: Path) -> sqlite3.Connection:
    """A read-only connection: polling must never create the database the run is about to create."""
    return sqlite3.connect(f"file:{repo / '.alphred' / 'alphred.db'}?mode=ro", uri=True, timeout=10)


def wait_for(check: Callable[[], bool], seconds: float = 60.0) -> None:
    """Poll ``check`` until it holds (a database not created yet counts as "not yet"); fail after ``seconds``."""
    wait_until(check, seconds, ignore=(sqlite3.OperationalError,))


def events_of(repo: Path, phase: str, attempt: int) -> list[tuple[Any, ...]]:
    """The stored events of one attempt: (sequence, type, content, metadata), in order."""
    return (
        db(repo)
        .execute(
            "select e.sequence, e.event_type, e.content, e.metadata from run_node_stream_events e "
            "join run_nodes n on n.id = e.run_node_id where n.node_key = ? and e.attempt = ? order by e.sequence",
            (phase, attempt),
        )
        .fetchall()
    )


def status(repo: Path, run_id: int = 1) -> dict[str, Any]:
    """``alphred status RUN --json``."""
    result = alphred(repo, "status", str(run_id), "--json")
    assert result.returncode == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def steps(obj: dict[str, Any]) -> list[tuple[str, int, str]]:
    """The (phase, attempt, outcome) of every step of a status object."""
    return [(s["phase"], s["attempt"], s["outcome"]) for s in obj["steps"]]


APPROVAL_CHILD = """\
alphred: 1
key: child
phases:
  work: {type: command, run: echo work > work.txt, transitions: [{to: gate}]}
  gate:
    type: approval
    message: "ship {{ inputs.x }}?"
    transitions:
      - {to: after, when: 'decision == "approved"'}
      - {to: $fail}
  after: {type: command, run: echo after > after.txt}
inputs:
  x: {default: it}
"""
"""A sub-workflow (SPEC §13) waiting at its approval ``gate``; ``APPROVAL_PARENT`` (below ``workflow``'s header)
runs it as ``child.yaml``."""

APPROVAL_PARENT = "phases:\n  sub: {type: workflow, uses: child.yaml, transitions: [{to: last}]}\n  last: {type: command, run: cat after.txt}\n"
