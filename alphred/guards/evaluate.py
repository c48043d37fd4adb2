"""Evaluating a guard AST against a context (SPEC §3); evaluation never raises on data."""

from __future__ import annotations

import operator
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from numbers import Real
from typing import Any, TypeGuard

from alphred.guards.ast import And, Compare, Expr, ListExpr, Literal, Not, Or, Path

_ORDERINGS: dict[str, Callable[[Any, Any], object]] = {
    ">": operator.gt,
    "<": operator.lt,
    ">=": operator.ge,
    "<=": operator.le,
}


def resolve_path(context: Mapping[str, object], parts: Sequence[str]) -> object:
    """Walk ``parts`` through nested mappings; anything missing or not an object gives ``None``."""
    current: object = context
    for part in parts:
        if not isinstance(current, Mapping):
            return None
        try:
            current = current.get(part)
        except Exception:  # a misbehaving mapping is data too: it reads as null
            return None
    return current


def is_truthy(value: object) -> bool:
    """True for ``true``, a non-zero number, or a non-empty string, list or object; else False."""
    if value is None or isinstance(value, bool):
        return value is True
    if _is_number(value):
        try:
            return bool(value != 0)
        except Exception:  # e.g. a signalling Decimal NaN: not zero
            return True
    if isinstance(value, str | list | tuple | Mapping):
        return len(value) > 0
    return False


def values_equal(left: object, right: object) -> bool:
    """``==`` of guards: no coercion; ``1 == 1.0`` but ``1 != "1"`` and ``true != 1``."""
    if left is None or right is None:
        return left is None and right is None
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left is right
    if _is_number(left) and _is_number(right):
        return _safe_bool(lambda: left == right)
    if isinstance(left, str) or isinstance(right, str):
        return isinstance(left, str) and isinstance(right, str) and left == right
    if _is_list(left) and _is_list(right):
        return len(left) == len(right) and all(values_equal(a, b) for a, b in zip(left, right, strict=True))
    if isinstance(left, Mapping) and isinstance(right, Mapping):
        return _mappings_equal(left, right)
    if _is_list(left) or _is_list(right) or isinstance(left, Mapping) or isinstance(right, Mapping):
        return False
    return _safe_bool(lambda: type(left) is type(right) and left == right)


def evaluate_value(expr: Expr, context: Mapping[str, object]) -> object:
    """The value of ``expr``: a literal, the data at a path, a list, or a bool for operators."""
    match expr:
        case Literal(value):
            return value
        case Path(parts):
            return resolve_path(context, parts)
        case ListExpr(items):
            return [evaluate_value(item, context) for item in items]
        case Compare(op, left, right):
            return _compare(op, evaluate_value(left, context), evaluate_value(right, context))
        case Not(operand):
            return not is_truthy(evaluate_value(operand, context))
        case And(left, right):
            return is_truthy(evaluate_value(left, context)) and is_truthy(evaluate_value(right, context))
        case Or(left, right):
            return is_truthy(evaluate_value(left, context)) or is_truthy(evaluate_value(right, context))
    return None


def evaluate_guard(expr: Expr, context: Mapping[str, object]) -> bool:
    """Evaluate a guard against its context; True when the transition matches. Never raises on data."""
    try:
        return is_truthy(evaluate_value(expr, context))
    except RecursionError:  # data nested deeper than Python's stack: treated as no match
        return False


def guard_paths(expr: Expr) -> tuple[tuple[str, ...], ...]:
    """Every path the guard reads, in order of appearance, without duplicates."""
    seen: dict[tuple[str, ...], None] = {}
    for node in guard_nodes(expr):
        if isinstance(node, Path):
            seen.setdefault(node.parts, None)
    return tuple(seen)


def compared_strings(expr: Expr, path: tuple[str, ...]) -> tuple[str, ...]:
    """String literals ``path`` is compared with by ``==``/``!=`` or tested against by ``path in [..]``."""
    target = Path(tuple(path))
    found: dict[str, None] = {}
    for node in guard_nodes(expr):
        if not isinstance(node, Compare):
            continue
        if node.op in ("==", "!="):
            for mine, other in ((node.left, node.right), (node.right, node.left)):
                if mine == target and isinstance(other, Literal) and isinstance(other.value, str):
                    found.setdefault(other.value, None)
        elif node.op == "in" and node.left == target and isinstance(node.right, ListExpr):
            for item in node.right.items:
                if isinstance(item, Literal) and isinstance(item.value, str):
                    found.setdefault(item.value, None)
    return tuple(found)


def guard_nodes(expr: Expr) -> Iterator[Expr]:
    """Every node of the AST, parents before children, left before right."""
    stack: list[Expr] = [expr]
    while stack:
        node = stack.pop()
        yield node
        match node:
            case ListExpr(items):
                stack.extend(reversed(items))
            case Compare(_, left, right) | And(left, right) | Or(left, right):
                stack.extend((right, left))
            case Not(operand):
                stack.append(operand)


def _compare(op: str, left: object, right: object) -> bool:
    if op == "==":
        return values_equal(left, right)
    if op == "!=":
        return not values_equal(left, right)
    if op == "in":
        if _is_list(right):
            return any(values_equal(left, item) for item in right)
        return isinstance(left, str) and isinstance(right, str) and left in right
    ordering = _ORDERINGS.get(op)
    if ordering is None:
        return False
    a: Any = left
    b: Any = right
    if (_is_number(a) and _is_number(b)) or (isinstance(a, str) and isinstance(b, str)):
        return _safe_bool(lambda: ordering(a, b))
    return False


def _mappings_equal(left: Mapping[object, object], right: Mapping[object, object]) -> bool:
    try:
        if set(left.keys()) != set(right.keys()):
            return False
        return all(values_equal(value, right[key]) for key, value in left.items())
    except RecursionError:
        raise
    except Exception:
        return False


def _is_number(value: object) -> TypeGuard[Any]:
    if isinstance(value, bool):
        return False
    if isinstance(value, Real):
        return True
    decimal = sys.modules.get("decimal")  # no value is a Decimal before ``decimal`` is imported: spared at start-up
    return decimal is not None and isinstance(value, decimal.Decimal)


def _is_list(value: object) -> TypeGuard[list[object] | tuple[object, ...]]:
    return isinstance(value, list | tuple)


def _safe_bool(compute: Callable[[], object]) -> bool:
    try:
        return bool(compute())
    except RecursionError:
        raise
    except Exception:
        return False
