"""Safe YAML composition that keeps every node's position (no tags beyond the safe set, no code)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import field
from typing import Any

import yaml

from alphred.errors import Diagnostic
from alphred.lazy import deferred_dataclass
from alphred.workflow.model import SourcePos

_FAST_LOADER = getattr(yaml, "CSafeLoader", None)
MAX_DEPTH = 64  # nesting levels of mappings and sequences (composing and constructing are recursive)
MAX_NODES = 200_000  # nodes of a document with every alias expanded (a billion-laughs bomb has ~10^9)


@deferred_dataclass
class NodeIndex:
    """YAML nodes of interest for graph-level checks, by phase key."""

    phases: dict[str, yaml.Node] = field(default_factory=dict)
    transitions: dict[tuple[str, int], yaml.Node] = field(default_factory=dict)
    when: dict[tuple[str, int], yaml.Node] = field(default_factory=dict)
    templates: dict[tuple[str, str], yaml.Node] = field(default_factory=dict)
    body_from: yaml.Node | None = None
    pull_request_when: yaml.Node | None = None
    start: yaml.Node | None = None


class YamlRefusedError(yaml.MarkedYAMLError):
    """Raised when: a document uses what a workflow never needs and an attacker could abuse (tags, merge
    keys, recursive aliases, too deep nesting, too many nodes once its aliases are expanded)."""

    def __init__(self, problem: str, mark: Any) -> None:
        super().__init__(problem=problem, problem_mark=mark)


def compose(text: str) -> yaml.Node | None:
    """Compose YAML text into a node tree with the safe loader (raises yaml.YAMLError).

    The text is screened first by ``screen`` (streaming, so that depth is capped before anything recursive
    sees it). libyaml's loader is used when present (ten times faster); on a syntax error the pure-Python
    loader composes again so that messages are worded the same everywhere.
    """
    if _FAST_LOADER is not None:
        try:
            screen(text, _FAST_LOADER)
            return yaml.compose(text, Loader=_FAST_LOADER)
        except YamlRefusedError:
            raise
        except yaml.YAMLError:
            pass
    screen(text, yaml.SafeLoader)
    return yaml.compose(text, Loader=yaml.SafeLoader)


def screen(text: str, loader: Any) -> None:
    """Refuse tags, merge keys, recursive aliases, nesting over MAX_DEPTH and over MAX_NODES expanded nodes.

    Reads the event stream (libyaml's parser is iterative) and stops at the first problem, so a document of
    30,000 nested ``[`` costs a few microseconds instead of crashing the recursive composer.
    """
    sizes: dict[str, int] = {}  # anchor -> expanded node count of its node
    stack: list[list[Any]] = []  # open collections: [anchor, expanded count, children seen, is mapping]
    total = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.AliasEvent):
            if any(frame[0] == event.anchor for frame in stack):
                raise YamlRefusedError(
                    f"recursive alias *{event.anchor} (an alias inside its own anchor)", event.start_mark
                )
            size = sizes.get(event.anchor or "", 1)
        elif isinstance(event, yaml.ScalarEvent | yaml.CollectionStartEvent):
            if event.tag is not None and not (isinstance(event, yaml.ScalarEvent) and event.tag == "!"):
                shown = event.tag.replace("tag:yaml.org,2002:", "!!")
                raise YamlRefusedError(f"tags are not allowed ({shown})", event.start_mark)
            if isinstance(event, yaml.ScalarEvent):
                if event.value == "<<" and not event.style and stack and stack[-1][3] and stack[-1][2] % 2 == 0:
                    raise YamlRefusedError("merge keys (<<) are not allowed: write the keys out", event.start_mark)
                size = 1
                if event.anchor:
                    sizes[event.anchor] = 1
            else:
                if len(stack) >= MAX_DEPTH:
                    raise YamlRefusedError(f"nested deeper than {MAX_DEPTH} levels", event.start_mark)
                stack.append([event.anchor, 1, 0, isinstance(event, yaml.MappingStartEvent)])
                total += 1
                continue
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, size, _, _ = stack.pop()
            if anchor:
                sizes[anchor] = size
            total -= size  # counted again below, as one child of its parent
        else:
            continue
        total += size
        if total > MAX_NODES:
            raise YamlRefusedError(f"more than {MAX_NODES} nodes once aliases are expanded", event.start_mark)
        if stack:
            stack[-1][1] += size
            stack[-1][2] += 1


class _Constructor(yaml.SafeLoader):
    """The safe constructor; a scalar it cannot construct (a 5,000-digit integer, a 13th month) stays text."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if isinstance(node, yaml.ScalarNode):
            try:
                return super().construct_object(node, deep)
            except (ValueError, OverflowError, yaml.YAMLError):
                return node.value
        return super().construct_object(node, deep)


_constructor = _Constructor("")


def scalar_value(node: yaml.Node) -> Any:
    """Construct the plain Python value of a node with the safe constructor."""
    try:
        return _constructor.construct_object(node, deep=True)
    finally:  # forget this tree: nothing kept alive, no half-built state left by an error
        _constructor.constructed_objects = {}
        _constructor.recursive_objects = {}
        _constructor.state_generators = []


def load_data(text: str) -> Any:
    """Plain data of a YAML document, screened like a workflow (for ``--input-file``); raises yaml.YAMLError."""
    root = compose(text)
    return None if root is None else scalar_value(root)


def pos(node: yaml.Node) -> SourcePos:
    """1-based position where a node starts."""
    return SourcePos(node.start_mark.line + 1, node.start_mark.column + 1)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A `` (did you mean 'x'?)`` suffix, or an empty string when nothing is close."""
    import difflib  # here: only a misspelt key needs it

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


@deferred_dataclass
class Collector:
    """Gathers every diagnostic of one file, so that all problems are reported at once."""

    file: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _said: set[Diagnostic] = field(default_factory=set, repr=False, compare=False)

    def error(self, where: yaml.Node | SourcePos, message: str) -> None:
        """Record an error at a node or position."""
        self._add(where, "error", message)

    def warning(self, where: yaml.Node | SourcePos, message: str) -> None:
        """Record a warning at a node or position."""
        self._add(where, "warning", message)

    def info(self, where: yaml.Node | SourcePos, message: str) -> None:
        """Record a note that needs no change (``validate`` prints it; ``--strict`` ignores it)."""
        self._add(where, "info", message)

    def _add(self, where: yaml.Node | SourcePos, severity: str, message: str) -> None:
        p = where if isinstance(where, SourcePos) else pos(where)
        found = Diagnostic(self.file, p.line, p.column, severity, message)
        if found not in self._said:  # one value checked twice (a phase and its fallback, a default): said once
            self._said.add(found)
            self.diagnostics.append(found)

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


def known_keys(node: yaml.Node, allowed: Sequence[str], what: str, out: Collector) -> dict[str, yaml.Node]:
    """The value nodes of a mapping by key, reporting a node that is no mapping and every key not ``allowed``."""
    if not isinstance(node, yaml.MappingNode):
        out.error(node, f"{what} must be a mapping")
        return {}
    found: dict[str, yaml.Node] = {}
    for key, key_node, value_node in mapping_items(node, out):
        if key not in allowed:
            out.error(key_node, f"unknown key '{key}' in {what}{did_you_mean(key, allowed)}")
            continue
        found[key] = value_node
    return found


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
