"""The loader and the JSON Schema know provider keys only from the catalogue they are given (no key list of
their own): a provider's keys, readers and phase check, injected."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import jsonschema
import yaml

from alphred.workflow import check_workflow
from alphred.workflow.json_schema import workflow_schema
from alphred.workflow.provider_keys import PhaseKey, ProviderKeys, ProviderPhase, integer, text

SEEN: list[ProviderPhase] = []


def needs_model(phase: ProviderPhase) -> None:
    SEEN.append(phase)
    if "model" not in phase.fields:
        phase.out.error(phase.node, f"lamp phase '{phase.key}' needs a model")


@dataclass(frozen=True)
class Keys:
    phase_keys: Sequence[PhaseKey]
    validate_phase: Callable[[ProviderPhase], None] | None = None


LAMP = Keys(
    (PhaseKey("watts", {"type": "integer", "minimum": 1}, integer(1)), PhaseKey("tone", {"type": "string"}, text))
)
CATALOGUE: dict[str, ProviderKeys] = {"lamp": Keys(LAMP.phase_keys, needs_model)}


def check(body: str, providers: dict[str, ProviderKeys]) -> tuple[object, list[str]]:
    source = "alphred: 1\nkey: wf\n" + textwrap.dedent(body)
    workflow, found = check_workflow("wf.yaml", source, providers=providers)
    return workflow, [d.format() for d in found]


def test_a_provider_key_is_read_by_its_reader_and_the_phase_checked() -> None:
    SEEN.clear()
    body = """\
        defaults: {watts: 40}
        phases:
          a: {provider: lamp, model: m, tone: warm, decisions: [go, stop]}
          b: {provider: lamp, watts: 0}
          c: {type: command, run: "true"}
        """
    workflow, found = check(body, CATALOGUE)
    assert workflow is None and found == [
        "wf.yaml:6:3: error: lamp phase 'b' needs a model",
        "wf.yaml:6:3: warning: phase 'b' is unreachable from 'a'",
        "wf.yaml:6:30: error: 'watts' must be at least 1",
        "wf.yaml:7:3: warning: phase 'c' is unreachable from 'a'",
    ]
    a, b = SEEN
    assert (a.key, dict(a.settings), a.decisions) == ("a", {"watts": 40, "tone": "warm"}, ("go", "stop"))
    assert sorted(a.fields) == ["decisions", "model", "provider", "tone", "watts"] and b.settings == {"watts": None}


def test_keys_of_a_provider_the_catalogue_does_not_know_are_unknown() -> None:
    _, found = check("phases:\n  a: {provider: lamp, watts: 3}\n", {})
    assert found == ["wf.yaml:4:23: error: unknown key 'watts' in agent phase (lamp) 'a'"]
    workflow, found = check("phases:\n  a: {provider: lamp, options: {watts: 3}}\n", {})
    assert found == [] and workflow is not None


def test_defaults_may_set_a_key_some_provider_declares() -> None:
    _, found = check("defaults: {tone: warm, wats: 3}\nphases:\n  a: {provider: lamp, model: m}\n", CATALOGUE)
    assert found == ["wf.yaml:3:24: error: unknown key 'wats' in defaults (did you mean 'watts'?)"]


def test_the_schema_is_assembled_from_the_catalogue() -> None:
    schema = workflow_schema(CATALOGUE)
    titles = [v["title"] for v in schema["$defs"]["phase"]["oneOf"]]
    assert titles == [
        "agent phase (lamp)",
        "agent phase (a third-party provider)",
        "agent phase (provider set in defaults)",
        "command phase",
        "approval phase",
        "pull request phase",
        "ci phase (waits for the pull request's checks)",
        "workflow phase (runs a sub-workflow)",
    ]
    lamp, other = schema["$defs"]["phase"]["oneOf"][:2]
    assert lamp["properties"]["watts"] == {"type": "integer", "minimum": 1} and "options" not in lamp["properties"]
    assert other["properties"]["provider"] == {"type": "string", "not": {"enum": ["lamp"]}}
    assert set(schema["properties"]["defaults"]["properties"]) >= {"watts", "tone", "options"}
    validator = jsonschema.Draft202012Validator(schema)
    good = yaml.safe_load("alphred: 1\nkey: wf\nphases:\n  a: {provider: lamp, watts: 3}\n")
    bad = yaml.safe_load("alphred: 1\nkey: wf\nphases:\n  a: {provider: lamp, watts: 0}\n")
    assert validator.is_valid(good) and not validator.is_valid(bad)


def test_two_providers_declaring_one_key_differently_give_either_shape_in_defaults() -> None:
    dim = Keys((PhaseKey("watts", {"type": "string"}, text),))
    defaults = workflow_schema({"lamp": LAMP, "dim": dim})["properties"]["defaults"]["properties"]
    assert defaults["watts"] == {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string"}]}
