"""The first hour of a user: closing blocks, status hints, dry runs without side effects, CI-safe branches,
resuming from another checkout, PR bodies from the final state. Real git, real SQLite, fake ``gh``."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.processes import run_alphred, wait_until
from helpers.scm import ScmWorld, git, make_world

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = """\
alphred: 1
key: ship
pull_request:
  body_from: review
phases:
  write:
    provider: scripted
    script: [{report: "Wrote hello.txt.", files: {hello.txt: "hi\\n"}}]
    transitions: [{to: review}]
  review:
    provider: scripted
    decisions: [approved, changes]
    script:
      - decision: approved
        report: {summary: "The change is small and right.", severity: none}
        tokens: 123
    transitions:
      - to: $end
        when: decision == "approved"
      - to: write
"""
FAILING = """\
alphred: 1
key: red
phases:
  tests:
    type: command
    run: "printf 'collected 3 items\\\\nFAILED test_x - assert 1 == 2\\\\n'; exit 3"
"""
GATED = """\
alphred: 1
key: gated
phases:
  write:
    provider: scripted
    script: [{report: "Wrote it.", files: {gate.txt: "x\\n"}}]
    transitions: [{to: gate}]
  gate:
    type: approval
    message: Ship it?
    transitions:
      - to: $end
        when: decision == "approved"
      - to: $fail
"""


def alphred(
    world: ScmWorld, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return run_alphred(*args, env={**(env or world.env), "PYTHONPATH": str(ROOT)}, cwd=cwd or world.repo)


def write(world: ScmWorld, text: str, name: str = "wf.yaml") -> Path:
    path = world.root / name
    path.write_text(text)
    return path


def test_a_completed_run_closes_with_branch_pr_tokens_and_next_command(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    summary = tmp_path / "summary.md"
    env = {**world.env, "GITHUB_STEP_SUMMARY": str(summary)}
    result = alphred(world, "run", str(write(world, SCRIPTED)), "--pr", env=env)
    assert result.returncode == 0, result.stderr
    tail = result.stderr[result.stderr.index("✓ run 1 completed · ship v1") :]
    assert "branch alphred/ship/1" in tail and "pull request https://github.com/acme/widgets/pull/42" in tail
    assert "123 tokens" in tail and "next: alphred status 1" in tail
    # the PR body: the review's structured report as prose, the final state (no running phase, its tokens)
    (create,) = [c for c in world.calls() if c["argv"][:2] == ["pr", "create"]]
    body = create["body"]
    assert body.startswith("The change is small and right.") and "```json" not in body
    assert "- **severity**: none" in body
    assert "| review | completed | 1 | 1 | approved | – | 123 |" in body and "running" not in body
    text = summary.read_text()
    assert "| review | completed |" in text and "running" not in text


def test_a_failed_command_shows_its_output_and_where_to_look(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    result = alphred(world, "run", str(write(world, FAILING)))
    assert result.returncode == 1
    assert "phase tests attempt 1 failed: its command exited with a non-zero code (COMMAND_FAILED)." in result.stderr
    assert "│ FAILED test_x - assert 1 == 2" in result.stderr
    assert "next: alphred logs 1 --phase tests · alphred retry 1" in result.stderr
    status = alphred(world, "status")  # the latest run by default
    assert "run 1: failed (retries_exhausted)" in status.stdout and "UTC" in status.stdout
    assert "next: alphred logs 1 --phase tests · alphred retry 1" in status.stdout
    bad = alphred(world, "approve", "1")
    assert bad.returncode == 2
    assert "Error [RUN_STATE]: cannot approve run 1: it is failed (retries_exhausted); it waits for no approval" in (
        bad.stderr
    )


def test_a_run_waiting_for_approval_says_how_to_answer_it(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    result = alphred(world, "run", str(write(world, GATED)))
    assert result.returncode == 4
    assert "phase gate waits for a person's approval." in result.stderr
    assert 'next: alphred approve 1 · alphred reject 1 --comment "why"' in result.stderr
    status = alphred(world, "status", "1")
    assert "waiting for approval" in status.stdout and "visits 0" not in status.stdout
    resumed = alphred(world, "resume", "1")
    assert resumed.returncode == 2
    assert "cannot resume run 1: it is paused (awaiting_approval); it waits for approval: alphred approve 1" in (
        resumed.stderr
    )
    paused = alphred(world, "pause", "1")
    assert "(paused)" not in paused.stderr


def test_a_running_run_whose_process_is_gone_says_so(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    slow = write(world, "alphred: 1\nkey: slow\nphases:\n  wait:\n    type: command\n    run: sleep 30\n")
    env = {**world.env, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "alphred", "run", str(slow), "-q"], cwd=world.repo, env=env, start_new_session=True
    )
    db = world.repo / ".alphred" / "alphred.db"

    def phase_runs() -> bool:
        if not db.exists():
            return False
        with sqlite3.connect(db) as conn:
            row = conn.execute("select status from run_nodes where node_key='wait'").fetchone()
        return bool(row and row[0] == "running")

    try:  # the tables may still be being created: an OperationalError is "not yet"
        wait_until(phase_runs, what="the run to start its phase", ignore=(sqlite3.OperationalError,))
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    status = alphred(world, "status")
    assert "run 1: running" in status.stdout
    assert "the process running it is gone — run `alphred resume 1` to continue it" in status.stdout
    assert "next: alphred resume 1" in status.stdout
    assert "running (process gone: alphred resume)" in alphred(world, "runs").stdout


@pytest.mark.slow
def test_dry_run_of_every_bundled_workflow_runs_no_command_and_opens_no_pr(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    marker = tmp_path / "touched-outside"
    touch = f"touch {marker}"
    inputs = {
        "address-review": ["-i", "pr=12"],
        "demo": ["-i", f"greeting=x; {touch}"],
        "design-implement-review": ["-i", "task=t", "-i", f"test_command={touch}"],
        "fix-issue": ["-i", "issue=12", "-i", f"test_command={touch}"],
        "fix-until-green": ["-i", f"task=t; {touch}"],
        "parallel-review": ["-i", f"against=main; {touch}"],
        "plan-parallel": ["-i", "goal=g", "-i", f"test_command={touch}"],
        "ralph-loop": ["-i", "task=t", "-i", f"check={touch}"],
        "review-only": ["-i", "pr=7"],
    }
    workflows = sorted((ROOT / "workflows").glob("*.yaml"))
    assert {p.stem for p in workflows} == set(inputs)  # a new bundled workflow gets its inputs here
    for path in workflows:
        extra = inputs[path.stem]
        result = alphred(world, "run", str(path), "--dry-run", "--pr", "--approve-all", *extra)
        assert result.returncode in (0, 1), result.stderr
        assert "dry run: agent phases were stubbed, commands were not run" in result.stderr, path.name
        assert "nothing was pushed and no pull request was opened" in result.stderr
    assert world.calls() == []  # gh was never called: no review posted, no PR
    assert not marker.exists()
    assert git(world.origin, "for-each-ref", "--format=%(refname)", "refs/heads/alphred") == ""
    logs = alphred(world, "logs", "--phase", "post")  # the latest run: review-only
    assert "dry run: would run `decision=approved" in logs.stdout and "not run, counted as passed" in logs.stdout


def test_dry_run_agents_keeps_running_commands(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    marker = tmp_path / "ran"
    wf = write(world, f"alphred: 1\nkey: c\nphases:\n  c:\n    type: command\n    run: touch {marker}\n")
    result = alphred(world, "run", str(wf), "--dry-run=agents")
    assert result.returncode == 0, result.stderr
    assert marker.exists() and "commands ran for real" in result.stderr


def test_invalid_workflow_diagnostics_are_printed_once(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    bad = write(world, "alphred: 1\nkey: bad\nphases:\n  a:\n    type: command\n    run: x\n    bogus: 1\n")
    result = alphred(world, "run", str(bad))
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if "bogus" in line]
    assert len(lines) == 1, result.stderr


def test_progress_lines_come_in_the_order_things_happen(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    flaky = write(
        world,
        "alphred: 1\nkey: flaky\npull_request: {}\nphases:\n  a:\n    provider: scripted\n    max_retries: 1\n"
        "    script: [{fail: boom}, {report: ok, files: {a.txt: a}}]\n",
    )
    hook = world.origin / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'protected: pushes are refused' >&2\nexit 1\n")
    hook.chmod(0o755)
    result = alphred(world, "run", str(flaky), env={**world.env, "ALPHRED_RETRY_BASE_SECONDS": "0.01"})
    assert result.returncode == 1
    lines = result.stderr.splitlines()

    def where(text: str) -> int:
        return next(i for i, line in enumerate(lines) if text in line)

    assert where("✗ a attempt 1 failed") < where("retrying a in") < where("▶ a (agent) attempt 2")
    assert where("✓ a attempt 2 completed") < where("Error [DELIVERY_FAILED]") < where("✗ run failed")
    assert "next: alphred retry 1   # push and open the pull request again" in result.stderr


@pytest.mark.slow
def test_a_dry_run_meets_guards_on_report_fields_or_says_which_guard_sent_it_to_fail(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    met = write(
        world,
        "alphred: 1\nkey: g\nphases:\n  review:\n    provider: scripted\n    decisions: [done]\n"
        "    script: [{decision: done, report: {severity: none}}]\n    transitions:\n"
        '      - to: $end\n        when: report.severity == "none" and report.score >= 3\n      - to: $fail\n',
    )
    assert alphred(world, "run", str(met), "--dry-run").returncode == 0  # the stub's report meets the guard
    unmet = write(
        world,
        "alphred: 1\nkey: h\nphases:\n  review:\n    provider: scripted\n    decisions: [done]\n"
        "    script: [{decision: done, report: {a: 2, b: 1}}]\n    transitions:\n"
        "      - to: $end\n        when: report.a > report.b\n      - to: $fail\n",
        name="unmet.yaml",
    )
    assert alphred(world, "run", str(unmet)).returncode == 0  # for real, the report has the fields
    result = alphred(world, "run", str(unmet), "--dry-run")
    assert result.returncode == 1
    assert "phase review routed the run to $fail (none of its guards before the final `to: $fail` matched)" in (
        result.stderr
    )
    assert "stub reports meet guards on `report.x` only where one field decides them" in result.stderr


def test_ctrl_c_pauses_and_the_closing_block_says_resume(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    slow = write(world, "alphred: 1\nkey: slow\nphases:\n  wait:\n    type: command\n    run: sleep 30\n")
    env = {**world.env, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(
        [sys.executable, "-m", "alphred", "run", str(slow)],
        cwd=world.repo,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stderr is not None
        for line in process.stderr:  # wait until the phase runs (the line is printed after it is stored)
            if "▶ wait (command) attempt 1" in line:
                break
        process.send_signal(signal.SIGINT)
        rest = process.stderr.read()
        assert process.wait(timeout=60) == 130
    assert "‖ run 1 paused (interrupted)" in rest and "next: alphred resume 1" in rest


def test_progress_in_a_60_column_terminal(tmp_path: Path) -> None:
    """A real pseudo-terminal 60 columns wide: every progress line and the live line fit in it."""
    import fcntl
    import pty
    import re
    import struct
    import termios

    world = make_world(tmp_path)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 60, 0, 0))
    env = {k: v for k, v in world.env.items() if k not in ("COLUMNS", "NO_COLOR")}
    env.update(PYTHONPATH=str(ROOT), TERM="xterm")
    with subprocess.Popen(
        [sys.executable, "-m", "alphred", "run", str(ROOT / "workflows" / "demo.yaml")],
        cwd=world.repo,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=slave,
    ) as process:
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # the other end closed: the process has ended
                break
            if not data:
                break
            chunks.append(data)
        assert process.wait(timeout=60) == 0
    os.close(master)
    text = b"".join(chunks).decode("utf-8")
    assert "\x1b[32" in text  # a terminal gets colour
    plain = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text).replace("\r\n", "\n")
    shown = [segment.split("\r")[-1] for segment in plain.split("\n")]
    progress = [line for line in shown if line.startswith(("[run ", "⟳", "    "))]
    assert len(progress) >= 13
    assert all(len(line) <= 60 for line in progress), [line for line in progress if len(line) > 60]
    # a line too long for 60 columns goes on below (indented) instead of losing its end: every routing is whole
    assert any(line.startswith("    ") for line in progress)
    joined = " ".join(line.strip() for line in progress)
    assert "→ implement" in joined and "→ $end" in joined and "run completed" in joined


def test_a_failed_check_shows_its_output_and_a_dry_run_runs_no_check(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    marker = tmp_path / "check-ran"
    wf = write(
        world,
        "alphred: 1\nkey: chk\nphases:\n  build:\n    type: command\n    run: 'true'\n    checks:\n"
        f"      - run: \"touch {marker}; printf 'collected 2\\\\nE   assert 1 == 2\\\\n'; exit 1\"\n"
        "        name: tests\n",
    )
    dry = alphred(world, "run", str(wf), "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert not marker.exists()  # a dry run runs no check either
    result = alphred(world, "run", str(wf))
    assert result.returncode == 1 and marker.exists()
    closing = result.stderr[result.stderr.index("✗ run 2 failed") :]
    assert "check tests failed (exit code 1)" in closing and "│ E   assert 1 == 2" in closing


def test_a_run_stopped_by_a_limit_says_which(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    loop = write(
        world,
        "alphred: 1\nkey: loop\nlimits: {max_steps: 2}\nphases:\n  a:\n    type: command\n    run: 'true'\n"
        "    transitions: [{to: a}]\n",
    )
    result = alphred(world, "run", str(loop))
    assert result.returncode == 1
    assert "✗ run 1 failed (max_steps)" in result.stderr
    assert "the run reached its limit of steps (limits.max_steps in the workflow)." in result.stderr


def test_a_paused_run_closes_with_resume(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    release = tmp_path / "release"
    first = f"while [ ! -f {release} ]; do sleep 0.05; done"  # the phase ends only once the pause is recorded
    wf = write(
        world,
        f"alphred: 1\nkey: p\nphases:\n  first:\n    type: command\n    run: {first}\n    transitions: [{{to: second}}]\n"
        "  second:\n    type: command\n    run: 'true'\n",
    )
    env = {**world.env, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(
        [sys.executable, "-m", "alphred", "run", str(wf)], cwd=world.repo, env=env, stderr=subprocess.PIPE, text=True
    ) as process:
        assert process.stderr is not None
        for line in process.stderr:
            if "▶ first (command) attempt 1" in line:
                break
        assert alphred(world, "pause", "1").returncode == 0
        release.touch()
        rest = process.stderr.read()
        assert process.wait(timeout=60) == 4
    assert "‖ run 1 paused · p v1" in rest and "(paused)" not in rest
    assert "next: alphred resume 1" in rest
    assert "run 1: paused · p v1" in alphred(world, "status").stdout
