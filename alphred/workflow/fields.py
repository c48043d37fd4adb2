"""Typed readers for YAML values: each reports a located error and returns None on bad input."""

from __future__ import annotations

import re
from typing import Any

import yaml

from alphred.workflow.yaml_source import Collector, is_null, scalar_value

_DURATION = re.compile(r"^\s*(\d{1,12}(?:\.\d{1,12})?)\s*(s|m|h)?\s*$")
_UNIT_SECONDS = {"s": 1.0, "m": 60.0, "h": 3600.0, None: 1.0}
MAX_DURATION_SECONDS = 366 * 24 * 3600.0  # a year: longer is a mistake (and past what timers handle)
MAX_INTEGER = 2**63 - 1  # what a SQL BIGINT stores


def parse_duration(value: object) -> float | None:
    """Seconds for ``90s``, ``20m``, ``2h`` or a plain number (> 0, at most a year); None otherwise."""
    seconds: float | None = None
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        seconds = float(value) if -1e300 < value < 1e300 else None
    elif isinstance(value, str):
        match = _DURATION.match(value)
        if match:
            seconds = float(match.group(1)) * _UNIT_SECONDS[match.group(2)]
    if seconds is None or not 0 < seconds <= MAX_DURATION_SECONDS:  # also refuses nan
        return None
    return seconds


def read_str(node: yaml.Node, name: str, out: Collector) -> str | None:
    """A string scalar (numbers are accepted and turned into text)."""
    if _unquoted_placeholder(node):
        hint = f'{name}: "{{{{ ... }}}}"'
        if name == "run":
            hint = 'run: "sh -c {{ inputs.cmd }}" to run a command held in an input'
        out.error(node, f"'{name}' starts with '{{{{' unquoted, which YAML reads as a mapping: quote it ({hint})")
        return None
    if not isinstance(node, yaml.ScalarNode) or is_null(node):
        out.error(node, f"'{name}' must be a string")
        return None
    value = scalar_value(node)
    if isinstance(value, bool):
        out.error(node, f"'{name}' must be a string, not a boolean")
        return None
    return str(value)


def _unquoted_placeholder(node: yaml.Node) -> bool:
    """True for ``{{ x }}`` written without quotes: YAML reads a flow mapping whose key is a mapping."""
    return (
        isinstance(node, yaml.MappingNode) and len(node.value) == 1 and isinstance(node.value[0][0], yaml.MappingNode)
    )


def read_int(node: yaml.Node, name: str, out: Collector, minimum: int = 0) -> int | None:
    """An integer scalar of at least ``minimum`` and at most MAX_INTEGER (what the database stores)."""
    value = scalar_value(node) if isinstance(node, yaml.ScalarNode) else None
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        out.error(node, f"'{name}' must be at most {MAX_INTEGER}")
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        out.error(node, f"'{name}' must be an integer")
        return None
    if value < minimum:
        out.error(node, f"'{name}' must be at least {minimum}")
        return None
    if value > MAX_INTEGER:
        out.error(node, f"'{name}' must be at most {MAX_INTEGER}")
        return None
    return value


def read_number(node: yaml.Node, name: str, out: Collector) -> float | None:
    """A positive, finite number."""
    value = scalar_value(node) if isinstance(node, yaml.ScalarNode) else None
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 < value < 1e300:
        out.error(node, f"'{name}' must be a positive number")
        return None
    return float(value)


def read_bool(node: yaml.Node, name: str, out: Collector) -> bool | None:
    """A boolean scalar (true/false)."""
    value = scalar_value(node) if isinstance(node, yaml.ScalarNode) else None
    if not isinstance(value, bool):
        out.error(node, f"'{name}' must be true or false")
        return None
    return value


def read_duration(node: yaml.Node, name: str, out: Collector) -> float | None:
    """A duration: 90s, 20m, 2h or a number of seconds (> 0)."""
    value = scalar_value(node) if isinstance(node, yaml.ScalarNode) else None
    seconds = parse_duration(value)
    if seconds is None:
        shown = repr(value) if len(repr(value)) < 40 else repr(value)[:37] + "..."
        out.error(node, f"bad duration {shown} for '{name}': use 90s, 20m, 2h or a number of seconds up to a year")
    return seconds


def read_str_list(node: yaml.Node, name: str, out: Collector) -> list[tuple[str, yaml.Node]] | None:
    """A list of strings, each with its node (for located follow-up errors)."""
    if not isinstance(node, yaml.SequenceNode):
        out.error(node, f"'{name}' must be a list of strings")
        return None
    items: list[tuple[str, yaml.Node]] = []
    for item in node.value:
        text = read_str(item, name, out)
        if text is not None:
            items.append((text, item))
    return items


def plain_data(node: yaml.Node) -> Any:
    """The whole subtree as plain Python data (safe constructor)."""
    return scalar_value(node)
