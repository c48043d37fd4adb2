"""The guard AST (frozen dataclasses) and its canonical printer ``format_guard``."""

from __future__ import annotations

import math
import re
from typing import Literal as TypingLiteral
from typing import TypeAlias

from alphred.lazy import deferred_dataclass

Scalar: TypeAlias = str | int | float | bool | None
CompareOp: TypeAlias = TypingLiteral["==", "!=", ">", "<", ">=", "<=", "in"]

COMPARE_OPS: tuple[CompareOp, ...] = ("==", "!=", ">", "<", ">=", "<=", "in")
KEYWORDS = frozenset({"or", "and", "not", "in", "true", "false", "null"})
_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*"  # the same NAME as in guard.lark
NAME_RE = re.compile(_NAME)
PATH_RE = re.compile(rf"{_NAME}(?:\.{_NAME})*")


@deferred_dataclass(frozen=True)
class Literal:
    """A constant: a string, an int or float, ``true``/``false`` or ``null``."""

    value: Scalar


@deferred_dataclass(frozen=True)
class Path:
    """A dotted path into the guard context, e.g. ``phases.review.decision``."""

    parts: tuple[str, ...]

    @property
    def dotted(self) -> str:
        """The path as written: names joined by dots."""
        return ".".join(self.parts)


@deferred_dataclass(frozen=True)
class ListExpr:
    """A list of values, ``[v1, v2, ...]``; used mostly on the right of ``in``."""

    items: tuple[Value, ...]


@deferred_dataclass(frozen=True)
class Compare:
    """``left OP right`` where OP is one of ``== != > < >= <= in``; both sides are values."""

    op: CompareOp
    left: Value
    right: Value


@deferred_dataclass(frozen=True)
class Not:
    """``not operand``."""

    operand: Expr


@deferred_dataclass(frozen=True)
class And:
    """``left and right`` (chains are left-associative)."""

    left: Expr
    right: Expr


@deferred_dataclass(frozen=True)
class Or:
    """``left or right`` (chains are left-associative)."""

    left: Expr
    right: Expr


Value: TypeAlias = Literal | Path | ListExpr
Expr: TypeAlias = Literal | Path | ListExpr | Compare | Not | And | Or

# Binding strength used by the printer: a child weaker than its slot needs parentheses.
_OR, _AND, _NOT, _CMP = 1, 2, 3, 4


def format_guard(expr: Expr) -> str:
    """Print ``expr`` canonically, so that ``parse_guard(format_guard(e)) == e``."""
    return _format(expr, _OR)


def _format(expr: Expr, slot: int) -> str:
    match expr:
        case Or(left, right):
            text = f"{_format(left, _OR)} or {_format(right, _AND)}"
            return _wrap(text, _OR, slot)
        case And(left, right):
            text = f"{_format(left, _AND)} and {_format(right, _NOT)}"
            return _wrap(text, _AND, slot)
        case Not(operand):
            return _wrap(f"not {_format(operand, _NOT)}", _NOT, slot)
        case Compare(op, left, right):
            return _wrap(f"{format_value(left)} {op} {format_value(right)}", _CMP, slot)
        case _:
            return format_value(expr)


def _wrap(text: str, strength: int, slot: int) -> str:
    return f"({text})" if strength < slot else text


def format_value(value: Value) -> str:
    """Print a path, literal or list as guard source text."""
    match value:
        case Path(parts):
            return ".".join(parts)
        case ListExpr(items):
            return "[" + ", ".join(format_value(item) for item in items) + "]"
        case Literal(v):
            return _format_scalar(v)
    raise TypeError(f"not a guard value: {value!r}")


def _format_scalar(value: Scalar) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return quote_string(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"guard numbers must be finite, got {value!r}")
        return repr(value)
    return str(value)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def quote_string(text: str) -> str:
    """Quote ``text`` as a double-quoted guard string (control characters escaped)."""
    out = []
    for char in text:
        escaped = _ESCAPES.get(char)
        if escaped is not None:
            out.append(escaped)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'
