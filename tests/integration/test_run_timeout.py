"""``limits.timeout``: the run's wall clock from its stored start (SPEC §8). The clock is injected; the
processes, git, SQLite and the CLI are real."""

from __future__ import annotations

import json
import signal
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import Result
from helpers.cli import cli
from helpers.processes import alive, wait_until
from helpers.runs import alphred, base_env, workflow

from alphred.runtime import deadline
from alphred.store import SqlRunStore


class Clock:
    """The time the deadline is compared with: the real time, moved ``ahead`` when a test says so."""

    def __init__(self) -> None:
        self.ahead = timedelta(0)

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.ahead


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    moved = Clock()
    monkeypatch.setattr(deadline, "now", moved)
    return moved


def stored_steps(repo: Path, run_id: int = 1) -> list[tuple[str, int, str, str | None]]:
    with SqlRunStore(f"sqlite:///{repo / '.alphred' / 'alphred.db'}") as store:
        return [(s.phase, s.attempt, s.outcome.value, s.reason) for s in store.list_steps(run_id)]


def in_process(repo: Path, *args: str) -> Result:
    return cli(*args, "--repo", str(repo), env=base_env(repo.parent))


def test_the_running_attempt_is_killed_and_the_run_fails_timeout(repo: Path, clock: Clock, tmp_path: Path) -> None:
    pid_file, after = tmp_path / "pid", tmp_path / "after"
    wf = workflow(
        repo,
        f"""\
        limits: {{timeout: 1h}}
        phases:
          slow:
            type: command
            run: echo $$ > {pid_file}; exec sleep 3600
            transitions: [{{to: next}}]
          next:
            type: command
            run: touch {after}
        """,
    )
    results: list[Result] = []
    driving = threading.Thread(target=lambda: results.append(in_process(repo, "run", str(wf))))
    driving.start()
    pid = int(wait_until(lambda: pid_file.is_file() and pid_file.read_text().strip(), what="the command to start"))
    assert alive(pid)
    clock.ahead = timedelta(hours=1, seconds=1)  # the heartbeat sees the deadline pass
    wait_until(lambda: not driving.is_alive(), what="the run to stop")
    (result,) = results
    assert result.exit_code == 1, result.stderr
    assert "limits.timeout" in result.stdout + result.stderr  # the closing block says why
    shown = json.loads(in_process(repo, "status", "1", "--json").stdout)
    assert (shown["status"], shown["reason"]) == ("failed", "timeout")
    assert stored_steps(repo) == [("slow", 1, "failed", "timeout")]
    assert not alive(pid)  # its process group was killed
    assert not after.exists()  # nothing started after the deadline


def test_a_run_waiting_for_approval_fails_timeout_when_approved_too_late(repo: Path, clock: Clock) -> None:
    wf = workflow(
        repo,
        """\
        limits: {timeout: 90s}
        phases:
          gate:
            type: approval
            message: ship?
            transitions: [{to: done}]
          done:
            type: command
            run: echo shipped > shipped.txt
        """,
    )
    assert in_process(repo, "run", str(wf)).exit_code == 4
    clock.ahead = timedelta(seconds=91)
    result = in_process(repo, "approve", "1", "--json")
    assert result.exit_code == 1, result.stderr
    assert json.loads(result.stdout)["reason"] == "timeout"
    assert stored_steps(repo) == [("gate", 1, "failed", "timeout")]
    retried = in_process(repo, "retry", "1")  # the deadline never restarts: nothing is left to retry
    assert retried.exit_code != 0
    assert json.loads(in_process(repo, "status", "1", "--json").stdout)["reason"] == "timeout"


def test_a_run_approved_in_time_goes_on(repo: Path, clock: Clock) -> None:
    wf = workflow(
        repo,
        """\
        limits: {timeout: 90s}
        phases:
          gate: {type: approval, message: ship?, transitions: [{to: done}]}
          done: {type: command, run: 'true'}
        """,
    )
    assert in_process(repo, "run", str(wf)).exit_code == 4
    clock.ahead = timedelta(seconds=80)
    result = in_process(repo, "approve", "1", "--json")
    assert result.exit_code == 0, result.stderr
    assert [s[:3] for s in stored_steps(repo)] == [("gate", 1, "completed"), ("done", 1, "completed")]


def test_kill_9_then_resume_after_the_deadline_starts_nothing(repo: Path, clock: Clock, tmp_path: Path) -> None:
    marker = tmp_path / "second-ran"
    wf = workflow(
        repo,
        f"""\
        limits: {{timeout: 20m}}
        phases:
          first:
            type: command
            run: echo first >> first.log
            transitions: [{{to: second}}]
          second:
            type: command
            run: touch {marker}
        """,
    )
    env = base_env(repo.parent) | {"ALPHRED_CRASH_AT": "between_phases"}
    crashed = alphred(repo, "run", str(wf), env=env)
    assert crashed.returncode == -signal.SIGKILL
    assert [s[:3] for s in stored_steps(repo)] == [("first", 1, "completed")]
    clock.ahead = timedelta(minutes=20, seconds=1)  # the deadline is the stored start + 20m, not the resume's
    result = in_process(repo, "resume", "1", "--json")
    assert result.exit_code == 1, result.stderr
    assert json.loads(result.stdout)["reason"] == "timeout"
    assert stored_steps(repo) == [("first", 1, "completed", None), ("second", 1, "failed", "timeout")]
    assert not marker.exists()
