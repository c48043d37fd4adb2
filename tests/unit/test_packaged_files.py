"""Files shipped inside the package: the templates are the repository's, byte for byte, and the committed
schema is the one assembled from Alphred's providers; ``alphred schema``, ``alphred init``, the grouped
``--help`` and shell completion work."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from alphred.cli import app
from alphred.cli.files_cmds import packaged_text, template_names
from alphred.cli.main import HELP_SECTIONS
from alphred.providers import default_registry
from alphred.workflow.json_schema import schema_text

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_schema_is_the_one_assembled_from_alphreds_providers() -> None:
    # after changing a key or a provider's declaration: alphred schema > schemas/workflow.schema.json
    assert schema_text(default_registry(builtin_only=True)) == (ROOT / "schemas" / "workflow.schema.json").read_text()


def test_every_bundled_workflow_is_a_template() -> None:
    assert template_names() == sorted(p.stem for p in (ROOT / "workflows").glob("*.yaml"))
    for name in template_names():
        assert packaged_text("templates", f"{name}.yaml") == (ROOT / "workflows" / f"{name}.yaml").read_text()


def test_schema_prints_json() -> None:
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0 and json.loads(result.stdout)["$schema"].startswith("https://json-schema.org/")
    assert result.stdout == schema_text(default_registry())  # assembled from the installed providers


def test_init_writes_a_valid_workflow_and_keeps_an_existing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    first = CliRunner().invoke(app, ["init"])
    assert first.exit_code == 0, first.output
    assert (tmp_path / "demo.yaml").read_text() == (ROOT / "workflows" / "demo.yaml").read_text()
    assert "next: alphred run demo.yaml" in first.stderr
    again = CliRunner().invoke(app, ["init"])
    assert again.exit_code == 2 and "already exists" in again.stderr
    unknown = CliRunner().invoke(app, ["init", "-t", "nope"])
    assert unknown.exit_code == 2 and "choose one of: address-review, demo" in unknown.stderr
    listed = CliRunner().invoke(app, ["init", "--list"])
    assert all(name in listed.stdout for name in template_names())


def test_help_is_grouped_with_examples() -> None:
    text = CliRunner().invoke(app, ["--help"]).stdout
    positions = [text.index(f"{title}:") for title, _ in HELP_SECTIONS]
    assert positions == sorted(positions) and "Other commands:" not in text  # every command has its group
    assert "Examples:" in text and "_ALPHRED_COMPLETE=bash_source alphred" in text
    run_section = text[positions[0] : positions[1]]
    assert "  run " in run_section and "  resume " in run_section and "  status " not in run_section


def test_shell_completion_is_clicks() -> None:
    env = {**os.environ, "_ALPHRED_COMPLETE": "bash_complete", "COMP_WORDS": "alphred sta", "COMP_CWORD": "1"}
    done = subprocess.run([sys.executable, "-m", "alphred"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "plain,status" in done.stdout.splitlines()
