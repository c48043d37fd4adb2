"""SPEC §7 promises, tested with real ``alphred`` processes, signals and kills on real SQLite and git."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import textwrap
import threading
from pathlib import Path

import pytest
from helpers.processes import alive, kill_group
from helpers.runs import alphred, base_env, db, events_of, start, status, steps, wait_for, workflow

# The slow attempt sleeps far longer than any test waits: a run that ends at all was interrupted, not waited for.
SLOW = """\
phases:
  first:
    type: command
    run: echo first >> first.log
    transitions: [{to: slow}]
  slow:
    provider: scripted
    script:
      - {sleep: 3600, report: never}
      - {report: done, files: {slow.txt: "done\\n"}}
    transitions: [{to: last}]
  last:
    type: command
    run: cat slow.txt
"""


def test_kill_mid_phase_then_resume_continues_without_redoing_work(repo: Path) -> None:
    wf = workflow(repo, SLOW)
    process = start(repo, "run", str(wf))
    wait_for(lambda: len(events_of(repo, "slow", 1)) >= 1)
    kill_group(process)
    before = status(repo)
    assert before["status"] == "running"  # what a crash leaves behind
    result = alphred(repo, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    after = json.loads(result.stdout)
    assert steps(after) == [
        ("first", 1, "completed"),
        ("slow", 1, "interrupted"),
        ("slow", 2, "completed"),
        ("last", 1, "completed"),
    ]
    assert events_of(repo, "slow", 1)[0][1] == "system"  # the killed attempt's events are kept
    assert after["branch"] == before["branch"]
    log = subprocess.run(
        ["git", "log", "--format=%s", after["branch"]], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert log[:2] == ["alphred(wf): slow [visit 1]", "alphred(wf): first [visit 1]"]  # first ran once


@pytest.mark.slow
def test_kill_between_phases_then_resume(repo: Path) -> None:
    wf = workflow(repo, SLOW.replace("{sleep: 3600, report: never}", "{report: quick, files: {slow.txt: 'x'}}"))
    env = base_env(repo.parent) | {"ALPHRED_CRASH_AT": "between_phases"}
    crashed = alphred(repo, "run", str(wf), env=env)
    assert crashed.returncode == -signal.SIGKILL
    assert steps(status(repo)) == [("first", 1, "completed")]
    result = alphred(repo, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert steps(json.loads(result.stdout)) == [
        ("first", 1, "completed"),
        ("slow", 1, "interrupted"),
        ("slow", 2, "completed"),
        ("last", 1, "completed"),
    ]


def test_kill_mid_commit_leaves_a_lock_that_resume_clears(repo: Path, tmp_path: Path) -> None:
    real_git = subprocess.run(["which", "git"], capture_output=True, text=True, check=True).stdout.strip()
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    marker = tmp_path / "committing"
    (fake_bin / "git").write_text(
        textwrap.dedent(
            f"""\
            #!/bin/sh
            for arg in "$@"; do
              if [ "$arg" = commit ]; then
                touch "$(  {real_git} rev-parse --git-dir)/index.lock" {marker}
                sleep 30
              fi
            done
            exec {real_git} "$@"
            """
        )
    )
    (fake_bin / "git").chmod(0o755)
    wf = workflow(repo, "phases:\n  write:\n    provider: scripted\n    script: [{files: {a.txt: a}}]\n")
    env = base_env(repo.parent)
    env["PATH"] = f"{fake_bin}{os.pathsep}{env['PATH']}"
    process = start(repo, "run", str(wf), env=env)
    wait_for(marker.exists)
    kill_group(process)
    result = alphred(repo, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    after = json.loads(result.stdout)
    assert steps(after) == [("write", 1, "completed")]  # its outcome was recorded before the commit: not redone
    shown = subprocess.run(["git", "show", "--stat", after["branch"]], cwd=repo, capture_output=True, text=True)
    assert "a.txt" in shown.stdout


@pytest.mark.slow
def test_ctrl_c_pauses_with_130_and_resume_finishes(repo: Path) -> None:
    wf = workflow(repo, SLOW)
    process = start(repo, "run", str(wf), "--json")
    wait_for(lambda: len(events_of(repo, "slow", 1)) >= 1)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)  # the attempt would sleep for an hour: it was interrupted
    assert process.returncode == 130, err
    paused = json.loads(out)
    assert (paused["status"], paused["reason"]) == ("paused", "interrupted")
    assert steps(paused)[-1] == ("slow", 1, "interrupted")
    assert "Traceback" not in err
    result = alphred(repo, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert steps(json.loads(result.stdout))[-2:] == [("slow", 2, "completed"), ("last", 1, "completed")]


def test_second_ctrl_c_stops_at_once_and_the_run_stays_resumable(repo: Path) -> None:
    pid_file, release = repo.parent / "stubborn.pid", repo.parent / "release"
    wf = workflow(
        repo,
        f"""\
        phases:
          stubborn:
            type: command
            run: "trap '' TERM INT; echo $$ > {pid_file}; echo started; while [ ! -f {release} ]; do sleep 0.05; done; echo never"
            max_retries: 0
        """,
    )
    process = start(repo, "run", str(wf), env=base_env(repo.parent) | {"ALPHRED_DB_BUSY_TIMEOUT": "600"})
    wait_for(lambda: len(events_of(repo, "stubborn", 1)) >= 2)
    said: list[str] = []

    def read_stderr() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            said.append(line)

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    # Hold the database's write lock: the first interrupt cannot record the attempt's end, so the run cannot
    # stop on its own however long the test takes to send the second one; only the second one can stop it.
    holder = sqlite3.connect(repo / ".alphred" / "alphred.db", isolation_level=None, timeout=60)
    try:
        holder.execute("BEGIN IMMEDIATE")
        process.send_signal(signal.SIGINT)
        wait_for(lambda: any("interrupting the active phase" in line for line in said))  # the first one was handled
        process.send_signal(signal.SIGINT)
        process.wait(timeout=120)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    reader.join(timeout=30)
    for stream in (process.stdout, process.stderr):
        assert stream is not None
        stream.close()
    assert any("second interrupt: stopping at once" in line for line in said), said
    assert process.returncode == 130
    stubborn = int(pid_file.read_text())
    wait_for(lambda: not alive(stubborn))  # the command's process group was killed too: no orphan
    assert status(repo)["status"] in ("running", "paused")
    fixed = wf.read_text().replace("echo never", "echo fixed")
    wf.write_text(fixed)  # the stored workflow is used on resume, not the edited file
    release.touch()
    result = alphred(repo, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert steps(json.loads(result.stdout))[-1][2] == "completed"


def test_cancel_from_another_process_stops_the_run_with_exit_3(repo: Path) -> None:
    wf = workflow(repo, SLOW)
    process = start(repo, "run", str(wf), "--json")
    wait_for(lambda: len(events_of(repo, "slow", 1)) >= 1)
    cancelled = alphred(repo, "cancel", "1")
    assert cancelled.returncode == 0 and "cancel requested" in cancelled.stderr
    out, err = process.communicate(timeout=120)
    assert process.returncode == 3, err
    final = json.loads(out)
    assert (final["status"], final["reason"]) == ("cancelled", "cancelled")
    assert {p["key"]: p["status"] for p in final["phases"]} == {
        "first": "completed",
        "slow": "cancelled",
        "last": "cancelled",
    }
    again = alphred(repo, "cancel", "1")
    assert again.returncode == 0 and "already cancelled" in again.stderr
    assert alphred(repo, "resume", "1").returncode == 2


@pytest.mark.slow
def test_pause_finishes_the_current_phase_then_resume(repo: Path) -> None:
    release = repo.parent / "release"
    wf = workflow(
        repo,
        f"""\
        phases:
          a:
            type: command
            run: "while [ ! -f {release} ]; do sleep 0.02; done; echo a done"
            transitions: [{{to: b}}]
          b:
            type: command
            run: echo b
        """,
    )
    process = start(repo, "run", str(wf), "--json")
    wait_for(lambda: len(events_of(repo, "a", 1)) >= 1)
    paused = alphred(repo, "pause", "1")
    assert paused.returncode == 0
    release.touch()  # phase a ends only once the pause is recorded: no race with a sleep
    out, err = process.communicate(timeout=120)
    assert process.returncode == 4, err
    obj = json.loads(out)
    assert (obj["status"], obj["reason"]) == ("paused", "paused")
    assert [p["status"] for p in obj["phases"]] == ["completed", "pending"]
    assert alphred(repo, "pause", "1").returncode == 0  # already paused: a no-op
    result = alphred(repo, "resume", "1", "--json")
    assert result.returncode == 0
    assert steps(json.loads(result.stdout)) == [("a", 1, "completed"), ("b", 1, "completed")]
    assert alphred(repo, "pause", "1").returncode == 2  # an ended run
    assert "Error [RUN_STATE]" in alphred(repo, "resume", "1").stderr


def test_two_processes_never_execute_the_same_attempt(repo: Path) -> None:
    wf = workflow(
        repo,
        """\
        phases:
          gate:
            type: approval
            transitions: [{to: work}]
          work:
            type: command
            run: echo "$$" >> "$ALPHRED_TEST_LOG"; sleep 1
        """,
    )
    log = repo.parent / "executions.log"
    env = base_env(repo.parent) | {"ALPHRED_TEST_LOG": str(log)}
    assert alphred(repo, "run", str(wf), env=env).returncode == 4
    racers = [start(repo, "approve", "1", env=env) for _ in range(2)]
    outputs = [p.communicate(timeout=120) for p in racers]
    codes = sorted(p.returncode for p in racers)
    errors = "".join(err for _, err in outputs)
    assert codes == [0, 2], errors
    assert "RUN_BUSY" in errors or "RUN_STATE" in errors
    assert len(log.read_text().splitlines()) == 1
    assert db(repo).execute("select count(*) from run_node_diagnostics").fetchone() == (2,)


@pytest.mark.slow
def test_idle_timeout_fails_the_attempt_and_stops_the_provider(repo: Path) -> None:
    wf = workflow(
        repo,
        """\
        phases:
          hung:
            provider: scripted
            idle_timeout: 1s
            max_retries: 1
            script: [{sleep: 3600}]
        """,
    )
    result = alphred(repo, "run", str(wf), "--json")  # each attempt would sleep for an hour: both were stopped
    obj = json.loads(result.stdout)
    assert result.returncode == 1 and obj["reason"] == "retries_exhausted"
    reasons = db(repo).execute("select reason, error_code from run_node_diagnostics order by id").fetchall()
    assert reasons == [("idle_timeout", "IDLE_TIMEOUT"), ("idle_timeout", "IDLE_TIMEOUT")]


def test_budget_is_checked_before_a_phase_starts(repo: Path) -> None:
    wf = workflow(
        repo,
        """\
        limits: {max_tokens: 100}
        phases:
          spend:
            provider: scripted
            script: [{tokens: 150, report: spent}]
            transitions: [{to: more}]
          more:
            provider: scripted
            script: [{report: never}]
        """,
    )
    result = alphred(repo, "run", str(wf), "--json")
    obj = json.loads(result.stdout)
    assert result.returncode == 1 and obj["reason"] == "budget_exhausted"
    assert obj["tokens"] == 150 and [p["attempt"] for p in obj["phases"]] == [1, 0]


def test_retry_requeues_the_failed_phase(repo: Path) -> None:
    flag = repo.parent / "fixed"
    wf = workflow(
        repo,
        f"""\
        phases:
          check:
            type: command
            run: test -f {flag}
        """,
    )
    assert alphred(repo, "run", str(wf)).returncode == 1
    flag.touch()
    result = alphred(repo, "retry", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert steps(json.loads(result.stdout)) == [("check", 1, "failed"), ("check", 2, "completed")]
    assert alphred(repo, "retry", "1").returncode == 2  # a completed run cannot be retried


@pytest.mark.slow
def test_approve_and_reject_with_comments(repo: Path) -> None:
    wf = workflow(
        repo,
        """\
        phases:
          gate:
            type: approval
            message: ship?
            transitions:
              - {to: $end, when: decision == "approved" and report.comment == "ship it"}
              - {to: $fail}
        """,
    )
    assert alphred(repo, "run", str(wf)).returncode == 4
    result = alphred(repo, "approve", "1", "--comment", "ship it", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["steps"] == [
        {
            "phase": "gate",
            "attempt": 1,
            "outcome": "completed",
            "decision": "approved",
            "next": "$end",
            "checks": [],
            "branch": None,
            "provider": None,
        }
    ]
    assert alphred(repo, "run", str(wf)).returncode == 4
    rejected = alphred(repo, "reject", "2", "--comment", "no", "--json")
    assert rejected.returncode == 1 and json.loads(rejected.stdout)["reason"] == "fail_target"
    assert "Error [RUN_STATE]" in alphred(repo, "approve", "2").stderr


def test_retryable_failure_backs_off_and_the_retry_sees_the_failure(repo: Path) -> None:
    wf = workflow(
        repo,
        """\
        phases:
          flaky:
            provider: scripted
            max_retries: 1
            script: [{fail: "upstream 503"}, {report: ok}]
        """,
    )
    result = alphred(repo, "run", str(wf), "--json")
    assert result.returncode == 0, result.stderr
    first = json.loads(events_of(repo, "flaky", 1)[0][3])
    second = json.loads(events_of(repo, "flaky", 2)[0][3])
    assert first["context_items"] == 0 and second["context_items"] == 1
    assert "retrying flaky in" in result.stderr and "failed (internal)" in result.stderr


def test_logs_follow_streams_until_the_run_ends(repo: Path) -> None:
    release = repo.parent / "release"
    wf = workflow(
        repo,
        f"""\
        phases:
          hold:
            type: command
            run: "echo holding; while [ ! -f {release} ]; do sleep 0.05; done"
            transitions: [{{to: a}}]
          a:
            provider: scripted
            script: [{{report: finished a}}]
            transitions: [{{to: b}}]
          b:
            type: command
            run: echo from-b
        """,
    )
    process = start(repo, "run", str(wf))
    wait_for(lambda: len(events_of(repo, "hold", 1)) >= 1)
    follow = start(repo, "logs", "1", "--follow")
    shown: list[str] = []
    reader = threading.Thread(target=lambda: shown.extend(follow.stdout or []), daemon=True)
    reader.start()
    wait_for(lambda: any("holding" in line for line in shown))  # following while the run still holds
    release.touch()  # what follows happens after `logs --follow` attached: it must stream it
    follow.wait(timeout=120)
    reader.join(timeout=30)  # the reader alone reads stdout, to its end
    assert follow.stdout is not None and follow.stderr is not None
    follow_err = follow.stderr.read()
    follow.stdout.close()
    follow.stderr.close()
    process.communicate(timeout=120)
    assert follow.returncode == 0 and process.returncode == 0, follow_err
    out = "".join(shown)
    assert "a#1" in out and "finished a" in out and "from-b" in out


@pytest.mark.slow
def test_worker_takes_over_an_abandoned_run_and_leaves_live_ones_alone(repo: Path) -> None:
    wf = workflow(repo, SLOW)
    process = start(repo, "run", str(wf))
    wait_for(lambda: len(events_of(repo, "slow", 1)) >= 1)
    idle = alphred(repo, "worker", "--once")  # the run's process is alive: nothing to take
    assert idle.returncode == 0 and "finished 0 run(s)" in idle.stderr
    kill_group(process)
    taken = alphred(repo, "worker", "--once")
    assert taken.returncode == 0, taken.stderr
    assert "run 1: completed" in taken.stderr and "finished 1 run(s)" in taken.stderr
    assert steps(status(repo))[-2:] == [("slow", 2, "completed"), ("last", 1, "completed")]
    assert "finished 0 run(s)" in alphred(repo, "worker", "--once").stderr


@pytest.mark.slow
def test_resume_after_a_crash_ignores_a_pause_requested_before_it(repo: Path) -> None:
    wf = workflow(
        repo,
        SLOW.replace(
            '{report: done, files: {slow.txt: "done\\n"}}', '{sleep: 1.2, report: done, files: {slow.txt: "done\\n"}}'
        ),
    )
    assert "sleep: 1.2" in wf.read_text()
    process = start(repo, "run", str(wf))
    wait_for(lambda: len(events_of(repo, "slow", 1)) >= 1)
    assert alphred(repo, "pause", "1").returncode == 0
    kill_group(process)  # the process died before it could pause
    result = alphred(repo, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["status"] == "completed"
