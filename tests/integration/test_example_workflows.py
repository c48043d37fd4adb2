"""Every example workflow in ``workflows/`` validates and completes with ``--dry-run`` through ``python -m alphred``.

``demo.yaml`` is the exception: it runs offline without ``--dry-run`` (its scripted agent writes the file its
check needs), which ``test_run_cli`` covers.

The repository has a local bare ``origin`` and a fake ``gh`` on PATH, so that a workflow with a
``pull_request:`` block completes whether or not a dry run delivers its pull request.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers.processes import run_alphred
from helpers.scm import ScmWorld, make_world

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "workflows").glob("*.yaml"))
INPUTS = {
    "address-review": ["-i", "pr=123"],
    "design-implement-review": ["-i", "task=Add a --verbose flag", "-i", "test_command=true", "--approve-all"],
    "fix-issue": ["-i", "issue=Crash on an empty config file", "-i", "test_command=test -d . && true"],
    "fix-until-green": ["-i", "task=Support Python 3.13"],
    "ralph-loop": ["-i", "task=Make the check pass", "-i", "check=test -f README.md && grep -q project README.md"],
    "review-only": ["-i", "against=main"],
    "parallel-review": ["-i", "against=main"],
    "plan-parallel": ["-i", "goal=Add a --config flag", "-i", "test_command=true"],
}
EXPECTED_STEPS = {
    "address-review": ["checkout", "review", "address", "push"],  # a dry run checks nothing out, pushes nothing
    "design-implement-review": ["design", "implement", "tests", "review", "gate"],
    "fix-issue": ["implement", "review"],
    "fix-until-green": ["implement", "open_pr", "ci"],  # a dry run opens no pull request: no checks to wait for
    "review-only": ["review", "post"],
    "ralph-loop": ["work", "check"],
    "parallel-review": ["scope", "security", "tests", "style", "verdict"],  # the reviewers at once: any order
    "plan-parallel": ["plan", "implement-0", "implement-1", "integrate", "review"],  # two dry-run tasks
}
PARALLEL = {"parallel-review", "plan-parallel"}


def alphred(world: ScmWorld, *args: str) -> subprocess.CompletedProcess[str]:
    return run_alphred(*args, env={**world.env, "PYTHONPATH": str(ROOT)}, cwd=world.repo)


def test_the_examples_are_there() -> None:
    names = {path.stem for path in EXAMPLES}
    assert {"fix-issue", "review-only", "ralph-loop", "design-implement-review", "demo"} <= names
    assert names - {"demo"} <= set(INPUTS)


def test_every_example_validates(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    result = alphred(world, "validate", *map(str, EXAMPLES))
    assert result.returncode == 0, result.stderr + result.stdout
    said = result.stdout + result.stderr
    assert "warning" not in said and said.count(": ok: ") == len(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXPECTED_STEPS))
def test_the_example_runs_with_dry_run(tmp_path: Path, name: str) -> None:
    world = make_world(tmp_path)
    result = alphred(world, "run", str(ROOT / "workflows" / f"{name}.yaml"), "--dry-run", "--json", *INPUTS[name])
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout.strip().splitlines()[-1])
    assert status["status"] == "completed" and status["reason"] is None
    phases = [s["phase"] for s in status["steps"]]
    if name in PARALLEL:
        assert (phases[0], phases[-1]) == (EXPECTED_STEPS[name][0], EXPECTED_STEPS[name][-1])
        phases = [phases[0], *(p for p in EXPECTED_STEPS[name] if p in phases[1:-1]), phases[-1]]
    assert phases == EXPECTED_STEPS[name]
    assert all(s["outcome"] == "completed" for s in status["steps"])
