"""Typed outputs (SPEC §12): a phase's ``output:`` JSON Schema, checked against the draft 2020-12 meta-schema
with located errors, the ``decision`` merged in, and the static type of a path into the report it describes.

``jsonschema`` is imported only when an ``output:`` schema is not valid (``meta_schema.is_valid_schema`` says
yes to valid ones without it), to tell where and why.
"""

from __future__ import annotations

import copy
import functools
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from alphred.lazy import deferred_dataclass
from alphred.workflow import fields as f
from alphred.workflow.meta_schema import is_valid_schema
from alphred.workflow.yaml_source import Collector, did_you_mean

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
TYPE_NAMES = {
    "string": "a string",
    "number": "a number",
    "integer": "a number",
    "boolean": "a boolean",
    "array": "a list",
    "object": "an object",
    "null": "null",
}


def read_output(node: yaml.Node, key: str, out: Collector) -> dict[str, Any] | None:
    """The ``output:`` schema of phase ``key`` as written, or None after reporting why it is unusable."""
    data = f.plain_data(node)
    if not isinstance(data, dict):
        out.error(node, f"'output' of phase '{key}' must be a JSON Schema mapping (type: object, properties: ...)")
        return None
    problem = _not_json(data)
    if problem is not None:
        out.error(node, f"'output' of phase '{key}' must be plain JSON data: {problem}")
        return None
    if data.get("type") != "object":
        where = _node_at(node, ("type",)) if "type" in data else node
        out.error(where, f"'output' of phase '{key}' must be an object schema ('type: object')")
        return None
    declared = data.get("$schema")
    if declared is not None and str(declared).rstrip("#") != DRAFT_2020_12:
        out.error(_node_at(node, ("$schema",)), f"'output' schemas are JSON Schema draft 2020-12 ({DRAFT_2020_12})")
        return None
    if is_valid_schema(data):  # the common case, without importing jsonschema
        errors = []
    else:
        errors = sorted(_meta_validator().iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    for error in errors:
        where = _node_at(node, tuple(error.absolute_path))
        location = "/".join(str(p) for p in error.absolute_path)
        at = f" at '{location}'" if location else ""
        out.error(where, f"'output' of phase '{key}' is not a valid JSON Schema{at}: {error.message}")
    if errors:
        return None
    properties = data.get("properties")
    if isinstance(properties, dict) and "decision" in properties:
        out.error(
            _node_at(node, ("properties", "decision")),
            f"'output' of phase '{key}' must not declare 'decision': Alphred adds it from the phase's decisions",
        )
        return None
    return data


@functools.cache
def _meta_validator() -> Any:
    """The draft 2020-12 meta-schema's validator (``jsonschema`` imported on first use, built once)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(Draft202012Validator.META_SCHEMA)


def with_decision(schema: Mapping[str, Any], decisions: Sequence[str], required: bool) -> dict[str, Any]:
    """``schema`` with a ``decision`` property (an enum of ``decisions``), required when ``required``."""
    merged = copy.deepcopy(dict(schema))
    properties = dict(merged.get("properties") or {})
    properties["decision"] = {"type": "string", "enum": list(decisions), "description": "The routing decision."}
    merged["properties"] = properties
    if required:
        merged["required"] = [*[r for r in merged.get("required") or () if r != "decision"], "decision"]
    return merged


def _not_json(data: Any) -> str | None:
    """Why ``data`` (from YAML) is not plain JSON data, or None."""
    if isinstance(data, dict):
        for name, value in data.items():
            if not isinstance(name, str):
                return f"key {name!r} is not a string (quote it)"
            problem = _not_json(value)
            if problem is not None:
                return problem
        return None
    if isinstance(data, list):
        return next((p for p in map(_not_json, data) if p is not None), None)
    if isinstance(data, float) and not math.isfinite(data):
        return f"{data!r} is not a JSON number"
    if data is None or isinstance(data, str | int | float | bool):
        return None
    return f"{json.dumps(str(data))} is a {type(data).__name__} (quote it)"


def _node_at(node: yaml.Node, path: tuple[Any, ...]) -> yaml.Node:
    """The YAML node at ``path`` under ``node`` (the deepest one found)."""
    for step in path:
        if isinstance(node, yaml.MappingNode):
            found = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(step)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
            found = node.value[step]
        else:
            found = None
        if found is None:
            return node
        node = found
    return node


# -- the static type of a path into a typed report --------------------------------------------------------


@deferred_dataclass(frozen=True)
class PathType:
    """What the schema says of the value at a path: its JSON types (empty: any) and its ``enum`` (None: any)."""

    types: frozenset[str]
    enum: tuple[Any, ...] | None = None

    @property
    def shown(self) -> str:
        """The types in words: ``a list``, ``a string or null``."""
        names = sorted({TYPE_NAMES.get(t, t) for t in self.types})
        return " or ".join(names) if names else "any value"


def path_type(
    schema: Mapping[str, Any], parts: Sequence[str], prefix: str, owner: str = "its phase", *, whose: str = ""
) -> tuple[PathType | None, str | None]:
    """The type of ``parts`` inside the report ``schema`` describes: (type, None), or (None, why the path is
    unknown). ``prefix`` is how the report is written in the path (``report``, ``phases.k.report``), ``owner`` names
    the phase in messages (``whose``, when given, replaces ``the output of <owner>`` in them).

    A part of the schema this does not follow (``$ref``, ``anyOf``...) gives (None, None): unchecked.
    """
    node, problem = schema_at(schema, parts, prefix, whose or f"the output of {owner}")
    if node is None:
        return None, problem
    if _opaque(node):
        return PathType(frozenset()), None
    enum = node.get("enum")
    if "const" in node:
        enum = [node["const"]]
    return PathType(_types(node), tuple(enum) if isinstance(enum, list) else None), None


def schema_at(
    schema: Mapping[str, Any], parts: Sequence[str], prefix: str, whose: str
) -> tuple[Mapping[str, Any] | None, str | None]:
    """The schema of the value at ``parts`` inside ``schema``: (node, None); (None, why the path is unknown);
    or (None, None) where the schema is not followed (``$ref``, ``anyOf``..., ``true``): unchecked."""
    node: Mapping[str, Any] = schema
    walked = prefix
    for name in parts:
        types = _types(node)
        if types and "object" not in types:
            shown = PathType(types).shown
            return None, f"unknown path '{walked}.{name}': '{walked}' is {shown}, it has no fields"
        properties = node.get("properties")
        if not isinstance(properties, Mapping) or _opaque(node):
            return None, None
        if name in properties:
            child = properties[name]
        elif isinstance(node.get("additionalProperties"), Mapping):
            child = node["additionalProperties"]
        elif node.get("patternProperties"):
            return None, None
        else:
            hint = did_you_mean(name, list(properties))
            listed = ", ".join(properties) or "none"
            return None, f"unknown path '{walked}.{name}': {whose} has no '{name}' ({listed}){hint}"
        if not isinstance(child, Mapping):
            return None, None  # ``true``: any value
        node = child
        walked = f"{walked}.{name}"
    return node, None


def _opaque(node: Mapping[str, Any]) -> bool:
    return any(k in node for k in ("$ref", "$dynamicRef", "anyOf", "oneOf", "allOf", "if", "not"))


def _types(node: Mapping[str, Any]) -> frozenset[str]:
    declared = node.get("type")
    if isinstance(declared, str):
        return frozenset({declared})
    if isinstance(declared, list):
        return frozenset(t for t in declared if isinstance(t, str))
    if isinstance(node.get("properties"), Mapping):
        return frozenset({"object"})
    if "items" in node or "prefixItems" in node:
        return frozenset({"array"})
    return frozenset()


def literal_type(value: Any) -> str:
    """The JSON type of a guard literal: string, number, boolean, null or array."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array"


def accepts(declared: PathType, kind: str) -> bool:
    """True when a value of the JSON type ``kind`` can be at a path of type ``declared``."""
    if not declared.types:
        return True
    if kind == "number":
        return bool(declared.types & {"number", "integer"})
    return kind in declared.types
