"""Path globs of ``changed:`` / ``unchanged:`` checks (SPEC §9): pure pattern text -> matcher.

A pattern matches a path relative to the repository root, ``/``-separated, when it matches the whole path
or one of the path's parent directories (so ``.github`` protects everything under ``.github/``):

- ``*`` matches any characters within one path segment (never ``/``), ``?`` one such character,
  ``[abc]`` / ``[a-z]`` / ``[!abc]`` one character of (not of) a class;
- ``**`` as a whole segment matches zero or more segments: ``src/**`` is everything under ``src``,
  ``**/test_*.py`` such a file at any depth, ``docs/**/*.md`` Markdown anywhere under ``docs``.

Patterns are case-sensitive; a trailing ``/`` is ignored. Absolute patterns, ``.``/``..`` segments, an
empty pattern, ``**`` inside a segment (``a**``), an unclosed ``[`` and a reversed range (``[z-a]``) are errors
(``glob_problem``). Inside a class, ``-`` between two characters makes a range; every other character is literal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property

from alphred.lazy import deferred_dataclass


def glob_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a valid path glob, or None when it is."""
    if not pattern.strip():
        return "a path glob must not be empty"
    if pattern.startswith("/"):
        return f"path glob '{pattern}' must be relative to the repository root (no leading '/')"
    if "\\" in pattern:
        return f"path glob '{pattern}' must use '/' between directories (no '\\')"
    for segment in pattern.rstrip("/").split("/"):
        if segment in ("", ".", ".."):
            return f"path glob '{pattern}' has an empty, '.' or '..' segment"
        if "**" in segment and segment != "**":
            return f"path glob '{pattern}': '**' must be a whole path segment (like 'src/**'); '*' matches within one"
        try:
            re.compile(_segment_regex(segment))
        except (ValueError, re.error) as exc:
            return f"path glob '{pattern}': {exc}"
    return None


@deferred_dataclass(frozen=True)
class PathGlobs:
    """A list of path globs; ``matches(path)`` is true when any of them matches (see the module doc)."""

    patterns: tuple[str, ...]

    @cached_property
    def _regex(self) -> re.Pattern[str]:
        return re.compile("|".join(f"(?:{glob_regex(p)})" for p in self.patterns) or "(?!)")

    def matches(self, path: str) -> bool:
        """True when a pattern matches ``path`` or one of its parent directories."""
        parts = path.strip("/").split("/")
        return any(self._regex.fullmatch("/".join(parts[:end])) for end in range(len(parts), 0, -1))

    def select(self, paths: Iterable[str]) -> list[str]:
        """The ``paths`` that match, in their order."""
        return [path for path in paths if self.matches(path)]


def glob_regex(pattern: str) -> str:
    """The regular expression (for ``fullmatch``) of a valid pattern."""
    segments = pattern.rstrip("/").split("/")
    out = ""
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            out += ".*" if last else "(?:.*/)?"
        else:
            out += _segment_regex(segment) + ("" if last else "/")
    return out


def _segment_regex(segment: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(segment):
        char = segment[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            start = i + 2 if segment[i + 1 : i + 2] in ("!", "^") else i + 1
            start += segment[start : start + 1] == "]"  # a ']' first in the class is literal
            end = segment.find("]", start)
            if end < 0:
                raise ValueError("unclosed '[' in a character class")
            body = segment[i + 1 : end]
            negate = body[:1] in ("!", "^")
            items = _class_items(body[1:] if negate else body)
            out.append(f"[^/{items}]" if negate else f"[{items}]")
            i = end
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def _class_items(body: str) -> str:
    """A class body (``a-z_``) as regex class items: ranges kept, every other character escaped.

    Each character is escaped on its own, so what ``re`` would read as class syntax of its own (``--``, ``&&``,
    ``~~``, ``||``, a nested ``[``) stays literal text, as it is in a glob.
    """
    out: list[str] = []
    i = 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            low, high = body[i], body[i + 2]
            if high < low:
                raise ValueError(f"reversed range '{low}-{high}' in a character class ('{high}' sorts before '{low}')")
            out.append(f"{re.escape(low)}-{re.escape(high)}")
            i += 3
        else:
            out.append(re.escape(body[i]))
            i += 1
    return "".join(out)
