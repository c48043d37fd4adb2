"""A recursive-descent reading of the guard grammar (``guard.lark``) for guards that parse: no ``lark`` import.

``lark`` (with the grammar compiler, ``tempfile``, ``hashlib`` and ``logging`` it loads) was the largest
single cost of ``alphred validate`` for a file with guards. Valid guards are the common case, so
``parse.parse_guard`` tries ``read_guard`` first and asks the LALR parser only when it returns None: for
an expression it cannot read, whose error message (column, expected tokens) comes from the LALR tables as
before. ``tests/unit/test_guard_descent.py`` checks that both give the same AST, and that this reads
exactly what the grammar accepts, on generated token soups.

The tokens are the grammar's: the same regular expressions, whitespace ignored, a ``PATH`` spelled exactly
like a keyword is that keyword. Operator precedence: ``or`` < ``and`` < ``not`` < comparison; a comparison
is ``value OP value`` (no chains, no parenthesised side).
"""

from __future__ import annotations

import re

from alphred.guards.ast import And, Compare, CompareOp, Expr, ListExpr, Literal, Not, Or, Path, Value

_TOKEN = re.compile(
    r"""(?P<ws>[ \t\r\n]+)
    |(?P<PATH>[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*(?:\.[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)*)
    |(?P<STRING>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
    |(?P<NUMBER>-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)
    |(?P<OP>==|!=|>=|<=|>|<|[()\[\],])""",
    re.VERBOSE | re.DOTALL,
)
_KEYWORDS = frozenset({"or", "and", "not", "in", "true", "false", "null"})
_COMPARE = frozenset({"==", "!=", ">=", "<=", ">", "<", "in"})
_CONSTANTS: dict[str, Literal] = {"true": Literal(True), "false": Literal(False), "null": Literal(None)}


class _Unread(Exception):
    """Internal: not read here (a syntax error, or a literal the LALR path must report on)."""


def read_guard(text: str, max_number_chars: int) -> Expr | None:
    """The AST of ``text``, or None when it does not parse here (the LALR parser then says why)."""
    tokens = _tokens(text)
    if tokens is None:
        return None
    reader = _Reader(tokens, max_number_chars)
    try:
        tree = reader.or_expr()
    except (_Unread, RecursionError):
        return None
    return tree if reader.at == len(tokens) else None


def _tokens(text: str) -> list[tuple[str, str]] | None:
    """``(kind, text)`` pairs: kind is ``PATH``, ``STRING``, ``NUMBER``, or the keyword/operator itself."""
    tokens: list[tuple[str, str]] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            return None
        position = match.end()
        kind = match.lastgroup or ""
        value = match.group()
        if kind == "ws":
            continue
        if kind == "OP" or (kind == "PATH" and value in _KEYWORDS):
            kind = value
        tokens.append((kind, value))
    return tokens


class _Reader:
    def __init__(self, tokens: list[tuple[str, str]], max_number_chars: int) -> None:
        self.tokens = tokens
        self.at = 0
        self.max_number_chars = max_number_chars

    def _peek(self) -> str:
        return self.tokens[self.at][0] if self.at < len(self.tokens) else ""

    def _take(self, kind: str) -> str:
        if self._peek() != kind:
            raise _Unread
        self.at += 1
        return self.tokens[self.at - 1][1]

    def or_expr(self) -> Expr:
        left = self.and_expr()
        while self._peek() == "or":
            self.at += 1
            left = Or(left, self.and_expr())
        return left

    def and_expr(self) -> Expr:
        left = self.not_expr()
        while self._peek() == "and":
            self.at += 1
            left = And(left, self.not_expr())
        return left

    def not_expr(self) -> Expr:
        kind = self._peek()
        if kind == "not":
            self.at += 1
            return Not(self.not_expr())
        if kind == "(":
            self.at += 1
            inner = self.or_expr()
            self._take(")")
            return inner
        left = self.value()
        operator = self._peek()
        if operator in _COMPARE:
            self.at += 1
            op: CompareOp = operator  # type: ignore[assignment]  # one of _COMPARE
            return Compare(op, left, self.value())
        return left

    def value(self) -> Value:
        kind = self._peek()
        if kind == "[":
            self.at += 1
            items: list[Value] = []
            if self._peek() != "]":
                items.append(self.value())
                while self._peek() == ",":
                    self.at += 1
                    items.append(self.value())
            self._take("]")
            return ListExpr(tuple(items))
        text = self._take(kind) if kind in ("PATH", "STRING", "NUMBER", "true", "false", "null") else ""
        if kind == "PATH":
            return Path(tuple(text.split(".")))
        if kind == "STRING":
            if "\\" in text:
                raise _Unread  # escapes are decoded (and refused) on the LALR path
            return Literal(text[1:-1])
        if kind == "NUMBER":
            if len(text) > self.max_number_chars:
                raise _Unread
            return Literal(float(text) if any(c in text for c in ".eE") else int(text))
        if kind in _CONSTANTS:
            return _CONSTANTS[kind]
        raise _Unread
