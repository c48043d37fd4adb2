"""Fail-over and stall detection inside parallel branches (SPEC §15 with §8 and §13), end to end: real
``alphred`` processes, real git, real SQLite, real kills."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest
from helpers import repos
from helpers.runs import alphred, base_env, steps, workflow

from alphred.store import SqlRunStore

FAIL_OVER = """\
limits: {max_parallel: 1}
phases:
  plan: {type: command, run: "true", transitions: [{to: [implement, docs]}]}
  implement:
    provider: scripted
    max_retries: 1
    script: [{fail: "upstream 503"}]
    fallback:
      - {provider: scripted, script: [{report: second, files: {who.txt: second}}]}
      - {provider: scripted, script: [{report: third, files: {who.txt: third}}]}
    transitions: [{to: join}]
  docs: {type: command, run: "echo docs > docs.txt", transitions: [{to: join}]}
  join: {join: all, type: command, run: "true"}
"""


def git(repo: Path, *args: str) -> str:
    return repos.git(repo, *args, env=base_env(repo.parent))


def run_json(repo: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any], str]:
    done = alphred(repo, *args, "--json", env=env)
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else {}, done.stderr


def test_an_outage_in_a_branch_moves_to_the_fallback_and_the_branch_is_merged(repo: Path) -> None:
    code, final, err = run_json(repo, "run", str(workflow(repo, FAIL_OVER)))
    assert code == 0, err
    implement = [(s["attempt"], s["outcome"], s["branch"], s["provider"]) for s in final["steps"]]
    assert [row for row in implement if row[2] is not None and row[0] <= 3 and row[3]] == [
        (1, "failed", final["branch"] + ".implement", "scripted"),
        (2, "failed", final["branch"] + ".implement", "scripted"),  # the retry, on its own provider
        (3, "completed", final["branch"] + ".implement", "scripted"),  # the first fallback, a fresh count
    ]
    assert git(repo, "show", f"{final['branch']}:who.txt") == "second"  # merged from the branch
    assert git(repo, "show", f"{final['branch']}:docs.txt") == "docs"


@pytest.mark.parametrize("how", ["resume", "worker"])
def test_a_kill_right_after_the_fail_over_neither_reruns_nor_skips_a_provider(repo: Path, how: str) -> None:
    # the third stored step: plan, implement #1, implement #2 (its retries spent: the fail-over transition)
    env = {**base_env(repo.parent), "ALPHRED_CRASH_AT": "between_phases@3"}
    crashed = alphred(repo, "run", str(workflow(repo, FAIL_OVER)), env=env)
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    if how == "resume":
        code, final, err = run_json(repo, "resume", "1")
    else:  # a worker takes the killed run over (its owner is gone)
        taken = alphred(repo, "worker", "--once")
        assert taken.returncode == 0, taken.stderr
        code, final, err = run_json(repo, "status", "1")
    assert code == 0, err
    assert final["status"] == "completed"
    assert [s for s in steps(final) if s[0] == "implement"] == [
        ("implement", 1, "failed"),
        ("implement", 2, "failed"),
        ("implement", 3, "interrupted"),  # started on the fallback when the process died
        ("implement", 4, "completed"),  # on the same fallback: the own provider never ran again
    ]
    assert git(repo, "show", f"{final['branch']}:who.txt") == "second"  # not the third provider's


def _loop(join: str) -> str:
    return f"""\
    phases:
      plan: {{type: command, run: "true", transitions: [{{to: [poll, docs]}}]}}
      poll:
        type: command
        run: echo still waiting
        max_visits: 50
        transitions: [{{to: join, when: 'report == "ready"'}}, {{to: poll}}]
      docs: {{type: command, run: "echo docs > docs.txt", transitions: [{{to: join}}]}}
      join:
        join: {join}
        type: command
        run: 'echo "{{{{ branches.failed }}}}" > failed.txt'
    """


def test_a_loop_in_a_branch_that_changes_nothing_fails_the_run_stalled(repo: Path) -> None:
    code, final, err = run_json(repo, "run", str(workflow(repo, _loop("all"))))
    assert code == 1, err
    assert (final["status"], final["reason"]) == ("failed", "stalled")
    assert [s for s in steps(final) if s[0] == "poll"] == [("poll", n, "completed") for n in range(1, 5)]
    assert "phase poll stalled: visits 1 to 4 left the same tree and the same report" in err


def test_under_all_done_a_stalled_branch_is_not_merged_and_the_join_names_it(repo: Path) -> None:
    code, final, err = run_json(repo, "run", str(workflow(repo, _loop("all_done"))))
    assert code == 0, err
    assert final["status"] == "completed"
    assert len([s for s in steps(final) if s[0] == "poll"]) == 4  # max_stalls (3) stalled visits, then it ended
    assert [s for s in final["steps"] if s["phase"] == "poll"][-1]["branch"] == final["branch"] + ".poll"
    store = SqlRunStore(f"sqlite:///{repo / '.alphred' / 'alphred.db'}")
    try:
        assert [s.reason for s in store.list_steps(1) if s.phase == "poll"] == [None, None, None, "stalled"]
    finally:
        store.close()
    assert git(repo, "show", f"{final['branch']}:failed.txt") == '["poll"]'
    assert git(repo, "show", f"{final['branch']}:docs.txt") == "docs"
