"""``{{ path }}`` templates in prompts, ``run``, titles and messages: parsed once, rendered from a context."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from alphred.errors import TemplateError
from alphred.guards.ast import KEYWORDS, PATH_RE
from alphred.guards.evaluate import resolve_path
from alphred.lazy import deferred_dataclass

_OPEN = "{{"
_CLOSE = "}}"


@deferred_dataclass(frozen=True)
class Placeholder:
    """One ``{{ path }}``; ``offset`` is the 0-based character offset of its ``{{`` in the template text."""

    path: tuple[str, ...]
    offset: int

    @property
    def dotted(self) -> str:
        """The path as written: names joined by dots."""
        return ".".join(self.path)


@deferred_dataclass(frozen=True)
class Template:
    """A parsed template: the source ``text`` split into literal strings and placeholders."""

    text: str
    parts: tuple[str | Placeholder, ...]

    @property
    def paths(self) -> tuple[Placeholder, ...]:
        """Every placeholder, in order of appearance."""
        return tuple(part for part in self.parts if isinstance(part, Placeholder))


def parse_template(text: str) -> Template:
    """Split ``text`` into literals and ``{{ path }}`` placeholders; raise ``TemplateError`` if malformed."""
    parts: list[str | Placeholder] = []
    pos = 0
    while (start := text.find(_OPEN, pos)) != -1:
        end = text.find(_CLOSE, start + len(_OPEN))
        if end == -1:
            raise TemplateError(text, start, f"unclosed '{{{{' at offset {start} (expected '}}}}')")
        inner = text[start + len(_OPEN) : end].strip()
        if not inner:
            raise TemplateError(text, start, f"empty placeholder '{{{{ }}}}' at offset {start}")
        if not PATH_RE.fullmatch(inner) or inner in KEYWORDS:
            raise TemplateError(text, start, f"'{{{{ {inner} }}}}' at offset {start} is not a path (like inputs.issue)")
        if start > pos:
            parts.append(text[pos:start])
        parts.append(Placeholder(tuple(inner.split(".")), start))
        pos = end + len(_CLOSE)
    if pos < len(text) or not parts:
        parts.append(text[pos:])
    return Template(text, tuple(parts))


def render_template(
    template: Template,
    context: Mapping[str, object],
    quote: Callable[[str], str] | None = None,
) -> str:
    """Fill each placeholder from ``context``, ``quote`` applied to each value; never raises on data."""
    out: list[str] = []
    for part in template.parts:
        if isinstance(part, str):
            out.append(part)
            continue
        rendered = render_value(resolve_path(context, part.path))
        out.append(quote(rendered) if quote is not None else rendered)
    return "".join(out)


def render_value(value: object) -> str:
    """Text of one value: null -> "", true/false, numbers as written, lists and objects as compact JSON."""
    try:
        if value is None:
            return ""
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return str(value)
        if isinstance(value, Mapping | list | tuple):
            return json.dumps(
                value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str, allow_nan=True
            )
        return str(value)
    except Exception:  # unsortable keys, cycles, too deep, a failing __str__: fall back, never raise
        return _fallback(value)


def _fallback(value: object) -> str:
    try:
        if isinstance(value, Mapping | list | tuple):
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
    except Exception:
        pass
    try:
        return str(value)
    except Exception:
        return ""
