"""Is a JSON value a valid JSON Schema (draft 2020-12)? A fast answer without ``jsonschema``.

``output:`` schemas are checked against the draft 2020-12 meta-schema. Importing ``jsonschema`` (with
``referencing``, ``attrs`` and the packaged meta-schemas) costs more than the rest of ``alphred validate``
together, so a schema is first checked here: the meta-schema's rules (its vocabularies: core, applicator,
unevaluated, validation, meta-data, format-annotation, content, and the deprecated keywords it keeps) written
out as a table of what each keyword's value must be. When ``is_valid_schema`` says yes, ``jsonschema``'s
meta-schema validator would say yes too (``tests/unit/test_meta_schema.py`` compares them, on generated
schemas and on every bundled one); when it says no, the caller asks ``jsonschema`` for the located messages.
Formats (``uri``, ``regex``) are annotations in the meta-schema, not assertions: neither side checks them.
The input is plain JSON data (``output.read_output`` refuses anything else first).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_SIMPLE_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})
_ANCHOR = re.compile(r"[A-Za-z_][-A-Za-z0-9._]*")
_ID = re.compile(r"[^#]*#?")


def is_valid_schema(value: Any) -> bool:
    """True when ``value`` is valid against the draft 2020-12 meta-schema (False: ask ``jsonschema`` why)."""
    try:
        return _schema(value)
    except RecursionError:  # nested too deeply to answer here: ``jsonschema`` decides
        return False


def _schema(value: Any) -> bool:
    if isinstance(value, bool):
        return True
    if not isinstance(value, dict):
        return False
    for key, item in value.items():
        check = _KEYWORDS.get(key)
        if check is not None and not check(item):
            return False
    return True


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _boolean(value: Any) -> bool:
    return isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _non_negative_integer(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return (isinstance(value, int) or value.is_integer()) and value >= 0


def _positive_number(value: Any) -> bool:
    return _number(value) and value > 0


def _array(value: Any) -> bool:
    return isinstance(value, list)


def _anchor(value: Any) -> bool:
    return isinstance(value, str) and _ANCHOR.fullmatch(value) is not None


def _id(value: Any) -> bool:
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def _string_array(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value) and len(set(value)) == len(value)


def _schema_array(value: Any) -> bool:
    return isinstance(value, list) and len(value) >= 1 and all(map(_schema, value))


def _schema_map(value: Any) -> bool:
    return isinstance(value, dict) and all(map(_schema, value.values()))


def _vocabulary(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(v, bool) for v in value.values())


def _dependencies(value: Any) -> bool:
    return isinstance(value, dict) and all(_schema(v) or _string_array(v) for v in value.values())


def _string_array_map(value: Any) -> bool:
    return isinstance(value, dict) and all(map(_string_array, value.values()))


def _type(value: Any) -> bool:
    if isinstance(value, str):
        return value in _SIMPLE_TYPES
    return (
        isinstance(value, list)
        and len(value) >= 1
        and all(isinstance(v, str) and v in _SIMPLE_TYPES for v in value)
        and len(set(value)) == len(value)
    )


_KEYWORDS: dict[str, Callable[[Any], bool]] = {
    # core
    "$id": _id,
    "$schema": _string,
    "$ref": _string,
    "$anchor": _anchor,
    "$dynamicRef": _string,
    "$dynamicAnchor": _anchor,
    "$vocabulary": _vocabulary,
    "$comment": _string,
    "$defs": _schema_map,
    # applicator
    "prefixItems": _schema_array,
    "items": _schema,
    "contains": _schema,
    "additionalProperties": _schema,
    "properties": _schema_map,
    "patternProperties": _schema_map,
    "dependentSchemas": _schema_map,
    "propertyNames": _schema,
    "if": _schema,
    "then": _schema,
    "else": _schema,
    "allOf": _schema_array,
    "anyOf": _schema_array,
    "oneOf": _schema_array,
    "not": _schema,
    # unevaluated
    "unevaluatedItems": _schema,
    "unevaluatedProperties": _schema,
    # validation
    "type": _type,
    "enum": _array,
    "multipleOf": _positive_number,
    "maximum": _number,
    "exclusiveMaximum": _number,
    "minimum": _number,
    "exclusiveMinimum": _number,
    "maxLength": _non_negative_integer,
    "minLength": _non_negative_integer,
    "pattern": _string,
    "maxItems": _non_negative_integer,
    "minItems": _non_negative_integer,
    "uniqueItems": _boolean,
    "maxContains": _non_negative_integer,
    "minContains": _non_negative_integer,
    "maxProperties": _non_negative_integer,
    "minProperties": _non_negative_integer,
    "required": _string_array,
    "dependentRequired": _string_array_map,
    # meta-data
    "title": _string,
    "description": _string,
    "deprecated": _boolean,
    "readOnly": _boolean,
    "writeOnly": _boolean,
    "examples": _array,
    # format-annotation, content
    "format": _string,
    "contentEncoding": _string,
    "contentMediaType": _string,
    "contentSchema": _schema,
    # kept from earlier drafts by the meta-schema itself
    "definitions": _schema_map,
    "dependencies": _dependencies,
    "$recursiveAnchor": _anchor,
    "$recursiveRef": _string,
}
