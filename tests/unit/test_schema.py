"""schemas/workflow.schema.json and the loader agree on every workflow the project ships or tests."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from alphred.providers import default_registry
from alphred.workflow import check_workflow

PROVIDERS = default_registry()  # every installed provider, as the CLI has them

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "workflow.schema.json").read_text())
VALID = sorted([*ROOT.glob("workflows/*.yaml"), *ROOT.glob("tests/fixtures/workflows/*.yaml")])
INVALID = sorted(ROOT.glob("tests/fixtures/workflows/invalid/*.yaml"))


def test_schema_is_valid_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_there_are_files_to_check() -> None:
    assert len(VALID) >= 3 and len(INVALID) >= 5


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_files_pass_loader_and_schema(path: Path) -> None:
    workflow, diagnostics = check_workflow(path, providers=PROVIDERS)
    assert workflow is not None, [d.format() for d in diagnostics]
    errors = [e.message for e in jsonschema.Draft202012Validator(SCHEMA).iter_errors(yaml.safe_load(path.read_text()))]
    assert errors == []


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_invalid_files_fail_loader_and_schema(path: Path) -> None:
    workflow, diagnostics = check_workflow(path, providers=PROVIDERS)
    assert workflow is None and any(d.severity == "error" for d in diagnostics)
    assert not jsonschema.Draft202012Validator(SCHEMA).is_valid(yaml.safe_load(path.read_text()))
