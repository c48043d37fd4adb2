"""The GitHub Action (``action.yml``): its steps' scripts run as GitHub runs them, on recorded event payloads
(an issue labelled, an authorised and an unauthorised ``/alphred`` comment), with a fake ``gh``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from helpers.scm import ScmWorld, git, make_world, parse_outputs

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "tests" / "fixtures" / "events"
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
STEPS = {step["name"]: step for step in ACTION["runs"]["steps"]}
GREET = """\
alphred: 1
key: greet
inputs:
  topic: {required: true}
  tone: {default: plain}
pull_request:
  title: "Greet {{ inputs.topic }}"
phases:
  write:
    provider: scripted
    script: [{report: "Greeted.", files: {greeting.txt: "hello\\n"}}]
"""


def read_outputs(path: Path) -> dict[str, str]:
    return parse_outputs(path.read_text() if path.exists() else "")


def step(world: ScmWorld, name: str, env: dict[str, str], outputs: Path) -> subprocess.CompletedProcess[str]:
    """Run the ``run:`` script of the action's step ``name`` with bash in the checkout, as a runner does."""
    script = STEPS[name]["run"]
    bin_dir = Path(sys.executable).parent  # the python and alphred of this environment, like setup-python's
    full = {
        **world.env,
        "PATH": f"{bin_dir}{os.pathsep}{world.env['PATH']}",
        "PYTHONPATH": str(ROOT),
        "GITHUB_ACTION_PATH": str(ROOT),
        "GITHUB_WORKSPACE": str(world.repo),
        "GITHUB_OUTPUT": str(outputs),
        "RUNNER_TEMP": str(world.root),
        **env,
    }
    return subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", script], cwd=world.repo, env=full, capture_output=True, text=True
    )


def checkout(tmp_path: Path) -> ScmWorld:
    world = make_world(tmp_path)
    (world.repo / "workflows").mkdir()
    (world.repo / "workflows" / "greet.yaml").write_text(GREET)
    git(world.repo, "add", "-A", env=world.env)
    git(world.repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "greet", env=world.env)
    git(world.repo, "push", "-q", "origin", "main", env=world.env)
    return world


def request(
    world: ScmWorld, event: str, payload: str, outputs: Path, **inputs: str
) -> subprocess.CompletedProcess[str]:
    env = {"GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": str(EVENTS / payload)}
    env |= {"INPUT_WORKFLOW": inputs.get("workflow", ""), "INPUT_INPUTS": inputs.get("inputs", "")}
    return step(world, "Read the request", env, outputs)


def run_step(
    world: ScmWorld, asked: dict[str, str], outputs: Path, pr: str = "true"
) -> subprocess.CompletedProcess[str]:
    env = {"WORKFLOW": asked["workflow"], "INPUT_FILE": asked["input_file"], "PR": pr, "DB": ""}
    return step(world, "Run the workflow", env, outputs)


def test_an_issue_labelled_runs_the_workflow_input_and_opens_the_pull_request(tmp_path: Path) -> None:
    world = checkout(tmp_path)
    asked_at, ran_at = tmp_path / "request.out", tmp_path / "run.out"
    read = request(world, "issues", "issue_labeled.json", asked_at, workflow="greet", inputs="topic=issue 12\n\n# c\n")
    assert read.returncode == 0, read.stdout + read.stderr
    asked = read_outputs(asked_at)
    assert (asked["skip"], asked["workflow"]) == ("false", "workflows/greet.yaml")
    assert json.loads(Path(asked["input_file"]).read_text()) == {"topic": "issue 12"}
    ran = run_step(world, asked, ran_at)
    assert ran.returncode == 0, ran.stderr
    outputs = read_outputs(ran_at)
    assert (outputs["run_id"], outputs["status"]) == ("1", "completed")
    assert outputs["pr_url"] == "https://github.com/acme/widgets/pull/42"
    (create,) = [c["argv"] for c in world.calls() if c["argv"][:2] == ["pr", "create"]]
    assert "--title=Greet issue 12" in create
    assert set(ACTION["outputs"]) == {"run_id", "status", "pr_url"}
    assert all(f"steps.run.outputs.{name}" in ACTION["outputs"][name]["value"] for name in ACTION["outputs"])


def test_an_authorised_comment_names_the_workflow_and_its_inputs(tmp_path: Path) -> None:
    world = checkout(tmp_path)
    asked_at = tmp_path / "request.out"
    read = request(world, "issue_comment", "comment_authorised.json", asked_at)
    assert read.returncode == 0, read.stdout + read.stderr
    asked = read_outputs(asked_at)
    assert asked["workflow"] == "workflows/greet.yaml"
    assert json.loads(Path(asked["input_file"]).read_text()) == {"topic": "the reviewers", "tone": "warm"}
    ran = run_step(world, asked, tmp_path / "run.out", pr="false")
    assert ran.returncode == 0, ran.stderr
    assert read_outputs(tmp_path / "run.out")["status"] == "completed"
    assert not [c for c in world.calls() if c["argv"][:2] == ["pr", "create"]]  # pr: false


def test_an_unauthorised_comment_fails_without_running_or_commenting(tmp_path: Path) -> None:
    world = checkout(tmp_path)
    asked_at = tmp_path / "request.out"
    read = request(world, "issue_comment", "comment_unauthorised.json", asked_at)
    assert read.returncode == 1
    assert read.stdout.startswith("::error title=alphred::drive-by (CONTRIBUTOR) may not run Alphred")
    assert read_outputs(asked_at) == {} and world.calls() == []  # no output, no gh call: nothing posted


def test_comments_that_are_no_command_are_skipped_and_bad_ones_refused(tmp_path: Path) -> None:
    world = checkout(tmp_path)
    payload: dict[str, Any] = json.loads((EVENTS / "comment_authorised.json").read_text())
    cases = {
        "Looks good to me": (0, ""),
        "/alphred ../../etc/passwd": (1, "is not a workflow name"),
        "/alphred nowhere": (1, "no workflow 'nowhere'"),
        "/alphred greet not-a-pair": (1, "'not-a-pair' is not an input"),
        "/alphred": (1, "names no workflow"),
    }
    for index, (body, (code, said)) in enumerate(cases.items()):
        payload["comment"]["body"] = body
        path = tmp_path / "event.json"
        path.write_text(json.dumps(payload))
        env = {
            "GITHUB_EVENT_NAME": "issue_comment",
            "GITHUB_EVENT_PATH": str(path),
            "INPUT_WORKFLOW": "",
            "INPUT_INPUTS": "",
        }
        outputs = tmp_path / f"out-{index}"
        done = step(world, "Read the request", env, outputs)
        assert done.returncode == code, (body, done.stdout)
        if code == 0:
            assert read_outputs(outputs)["skip"] == "true"
        else:
            assert said in done.stdout and read_outputs(outputs) == {}, (body, done.stdout)
