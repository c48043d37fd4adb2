"""``meta_schema.is_valid_schema`` answers as ``jsonschema``'s draft 2020-12 meta-schema validator does.

``alphred validate`` trusts its yes without importing ``jsonschema``: a yes where ``jsonschema`` says no would
let an invalid ``output:`` schema through. Compared on generated schema-like values (built from the
meta-schema's own keywords and values of every JSON type), on hand-picked edges and on every bundled
workflow's schemas.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from alphred.workflow.meta_schema import _KEYWORDS, is_valid_schema

ROOT = Path(__file__).resolve().parents[2]
META = Draft202012Validator(Draft202012Validator.META_SCHEMA)

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=3),
    st.sampled_from([0.0, 1.0, 1.5, -1.0, 2.0]),
    st.sampled_from(["", "string", "object", "array", "integer", "a#", "a#b", "#", "_x", "1x", "x\n", "a#\n"]),
)
_json = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "type", "items"]), children, max_size=3),
    ),
    max_leaves=8,
)


def _schemas() -> st.SearchStrategy[Any]:
    keyword_values = st.one_of(_json, st.lists(st.sampled_from(sorted(_type_names())), max_size=3))
    return st.recursive(
        st.one_of(st.booleans(), st.dictionaries(st.sampled_from([*sorted(_KEYWORDS), "x-other"]), keyword_values)),
        lambda inner: st.one_of(
            st.dictionaries(st.sampled_from(sorted(_KEYWORDS)), st.one_of(inner, st.lists(inner, max_size=3))),
            st.dictionaries(st.sampled_from(sorted(_KEYWORDS)), st.dictionaries(st.sampled_from("abc"), inner)),
        ),
        max_leaves=12,
    )


def _type_names() -> set[str]:
    return {"array", "boolean", "integer", "null", "number", "object", "string", "float"}


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_schemas())
@example({"type": ["string", "string"]})
@example({"type": []})
@example({"required": ["a", "a"]})
@example({"minItems": 1.0})
@example({"minItems": -1})
@example({"minItems": True})
@example({"multipleOf": 0})
@example({"$id": "a#b"})
@example({"$anchor": "1x"})
@example({"allOf": []})
@example({"dependencies": {"a": ["b", "b"]}})
@example({"dependencies": {"a": ["b"]}})
@example({"$vocabulary": {"x": 1}})
@example({"properties": {"a": {"type": "float"}}})
def test_the_fast_answer_is_jsonschemas(schema: Any) -> None:
    assert is_valid_schema(schema) == META.is_valid(schema), json.dumps(schema)


def _bundled_schemas() -> list[Any]:
    found = []
    for path in sorted([*ROOT.glob("alphred/templates/*.yaml"), *ROOT.glob("workflows/*.yaml")]):
        for phase in (yaml.safe_load(path.read_text()).get("phases") or {}).values():
            if isinstance(phase, dict) and "output" in phase:
                found.append(phase["output"])
    return found


def test_every_bundled_output_schema_is_valid_without_jsonschema() -> None:
    schemas = _bundled_schemas()
    assert schemas, "the bundled templates declare typed outputs"
    for schema in schemas:
        assert is_valid_schema(schema) and META.is_valid(schema)


def test_a_schema_nested_past_the_recursion_limit_is_left_to_jsonschema() -> None:
    deep: Any = {"type": "object"}
    for _ in range(sys.getrecursionlimit() + 10):
        deep = {"items": deep}
    assert is_valid_schema(deep) is False


@pytest.mark.parametrize("template", ["fix-issue.yaml", "plan-parallel.yaml", "parallel-review.yaml"])
def test_validate_of_a_typed_template_does_not_import_jsonschema(template: str) -> None:
    code = (
        "import sys; from alphred.cli import main\n"
        "try:\n    main()\nexcept SystemExit as exit:\n    assert exit.code in (0, None), exit.code\n"
        "print('jsonschema' in sys.modules)"
    )
    path = ROOT / "alphred" / "templates" / template
    result = subprocess.run(
        [sys.executable, "-c", code, "validate", str(path)], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "False", result.stdout + result.stderr
