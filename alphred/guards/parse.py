"""``parse_guard``: guard source text -> AST, with the Lark grammar in ``guard.lark`` (LALR, built once)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from alphred.errors import GuardSyntaxError
from alphred.guards.ast import And, Compare, CompareOp, Expr, ListExpr, Literal, Not, Or, Path, Value

if TYPE_CHECKING:
    from lark import Lark, Token

# How each terminal of the grammar is named in error messages.
_TERMINAL_NAMES = {
    "PATH": "a path",
    "STRING": "a string",
    "NUMBER": "a number",
    "TRUE": "'true'",
    "FALSE": "'false'",
    "NULL": "'null'",
    "_OR": "'or'",
    "_AND": "'and'",
    "_NOT": "'not'",
    "IN": "'in'",
    "EQ": "'=='",
    "NE": "'!='",
    "GE": "'>='",
    "LE": "'<='",
    "GT": "'>'",
    "LT": "'<'",
    "_LPAR": "'('",
    "_RPAR": "')'",
    "_LSQB": "'['",
    "_RSQB": "']'",
    "_COMMA": "','",
    "$END": "end of expression",
}
MAX_DEPTH = 200  # nesting levels of a guard's AST; deeper ones are rejected at parse time
_VALUE_STARTS = frozenset({"PATH", "STRING", "NUMBER", "TRUE", "FALSE", "NULL", "_LSQB"})
_OPERATORS = frozenset({"EQ", "NE", "GE", "LE", "GT", "LT", "IN"})
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "/": "/"}


class _BadEscapeError(Exception):
    """Internal: a string literal holds an unknown escape; carries the offset of the backslash."""

    def __init__(self, offset: int, detail: str) -> None:
        super().__init__(detail)
        self.offset = offset
        self.detail = detail


def parse_guard(text: str) -> Expr:
    """Parse a guard expression (SPEC §3); raise ``GuardSyntaxError`` with a 1-based column on error."""
    return _parse_cached(text)


@functools.lru_cache(maxsize=2048)
def _parse_cached(text: str) -> Expr:
    if not text.strip():
        raise GuardSyntaxError(text, 1, "empty guard expression")
    from lark.exceptions import UnexpectedInput

    try:
        tree: Expr = _parser().parse(text)  # type: ignore[assignment]  # the transformer builds the AST
    except _BadEscapeError as exc:
        raise GuardSyntaxError(text, exc.offset + 1, exc.detail) from None
    except UnexpectedInput as exc:
        raise _syntax_error(text, exc) from None
    _check_depth(text, tree)
    return tree


def _syntax_error(text: str, exc: Any) -> GuardSyntaxError:
    """Turn one of lark's ``UnexpectedInput`` errors into a ``GuardSyntaxError`` (1-based column)."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    if isinstance(exc, UnexpectedToken):
        expected = set(exc.accepts or exc.expected)
        if exc.token.type == "$END":
            detail = "unexpected end of expression" + _expected(expected)
            return GuardSyntaxError(text, len(text.rstrip()) + 1, detail)
        pos = int(exc.token.start_pos or 0)
        if exc.token.type == "_RPAR" and text[:pos].count("(") <= text[:pos].count(")"):
            return GuardSyntaxError(text, pos + 1, "unmatched ')'")
        return GuardSyntaxError(text, pos + 1, _unexpected_token(exc.token, expected))
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        char = text[pos] if pos < len(text) else ""
        detail = "unterminated string" if char in ("'", '"') else f"unexpected character {char!r}"
        return GuardSyntaxError(text, pos + 1, detail)
    return GuardSyntaxError(text, len(text.rstrip()) + 1, "unexpected end of expression")


def _unexpected_token(token: Token, expected: set[str]) -> str:
    return f"unexpected {_describe(token)}" + _expected(expected)


def _describe(token: Token) -> str:
    if token.type in ("PATH", "STRING", "NUMBER"):
        return f"{_TERMINAL_NAMES[token.type].split()[1]} {token!s}"
    return _TERMINAL_NAMES.get(token.type, repr(str(token)))


def _expected(expected: set[str] | frozenset[str]) -> str:
    wanted = set(expected)
    groups: list[str] = []
    for group, label in ((_VALUE_STARTS, "a value"), (_OPERATORS, "an operator")):
        if group <= wanted:
            wanted -= group
            groups.append(label)
    names = sorted({_TERMINAL_NAMES.get(name, name) for name in wanted}) + groups
    if not names:
        return ""
    return "; expected " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1])


def _check_depth(text: str, tree: Expr) -> None:
    """Reject expressions nested deeper than ``MAX_DEPTH`` (evaluation is recursive)."""
    stack: list[tuple[object, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise GuardSyntaxError(text, 1, f"expression nested deeper than {MAX_DEPTH} levels")
        if isinstance(node, ListExpr):
            stack.extend((item, depth + 1) for item in node.items)
        elif isinstance(node, Compare | And | Or):
            stack.extend(((node.left, depth + 1), (node.right, depth + 1)))
        elif isinstance(node, Not):
            stack.append((node.operand, depth + 1))


@functools.cache
def _parser() -> Lark:
    from importlib import resources

    from lark import Lark

    grammar = resources.files("alphred.guards").joinpath("guard.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        lexer="basic",
        transformer=_transformer(),
        maybe_placeholders=False,
        propagate_positions=False,
        cache=True,  # the grammar analysis is cached in the temp directory: about half of the build time
    )


def _transformer() -> Any:
    from lark import Transformer

    class ToAst(Transformer[Any, Expr]):
        def or_(self, children: list[Expr]) -> Expr:
            return Or(children[0], children[1])

        def and_(self, children: list[Expr]) -> Expr:
            return And(children[0], children[1])

        def not_(self, children: list[Expr]) -> Expr:
            return Not(children[0])

        def compare(self, children: list[Any]) -> Expr:
            left, op, right = children
            operator: CompareOp = str(op)  # type: ignore[assignment]
            return Compare(operator, left, right)

        def path(self, children: list[Token]) -> Expr:
            return Path(tuple(str(children[0]).split(".")))

        def string(self, children: list[Token]) -> Expr:
            return Literal(_unquote(children[0]))

        def number(self, children: list[Token]) -> Expr:
            raw = str(children[0])
            if any(c in raw for c in ".eE"):
                return Literal(float(raw))
            return Literal(int(raw))

        def true(self, children: list[Token]) -> Expr:
            return Literal(True)

        def false(self, children: list[Token]) -> Expr:
            return Literal(False)

        def null(self, children: list[Token]) -> Expr:
            return Literal(None)

        def list_(self, children: list[Value]) -> Expr:
            return ListExpr(tuple(children))

    return ToAst()


def _unquote(token: Token) -> str:
    """Decode a quoted string token: drop the quotes and resolve backslash escapes."""
    raw = str(token)[1:-1]
    if "\\" not in raw:
        return raw
    base = (token.start_pos or 0) + 1
    out: list[str] = []
    i = 0
    while i < len(raw):
        char = raw[i]
        if char != "\\":
            out.append(char)
            i += 1
            continue
        code = raw[i + 1]
        if code in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[code])
            i += 2
        elif code == "u" and _is_hex4(raw[i + 2 : i + 6]):
            out.append(chr(int(raw[i + 2 : i + 6], 16)))
            i += 6
        else:
            shown = "\\u" if code == "u" else "\\" + (code if code.isprintable() else f"u{ord(code):04x}")
            detail = f"invalid escape '{shown}' in string (use \\\\ for a backslash)"
            raise _BadEscapeError(base + i, detail)
    return "".join(out)


def _is_hex4(text: str) -> bool:
    return len(text) == 4 and all(c in "0123456789abcdefABCDEF" for c in text)
