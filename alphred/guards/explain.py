"""What a guard read: each path it names with the value found there, and why a path read null.

``read_paths(expr, context)`` gives one ``PathReading`` per path of the guard (in order of appearance),
``show_reading`` prints one as a person reads it::

    report.riks = null (no such key; did you mean risk?)
    report.risk = "high"

Pure and total like the evaluator: any data gives readings, never an exception.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from functools import lru_cache

from alphred.guards.ast import Expr
from alphred.guards.evaluate import guard_paths
from alphred.lazy import deferred_dataclass

SHOWN_CHARS = 80  # a value longer than this (as JSON) is cut with "…"


@deferred_dataclass(frozen=True)
class PathReading:
    """One path of a guard: ``value`` is the found value as short JSON text, ``note`` why it is null."""

    path: str
    value: str
    note: str | None = None


def read_paths(expr: Expr, context: Mapping[str, object]) -> tuple[PathReading, ...]:
    """The value each path of ``expr`` reads in ``context``, with a note where it reads null by absence."""
    return tuple(_read(parts, context) for parts in _paths(expr))


def show_reading(reading: PathReading) -> str:
    """``path = value`` with its note in parentheses: ``report.riks = null (no such key; did you mean risk?)``."""
    note = f" ({reading.note})" if reading.note else ""
    return f"{reading.path} = {reading.value}{note}"


def shown_value(value: object) -> str:
    """``value`` as compact JSON text of at most ``SHOWN_CHARS`` characters (cut with ``…``)."""
    if value is None or isinstance(value, bool):
        return _SCALARS[value]
    if type(value) is int:
        text = str(value)
        return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=repr, allow_nan=True)
    except (ValueError, RecursionError):  # a circular or over-deep value: its type is enough
        text = f"<{type(value).__name__}>"
    if isinstance(value, float) and not math.isfinite(value):
        text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


_SCALARS = {None: "null", True: "true", False: "false"}


@lru_cache(maxsize=4096)
def _paths(expr: Expr) -> tuple[tuple[str, ...], ...]:
    """``guard_paths`` once per guard (ASTs are frozen and hashable; a workflow has few guards)."""
    return guard_paths(expr)


def _read(parts: tuple[str, ...], context: Mapping[str, object]) -> PathReading:
    dotted = ".".join(parts)
    current: object = context
    for depth, part in enumerate(parts):
        where = ".".join(parts[:depth]) or "the guard context"
        if not isinstance(current, Mapping):
            kind = "null" if current is None else _kind(current)
            return PathReading(dotted, "null", f"{where} is {kind}, not an object")
        try:
            present = part in current
            found = current.get(part) if present else None
        except Exception:  # a misbehaving mapping reads as null, as in the evaluator
            return PathReading(dotted, "null", f"{where} cannot be read")
        if not present:
            return PathReading(dotted, "null", _missing(part, current))
        current = found
    return PathReading(dotted, shown_value(current))


def _missing(part: str, mapping: Mapping[object, object]) -> str:
    try:
        keys = [key for key in mapping if isinstance(key, str)]
    except Exception:  # an unlistable mapping: no suggestion
        keys = []
    import difflib  # here: only a missing key's suggestion needs it

    near = difflib.get_close_matches(part, keys, n=1, cutoff=0.6)
    if near:
        return f"no such key; did you mean {near[0]}?"
    if not keys:
        return "no such key; the object is empty"
    return "no such key"


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    return f"a {type(value).__name__}"
