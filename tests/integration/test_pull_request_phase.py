"""``type: pull_request`` (SPEC §16): opened mid-run, updated on later visits (one PR), crash-safe; the
end-of-run pull request's ``when:`` and ``required:``; a run with nothing to deliver completes."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

from helpers.processes import run_alphred
from helpers.scm import ScmWorld, make_world

ROOT = Path(__file__).resolve().parents[2]

TWO_VISITS = """\
alphred: 1
key: midpr
phases:
  write:
    provider: scripted
    script:
      - {report: "First draft of a.txt.", files: {a.txt: "1\\n"}}
      - {report: "Second draft of a.txt.", files: {a.txt: "2\\n"}}
    transitions: [{to: pr}]
  pr:
    type: pull_request
    title: "Draft {{ attempt }}"
    body_from: write
    labels: [bot]
    transitions:
      - {to: write, when: "visits < 2"}
      - {to: $end}
"""


def alphred(world: ScmWorld, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_alphred(*args, "--repo", str(world.repo), env={**(env or world.env), "PYTHONPATH": str(ROOT)})


def write(world: ScmWorld, text: str, name: str = "wf.yaml") -> Path:
    path = world.root / name
    path.write_text(text)
    return path


def pr_calls(world: ScmWorld, verb: str) -> list[list[str]]:
    return [c["argv"] for c in world.calls() if c["argv"][:2] == ["pr", verb]]


def reports(world: ScmWorld, run_id: int, phase: str) -> list[object]:
    """The stored reports of ``phase``, attempt by attempt."""
    with sqlite3.connect(world.repo / ".alphred" / "alphred.db") as db:
        rows = db.execute(
            "SELECT a.content_json FROM phase_artifacts a JOIN run_nodes n ON n.id = a.run_node_id "
            "WHERE a.run_id = ? AND n.node_key = ? AND a.kind = 'report' ORDER BY a.attempt",
            (run_id, phase),
        ).fetchall()
    return [json.loads(row[0]) for row in rows]


def test_two_visits_open_one_pull_request_and_update_it(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    result = alphred(world, "run", str(write(world, TWO_VISITS)), "--json")
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert status["status"] == "completed"
    assert status["pr_url"] == "https://github.com/acme/widgets/pull/42"
    (create,) = pr_calls(world, "create")
    assert "--title=Draft 1" in create and "--label=bot" in create
    (edit,) = pr_calls(world, "edit")
    assert edit[2] == "https://github.com/acme/widgets/pull/42" and "--title=Draft 2" in edit
    (edited,) = [c for c in world.calls() if c["argv"][:2] == ["pr", "edit"]]
    assert edited["body"].startswith("Second draft of a.txt.")
    assert world.remote_sha(status["branch"]) == status["head"]  # the second visit pushed the new commit
    assert "pull request" in result.stderr and status["pr_url"] in result.stderr


def test_a_kill_after_the_pull_request_opened_leaves_one_pull_request(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    wf = write(world, TWO_VISITS)
    crashed = alphred(world, "run", str(wf), env={**world.env, "ALPHRED_CRASH_AT": "pull_request_phase_opened"})
    assert crashed.returncode < 0 or crashed.returncode == 137, crashed.stderr
    assert len(pr_calls(world, "create")) == 1  # opened, and the attempt never said so
    result = alphred(world, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["status"] == "completed"
    assert len(pr_calls(world, "create")) == 1  # the repeated attempt found it: no second pull request
    assert [argv[2] for argv in pr_calls(world, "edit")] == ["https://github.com/acme/widgets/pull/42"] * 2
    (last,) = reports(world, 1, "pr")[-1:]
    assert last == {"url": "https://github.com/acme/widgets/pull/42", "number": 42, "head": "alphred/midpr/1"}
