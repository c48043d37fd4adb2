"""What the runtime measures of an attempt reaches its diagnostics row (it travels with the events the attempt
posts), and what an operator is told to do next comes from ``allowed_actions``. Real processes, git, SQLite."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.processes import alive
from helpers.runs import alphred, db, steps, wait_for, workflow


def rows(repo: Path) -> dict[tuple[str, int, str], tuple[object, ...]]:
    found = db(repo).execute(
        "select n.node_key, d.attempt, d.outcome, d.duration_ms, d.event_count, d.details "
        "from run_node_diagnostics d join run_nodes n on n.id = d.run_node_id"
    )
    return {(key, attempt, outcome): rest for key, attempt, outcome, *rest in found.fetchall()}


def test_each_step_row_holds_the_measurements_of_its_attempt(repo: Path) -> None:
    wf = workflow(
        repo,
        """\
        phases:
          talk:
            type: command
            run: "echo one; echo two; echo three"
            transitions: [{to: fail}]
          fail:
            type: command
            max_retries: 0
            run: "exit 3"
        """,
    )
    done = alphred(repo, "run", str(wf))
    assert done.returncode == 1, done.stderr
    found = rows(repo)
    duration, events, details = found[("talk", 1, "completed")]
    assert isinstance(duration, int) and events == 5  # the command, three lines, the result
    assert json.loads(str(details))["exit_code"] == 0
    duration, events, details = found[("fail", 1, "failed")]
    assert isinstance(duration, int) and events == 2
    said = json.loads(str(details))
    assert said["exit_code"] == 3 and said["message"] == "command exited with 3"


def test_a_branch_stopped_because_another_failed_keeps_what_was_measured_of_it(repo: Path) -> None:
    pid_file = repo.parent / "other.pid"
    wf = workflow(
        repo,
        f"""\
        phases:
          plan:
            type: command
            run: "true"
            transitions: [{{to: [broken, other]}}]
          broken:
            type: command
            max_retries: 0
            run: "while [ ! -s {pid_file} ]; do sleep 0.05; done; exit 1"
            transitions: [{{to: join}}]
          other:
            type: command
            run: "echo $$ > {pid_file}; echo started; while true; do sleep 0.05; done"
            transitions: [{{to: join}}]
          join: {{join: all, type: command, run: "true"}}
        """,
    )
    done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 1, done.stderr
    assert ("other", 1, "cancelled") in steps(json.loads(done.stdout))
    wait_for(lambda: not alive(int(pid_file.read_text())))
    duration, _events, details = rows(repo)[("other", 1, "cancelled")]
    assert isinstance(duration, int)  # measured while it ran: the engine stopped it before it could post
    assert json.loads(str(details))["start_sha"]


def test_a_run_routed_to_fail_is_not_offered_a_retry(repo: Path) -> None:
    wf = workflow(
        repo,
        """\
        phases:
          check:
            type: command
            run: "true"
            transitions: [{to: $fail}]
        """,
    )
    done = alphred(repo, "run", str(wf))
    assert done.returncode == 1, done.stderr
    assert "routed the run to $fail" in done.stderr
    # no `alphred retry 1`: it would refuse; --repo: the test's directory is not the run's repository
    assert f"next: alphred logs 1 --phase check --repo {repo}\n" in done.stderr
    shown = alphred(repo, "status", "1")
    assert shown.stdout.rstrip().endswith(f"next: alphred logs 1 --phase check --repo {repo}")
    retried = alphred(repo, "retry", "1")
    assert retried.returncode == 2
    assert "cannot retry run 1: it is failed (fail_target); it has no failed phase to retry" in retried.stderr
