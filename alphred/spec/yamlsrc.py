"""Safe YAML composition that keeps every node's position (no tags beyond the safe set, no code)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from alphred.errors import Diagnostic

from .model import SourcePos

_FAST_LOADER = getattr(yaml, "CSafeLoader", None)


def compose(text: str) -> yaml.Node | None:
    """Compose YAML text into a node tree with the safe loader (raises yaml.YAMLError).

    libyaml's loader is used when present (ten times faster); on a syntax error the pure-Python loader
    composes again so that messages are worded the same everywhere.
    """
    if _FAST_LOADER is not None:
        try:
            return yaml.compose(text, Loader=_FAST_LOADER)
        except yaml.YAMLError:
            pass
    return yaml.compose(text, Loader=yaml.SafeLoader)


_constructor = yaml.SafeLoader("")


def scalar_value(node: yaml.Node) -> Any:
    """Construct the plain Python value of a node with the safe constructor."""
    return _constructor.construct_object(node, deep=True)


def pos(node: yaml.Node) -> SourcePos:
    """1-based position where a node starts."""
    return SourcePos(node.start_mark.line + 1, node.start_mark.column + 1)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A `` (did you mean 'x'?)`` suffix, or an empty string when nothing is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


@dataclass
class Collector:
    """Gathers every diagnostic of one file, so that all problems are reported at once."""

    file: str
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, where: yaml.Node | SourcePos, message: str) -> None:
        """Record an error at a node or position."""
        self._add(where, "error", message)

    def warning(self, where: yaml.Node | SourcePos, message: str) -> None:
        """Record a warning at a node or position."""
        self._add(where, "warning", message)

    def _add(self, where: yaml.Node | SourcePos, severity: str, message: str) -> None:
        p = where if isinstance(where, SourcePos) else pos(where)
        self.diagnostics.append(Diagnostic(self.file, p.line, p.column, severity, message))

    @property
    def has_errors(self) -> bool:
        """True when at least one error (not warning) was recorded."""
        return any(d.severity == "error" for d in self.diagnostics)

    def sorted(self) -> list[Diagnostic]:
        """Diagnostics in file order."""
        return sorted(self.diagnostics, key=lambda d: (d.line, d.column))


def mapping_items(node: yaml.MappingNode, out: Collector) -> Iterator[tuple[str, yaml.Node, yaml.Node]]:
    """Yield (key, key_node, value_node) of a mapping, reporting non-string and duplicate keys."""
    seen: dict[str, yaml.Node] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            out.error(key_node, "keys must be plain strings")
            continue
        key = str(scalar_value(key_node))
        if key in seen:
            first = pos(seen[key])
            out.error(key_node, f"duplicate key '{key}' (first defined at line {first.line})")
            continue
        seen[key] = key_node
        yield key, key_node, value_node


def is_null(node: yaml.Node) -> bool:
    """True for an explicit or empty YAML null."""
    return isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null"


def is_plain_single_line(node: yaml.Node) -> bool:
    """True when the scalar is written on one line (plain or quoted), so columns map 1:1."""
    return (
        isinstance(node, yaml.ScalarNode)
        and node.style in (None, "", "'", '"')
        and node.start_mark.line == node.end_mark.line
    )


def offset_pos(node: yaml.Node, value: str, offset: int, source: str) -> SourcePos:
    """Where character ``offset`` of a string scalar's ``value`` stands in the ``source`` text.

    Exact for one-line scalars and literal blocks (``|``); other styles point at the scalar's start.
    """
    start = pos(node)
    escapes = getattr(node, "style", None) == '"' and "\\" in source[node.start_mark.index : node.end_mark.index]
    if is_plain_single_line(node) and not escapes:
        quote = 1 if getattr(node, "style", None) in ("'", '"') else 0
        return SourcePos(start.line, start.column + quote + offset)
    if getattr(node, "style", None) == "|":
        before = value[:offset].split("\n")
        index = node.start_mark.line + len(before)  # content starts on the line after the indicator
        lines = source.splitlines()
        content = value.split("\n")[len(before) - 1]
        if index < len(lines) and lines[index].endswith(content):
            indent = len(lines[index]) - len(content)
            return SourcePos(index + 1, indent + len(before[-1]) + 1)
    return start
