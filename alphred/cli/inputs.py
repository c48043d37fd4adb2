"""Workflow inputs from ``-i k=v`` and ``--input-file``, checked against the workflow's declarations."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import yaml

from alphred.errors import MissingInputError, UnknownInputError, UsageError
from alphred.redact import register_secrets, secret_inputs
from alphred.workflow import Workflow
from alphred.workflow.files import FileRefusedError, read_regular_text
from alphred.workflow.yaml_source import load_data


def collect_inputs(workflow: Workflow, pairs: Sequence[str], input_file: str | None) -> dict[str, str]:
    """Merge ``--input-file`` then ``-i`` pairs over the declared defaults; check required and unknown names."""
    given: dict[str, str] = {}
    if input_file:
        given.update(_read_input_file(input_file))
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"bad input '{pair}': use -i NAME=VALUE")
        given[name.strip()] = value
    declared = {spec.name: spec for spec in workflow.inputs}
    for name in given:
        if name not in declared:
            raise UnknownInputError(name, list(declared))
    values: dict[str, str] = {}
    missing: list[str] = []
    for spec in workflow.inputs:
        if spec.name in given:
            values[spec.name] = given[spec.name]
        elif spec.default is not None:
            values[spec.name] = spec.default
        elif spec.required:
            missing.append(spec.name)
    if missing:
        raise MissingInputError(missing, workflow.key)
    register_secrets(secret_inputs(values))  # stored and printed masked from here on
    return values


MAX_INPUT_FILE_BYTES = 1_000_000


def _read_input_file(path: str) -> dict[str, str]:
    try:
        text = read_regular_text(Path(path), MAX_INPUT_FILE_BYTES)
    except FileRefusedError as exc:
        raise UsageError(f"cannot read input file {path}: it {exc}") from None
    except OSError as exc:
        raise UsageError(f"cannot read input file {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text) if path.endswith(".json") else load_data(text)
    except RecursionError:
        raise UsageError(f"input file {path} is nested too deeply") from None
    except (ValueError, yaml.YAMLError) as exc:
        raise UsageError(
            f"input file {path} is not valid {'JSON' if path.endswith('.json') else 'YAML'}: {exc}"
        ) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise UsageError(f"input file {path} must hold a mapping of input names to values")
    result: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, dict | list):
            raise UsageError(f"input '{key}' in {path} must be a scalar")
        result[str(key)] = "" if value is None else (str(value).lower() if isinstance(value, bool) else str(value))
    return result
