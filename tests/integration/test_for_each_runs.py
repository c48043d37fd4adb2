"""Dynamic fan-out, guarded branches and ``join: all_done`` end to end (SPEC §13): real ``alphred``
processes, real git, real SQLite, real kills."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path
from typing import Any

import pytest
from helpers import repos
from helpers.runs import alphred, base_env, db, steps, workflow


def git(repo: Path, *args: str) -> str:
    return repos.git(repo, *args, env=base_env(repo.parent))


def run_json(repo: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any], str]:
    done = alphred(repo, *args, "--json", env=env)
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else {}, done.stderr


def for_each(repo: Path, titles: list[str], join: str = "all_done", fail: str = "none") -> Path:
    """plan (scripted: a typed task list) → implement per task → check (fails for title ``fail``) → integrate."""
    ran = repo.parent / "ran.log"
    tasks = json.dumps([{"title": t} for t in titles])
    return workflow(
        repo,
        f"""\
        limits: {{max_parallel: 2}}
        phases:
          plan:
            provider: scripted
            script: [{{report: {{tasks: {tasks}}}}}]
            transitions:
              - to: implement
                for_each: report.tasks
                as: task
          implement:
            type: command
            run: "echo {{{{ task.title }}}} >> {ran}; echo {{{{ task.title }}}} > item-{{{{ task_index }}}}.txt"
            transitions: [{{to: check}}]
          check:
            type: command
            allow_failure: true
            run: "test {{{{ task.title }}}} != {fail}"
            transitions: [{{to: integrate, when: exit_code == 0}}, {{to: $fail}}]
          integrate:
            join: {join}
            type: command
            run: 'echo "{{{{ branches.completed }}}} / {{{{ branches.failed }}}}" > joined.txt'
        """,
    )


def first_parent_log(repo: Path, branch: str) -> list[str]:
    return git(repo, "log", "--first-parent", "--format=%s", branch).splitlines()


def test_one_branch_per_item_merged_in_item_order_and_a_failed_item_kept_unmerged(repo: Path) -> None:
    wf = for_each(repo, ["alpha", "beta", "gamma"], fail="beta")
    code, final, err = run_json(repo, "run", str(wf))
    assert code == 0, err
    assert final["status"] == "completed"
    branch = final["branch"]
    assert first_parent_log(repo, branch)[:3] == [
        "alphred(wf): integrate [visit 1]",
        "alphred(wf): merge implement-2",
        "alphred(wf): merge implement-0",
    ]
    assert git(repo, "show", f"{branch}:joined.txt").strip() == '["implement-0","implement-2"] / ["implement-1"]'
    assert git(repo, "show", f"{branch}:item-2.txt").strip() == "gamma"
    assert "item-1.txt" not in git(repo, "ls-tree", "--name-only", branch)  # the failed item is not merged
    assert git(repo, "show", f"{branch}.implement-1:item-1.txt").strip() == "beta"  # ... its branch stays
    phases = {p["key"]: p for p in final["phases"]}
    assert {"implement-0", "implement-1", "implement-2", "check-1"} <= set(phases)
    assert phases["check-1"]["status"] == "completed" and phases["check-1"]["exit_code"] == 1
    assert ("check-1", 1, "completed") in steps(final)


def test_a_list_over_max_items_fails_the_run_before_any_branch(repo: Path) -> None:
    wf = for_each(repo, [f"t{i}" for i in range(21)])
    code, final, _ = run_json(repo, "run", str(wf))
    assert code == 1
    assert (final["status"], final["reason"]) == ("failed", "too_many_items")
    assert not (repo.parent / "ran.log").exists()
    assert git(repo, "branch", "--list", "*.implement-*") == ""


def test_an_empty_list_runs_the_join_with_nothing_merged(repo: Path) -> None:
    wf = for_each(repo, [])
    code, final, err = run_json(repo, "run", str(wf))
    assert code == 0, err
    assert git(repo, "show", f"{final['branch']}:joined.txt").strip() == "[] / []"
    assert [s[0] for s in steps(final)] == ["plan", "integrate"]


@pytest.mark.parametrize(
    ("point", "how"),
    [
        ("between_phases@4", "resume"),
        ("after_commit@3", "resume"),
        ("merged@2", "resume"),  # the second merge made in git, not yet recorded: mid-merge
        ("merged@3", "worker"),
        ("after_commit@2", "worker"),
    ],
)
def test_kill_9_mid_for_each_then_resume_merges_every_item_exactly_once(repo: Path, point: str, how: str) -> None:
    wf = for_each(repo, ["alpha", "beta", "gamma", "delta"])
    crashed = alphred(repo, "run", str(wf), env={**base_env(repo.parent), "ALPHRED_CRASH_AT": point})
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    if how == "resume":
        done = alphred(repo, "resume", "1", "--json")
    else:  # a worker takes the killed run over (its owner is gone)
        taken = alphred(repo, "worker", "--once")
        assert taken.returncode == 0, taken.stderr
        done = alphred(repo, "status", "1", "--json")
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout)
    assert final["status"] == "completed"
    log = first_parent_log(repo, final["branch"])
    merges = [line for line in log if " merge " in line]
    assert merges == [f"alphred(wf): merge implement-{i}" for i in (3, 2, 1, 0)]  # each once, in item order
    assert [s for s in steps(final) if s[0] == "plan"] == [("plan", 1, "completed")]  # never planned again
    ran = (repo.parent / "ran.log").read_text().split()
    assert sorted(set(ran)) == ["alpha", "beta", "delta", "gamma"]
    committed = db(repo).execute(
        "select count(*) from run_nodes where node_key like 'implement-%' and status = 'completed'"
    )
    assert committed.fetchone() == (4,)
    for i, title in enumerate(["alpha", "beta", "gamma", "delta"]):
        assert git(repo, "show", f"{final['branch']}:item-{i}.txt").strip() == title


def test_the_offline_plan_parallel_example_runs_one_implementer_per_task(repo: Path) -> None:
    example = Path(__file__).resolve().parents[1] / "fixtures" / "workflows" / "plan-parallel-offline.yaml"
    code, final, err = run_json(repo, "run", str(example))
    assert code == 0, err
    assert final["status"] == "completed"
    branch = final["branch"]
    assert git(repo, "ls-tree", "-r", "--name-only", branch, "done").split() == [
        "done/cli.txt",
        "done/docs.txt",
        "done/parser.txt",
    ]
    assert git(repo, "show", f"{branch}:done/cli.txt").strip() == "Add the --config flag"
    assert [s[0] for s in steps(final) if not s[0].startswith("implement-")] == ["plan", "integrate", "review"]
    assert final["phases"][-1]["decision"] == "approved"


def test_a_guarded_branch_is_skipped_and_all_done_goes_on_past_a_failed_one(repo: Path) -> None:
    wf = workflow(
        repo,
        """\
        inputs: {lint: {default: "no"}}
        phases:
          plan:
            type: command
            run: "true"
            transitions: [{to: [security, {phase: style, when: 'inputs.lint == "yes"'}, docs]}]
          security: {type: command, run: "echo s > s.txt", transitions: [{to: verdict}]}
          style: {type: command, run: "echo st > st.txt", transitions: [{to: verdict}]}
          docs:
            type: command
            run: "echo d > d.txt; false"
            allow_failure: true
            transitions: [{to: verdict, when: exit_code == 0}, {to: $fail}]
          verdict:
            join: all_done
            type: command
            run: 'echo "{{ branches.completed }} {{ branches.failed }} {{ branches.skipped }}" > v.txt'
        """,
    )
    code, final, err = run_json(repo, "run", str(wf))
    assert code == 0, err
    branch = final["branch"]
    assert git(repo, "show", f"{branch}:v.txt").strip() == '["security"] ["docs"] ["style"]'
    assert {"s.txt", "v.txt"} <= set(git(repo, "ls-tree", "--name-only", branch).split())
    assert not {"st.txt", "d.txt"} & set(git(repo, "ls-tree", "--name-only", branch).split())
    assert git(repo, "show", f"{branch}.docs:d.txt").strip() == "d"  # the failed branch's work stays
    assert {p["key"]: p["status"] for p in final["phases"]}["style"] == "skipped"
    shown = alphred(repo, "status", "1").stdout
    assert "skipped (its guard was false)" in shown and "✗ docs" in shown
    assert git(repo, "branch", "--list", "*.style") == ""  # a skipped branch never started


def test_status_groups_the_items_of_a_for_each(repo: Path) -> None:
    wf = for_each(repo, ["alpha", "beta", "gamma", "delta"], fail="beta")
    assert alphred(repo, "run", str(wf)).returncode == 0
    shown = alphred(repo, "status", "1").stdout
    assert re.search(r"implement ×4 +4 completed +4 +4", shown), shown  # one row for the four items
    assert re.search(r"check ×4 +4 completed", shown), shown
    assert "implement-1" not in shown.split("branches:")[0]  # no line per item in the phase table
    row = next(line for line in shown.splitlines() if "implement ×4" in line and ".implement-*" in line)
    assert row.rstrip().endswith("3 merged, 1 failed (implement-1)")
