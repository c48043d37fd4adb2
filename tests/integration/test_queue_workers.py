"""SPEC §10 end to end: ``alphred submit`` and ``alphred worker`` processes on SQLite and PostgreSQL.

Real ``alphred`` processes, real git repositories (a local bare repository as ``origin``), a real SQLite
file or the test PostgreSQL schema. Every wait polls with a deadline; nothing sleeps to synchronise.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import run_alphred, spawn_alphred
from helpers.repos import git, make_repo, process_env
from helpers.runs import wait_for
from sqlalchemy import create_engine, text

LEDGER_WF = """\
inputs: {tag: {required: true}}
phases:
  work:
    type: command
    run: echo "{{ inputs.tag }}" >> "$LEDGER"
"""

SLOW_WF = """\
phases:
  slow:
    provider: scripted
    script:
      - {sleep: 30, report: never}
      - {report: done, files: {slow.txt: "done\\n"}}
    transitions: [{to: last}]
  last:
    type: command
    run: cat slow.txt
"""

GATE_WF = """\
phases:
  gate:
    type: approval
    transitions: [{to: work}]
  work:
    type: command
    run: echo gated >> "$LEDGER"
"""


@pytest.fixture
def world(tmp_path: Path, db_url: str) -> Iterator[dict[str, Any]]:
    """A repository with a bare ``origin``, a database URL, a ledger outside every worktree."""
    env = process_env(
        tmp_path,
        identity=True,
        LEDGER=str(tmp_path / "ledger"),
        ALPHRED_CACHE_DIR=str(tmp_path / "cache"),
        ALPHRED_LEASE_TTL="5",
    )
    repo = make_repo(tmp_path / "repo", env=env)
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(tmp_path / "origin.git")], check=True, env=env)
    git(repo, "remote", "add", "origin", str(tmp_path / "origin.git"), env=env)
    made: dict[str, Any] = {"tmp": tmp_path, "repo": repo, "db": db_url, "env": env, "ledger": tmp_path / "ledger"}
    yield made
    if "engine" in made:
        made["engine"].dispose()


def wf(world: dict[str, Any], body: str, name: str = "wf") -> str:
    path = world["tmp"] / f"{name}.yaml"
    path.write_text(f"alphred: 1\nkey: {name}\n" + textwrap.dedent(body))
    return str(path)


def cli(
    world: dict[str, Any], *args: str, cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return run_alphred(*args, "--db", world["db"], cwd=cwd or world["repo"], env=world["env"], timeout=timeout)


def spawn(world: dict[str, Any], *args: str, cwd: Path | None = None) -> subprocess.Popen[str]:
    return spawn_alphred(*args, "--db", world["db"], cwd=cwd or world["repo"], env=world["env"])


def submit(world: dict[str, Any], *args: str) -> int:
    result = cli(world, "submit", *args)
    assert result.returncode == 0, result.stderr
    return int(result.stdout)


def status(world: dict[str, Any], run_id: int) -> dict[str, Any]:
    result = cli(world, "status", str(run_id), "--json")
    assert result.returncode == 0, result.stderr
    obj: dict[str, Any] = json.loads(result.stdout)
    return obj


def row(world: dict[str, Any], run_id: int) -> Any:
    """The run's queue columns, read directly (cheap enough to poll)."""
    if "engine" not in world:
        world["engine"] = create_engine(world["db"])
    with world["engine"].connect() as conn:
        query = "select status, reason, lease_owner, repo_url, repo_root, priority from workflow_runs where id = :i"
        return conn.execute(text(query), {"i": run_id}).one()


def phase_status(world: dict[str, Any], run_id: int, phase: str) -> str:
    row(world, run_id)
    with world["engine"].connect() as conn:
        query = "select status from run_nodes where run_id = :i and node_key = :k"
        return str(conn.execute(text(query), {"i": run_id, "k": phase}).scalar_one())


def submit_many(world: dict[str, Any], file: str, tags: list[str]) -> None:
    """Submit one run per tag from ONE process (a process per submit would dominate the test's time)."""
    script = (
        "import sys\nfrom alphred.cli import app\n"
        "for tag in sys.argv[3:]:\n"
        "    code = app.main(['submit', sys.argv[1], '-i', 'tag=' + tag, '--db', sys.argv[2]], standalone_mode=False)\n"
        "    assert code == 0, code\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, file, world["db"], *tags],
        cwd=world["repo"], env=world["env"], capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def ledger(world: dict[str, Any]) -> list[str]:
    path: Path = world["ledger"]
    return path.read_text().split() if path.exists() else []


def workers(world: dict[str, Any]) -> list[dict[str, Any]]:
    result = cli(world, "workers", "--json")
    assert result.returncode == 0, result.stderr
    listed: list[dict[str, Any]] = json.loads(result.stdout)
    return listed


@pytest.fixture
def reaper() -> Iterator[list[subprocess.Popen[str]]]:
    """Processes a test started: killed (group and all) if the test left them running."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:  # pragma: no cover - only when a test failed
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate(timeout=60)


@pytest.mark.slow
def test_submit_queues_and_a_worker_runs_by_priority_then_age(world: dict[str, Any]) -> None:
    file = wf(world, LEDGER_WF)
    ids = [submit(world, file, "-i", "tag=low1"), submit(world, file, "-i", "tag=high", "--priority", "5")]
    as_json = cli(world, "submit", file, "-i", "tag=low2", "--json")
    assert as_json.returncode == 0, as_json.stderr
    queued = json.loads(as_json.stdout)
    assert queued["status"] == "pending" and queued["worktree"] is None and len(queued["base"]) == 40
    found = row(world, ids[0])
    assert found.status == "pending" and found.lease_owner is None and found.priority == 0
    assert found.repo_url == str(world["tmp"] / "origin.git") and len(found.repo_root) == 40
    assert not ledger(world)  # submit runs nothing
    done = cli(world, "worker", "--once")
    assert done.returncode == 0, done.stderr
    assert ledger(world) == ["high", "low1", "low2"]
    assert all(status(world, i)["status"] == "completed" for i in (*ids, queued["run_id"]))
    assert "finished 3 run(s)" in done.stderr


def test_bad_submit_is_exit_2_with_nothing_on_stdout(world: dict[str, Any]) -> None:
    result = cli(world, "submit", wf(world, LEDGER_WF), "--json")  # the required input is missing
    assert result.returncode == 2 and result.stdout == "" and "Error [MISSING_INPUT]" in result.stderr


@pytest.mark.slow
def test_racing_workers_never_execute_a_run_twice(world: dict[str, Any], reaper: list[Any]) -> None:
    file = wf(world, LEDGER_WF)
    tags = [f"r{i}" for i in range(12)]
    submit_many(world, file, tags)
    racers = [spawn(world, "worker", "--once", "-q", *extra) for extra in ([], [], ["--concurrency", "2"])]
    reaper.extend(racers)
    for racer in racers:
        _out, err = racer.communicate(timeout=240)
        assert racer.returncode == 0, err
    counts = Counter(ledger(world))
    assert sorted(counts) == sorted(tags) and set(counts.values()) == {1}  # every run once, none twice


@pytest.mark.slow
def test_capabilities_route_runs_and_status_says_why_one_waits(world: dict[str, Any], reaper: list[Any]) -> None:
    file = wf(world, LEDGER_WF)
    gpu = submit(world, file, "-i", "tag=gpu", "--requires", "gpu")
    plain = submit(world, file, "-i", "tag=plain")
    assert "waiting: no live worker" in cli(world, "status", str(gpu)).stdout
    idle = spawn(world, "worker", "--poll", "0.2", "--capability", "arm")
    reaper.append(idle)
    wait_for(lambda: row(world, plain).status == "completed")
    listed = workers(world)
    assert len(listed) == 1 and listed[0]["state"] == "live" and listed[0]["pid"] == idle.pid
    assert set(listed[0]) == {
        "id",
        "host",
        "pid",
        "started_at",
        "heartbeat_at",
        "capabilities",
        "runs",
        "state",
        "paused",
    }
    assert "arm" in listed[0]["capabilities"] and "scripted" in listed[0]["capabilities"]
    assert "waiting: no live worker offers gpu" in cli(world, "status", str(gpu)).stdout
    assert status(world, gpu)["status"] == "pending"
    idle.send_signal(signal.SIGTERM)
    idle.communicate(timeout=60)
    assert idle.returncode == 0 and workers(world) == []  # a clean stop leaves the registry
    taken = cli(world, "worker", "--once", "--capability", "gpu")
    assert taken.returncode == 0, taken.stderr
    assert ledger(world) == ["plain", "gpu"]


@pytest.mark.slow
def test_sigterm_interrupts_and_another_worker_finishes(world: dict[str, Any], reaper: list[Any]) -> None:
    run_id = submit(world, wf(world, SLOW_WF))
    first = spawn(world, "worker", "--poll", "0.2", "--grace", "20")
    reaper.append(first)
    wait_for(lambda: phase_status(world, run_id, "slow") == "running")
    first.send_signal(signal.SIGTERM)
    _out, err = first.communicate(timeout=60)
    assert first.returncode == 0, err
    stopped = row(world, run_id)
    assert (stopped.status, stopped.reason, stopped.lease_owner) == ("paused", "interrupted", None)
    second = cli(world, "worker", "--once")
    assert second.returncode == 0, second.stderr
    final = status(world, run_id)
    assert final["status"] == "completed"
    assert [(s["phase"], s["attempt"], s["outcome"]) for s in final["steps"]] == [
        ("slow", 1, "interrupted"),
        ("slow", 2, "completed"),
        ("last", 1, "completed"),
    ]


@pytest.mark.slow
def test_worker_in_another_clone_of_the_same_repository(world: dict[str, Any]) -> None:
    run_id = submit(world, wf(world, LEDGER_WF), "-i", "tag=elsewhere")
    other = world["tmp"] / "other-clone"
    subprocess.run(["git", "clone", "-q", str(world["repo"]), str(other)], check=True, env=world["env"])
    done = cli(world, "worker", "--once", "--repo", str(other))
    assert done.returncode == 0, done.stderr
    assert ledger(world) == ["elsewhere"] and status(world, run_id)["status"] == "completed"
    assert not (world["tmp"] / "cache").exists()  # the --repo of the same repository was used


@pytest.mark.slow
def test_worker_without_a_clone_clones_the_recorded_origin(world: dict[str, Any]) -> None:
    run_id = submit(world, wf(world, LEDGER_WF), "-i", "tag=cloned")
    nowhere = world["tmp"] / "not-a-repo"
    nowhere.mkdir()
    done = cli(world, "worker", "--once", cwd=nowhere)
    assert done.returncode == 0, done.stderr
    final = status(world, run_id)
    assert final["status"] == "completed" and ledger(world) == ["cloned"]
    clones = [p for p in (world["tmp"] / "cache").iterdir() if p.is_dir()]
    assert len(clones) == 1 and (clones[0] / ".git").is_dir()


@pytest.mark.slow
def test_detached_approval_is_left_to_the_workers(world: dict[str, Any]) -> None:
    run_id = submit(world, wf(world, GATE_WF))
    waited = cli(world, "worker", "--once")
    assert waited.returncode == 0, waited.stderr
    held = row(world, run_id)
    assert (held.status, held.reason, held.lease_owner) == ("paused", "awaiting_approval", None)  # no lease
    assert cli(world, "resume", str(run_id), "--detach").returncode == 2  # it waits for an approval
    approved = cli(world, "approve", str(run_id), "--detach", "--comment", "ok")
    assert approved.returncode == 0 and approved.stdout == "", approved.stderr
    assert not ledger(world)  # nothing ran in the approving process
    done = cli(world, "worker", "--once")
    assert done.returncode == 0, done.stderr
    assert status(world, run_id)["status"] == "completed" and ledger(world) == ["gated"]


@pytest.mark.slow
@pytest.mark.postgres
def test_notify_wakes_an_idle_worker_long_before_its_poll(world: dict[str, Any], reaper: list[Any]) -> None:
    if not world["db"].startswith("postgresql"):
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's")
    file = wf(world, LEDGER_WF)
    idle = spawn(world, "worker", "--poll", "3600")
    reaper.append(idle)
    first = submit(world, file, "-i", "tag=first")
    wait_for(lambda: row(world, first).status == "completed")  # the worker is now idle, for an hour
    second = submit(world, file, "-i", "tag=second")
    wait_for(lambda: row(world, second).status == "completed")  # woken by NOTIFY: its next poll is an hour away
    idle.send_signal(signal.SIGTERM)
    idle.communicate(timeout=60)
    assert idle.returncode == 0


@pytest.mark.slow
def test_allow_workflows_limits_what_a_worker_takes_and_status_says_why(
    world: dict[str, Any], reaper: list[Any]
) -> None:
    other = submit(world, wf(world, LEDGER_WF, name="other"), "-i", "tag=other")
    mine = submit(world, wf(world, LEDGER_WF, name="fix-docs"), "-i", "tag=mine")
    idle = spawn(world, "worker", "--poll", "0.2", "--allow-workflows", "fix-*")
    reaper.append(idle)
    wait_for(lambda: row(world, mine).status == "completed")
    assert "waiting: no live worker takes workflow other" in cli(world, "status", str(other)).stdout
    assert status(world, other)["status"] == "pending"
    assert "workflow:fix-*" in workers(world)[0]["capabilities"]
    shown = cli(world, "workers").stdout.splitlines()  # a table with a header and human times
    assert shown[0].split() == ["WORKER", "STATE", "STARTED", "HEARTBEAT", "CAPABILITIES", "RUNS", "PAUSED"]
    assert " ago " in shown[1] and " live " in shown[1]
    idle.send_signal(signal.SIGTERM)
    idle.communicate(timeout=60)
    assert ledger(world) == ["mine"]


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0"])
def test_poll_must_be_a_finite_positive_number(world: dict[str, Any], value: str) -> None:
    result = cli(world, "worker", "--once", "--poll", value)
    assert result.returncode == 2
    assert result.stderr.startswith("Error [USAGE]") and "Traceback" not in result.stderr
