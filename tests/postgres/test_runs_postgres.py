"""Whole runs against a real PostgreSQL: run, crash and resume, and two processes racing for one attempt."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

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
    wf = repo.parent / "wf.yaml"
    wf.write_text(
        textwrap.dedent(
            """\
            alphred: 1
            key: wf
            phases:
              slow:
                provider: scripted
                script: [{sleep: 30}, {report: done}]
            """
        )
    )
    process = spawn_alphred(*command(repo, fresh_postgres_url, "run", str(wf)), env=environment(repo.parent))
    events = "select count(*) from run_node_stream_events"
    wait_until(lambda: count(fresh_postgres_url, events) >= 1, what="the first event", ignore=(Exception,))
    kill_group(process)
    result = alphred(repo, fresh_postgres_url, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert [(s["attempt"], s["outcome"]) for s in json.loads(result.stdout)["steps"]] == [
        (1, "interrupted"),
        (2, "completed"),
    ]


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


@pytest.mark.slow
def test_parallel_branches_killed_mid_branch_resume_on_postgresql(repo: Path, fresh_postgres_url: str) -> None:
    flag, pid_file = repo.parent / "flag", repo.parent / "held.pid"
    wf = repo.parent / "lanes.yaml"
    wf.write_text(
        textwrap.dedent(
            f"""\
            alphred: 1
            key: lanes
            phases:
              plan: {{type: command, run: "true", transitions: [{{to: [quick, held]}}]}}
              quick: {{type: command, run: "echo quick > quick.txt", transitions: [{{to: join}}]}}
              held:
                type: command
                run: echo $$ > {pid_file}; while [ ! -f {flag} ]; do sleep 0.05; done; echo held > held.txt
                transitions: [{{to: join}}]
              join: {{join: all, type: command, run: "ls quick.txt held.txt"}}
            """
        )
    )
    process = spawn_alphred(*command(repo, fresh_postgres_url, "run", str(wf)), env=environment(repo.parent))
    sql = "select count(*) from run_nodes where node_key = 'quick' and status = 'completed'"
    wait_until(
        lambda: pid_file.exists() and pid_file.read_text().strip() and count(fresh_postgres_url, sql) == 1,
        what="branch quick done and branch held running",
        ignore=(Exception,),  # the schema is still being created
    )
    kill_group(process)
    flag.touch()
    result = alphred(repo, fresh_postgres_url, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    final = json.loads(result.stdout)
    assert final["status"] == "completed"
    assert [(s["phase"], s["attempt"], s["outcome"]) for s in final["steps"] if s["phase"] in ("quick", "held")] == [
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


def test_for_each_killed_mid_item_then_worker_takes_it_over_on_postgresql(repo: Path, fresh_postgres_url: str) -> None:
    """SPEC §13 on PostgreSQL: kill -9 while one item runs, then `worker --once` merges every item once."""
    flag, pid_file = repo.parent / "flag", repo.parent / "held.pid"
    wf = repo.parent / "items.yaml"
    wf.write_text(
        textwrap.dedent(
            f"""\
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
                  test {{{{ task }}}} != held || {{ echo $$ > {pid_file}; while [ ! -f {flag} ]; do sleep 0.05; done; }};
                  echo {{{{ task }}}} > {{{{ task }}}}.txt
                transitions: [{{to: join}}]
              join: {{join: all_done, type: command, run: "ls quick.txt held.txt late.txt"}}
            """
        )
    )
    process = spawn_alphred(*command(repo, fresh_postgres_url, "run", str(wf)), env=environment(repo.parent))
    sql = "select count(*) from run_nodes where node_key like 'implement-%' and status = 'completed'"
    wait_until(
        lambda: pid_file.exists() and pid_file.read_text().strip() and count(fresh_postgres_url, sql) == 2,
        what="items quick and late done, item held running",
        ignore=(Exception,),  # the schema is still being created
    )
    kill_group(process)
    flag.touch()
    worker = run_alphred(
        "worker", "--once", "--db", fresh_postgres_url, env=environment(repo.parent), cwd=repo, timeout=180
    )
    assert worker.returncode == 0, worker.stderr
    result = alphred(repo, fresh_postgres_url, "status", "1", "--json")
    final = json.loads(result.stdout)
    assert final["status"] == "completed", final
    steps = [(s["phase"], s["attempt"], s["outcome"]) for s in final["steps"]]
    assert [s for s in steps if s[0] == "plan"] == [("plan", 1, "completed")]  # never planned again
    assert ("implement-1", 1, "interrupted") in steps and ("implement-1", 2, "completed") in steps
    assert [s for s in steps if s[0] in ("implement-0", "implement-2")] == [
        ("implement-0", 1, "completed"),
        ("implement-2", 1, "completed"),
    ]
    merges = subprocess.run(
        ["git", "log", "--first-parent", "--format=%s", final["branch"]], cwd=repo, capture_output=True, text=True
    ).stdout.splitlines()
    assert [m for m in merges if " merge " in m] == [f"alphred(items): merge implement-{i}" for i in (2, 1, 0)]


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
    assert [r["run_id"] for r in json.loads(alphred(repo, fresh_postgres_url, "runs", "--json").stdout)] == [1]
    log = subprocess.run(
        ["git", "log", "--format=%s", status["branch"]], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert log[0] == "alphred(child): inner [visit 1]"  # `last` only reads: no commit of its own
    assert count(fresh_postgres_url, "select count(*) from workflow_runs where parent_run_id = 1") == 1
