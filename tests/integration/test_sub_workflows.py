"""Sub-workflows end to end (SPEC §13): a ``type: workflow`` phase runs its child as a run of its own on the
parent's branch and worktree. Real ``alphred`` processes, real git, real SQLite, real kills.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from helpers import repos
from helpers.processes import kill_group
from helpers.runs import (
    APPROVAL_CHILD,
    APPROVAL_PARENT,
    alphred,
    base_env,
    db,
    start,
    status,
    steps,
    wait_for,
    workflow,
)

from alphred.store import SqlRunStore, open_reader
from alphred.store.sqlite_reader import SqliteReader


def git(repo: Path, *args: str) -> str:
    return repos.git(repo, *args, env=base_env(repo.parent))


def child_file(repo: Path, body: str, name: str = "child.yaml") -> Path:
    path = repo.parent / name
    path.write_text(textwrap.dedent(body))
    return path


def subjects(repo: Path, branch: str) -> list[str]:
    return git(repo, "log", "--format=%s", f"main..{branch}").splitlines()[::-1]


def _status_lines(repo: Path, after: str, count: int, run_id: int = 1) -> list[str]:
    """``count`` lines of ``alphred status RUN`` that follow the line ``after``."""
    shown = alphred(repo, "status", str(run_id)).stdout.splitlines()
    at = shown.index(after)
    return shown[at + 1 : at + 1 + count]


RESUMED = [("first", 1, "completed"), ("sub", 1, "interrupted"), ("sub", 2, "completed"), ("last", 1, "completed")]
"""The steps of ``PARENT`` killed during ``sub`` and resumed."""


def _resumed_steps(repo: Path) -> list[tuple[str, int, str]]:
    """``alphred resume 1 --json`` to its successful end: the run's steps."""
    resumed = alphred(repo, "resume", "1", "--json")
    assert resumed.returncode == 0, resumed.stderr
    return steps(json.loads(resumed.stdout))


def _crashed(repo: Path, wf: Path, point: str) -> None:
    """``alphred run WF`` killed at crash point ``point`` (``NAME`` or ``NAME@N``)."""
    crashed = alphred(repo, "run", str(wf), env=base_env(repo.parent) | {"ALPHRED_CRASH_AT": point})
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr


CHILD = """\
alphred: 1
key: child
inputs:
  name: {required: true}
phases:
  work:
    type: command
    run: echo {{ inputs.name }} > child.txt
    transitions: [{to: review}]
  review:
    provider: scripted
    output: {type: object, required: [verdict], properties: {verdict: {type: string}}}
    script: [{decision: approved, report: {verdict: fine}, tokens: 7, files: {review.txt: "ok\\n"}}]
"""

PARENT = """\
inputs:
  topic: {default: apples}
phases:
  first:
    type: command
    run: echo one > one.txt
    transitions: [{to: sub}]
  sub:
    type: workflow
    uses: child.yaml
    with: {name: "{{ inputs.topic }}-x"}
    transitions:
      - {to: last, when: 'decision == "approved" and report.verdict == "fine"'}
      - {to: $fail}
  last:
    type: command
    run: cat child.txt review.txt > last.txt
"""


def test_parent_child_parent_commit_on_one_branch_and_the_child_report_routes(repo: Path) -> None:
    child_file(repo, CHILD)
    wf = workflow(repo, PARENT)
    done = alphred(repo, "run", str(wf), "-i", "topic=pears", "--json")
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout)
    assert steps(final) == [("first", 1, "completed"), ("sub", 1, "completed"), ("last", 1, "completed")]
    assert subjects(repo, final["branch"]) == [
        "alphred(wf): first [visit 1]",
        "alphred(child): work [visit 1]",
        "alphred(child): review [visit 1]",
        "alphred(wf): last [visit 1]",
    ]  # one branch: the child's phases committed on the parent's branch, in order
    assert git(repo, "show", f"{final['branch']}:last.txt") == "pears-x\nok"
    assert final["tokens"] == 7  # the child's usage is the parent's
    shown = status(repo)
    sub = next(p for p in shown["phases"] if p["key"] == "sub")
    assert sub["decision"] == "approved" and sub["report"] == {"verdict": "fine"}
    [child] = shown["children"]
    assert (child["run_id"], child["parent_run_id"], child["parent_step"]) == (2, 1, "sub#1.1")
    assert child["inputs"] == {"name": "pears-x"} and child["branch"] == final["branch"]
    assert steps(child) == [("work", 1, "completed"), ("review", 1, "completed")]
    listed = json.loads(alphred(repo, "runs", "--json").stdout)
    assert [(r["run_id"], r["child_run_ids"]) for r in listed] == [(1, [2])]  # top-level runs, their children
    assert "wf v1 +1 sub-workflow " in alphred(repo, "runs").stdout
    assert _status_lines(repo, "    2. sub #1 completed [approved] → last", 4) == [
        "       ↳ sub-workflow run 2: completed · child v1",
        "           1. work #1 completed → review",
        "           2. review #1 completed → -",
        "    3. last #1 completed → -",
    ]  # the child's steps under the step of the workflow phase that ran it
    own = alphred(repo, "status", "2").stdout
    assert "sub-workflow of run 1 (phase sub)" in own
    refused = alphred(repo, "resume", "2")
    assert (
        refused.returncode == 2 and "it is a sub-workflow of run 1: alphred resume 1 continues both" in refused.stderr
    )


def test_a_failing_child_fails_the_attempt_with_its_reason(repo: Path) -> None:
    child_file(repo, "alphred: 1\nkey: child\nphases:\n  boom:\n    type: command\n    run: exit 3\n")
    wf = workflow(repo, "phases:\n  sub:\n    type: workflow\n    uses: child.yaml\n")
    done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 1, done.stderr
    final = json.loads(done.stdout)
    assert final["status"] == "failed" and steps(final) == [("sub", 1, "failed")]
    [step] = db(repo).execute("select reason, error_code from run_node_diagnostics where run_id = 1").fetchall()
    assert step == ("child_failed", "CHILD_RUN_FAILED")
    assert "sub-workflow run 2 (child) failed: retries_exhausted (phase boom, attempt 1: exit_code)" in done.stderr
    child = status(repo, 2)
    assert child["status"] == "failed" and child["parent_run_id"] == 1


def test_the_parents_remaining_budget_caps_the_child(repo: Path) -> None:
    child_file(
        repo,
        """\
        alphred: 1
        key: child
        limits: {max_steps: 50}
        phases:
          a: {type: command, run: "true", transitions: [{to: b}]}
          b: {type: command, run: "true", transitions: [{to: c}]}
          c: {type: command, run: "true"}
        """,
    )
    wf = workflow(
        repo,
        """\
        limits: {max_steps: 3}
        phases:
          first: {type: command, run: "true", transitions: [{to: sub}]}
          sub: {type: workflow, uses: child.yaml}
        """,
    )
    done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 1, done.stderr
    child = status(repo, 2)
    assert child["status"] == "failed" and child["reason"] == "max_steps"  # 3 - 2 (first, sub itself): 1 left
    assert steps(child) == [("a", 1, "completed")]
    assert "sub-workflow run 2 (child) failed: max_steps" in done.stderr


CRASH_CHILD = """\
alphred: 1
key: child
inputs:
  gate: {required: true}
phases:
  work:
    type: command
    run: echo work >> work.log
    transitions: [{to: wait}]
  wait:
    type: command
    run: cat {{ inputs.gate }} > gate.txt
    transitions: [{to: after}]
  after:
    type: command
    run: echo after >> after.log
"""


def _gated_child(repo: Path, tmp_path: Path) -> Path:
    """Write ``CRASH_CHILD`` beside the workflow; the fifo its ``wait`` phase blocks on until ``_open_gate``."""
    fifo = tmp_path / "gate.fifo"
    os.mkfifo(fifo)
    child_file(repo, CRASH_CHILD)
    return fifo


def _open_gate(fifo: Path) -> None:
    """Write to the fifo once a reader has it open (polled: no sleep stands in for the reader)."""

    def reader_there() -> bool:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as exc:
            if exc.errno == errno.ENXIO:
                return False
            raise
        try:
            os.write(fd, b"go\n")
        finally:
            os.close(fd)
        return True

    wait_for(reader_there)


def _child_waiting(repo: Path, attempt: int = 1) -> bool:
    """The child's ``wait`` attempt runs and its process group is recorded (a later one: the dead attempt's
    processes were killed before it started)."""
    found = (
        db(repo)
        .execute(
            "select n.status, n.attempt, count(p.id) from run_nodes n join workflow_runs r on r.id = n.run_id "
            "left join run_processes p on p.run_id = n.run_id and p.node_key = n.node_key and p.attempt = n.attempt "
            "where r.parent_run_id = 1 and n.node_key = 'wait' group by n.id"
        )
        .fetchall()
    )
    return found == [("running", attempt, 1)]


@pytest.mark.parametrize("how", ["resume", "worker"])
def test_kill_mid_child_then_resume_or_worker_takes_both_over(repo: Path, tmp_path: Path, how: str) -> None:
    fifo = _gated_child(repo, tmp_path)
    wf = workflow(
        repo,
        f"""\
        phases:
          first:
            type: command
            run: echo first >> first.log
            transitions: [{{to: sub}}]
          sub:
            type: workflow
            uses: child.yaml
            with: {{gate: "{fifo}"}}
            transitions: [{{to: last}}]
          last:
            type: command
            run: cat work.log gate.txt after.log first.log > last.txt
        """,
    )
    process = start(repo, "run", str(wf))
    wait_for(lambda: _child_waiting(repo))
    assert _status_lines(repo, "    1. first #1 completed → sub", 2) == [
        "       ↳ sub-workflow run 2: running · child v1",
        "           1. work #1 completed → wait",
    ]  # the phase running the child has no step yet: its child is shown after the steps
    kill_group(process)  # the run's process dies; the child's `cat` is left blocked on the fifo
    assert status(repo)["status"] == "running" and status(repo, 2)["status"] == "running"
    going = start(repo, "resume", "1") if how == "resume" else start(repo, "worker", "--once")
    wait_for(lambda: _child_waiting(repo, 2))
    _open_gate(fifo)  # only the new attempt's reader can take it: the dead attempt's process was killed
    _out, err = going.communicate(timeout=120)
    assert going.returncode == 0, err
    final = status(repo)
    assert final["status"] == "completed", err
    assert steps(final) == [
        ("first", 1, "completed"),
        ("sub", 1, "interrupted"),
        ("sub", 2, "completed"),
        ("last", 1, "completed"),
    ]
    [child] = final["children"]  # the same child, continued: no second child run
    assert child["run_id"] == 2 and child["parent_step"] == "sub#1.1" and child["status"] == "completed"
    assert steps(child) == [
        ("work", 1, "completed"),
        ("wait", 1, "interrupted"),
        ("wait", 2, "completed"),
        ("after", 1, "completed"),
    ]
    assert subjects(repo, final["branch"]) == [
        "alphred(wf): first [visit 1]",
        "alphred(child): work [visit 1]",
        "alphred(child): wait [visit 1]",
        "alphred(child): after [visit 1]",
        "alphred(wf): last [visit 1]",
    ]  # every phase committed exactly once
    assert git(repo, "show", f"{final['branch']}:last.txt") == "work\ngo\nafter\nfirst"
    assert _run_steps(repo) == [(1, 8), (2, 4)]  # first, sub #1, sub #2, last and the child's 4, once
    assert _status_lines(repo, "    2. sub #1 interrupted → -", 2) == [
        "    3. sub #2 completed → last",
        "       ↳ sub-workflow run 2: completed · child v1",
    ]  # under the attempt that continued the child and ended it


def _runs(repo: Path) -> list[tuple[Any, ...]]:
    return db(repo).execute("select id, status, reason, parent_run_id from workflow_runs order by id").fetchall()


def test_pause_of_the_parent_pauses_the_child_and_resume_continues_both(repo: Path, tmp_path: Path) -> None:
    fifo = _gated_child(repo, tmp_path)
    wf = workflow(
        repo,
        f"""\
        phases:
          sub:
            type: workflow
            uses: child.yaml
            with: {{gate: "{fifo}"}}
            transitions: [{{to: last}}]
          last: {{type: command, run: cat gate.txt}}
        """,
    )
    process = start(repo, "run", str(wf))
    wait_for(lambda: _child_waiting(repo))
    paused = alphred(repo, "pause", "1")
    assert paused.returncode == 0, paused.stderr
    _open_gate(fifo)  # the child's phase ends; it pauses at that boundary, and the parent with it
    _out, err = process.communicate(timeout=120)
    assert _runs(repo) == [(1, "paused", "interrupted", None), (2, "paused", "paused", 1)], err
    assert steps(status(repo, 2)) == [("work", 1, "completed"), ("wait", 1, "completed")]
    resumed = alphred(repo, "resume", "1", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert _runs(repo) == [(1, "completed", None, None), (2, "completed", None, 1)]
    assert steps(status(repo, 2)) == [("work", 1, "completed"), ("wait", 1, "completed"), ("after", 1, "completed")]


def test_cancel_of_a_paused_parent_cancels_its_child(repo: Path, tmp_path: Path) -> None:
    fifo = _gated_child(repo, tmp_path)
    wf = workflow(repo, f'phases:\n  sub: {{type: workflow, uses: child.yaml, with: {{gate: "{fifo}"}}}}\n')
    process = start(repo, "run", str(wf))
    wait_for(lambda: _child_waiting(repo))
    kill_group(process)
    cancelled = alphred(repo, "cancel", "1")
    assert cancelled.returncode == 0, cancelled.stderr
    assert [(row[0], row[1]) for row in _runs(repo)] == [(1, "cancelled"), (2, "cancelled")]


def test_ctrl_c_interrupts_child_and_parent_and_resume_continues_both(repo: Path, tmp_path: Path) -> None:
    fifo = _gated_child(repo, tmp_path)
    wf = workflow(repo, f'phases:\n  sub: {{type: workflow, uses: child.yaml, with: {{gate: "{fifo}"}}}}\n')
    process = start(repo, "run", str(wf))
    wait_for(lambda: _child_waiting(repo))
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert _runs(repo) == [(1, "paused", "interrupted", None), (2, "paused", "interrupted", 1)]
    going = start(repo, "resume", "1")
    wait_for(lambda: _child_waiting(repo, 2))
    _open_gate(fifo)
    _out, err = going.communicate(timeout=120)
    assert going.returncode == 0, err
    assert steps(status(repo)) == [("sub", 1, "interrupted"), ("sub", 2, "completed")]
    assert steps(status(repo, 2)) == [
        ("work", 1, "completed"),
        ("wait", 1, "interrupted"),
        ("wait", 2, "completed"),
        ("after", 1, "completed"),
    ]


def test_cancel_of_a_running_parent_cancels_both(repo: Path, tmp_path: Path) -> None:
    fifo = _gated_child(repo, tmp_path)
    wf = workflow(repo, f'phases:\n  sub: {{type: workflow, uses: child.yaml, with: {{gate: "{fifo}"}}}}\n')
    process = start(repo, "run", str(wf))
    wait_for(lambda: _child_waiting(repo))
    cancelled = alphred(repo, "cancel", "1")
    assert cancelled.returncode == 0, cancelled.stderr
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 3, err
    assert [(row[0], row[1]) for row in _runs(repo)] == [(1, "cancelled"), (2, "cancelled")]


def test_kill_right_after_the_child_is_created_then_resume_uses_that_child(repo: Path) -> None:
    child_file(repo, CHILD)
    wf = workflow(repo, PARENT)
    _crashed(repo, wf, "child_run_created")
    assert _runs(repo) == [(1, "running", None, None), (2, "pending", None, 1)]  # the intent: created, not started
    assert _resumed_steps(repo) == RESUMED
    assert [r[0] for r in _runs(repo)] == [1, 2]  # no second child
    assert steps(status(repo, 2)) == [("work", 1, "completed"), ("review", 1, "completed")]


def test_the_offline_sub_workflow_example_runs(repo: Path) -> None:
    example = Path(__file__).resolve().parents[1] / "fixtures" / "workflows" / "sub-workflow-offline.yaml"
    done = alphred(repo, "run", str(example), "--json")
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout)
    assert steps(final) == [("plan", 1, "completed"), ("implement", 1, "completed"), ("review", 1, "completed")]
    assert git(repo, "show", f"{final['branch']}:tested.txt") == "Add the --config flag"
    assert [s[0] for s in steps(status(repo, 2))] == ["implement", "test", "judge"]


HOSTILE_CHILD = """\
alphred: 1
key: child
inputs:
  name: {required: true}
phases:
  work:
    type: command
    run: echo {{ inputs.name }} > child.txt
"""


def test_a_rewritten_child_file_and_a_shell_laden_input_steer_nothing(repo: Path) -> None:
    """Hostile input (SPEC §13/§14): a phase before the workflow phase rewrites the child's file (as an agent
    writing outside its worktree could) to run its own command, and the value handed down through ``with:``
    carries shell syntax. The child runs as it was when the run started, and the value stays a value."""
    child = child_file(repo, HOSTILE_CHILD)
    pwned = repo.parent / "pwned"
    evil = HOSTILE_CHILD.replace("echo {{ inputs.name }} > child.txt", f"touch {pwned}")
    (repo.parent / "evil.yaml").write_text(evil)
    wf = workflow(
        repo,
        f"""\
        inputs:
          topic: {{required: true}}
        phases:
          agent:
            type: command
            run: cp {repo.parent / "evil.yaml"} {child}
            transitions: [{{to: sub}}]
          sub:
            type: workflow
            uses: child.yaml
            with: {{name: "{{{{ inputs.topic }}}}"}}
        """,
    )
    done = alphred(repo, "run", str(wf), "-i", f"topic=$(touch {pwned}); `touch {pwned}`", "--json")
    assert done.returncode == 0, done.stderr
    assert child.read_text() == evil  # the file did change under the run
    final = json.loads(done.stdout)
    assert steps(final) == [("agent", 1, "completed"), ("sub", 1, "completed")]
    assert not pwned.exists()  # neither the rewritten child nor the input's shell syntax ran
    written = git(repo, "show", f"{final['branch']}:child.txt")
    assert written == f"$(touch {pwned}); `touch {pwned}`"  # the stored child ran, the input as plain text


def _run_steps(repo: Path) -> list[tuple[int, int]]:
    """(run id, its step count) of every run: what ``limits.max_steps`` is measured against."""
    return db(repo).execute("select id, steps from workflow_runs order by id").fetchall()


def test_the_childs_steps_count_in_the_parents_max_steps(repo: Path) -> None:
    """SPEC §13: a child's steps are the parent's. first (1) + sub (1) + the child's 2 = 4 = max_steps, so
    the parent cannot start last (5 > 4) and fails max_steps; the child itself completed."""
    child_file(repo, CHILD)
    wf = workflow(repo, PARENT.replace("phases:", "limits: {max_steps: 4}\nphases:", 1))
    done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 1, done.stderr
    final = json.loads(done.stdout)
    assert (final["status"], final["reason"]) == ("failed", "max_steps")
    assert steps(final) == [("first", 1, "completed"), ("sub", 1, "completed")]
    assert status(repo, 2)["status"] == "completed"
    assert _run_steps(repo) == [(1, 4), (2, 2)]


def test_a_failed_childs_steps_count_in_the_parents_too(repo: Path) -> None:
    """The steps a failed child took are spent as well: the retry's child gets only what is left."""
    child_file(
        repo,
        """\
        alphred: 1
        key: child
        phases:
          a: {type: command, run: "true", transitions: [{to: b}]}
          b: {type: command, run: "exit 3", max_retries: 0}
        """,
    )
    wf = workflow(repo, "limits: {max_steps: 6}\nphases:\n  sub: {type: workflow, uses: child.yaml}\n")
    done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 1, done.stderr
    assert _run_steps(repo) == [(1, 3), (2, 2)]  # sub #1 + the child's a and b
    again = alphred(repo, "retry", "1", "--json")
    assert again.returncode == 1, again.stderr
    assert steps(json.loads(again.stdout)) == [("sub", 1, "failed"), ("sub", 2, "failed")]
    # sub #2 is step 4 and leaves 2 for the new child: a, b again, 6 steps in all
    assert _run_steps(repo) == [(1, 6), (2, 2), (3, 2)]
    capped = alphred(repo, "retry", "1", "--json")
    assert capped.returncode == 1, capped.stderr
    assert json.loads(capped.stdout)["reason"] == "max_steps"  # nothing left for a third child


def test_a_take_over_after_the_child_completed_counts_its_steps_once(repo: Path) -> None:
    """Killed as the child's last step is stored (the parent's phase not yet): the resumed parent takes the
    completed child's result and counts its steps exactly once."""
    child_file(repo, CHILD)
    wf = workflow(repo, PARENT)
    _crashed(repo, wf, "between_phases@3")  # first, child work, child review
    assert _runs(repo) == [(1, "running", None, None), (2, "completed", None, 1)]
    assert _resumed_steps(repo) == RESUMED
    assert _run_steps(repo) == [(1, 6), (2, 2)]  # 4 of its own + the child's 2, once


def test_the_parents_deadline_ends_a_child_with_a_longer_timeout_and_the_parent_times_out(
    repo: Path, tmp_path: Path
) -> None:
    """SPEC §13: the child's own ``limits.timeout`` (1 h) is capped by the time the parent has left (2 s): the
    child stops at the parent's deadline and both fail ``timeout`` (not the parent ``child_failed``)."""
    fifo = tmp_path / "gate.fifo"
    os.mkfifo(fifo)  # never opened: the child's phase would wait for ever
    child_file(
        repo, f"alphred: 1\nkey: child\nlimits: {{timeout: 1h}}\nphases:\n  wait: {{type: command, run: cat {fifo}}}\n"
    )
    wf = workflow(repo, "limits: {timeout: 2}\nphases:\n  sub: {type: workflow, uses: child.yaml}\n")
    done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 1, done.stderr
    assert [(r[0], r[1], r[2]) for r in _runs(repo)] == [(1, "failed", "timeout"), (2, "failed", "timeout")]
    assert steps(status(repo)) == [("sub", 1, "failed")]
    assert steps(status(repo, 2)) == [("wait", 1, "failed")]


def test_nested_sub_workflows_show_under_the_steps_that_ran_them_and_runs_counts_them(repo: Path) -> None:
    child_file(repo, "alphred: 1\nkey: grand\nphases:\n  g: {type: command, run: echo g > g.txt}\n", "grand.yaml")
    child_file(
        repo,
        """\
        alphred: 1
        key: child
        phases:
          work: {type: command, run: "true", transitions: [{to: inner}]}
          inner: {type: workflow, uses: grand.yaml}
        """,
    )
    wf = workflow(
        repo,
        "phases:\n  sub: {type: workflow, uses: child.yaml, transitions: [{to: last}]}\n  last: {type: command, run: 'true'}\n",
    )
    done = alphred(repo, "run", str(wf))
    assert done.returncode == 0, done.stderr
    assert _run_steps(repo) == [(1, 5), (2, 3), (3, 1)]  # each run's steps hold its children's
    shown = _status_lines(repo, "steps:", 8)
    assert shown[:7] == [
        "    1. sub #1 completed → last",
        "       ↳ sub-workflow run 2: completed · child v1",
        "           1. work #1 completed → inner",
        "           2. inner #1 completed → -",
        "              ↳ sub-workflow run 3: completed · grand v1",
        "                  1. g #1 completed → -",
        "    2. last #1 completed → -",
    ]
    assert shown[7].startswith("next: ")  # no block of sub-workflows after the steps any more
    assert "wf v1 +1 sub-workflow " in alphred(repo, "runs").stdout
    url = f"sqlite:///{repo / '.alphred' / 'alphred.db'}"
    with SqlRunStore(url) as store, open_reader(url) as reader:
        assert isinstance(reader, SqliteReader)
        assert store.child_run_ids([1, 2, 3]) == reader.child_run_ids([1, 2, 3]) == {1: [2], 2: [3]}
        assert store.child_run_ids([3, 1]) == reader.child_run_ids([3, 1]) == {1: [2]}
        assert store.child_run_ids([]) == reader.child_run_ids([]) == {}


def _waiting_for_the_childs_approval(repo: Path) -> None:
    """Run the parent until its child waits at ``gate``: the parent pauses, the message names the parent."""
    child_file(repo, APPROVAL_CHILD)
    wf = workflow(repo, APPROVAL_PARENT)
    done = alphred(repo, "run", str(wf))
    assert done.returncode == 130, done.stderr
    assert _runs(repo) == [(1, "paused", "interrupted", None), (2, "paused", "awaiting_approval", 1)]
    assert "phase gate waits for approval: ship it? (alphred approve 1 / alphred reject 1)" in done.stderr
    assert "alphred approve 1 / alphred reject 1 answers it" in done.stderr
    assert "phase gate of sub-workflow run 2 (child) waits for a person's approval." in done.stderr
    shown = alphred(repo, "status", "1").stdout.splitlines()
    assert shown[-1].startswith("next: alphred approve 1 ") and "alphred reject 1 " in shown[-1]
    refused = alphred(repo, "approve", "2")
    assert refused.returncode == 2 and "it is a sub-workflow of run 1: alphred approve 1 answers both" in refused.stderr


def test_approve_of_the_parent_answers_its_childs_approval(repo: Path) -> None:
    _waiting_for_the_childs_approval(repo)
    approved = alphred(repo, "approve", "1", "--comment", "fine by me", "--json")
    assert approved.returncode == 0, approved.stderr
    assert "approved phase gate of sub-workflow run 2 (child); run 1 continues" in approved.stderr
    assert _runs(repo) == [(1, "completed", None, None), (2, "completed", None, 1)]
    assert steps(json.loads(approved.stdout)) == [
        ("sub", 1, "interrupted"),
        ("sub", 2, "completed"),
        ("last", 1, "completed"),
    ]
    child = status(repo, 2)
    assert steps(child) == [("work", 1, "completed"), ("gate", 1, "completed"), ("after", 1, "completed")]
    gate = next(p for p in child["phases"] if p["key"] == "gate")
    assert gate["decision"] == "approved" and gate["report"] == {"decision": "approved", "comment": "fine by me"}


def test_reject_of_the_parent_rejects_its_childs_approval(repo: Path) -> None:
    _waiting_for_the_childs_approval(repo)
    rejected = alphred(repo, "reject", "1")
    assert rejected.returncode == 1, rejected.stderr
    assert "rejected phase gate of sub-workflow run 2 (child); run 1 continues" in rejected.stderr
    assert _runs(repo) == [(1, "failed", "child_failed", None), (2, "failed", "fail_target", 1)]
    assert steps(status(repo, 2))[-1] == ("gate", 1, "completed")


def test_an_answer_recorded_before_a_kill_is_the_answer_resume_gives(repo: Path) -> None:
    """The answer is the intent: killed after recording it (before the child took it), ``resume`` of the
    parent gives the child that answer; nothing waits for a second one."""
    _waiting_for_the_childs_approval(repo)
    env = base_env(repo.parent) | {"ALPHRED_CRASH_AT": "child_run_created"}
    crashed = alphred(repo, "approve", "1", env=env)
    assert crashed.returncode == -signal.SIGKILL
    assert _runs(repo)[1] == (2, "paused", "awaiting_approval", 1)
    resumed = alphred(repo, "resume", "1")
    assert resumed.returncode == 0, resumed.stderr
    assert _runs(repo) == [(1, "completed", None, None), (2, "completed", None, 1)]
    assert steps(status(repo, 2))[1:] == [("gate", 1, "completed"), ("after", 1, "completed")]


def test_a_detached_approve_of_the_parent_is_carried_out_by_a_worker(repo: Path) -> None:
    _waiting_for_the_childs_approval(repo)
    asked = alphred(repo, "approve", "1", "--detach")
    assert asked.returncode == 0, asked.stderr
    worked = alphred(repo, "worker", "--once")
    assert worked.returncode == 0, worked.stderr
    assert _runs(repo) == [(1, "completed", None, None), (2, "completed", None, 1)]


def _parent_past_its_deadline(repo: Path) -> None:
    """The child waits at ``gate`` (the parent paused with it) and the parent's 60 s deadline has passed: its
    stored start is moved back an hour (the clock, not a sleep)."""
    child_file(repo, APPROVAL_CHILD)
    wf = workflow(repo, "limits: {timeout: 60}\n" + APPROVAL_PARENT)
    done = alphred(repo, "run", str(wf))
    assert done.returncode == 130, done.stderr
    with SqlRunStore(f"sqlite:///{repo / '.alphred' / 'alphred.db'}") as store:
        store.update_run(1, started_at=datetime.now(UTC) - timedelta(hours=1))


@pytest.mark.parametrize("action", ["approve", "resume"])
def test_a_parent_timed_out_at_approve_or_resume_ends_its_paused_child(repo: Path, action: str) -> None:
    """SPEC §13: the parent fails ``timeout`` at once; its child, paused at an approval, is cancelled with it
    (it was left ``paused``)."""
    _parent_past_its_deadline(repo)
    answered = alphred(repo, action, "1")
    assert answered.returncode == 1, answered.stderr
    assert [(r[0], r[1], r[2]) for r in _runs(repo)] == [(1, "failed", "timeout"), (2, "cancelled", "cancelled")]


@pytest.mark.parametrize("how", ["resume", "worker", "gc"])
def test_a_kill_between_the_parents_end_and_the_childs_is_finished_by_a_take_over(repo: Path, how: str) -> None:
    """Killed after the parent is stored ``failed`` and before its child ends: ``resume`` of the parent, a
    worker or ``gc`` ends the child (the pair parent ended, child not is the pending work)."""
    _parent_past_its_deadline(repo)
    env = base_env(repo.parent) | {"ALPHRED_CRASH_AT": "run_ended"}
    crashed = alphred(repo, "approve", "1", env=env)
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    assert [(r[0], r[1]) for r in _runs(repo)] == [(1, "failed"), (2, "paused")]
    args = {"resume": ["resume", "1"], "worker": ["worker", "--once"], "gc": ["gc"]}[how]
    if how == "gc":
        listed = alphred(repo, "gc", "--dry-run")
        assert "would cancel run 2 (its parent run has ended)" in listed.stdout, listed.stderr
        assert [(r[0], r[1]) for r in _runs(repo)] == [(1, "failed"), (2, "paused")]
    taken = alphred(repo, *args)
    assert taken.returncode == (1 if how == "resume" else 0), taken.stderr  # resume shows the failed parent
    assert [(r[0], r[1], r[2]) for r in _runs(repo)] == [(1, "failed", "timeout"), (2, "cancelled", "cancelled")]
    said = {"resume": "", "worker": "run 2: cancelled (its parent run has ended)", "gc": "cancelled run 2 ("}[how]
    assert said in taken.stdout + taken.stderr
    again = alphred(repo, *args)  # nothing left to do: the same answer, nothing redone
    assert [(r[0], r[1]) for r in _runs(repo)] == [(1, "failed"), (2, "cancelled")], again.stderr
