"""Parallel branches end to end (SPEC §8): real ``alphred`` processes, real git, real SQLite, real kills.

Concurrency is shown without timing: each branch's command leaves a marker, then waits (polling, with a
bound) until the markers of the branches that must run beside it exist; what it saw is its proof.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest
from helpers import repos
from helpers.processes import alive, kill_group
from helpers.runs import alphred, base_env, db, start, status, steps, wait_for, workflow


def git(repo: Path, *args: str) -> str:
    return repos.git(repo, *args, env=base_env(repo.parent))


def meet(marks: Path, name: str, others: int) -> str:
    """A command that marks ``name`` started, then waits (at most 120 s) until ``others`` more marks exist."""
    want = others + 1
    return (
        f"touch {marks}/{name}; n=0; "
        f"while [ $(ls {marks} | wc -l) -lt {want} ] && [ $n -lt 2400 ]; do sleep 0.05; n=$((n+1)); done; "
        f"ls {marks} | tr '\\n' ' ' > seen-{name}.txt"
    )


def hold(flag: Path, pid_file: Path, out: str) -> str:
    """A command that records its pid, then waits until ``flag`` exists (or forever), then writes ``out``."""
    return f"echo $$ > {pid_file}; while [ ! -f {flag} ]; do sleep 0.05; done; echo done > {out}"


def first_parent_log(repo: Path, branch: str) -> list[str]:
    return git(repo, "log", "--first-parent", "--format=%s", branch).splitlines()


def run_json(repo: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any], str]:
    done = alphred(repo, *args, "--json", env=env)
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else {}, done.stderr


def lane_dirs(repo: Path) -> list[str]:
    return sorted(p.name for p in (repo / ".alphred" / "worktrees").glob("1.*"))


@pytest.mark.quick
def test_branches_run_at_once_and_their_join_merges_them_in_fan_out_order(repo: Path) -> None:
    marks = repo.parent / "marks"
    marks.mkdir()
    wf = workflow(
        repo,
        f"""\
        limits: {{max_parallel: 3}}
        phases:
          plan:
            type: command
            run: echo plan > plan.txt
            transitions: [{{to: [api, ui, docs]}}]
          api:
            type: command
            run: |
              {meet(marks, "api", 2)}
            transitions: [{{to: api_tests}}]
          api_tests:
            type: command
            run: cat seen-api.txt > api-tested.txt
            transitions: [{{to: integrate}}]
          ui:
            type: command
            run: |
              {meet(marks, "ui", 2)}
            transitions: [{{to: integrate}}]
          docs:
            type: command
            run: |
              {meet(marks, "docs", 2)}
            transitions: [{{to: integrate}}]
          integrate:
            join: all
            type: command
            run: ls seen-*.txt api-tested.txt plan.txt > together.txt
            transitions:
              - {{to: $end, when: merge.status == "clean"}}
              - {{to: $fail}}
        """,
    )
    code, final, err = run_json(repo, "run", str(wf))
    assert code == 0, err
    assert final["status"] == "completed"
    branch = final["branch"]
    for name in ("api", "ui", "docs"):  # each branch saw the other two started: they ran at the same time
        assert git(repo, "show", f"{branch}:seen-{name}.txt").split() == ["api", "docs", "ui"]
    together = git(repo, "show", f"{branch}:together.txt").split()
    assert together == ["api-tested.txt", "plan.txt", "seen-api.txt", "seen-docs.txt", "seen-ui.txt"]
    log = first_parent_log(repo, branch)
    assert log[:4] == [
        "alphred(wf): integrate [visit 1]",
        "alphred(wf): merge docs",
        "alphred(wf): merge ui",
        "alphred(wf): merge api",
    ]
    assert git(repo, "rev-list", "--parents", "-n", "1", f"{branch}~1").count(" ") == 2  # a real merge commit
    api_log = git(repo, "log", "--format=%s", f"{branch}.api").splitlines()
    assert api_log[:2] == ["alphred(wf): api_tests [visit 1]", "alphred(wf): api [visit 1]"]
    assert lane_dirs(repo) == []  # merged branches' worktrees are gone, their branches stay
    assert {f"{branch}.{name}" for name in ("api", "ui", "docs")} <= set(
        git(repo, "branch", "--format=%(refname:short)").split()
    )
    assert [s for s in steps(final) if s[2] != "completed"] == []


def test_max_parallel_one_runs_the_branches_one_after_another(repo: Path) -> None:
    marks = repo.parent / "marks"
    marks.mkdir()
    record = "touch {m}/{n}; ls {m} | tr '\\n' ' ' > seen-{n}.txt"
    wf = workflow(
        repo,
        f"""\
        limits: {{max_parallel: 1}}
        phases:
          plan:
            type: command
            run: "true"
            transitions: [{{to: [a, b, c]}}]
          a: {{type: command, run: "{record.format(m=marks, n="a")}", transitions: [{{to: join}}]}}
          b: {{type: command, run: "{record.format(m=marks, n="b")}", transitions: [{{to: join}}]}}
          c: {{type: command, run: "{record.format(m=marks, n="c")}", transitions: [{{to: join}}]}}
          join: {{join: all, type: command, run: "true"}}
        """,
    )
    code, final, err = run_json(repo, "run", str(wf))
    assert code == 0, err
    branch = final["branch"]
    seen = {name: git(repo, "show", f"{branch}:seen-{name}.txt").split() for name in "abc"}
    assert seen == {"a": ["a"], "b": ["a", "b"], "c": ["a", "b", "c"]}  # each began after the one before


def join_any(repo: Path) -> tuple[Path, Path]:
    """fast and slow branches joined by ``join: any``: fast arrives first (once slow runs), slow never ends."""
    flag, pid_file = repo.parent / "never", repo.parent / "slow.pid"
    wf = workflow(
        repo,
        f"""\
        phases:
          plan:
            type: command
            run: "true"
            transitions: [{{to: [fast, slow]}}]
          fast:
            type: command
            run: "while [ ! -s {pid_file} ]; do sleep 0.05; done; echo fast > fast.txt"
            transitions: [{{to: pick}}]
          slow:
            type: command
            run: |
              {hold(flag, pid_file, "slow.txt")}
            transitions: [{{to: pick}}]
          pick:
            join: any
            type: command
            run: ls
        """,
    )
    return wf, pid_file


def test_join_any_merges_the_first_branch_and_stops_the_others(repo: Path) -> None:
    wf, pid_file = join_any(repo)
    code, final, err = run_json(repo, "run", str(wf))
    assert code == 0, err
    assert final["status"] == "completed"
    assert ("slow", 1, "cancelled") in steps(final) and ("fast", 1, "completed") in steps(final)
    wait_for(lambda: not alive(int(pid_file.read_text())))  # the stopped branch's command is killed
    files = git(repo, "ls-tree", "--name-only", final["branch"]).split()
    assert "fast.txt" in files and "slow.txt" not in files
    assert first_parent_log(repo, final["branch"])[0] == "alphred(wf): merge fast"  # pick changed nothing
    assert lane_dirs(repo) == []  # the run completed: the stopped branch's worktree goes too


def test_kill_9_while_a_completed_run_removes_its_worktrees_then_resume_finishes_them_all(repo: Path) -> None:
    wf, pid_file = join_any(repo)
    env = {**base_env(repo.parent), "ALPHRED_CRASH_AT": "removing_worktree"}
    crashed = alphred(repo, "run", str(wf), env=env)
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    wait_for(lambda: not alive(int(pid_file.read_text())))
    assert lane_dirs(repo) == ["1.slow"]  # the branch join: any stopped, still there
    done = alphred(repo, "resume", "1")
    assert done.returncode == 0, done.stderr
    assert lane_dirs(repo) == [] and not (repo / ".alphred" / "worktrees" / "1").exists()
    assert git(repo, "branch", "--list", "*.slow") != ""  # its branch stays


CONFLICT = """\
phases:
  plan:
    type: command
    run: printf 'base\\n' > shared.txt
    transitions: [{{to: [left, right]}}]
  left:
    type: command
    run: printf 'left\\n' > shared.txt
    transitions: [{{to: join}}]
  right:
    type: command
    run: printf 'right\\n' > shared.txt
    transitions: [{{to: join}}]
  join:
    join: all
    {resolver}
    type: command
    run: cat shared.txt
    transitions:
      - {{to: $end, when: merge.status == "resolved"}}
      - {{to: $fail}}
{extra}"""


def test_a_conflict_runs_the_resolver_which_sees_the_branch_and_paths(repo: Path) -> None:
    wf = workflow(
        repo,
        CONFLICT.format(
            resolver="on_conflict: resolve",
            extra="""\
  resolve:
    type: command
    run: "echo {{ merge.branch }} {{ merge.conflicts }} > SAW; printf 'both\\\\n' > shared.txt"
""",
        ).replace("SAW", str(repo.parent / "resolver-saw.txt")),
    )
    code, final, err = run_json(repo, "run", str(wf))
    assert code == 0, err
    assert final["status"] == "completed"
    branch = final["branch"]
    assert git(repo, "show", f"{branch}:shared.txt") == "both"
    saw = (repo.parent / "resolver-saw.txt").read_text().split()
    assert saw[0] == f"{branch}.right" and "shared.txt" in saw[1]
    log = first_parent_log(repo, branch)
    assert log[:2] == ["alphred(wf): merge right", "alphred(wf): merge left"]  # the join changed nothing
    assert [s for s in steps(final) if s[0] == "resolve"] == [("resolve", 1, "completed")]
    assert "<<<<<<<" not in git(repo, "show", f"{branch}:shared.txt")


def test_a_conflict_without_resolver_fails_the_run_and_keeps_every_branch(repo: Path) -> None:
    wf = workflow(repo, CONFLICT.format(resolver="", extra=""))
    code, final, err = run_json(repo, "run", str(wf))
    assert code == 1, err
    assert (final["status"], final["reason"]) == ("failed", "merge_conflict")
    branch = final["branch"]
    assert first_parent_log(repo, branch)[0] == "alphred(wf): merge left"  # the first merged; the second aborted
    worktree = repo / ".alphred" / "worktrees" / "1"
    assert git(worktree, "status", "--porcelain") == ""  # no merge left half done
    assert git(repo, "show", f"{branch}.right:shared.txt") == "right"
    assert git(repo, "show", f"{branch}.left:shared.txt") == "left"


def test_a_resolver_leaving_markers_fails_its_attempt_and_is_retried(repo: Path) -> None:
    second = repo.parent / "second-time"
    wf = workflow(
        repo,
        CONFLICT.format(
            resolver="on_conflict: resolve",
            extra=f"""\
  resolve:
    type: command
    max_retries: 1
    run: "if [ -f {second} ]; then printf 'fixed\\\\n' > shared.txt; else touch {second}; fi"
""",
        ),
    )
    code, final, err = run_json(repo, "run", str(wf))
    assert code == 0, err
    assert [s for s in steps(final) if s[0] == "resolve"] == [("resolve", 1, "failed"), ("resolve", 2, "completed")]
    diagnostics = db(repo).execute(
        "select d.attempt, d.reason, d.error_code from run_node_diagnostics d "
        "join run_nodes n on n.id = d.run_node_id where n.node_key = 'resolve' order by d.attempt"
    )
    assert diagnostics.fetchall() == [(1, "merge_unresolved", "MERGE_UNRESOLVED"), (2, None, None)]
    assert git(repo, "show", f"{final['branch']}:shared.txt") == "fixed"


@pytest.mark.slow
def test_a_failing_branch_fails_the_run_and_cancels_the_others_then_retry_goes_on(repo: Path) -> None:
    flag, pid_file = repo.parent / "fixed", repo.parent / "other.pid"
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
            run: "while [ ! -s {pid_file} ]; do sleep 0.05; done; test -f {flag} && echo fixed > broken.txt"
            transitions: [{{to: join}}]
          other:
            type: command
            run: |
              {hold(flag, pid_file, "other.txt")}
            transitions: [{{to: join}}]
          join: {{join: all, type: command, run: "ls broken.txt other.txt"}}
        """,
    )
    code, final, err = run_json(repo, "run", str(wf))
    assert code == 1, err
    assert (final["status"], final["reason"]) == ("failed", "retries_exhausted")
    assert ("broken", 1, "failed") in steps(final) and ("other", 1, "cancelled") in steps(final)
    wait_for(lambda: not alive(int(pid_file.read_text())))
    assert len(lane_dirs(repo)) == 2  # a failed run keeps its branches' worktrees for inspection and retry
    flag.touch()
    pid_file.unlink()
    code, final, err = run_json(repo, "retry", "1")
    assert code == 0, err
    assert final["status"] == "completed"
    assert [s for s in steps(final) if s[0] in ("broken", "other")][-2:] in (
        [("broken", 2, "completed"), ("other", 2, "completed")],
        [("other", 2, "completed"), ("broken", 2, "completed")],
    )
    assert {"broken.txt", "other.txt"} <= set(git(repo, "ls-tree", "--name-only", final["branch"]).split())


def two_held_lanes(repo: Path) -> tuple[Path, Path, Path, Path]:
    flag, quick_log = repo.parent / "flag", repo.parent / "quick.log"
    pid_file = repo.parent / "held.pid"
    wf = workflow(
        repo,
        f"""\
        phases:
          plan:
            type: command
            run: "true"
            transitions: [{{to: [quick, held]}}]
          quick:
            type: command
            run: "echo ran >> {quick_log}; echo quick > quick.txt"
            transitions: [{{to: join}}]
          held:
            type: command
            run: "echo half > half.txt; {hold(flag, pid_file, "held.txt")}"
            transitions: [{{to: join}}]
          join:
            join: all
            type: command
            run: ls
        """,
    )
    return wf, flag, quick_log, pid_file


@pytest.mark.slow
@pytest.mark.parametrize("how", ["resume", "worker"])
def test_kill_9_mid_branch_then_resume_or_worker_continues_each_branch(repo: Path, how: str) -> None:
    wf, flag, quick_log, pid_file = two_held_lanes(repo)
    process = start(repo, "run", str(wf))
    wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
    wait_for(lambda: quick_done(repo, 1))
    held = int(pid_file.read_text())
    kill_group(process)  # the whole process tree, as a container kill does
    flag.touch()
    if how == "resume":
        done = alphred(repo, "resume", "1", "--json")
        assert done.returncode == 0, done.stderr
        final = json.loads(done.stdout)
    else:
        taken = alphred(repo, "worker", "--once")
        assert taken.returncode == 0 and "run 1: completed" in taken.stderr, taken.stderr
        final = status(repo, 1)
    assert final["status"] == "completed"
    assert not alive(held)
    assert quick_log.read_text() == "ran\n"  # the finished branch was not redone
    assert [s for s in steps(final) if s[0] in ("quick", "held")] == [
        ("quick", 1, "completed"),
        ("held", 1, "interrupted"),
        ("held", 2, "completed"),
    ]
    files = git(repo, "ls-tree", "--name-only", final["branch"]).split()
    assert {"quick.txt", "held.txt", "half.txt"} <= set(files)
    saved = db(repo).execute(
        "select a.attempt, a.content_text from phase_artifacts a join run_nodes n on n.id = a.run_node_id "
        "where a.kind = 'interrupted_diff' and n.node_key = 'held'"
    )
    ((attempt, diff),) = saved.fetchall()  # what the dead attempt left was kept aside, then redone cleanly
    assert attempt == 1 and "half.txt" in diff


def quick_done(repo: Path, run_id: int) -> bool:
    row = db(repo).execute("select status from run_nodes where run_id = ? and node_key = 'quick'", (run_id,)).fetchone()
    return row is not None and row[0] == "completed"


def test_ctrl_c_interrupts_every_branch_and_resume_finishes(repo: Path) -> None:
    wf, flag, quick_log, pid_file = two_held_lanes(repo)
    process = start(repo, "run", str(wf), "--json")
    wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
    wait_for(lambda: quick_done(repo, 1))
    held = int(pid_file.read_text())
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    paused = json.loads(out)
    assert (paused["status"], paused["reason"]) == ("paused", "interrupted")
    assert ("held", 1, "interrupted") in steps(paused)
    wait_for(lambda: not alive(held))
    flag.touch()
    done = alphred(repo, "resume", "1", "--json")
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout)
    assert final["status"] == "completed" and ("held", 2, "completed") in steps(final)
    assert quick_log.read_text() == "ran\n"


def test_cancel_stops_every_branch(repo: Path) -> None:
    wf, _flag, _log, pid_file = two_held_lanes(repo)
    process = start(repo, "run", str(wf), "--json")
    wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
    held = int(pid_file.read_text())
    assert alphred(repo, "cancel", "1").returncode == 0
    out, err = process.communicate(timeout=30)
    assert process.returncode == 3, err
    final = json.loads(out)
    assert (final["status"], final["reason"]) == ("cancelled", "cancelled")
    assert {p["key"]: p["status"] for p in final["phases"]}["held"] == "cancelled"
    wait_for(lambda: not alive(held))


def test_kill_9_mid_merge_then_resume_merges_once(repo: Path) -> None:
    wf = workflow(
        repo,
        """\
        phases:
          plan: {type: command, run: "true", transitions: [{to: [left, right]}]}
          left: {type: command, run: "echo left > left.txt", transitions: [{to: join}]}
          right: {type: command, run: "echo right > right.txt", transitions: [{to: join}]}
          join: {join: all, type: command, run: "ls left.txt right.txt"}
        """,
    )
    env = {**base_env(repo.parent), "ALPHRED_CRASH_AT": "merged@2"}  # after the second merge, before it is recorded
    crashed = alphred(repo, "run", str(wf), env=env)
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    done = alphred(repo, "resume", "1", "--json")
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout)
    assert final["status"] == "completed"
    log = first_parent_log(repo, final["branch"])
    assert log == ["alphred(wf): merge right", "alphred(wf): merge left", "init"]
    assert lane_dirs(repo) == []


def test_kill_9_while_the_resolver_works_then_resume_gives_it_the_conflict_again(repo: Path) -> None:
    flag, pid_file = repo.parent / "flag", repo.parent / "resolver.pid"
    wf = workflow(
        repo,
        CONFLICT.format(
            resolver="on_conflict: resolve",
            extra=f"""\
  resolve:
    type: command
    run: "echo $$ > {pid_file}; echo scribble > scratch.txt; while [ ! -f {flag} ]; do sleep 0.05; done; printf 'both\\\\n' > shared.txt"
""",
        ),
    )
    process = start(repo, "run", str(wf))
    wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
    kill_group(process)
    flag.touch()
    done = alphred(repo, "resume", "1", "--json")
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout)
    assert final["status"] == "completed"
    assert [s for s in steps(final) if s[0] == "resolve"] == [
        ("resolve", 1, "interrupted"),
        ("resolve", 2, "completed"),
    ]
    branch = final["branch"]
    assert git(repo, "show", f"{branch}:shared.txt") == "both"
    assert "scratch.txt" in git(repo, "ls-tree", "--name-only", branch)  # the second attempt's, not the first's
    assert git(repo, "rev-list", "--parents", "-n", "1", f"{branch}~1").count(" ") == 2


@pytest.mark.slow
def test_gc_keeps_a_live_runs_branch_worktrees_and_removes_an_ended_runs(repo: Path) -> None:
    wf, _flag, _log, pid_file = two_held_lanes(repo)
    process = start(repo, "run", str(wf))
    wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
    gc = alphred(repo, "gc", "--dry-run")
    assert gc.returncode == 0 and "1.held" not in gc.stdout + gc.stderr  # a running run's branches are live
    kill_group(process)
    assert alphred(repo, "cancel", "1").returncode == 0
    assert lane_dirs(repo) == ["1.held", "1.quick"]
    listed = alphred(repo, "gc", "--dry-run")
    assert "1.held" in listed.stdout + listed.stderr and lane_dirs(repo) == ["1.held", "1.quick"]
    assert alphred(repo, "gc").returncode == 0
    assert lane_dirs(repo) == []
    assert git(repo, "branch", "--list", "*.held") != ""  # the branch stays


@pytest.mark.parametrize("point", ["before_commit", "after_commit@2"])  # after_commit@1: plan, which changed nothing
def test_kill_9_around_a_branch_commit_redoes_nothing(repo: Path, point: str) -> None:
    ran = repo.parent / "ran.log"
    wf = workflow(
        repo,
        f"""\
        phases:
          plan: {{type: command, run: "true", transitions: [{{to: [left, right]}}]}}
          left: {{type: command, run: "echo left >> {ran}; echo left > left.txt", transitions: [{{to: join}}]}}
          right: {{type: command, run: "echo right >> {ran}; echo right > right.txt", transitions: [{{to: join}}]}}
          join: {{join: all, type: command, run: "ls left.txt right.txt"}}
        """,
    )
    crashed = alphred(repo, "run", str(wf), env={**base_env(repo.parent), "ALPHRED_CRASH_AT": point})
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    done = alphred(repo, "resume", "1", "--json")
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout)
    assert final["status"] == "completed"
    recovered = db(repo).execute(
        "select n.node_key from phase_artifacts a join run_nodes n on n.id = a.run_node_id "
        "where a.kind = 'diff' and a.content_json like '%recovered%'"
    )
    settled = {name for (name,) in recovered.fetchall()}  # branches killed around their commit: finished
    assert settled, steps(final)
    for name in settled:  # ... and not redone (the other branch may have been cut short: it runs again)
        assert ran.read_text().split().count(name) == 1, (ran.read_text(), steps(final))
        assert (name, 1, "completed") in steps(final)
    for name in ("left", "right"):
        log = git(repo, "log", "--format=%s", f"{final['branch']}.{name}").splitlines()
        assert log == [f"alphred(wf): {name} [visit 1]", "init"], (name, steps(final))  # one commit each


def test_the_offline_review_example_runs_with_lanes_in_its_event_stream(repo: Path) -> None:
    example = Path(__file__).resolve().parents[1] / "fixtures" / "workflows" / "parallel-review-offline.yaml"
    done = alphred(repo, "run", str(example), "--events", "jsonl", "--json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    final = lines[-1]
    assert final["status"] == "completed" and final["phases"][-1]["decision"] == "changes_requested"
    provider = [line for line in lines[:-1] if line.get("type") in ("system", "result")]
    assert {line["phase"]: line.get("lane") for line in provider} == {
        "scope": None, "security": "security", "tests": "tests", "style": "style", "verdict": None,
    }  # fmt: skip
    started = [line for line in lines if line.get("type") == "phase_started" and line.get("lane")]
    assert sorted(line["phase"] for line in started) == ["security", "style", "tests"]
    branches = {p["key"]: p["branch"] for p in final["phases"]}
    assert branches["tests"] == f"{final['branch']}.tests" and branches["verdict"] is None


@pytest.mark.slow
def test_pause_lets_running_branches_finish_then_resume_completes(repo: Path) -> None:
    wf, flag, quick_log, pid_file = two_held_lanes(repo)
    process = start(repo, "run", str(wf), "--json")
    wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
    assert alphred(repo, "pause", "1").returncode == 0
    flag.touch()  # the held branch's attempt finishes; nothing new starts
    out, err = process.communicate(timeout=60)
    assert process.returncode == 4, err
    paused = json.loads(out)
    assert (paused["status"], paused["reason"]) == ("paused", "paused")
    assert ("held", 1, "completed") in steps(paused) and ("quick", 1, "completed") in steps(paused)
    assert all(s[0] != "join" for s in steps(paused))
    done = alphred(repo, "resume", "1", "--json")
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout)
    assert final["status"] == "completed" and steps(final)[-1] == ("join", 1, "completed")
    assert quick_log.read_text() == "ran\n"
