"""Whole runs against a real PostgreSQL: run, crash and resume, and two processes racing for one attempt."""

from __future__ import annotations

import json
import signal
import subprocess
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import kill_group, run_alphred, spawn_alphred, wait_until
from helpers.repos import process_env
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[2]


def environment(tmp_path: Path) -> dict[str, str]:
    return process_env(tmp_path, identity=True)


def command(repo: Path, url: str, *args: str) -> list[str]:
    return [*args, "--repo", str(repo), "--db", url]


def alphred(repo: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return run_alphred(*command(repo, url, *args), env=environment(repo.parent))


def count(url: str, sql: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text(sql)).scalar_one())
    finally:
        engine.dispose()


def killed_then_continued(
    repo: Path, url: str, body: str, ready: Callable[[], object], what: str, *, via: str = "resume"
) -> dict[str, Any]:
    """Start a run of workflow ``body``, kill -9 its process group once ``ready()``, let a held phase go on
    (``<tmp>/flag``), then ``resume`` it or let ``worker --once`` take it over; its final status."""
    wf = repo.parent / "wf.yaml"
    wf.write_text(textwrap.dedent(body))
    process = spawn_alphred(*command(repo, url, "run", str(wf)), env=environment(repo.parent))
    wait_until(ready, what=what, ignore=(Exception,))  # the schema may still be being created
    kill_group(process)
    (repo.parent / "flag").touch()
    return continued(repo, url, via)


def continued(repo: Path, url: str, via: str) -> dict[str, Any]:
    """``resume 1`` or ``worker --once`` after a crash; run 1's final status."""
    if via == "worker":
        worker = run_alphred("worker", "--once", "--db", url, env=environment(repo.parent), cwd=repo, timeout=180)
        assert worker.returncode == 0, worker.stderr
        result = alphred(repo, url, "status", "1", "--json")
    else:
        result = alphred(repo, url, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    final: dict[str, Any] = json.loads(result.stdout)
    return final


def outcomes(final: dict[str, Any], *phases: str) -> list[tuple[str, int, str]]:
    """(phase, attempt, outcome) of each step, of ``phases`` only when named."""
    return [(s["phase"], s["attempt"], s["outcome"]) for s in final["steps"] if not phases or s["phase"] in phases]


def first_parent_merges(repo: Path, branch: str) -> list[str]:
    log = subprocess.run(
        ["git", "log", "--first-parent", "--format=%s", branch], cwd=repo, capture_output=True, text=True
    )
    return [line for line in log.stdout.splitlines() if " merge " in line]


def test_demo_runs_on_postgresql(repo: Path, fresh_postgres_url: str) -> None:
    result = alphred(repo, fresh_postgres_url, "run", str(ROOT / "workflows" / "demo.yaml"), "--json")
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert status["status"] == "completed" and len(status["steps"]) == 6
    assert not (repo / ".alphred" / "alphred.db").exists()  # everything went to PostgreSQL
    events = count(fresh_postgres_url, "select count(*) from run_node_stream_events")
    assert events >= 12
    listed = alphred(repo, fresh_postgres_url, "runs", "--json")
    assert [r["run_id"] for r in json.loads(listed.stdout)] == [status["run_id"]]


def test_kill_and_resume_on_postgresql(repo: Path, fresh_postgres_url: str) -> None:
    body = """\
        alphred: 1
        key: wf
        phases:
          slow:
            provider: scripted
            script: [{sleep: 30}, {report: done}]
        """
    events = "select count(*) from run_node_stream_events"
    final = killed_then_continued(
        repo, fresh_postgres_url, body, lambda: count(fresh_postgres_url, events) >= 1, "the first event"
    )
    assert outcomes(final) == [("slow", 1, "interrupted"), ("slow", 2, "completed")]


@pytest.mark.slow
def test_two_processes_race_for_one_attempt_on_postgresql(repo: Path, fresh_postgres_url: str) -> None:
    log = repo.parent / "executions.log"
    wf = repo.parent / "gate.yaml"
    wf.write_text(
        textwrap.dedent(
            f"""\
            alphred: 1
            key: gate
            phases:
              gate:
                type: approval
                transitions: [{{to: work}}]
              work:
                type: command
                run: echo "$$" >> {log}; sleep 1
            """
        )
    )
    assert alphred(repo, fresh_postgres_url, "run", str(wf)).returncode == 4
    racers = [
        spawn_alphred(*command(repo, fresh_postgres_url, "approve", "1"), env=environment(repo.parent))
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=60) for p in racers]
    assert sorted(p.returncode for p in racers) == [0, 2], outputs
    assert len(log.read_text().splitlines()) == 1


HELD = "echo $$ > {pid}; while [ ! -f {flag} ]; do sleep 0.05; done"  # a phase running until the test lets it


@pytest.mark.slow
def test_parallel_branches_killed_mid_branch_resume_on_postgresql(repo: Path, fresh_postgres_url: str) -> None:
    pid_file = repo.parent / "held.pid"
    held = HELD.format(pid=pid_file, flag=repo.parent / "flag")
    body = f"""\
        alphred: 1
        key: lanes
        phases:
          plan: {{type: command, run: "true", transitions: [{{to: [quick, held]}}]}}
          quick: {{type: command, run: "echo quick > quick.txt", transitions: [{{to: join}}]}}
          held:
            type: command
            run: {held}; echo held > held.txt
            transitions: [{{to: join}}]
          join: {{join: all, type: command, run: "ls quick.txt held.txt"}}
        """
    sql = "select count(*) from run_nodes where node_key = 'quick' and status = 'completed'"
    final = killed_then_continued(
        repo,
        fresh_postgres_url,
        body,
        lambda: pid_file.exists() and pid_file.read_text().strip() and count(fresh_postgres_url, sql) == 1,
        "branch quick done and branch held running",
    )
    assert final["status"] == "completed"
    assert outcomes(final, "quick", "held") == [
        ("quick", 1, "completed"),
        ("held", 1, "interrupted"),
        ("held", 2, "completed"),
    ]
    assert {p["key"]: p["branch"] for p in final["phases"]}["held"] == f"{final['branch']}.held"


def test_artifacts_and_memory_are_kept_in_postgresql(repo: Path, fresh_postgres_url: str) -> None:
    wf = repo.parent / "outside.yaml"
    wf.write_text(
        textwrap.dedent(
            """\
            alphred: 1
            key: outside
            memory: seen
            phases:
              note:
                type: command
                run: |
                  n=$(cat "$ALPHRED_MEMORY/n" 2>/dev/null || echo 0); echo $((n + 1)) > "$ALPHRED_MEMORY/n"
                  head -c 2500000 /dev/urandom > "$ALPHRED_ARTIFACTS/big.bin"; echo "run $n" > "$ALPHRED_ARTIFACTS/a.txt"
            """
        )
    )
    for _ in range(2):
        result = alphred(repo, fresh_postgres_url, "run", str(wf), "--json")
        assert result.returncode == 0, result.stderr
    assert alphred(repo, fresh_postgres_url, "artifacts", "2", "a.txt").stdout == "run 1\n"
    out = repo.parent / "out"
    assert alphred(repo, fresh_postgres_url, "artifacts", "1", "-o", str(out)).returncode == 0
    assert (out / "big.bin").stat().st_size == 2_500_000
    assert "saved by run 2" in alphred(repo, fresh_postgres_url, "memory", "seen").stdout
    assert count(fresh_postgres_url, "select count(*) from file_chunks where seq = 2") == 2  # 3 pieces each
    assert not (repo / ".alphred" / "alphred.db").exists()


def items_workflow(held: str) -> str:
    """A for_each of items quick, held, late (each commits ``<item>.txt``; ``held`` first runs ``held``)."""
    return f"""\
        alphred: 1
        key: items
        defaults: {{provider: scripted}}
        phases:
          plan:
            script: [{{report: {{tasks: [quick, held, late]}}}}]
            transitions: [{{to: implement, for_each: report.tasks, as: task}}]
          implement:
            type: command
            run: >-
              test {{{{ task }}}} != held || {{ {held}; }};
              echo {{{{ task }}}} > {{{{ task }}}}.txt
            transitions: [{{to: join}}]
          join: {{join: all_done, type: command, run: "ls quick.txt held.txt late.txt"}}
        """


def assert_every_item_merged_once(repo: Path, final: dict[str, Any]) -> None:
    assert final["status"] == "completed", final
    assert outcomes(final, "plan") == [("plan", 1, "completed")]  # never planned again
    assert first_parent_merges(repo, final["branch"]) == [f"alphred(items): merge implement-{i}" for i in (2, 1, 0)]


def test_for_each_killed_mid_item_then_worker_takes_it_over_on_postgresql(repo: Path, fresh_postgres_url: str) -> None:
    """SPEC §13 on PostgreSQL: kill -9 while one item runs, then `worker --once` merges every item once."""
    pid_file = repo.parent / "held.pid"
    body = items_workflow(HELD.format(pid=pid_file, flag=repo.parent / "flag"))
    sql = "select count(*) from run_nodes where node_key like 'implement-%' and status = 'completed'"
    final = killed_then_continued(
        repo,
        fresh_postgres_url,
        body,
        lambda: pid_file.exists() and pid_file.read_text().strip() and count(fresh_postgres_url, sql) == 2,
        "items quick and late done, item held running",
        via="worker",
    )
    assert_every_item_merged_once(repo, final)
    steps = outcomes(final)
    assert ("implement-1", 1, "interrupted") in steps and ("implement-1", 2, "completed") in steps
    # items run in parallel (their worktrees made at once): each ran once, in whatever order they ended
    assert sorted(outcomes(final, "implement-0", "implement-2")) == [
        ("implement-0", 1, "completed"),
        ("implement-2", 1, "completed"),
    ]


@pytest.mark.parametrize("via", ["resume", "worker"])
def test_for_each_killed_mid_merge_then_continued_on_postgresql(repo: Path, fresh_postgres_url: str, via: str) -> None:
    """SPEC §13 on PostgreSQL: kill -9 between the second item's `git merge` and its record, then `resume` or
    `worker --once`: the merge is not made twice, the third is made, no item runs again."""
    wf = repo.parent / "wf.yaml"
    wf.write_text(textwrap.dedent(items_workflow("true")))
    env = {**environment(repo.parent), "ALPHRED_CRASH_AT": "merged@2"}
    crashed = run_alphred(*command(repo, fresh_postgres_url, "run", str(wf)), env=env)
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    assert len(first_parent_merges(repo, "alphred/items/1")) == 2  # two merges in git, one recorded
    final = continued(repo, fresh_postgres_url, via)
    assert_every_item_merged_once(repo, final)
    assert sorted(outcomes(final, *(f"implement-{i}" for i in range(3)))) == [
        (f"implement-{i}", 1, "completed") for i in range(3)
    ]  # no item ran again


def test_a_sub_workflow_runs_on_postgresql(repo: Path, fresh_postgres_url: str) -> None:
    """SPEC §13 on PostgreSQL: the child run (parent_run_id, parent_step) commits on the parent's branch;
    `runs` lists the parent only, `status` shows the child under it."""
    (repo.parent / "child.yaml").write_text(
        "alphred: 1\nkey: child\ninputs:\n  word: {required: true}\n"
        "phases:\n  inner: {type: command, run: 'echo {{ inputs.word }} > inner.txt'}\n"
    )
    wf = repo.parent / "wf.yaml"
    wf.write_text(
        "alphred: 1\nkey: wf\nphases:\n"
        "  sub: {type: workflow, uses: child.yaml, with: {word: hello}, transitions: [{to: last}]}\n"
        "  last: {type: command, run: cat inner.txt}\n"
    )
    result = alphred(repo, fresh_postgres_url, "run", str(wf), "--json")
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert [(s["phase"], s["outcome"]) for s in status["steps"]] == [("sub", "completed"), ("last", "completed")]
    shown = json.loads(alphred(repo, fresh_postgres_url, "status", "1", "--json").stdout)
    [child] = shown["children"]
    assert (child["parent_run_id"], child["parent_step"], child["inputs"]) == (1, "sub#1.1", {"word": "hello"})
    listed = json.loads(alphred(repo, fresh_postgres_url, "runs", "--json").stdout)
    assert [(r["run_id"], r["child_run_ids"]) for r in listed] == [(1, [2])]
    log = subprocess.run(
        ["git", "log", "--format=%s", status["branch"]], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert log[0] == "alphred(child): inner [visit 1]"  # `last` only reads: no commit of its own
    assert count(fresh_postgres_url, "select count(*) from workflow_runs where parent_run_id = 1") == 1


FAIL_OVER_ITEMS = """\
    alphred: 1
    key: items
    defaults: {provider: scripted}
    limits: {max_parallel: 1}
    phases:
      plan:
        script: [{report: {tasks: [one, two]}}]
        transitions: [{to: implement, for_each: report.tasks, as: task}]
      implement:
        script: [{fail: "upstream 503"}]
        max_retries: 0
        fallback:
          - {provider: scripted, script: [{report: done}]}
          - {provider: scripted, script: [{fail: "the second fallback must never run"}]}
        transitions: [{to: record}]
      record:
        type: command
        run: echo {{ task }} > {{ task }}.txt
        transitions: [{to: join}]
      join: {join: all, type: command, run: "ls one.txt two.txt"}
    """


def test_a_for_each_item_killed_after_its_fail_over_goes_on_with_that_fallback_on_postgresql(
    repo: Path, fresh_postgres_url: str
) -> None:
    """SPEC §15 in a branch, on PostgreSQL: kill -9 right after item 0's fail-over transition (its second stored
    step), then `worker --once`: the item goes on with its first fallback (not its own provider again, not the
    second fallback); item 1 fails over on its own."""
    wf = repo.parent / "wf.yaml"
    wf.write_text(textwrap.dedent(FAIL_OVER_ITEMS))
    env = {**environment(repo.parent), "ALPHRED_CRASH_AT": "between_phases@2"}
    crashed = run_alphred(*command(repo, fresh_postgres_url, "run", str(wf)), env=env)
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    final = continued(repo, fresh_postgres_url, "worker")
    assert final["status"] == "completed", final
    assert outcomes(final, "implement-0") == [
        ("implement-0", 1, "failed"),
        ("implement-0", 2, "interrupted"),  # started on the fallback when the process died
        ("implement-0", 3, "completed"),  # the same fallback, taken over
    ]
    assert outcomes(final, "implement-1") == [("implement-1", 1, "failed"), ("implement-1", 2, "completed")]
