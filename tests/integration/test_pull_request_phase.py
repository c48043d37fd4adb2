"""``type: pull_request`` (SPEC §16): opened mid-run, updated on later visits (one PR), crash-safe; the
end-of-run pull request's ``when:`` and ``required:``; a run with nothing to deliver completes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from helpers.processes import run_alphred
from helpers.scm import ScmWorld, make_world, phase_reports

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


def reports(world: ScmWorld, run_id: int, phase: str) -> list[Any]:
    return phase_reports(world.repo, run_id, phase)


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
    costs = edited["body"].split("<details><summary>Cost and provider by step ($0.0000)</summary>")[1]
    assert "| 1 | write | 1 | scripted | – | 0 | $0.0000 |" in costs and "| 2 | pr | 1 | pull_request |" in costs
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
    assert last == {
        "url": "https://github.com/acme/widgets/pull/42",
        "number": 42,
        "head": "alphred/midpr/1",
        "sha": world.remote_sha("alphred/midpr/1"),
    }


CONDITIONAL = """\
alphred: 1
key: maybe
inputs:
  ship: {default: "no"}
pull_request:
  title: Maybe
  when: 'inputs.ship == "yes" and phases.write.status == "completed"'
phases:
  write:
    provider: scripted
    script: [{report: done, files: {b.txt: "b\\n"}}]
"""


def test_pull_request_when_decides_whether_the_completed_run_opens_it(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    wf = write(world, CONDITIONAL)
    skipped = alphred(world, "run", str(wf), "--json")
    assert skipped.returncode == 0, skipped.stderr
    status = json.loads(skipped.stdout)
    assert status["status"] == "completed" and status["pr_url"] is None
    assert "pull request: none, not wanted (the workflow's pull_request.when did not hold)" in skipped.stderr
    assert pr_calls(world, "create") == [] and world.remote_sha(status["branch"]) is None  # nothing pushed
    shipped = alphred(world, "run", str(wf), "-i", "ship=yes", "--json")
    assert shipped.returncode == 0, shipped.stderr
    assert json.loads(shipped.stdout)["pr_url"] == "https://github.com/acme/widgets/pull/42"
    assert len(pr_calls(world, "create")) == 1


EMPTY = """\
alphred: 1
key: empty
pull_request: {title: Nothing{required}}
phases:
  look:
    provider: scripted
    script: [{report: "Looked; nothing to change."}]
"""


def test_a_run_with_nothing_to_deliver_completes_unless_the_pull_request_is_required(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    result = alphred(world, "run", str(write(world, EMPTY.replace("{required}", ""))), "--json")
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert status["status"] == "completed" and status["pr_url"] is None
    assert "pull request: none, nothing to deliver (the branch has no commit on top of its base)" in result.stderr
    assert pr_calls(world, "create") == [] and world.remote_sha(status["branch"]) is None
    required = alphred(world, "run", str(write(world, EMPTY.replace("{required}", ", required: true"))), "--json")
    assert required.returncode == 1, required.stderr
    failed = json.loads(required.stdout)
    assert (failed["status"], failed["reason"]) == ("failed", "delivery_failed")
    assert "no commits on top of main" in required.stderr


MID_RUN_EMPTY = """\
alphred: 1
key: midempty
phases:
  look:
    provider: scripted
    script: [{report: "Nothing to change."}]
    transitions: [{to: pr}]
  pr:
    type: pull_request
    transitions:
      - {to: $end, when: "report.url == null"}
      - {to: $fail}
"""


def test_a_pull_request_phase_with_nothing_to_deliver_reports_no_url(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    result = alphred(world, "run", str(write(world, MID_RUN_EMPTY)), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["status"] == "completed"
    assert pr_calls(world, "create") == [] and pr_calls(world, "list") == []
    assert reports(world, 1, "pr") == [{"url": None, "number": None, "head": "alphred/midempty/1"}]
