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
MAX_NUMBER_CHARS = 40  # a number literal longer than this is refused (int() of 4,300+ digits raises)
MAX_DEPTH = 200  # nesting levels of a guard's AST; deeper ones are rejected at parse time
_VALUE_STARTS = frozenset({"PATH", "STRING", "NUMBER", "TRUE", "FALSE", "NULL", "_LSQB"})
_OPERATORS = frozenset({"EQ", "NE", "GE", "LE", "GT", "LT", "IN"})
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "/": "/"}


class _BadLiteralError(Exception):
    """Internal: a literal is malformed (unknown escape, number too large); carries its offset."""

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

    _check_nesting(text)
    try:
        tree: Expr = _parser().parse(text)  # type: ignore[assignment]  # the transformer builds the AST
    except _BadLiteralError as exc:
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


def _check_nesting(text: str) -> None:
    """Reject brackets nested deeper than ``MAX_DEPTH`` before parsing (parentheses leave no AST node)."""
    depth = 0
    quote = ""
    escaped = False
    for index, char in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([":
            depth += 1
            if depth > MAX_DEPTH:
                raise GuardSyntaxError(text, index + 1, f"expression nested deeper than {MAX_DEPTH} levels")
        elif char in ")]":
            depth = max(depth - 1, 0)


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


TABLES_FILE = "guard.tables"  # the LALR tables of guard.lark as JSON, generated by ``write_tables``


@functools.cache
def _parser() -> Lark:
    """The guard parser, loaded from the packaged tables; built from the grammar when they are stale.

    Never from a cache in a shared place: Lark's ``cache=True`` unpickles a file under a predictable name in
    the temp directory, which anyone may plant. The tables are plain JSON data.
    """
    import json
    import pkgutil  # not ``importlib.resources``: it loads ``tempfile`` and ``zipfile`` for nothing here

    from lark import Lark

    grammar = (pkgutil.get_data(__package__, "guard.lark") or b"").decode("utf-8")
    try:
        tables_text = (pkgutil.get_data(__package__, TABLES_FILE) or b"").decode("utf-8")
    except OSError:
        tables_text = ""
    digest, _, encoded = tables_text.partition("\n")
    if digest == _grammar_digest(grammar):
        tables = json.loads(encoded, object_hook=_from_json)
        loaded: Lark = Lark._load_from_dict(  # type: ignore[no-untyped-call]  # what lark's standalone tool uses
            tables["data"], tables["memo"], transformer=_transformer()
        )
        return loaded
    return _build(grammar, _transformer())


def _build(grammar: str, transformer: Any = None) -> Lark:
    from lark import Lark

    return Lark(
        grammar,
        parser="lalr",
        lexer="basic",
        transformer=transformer,
        maybe_placeholders=False,
        propagate_positions=False,
    )


def _grammar_digest(grammar: str) -> str:
    from alphred.digest import sha256

    return "sha256:" + str(sha256(grammar.encode("utf-8")).hexdigest())


def write_tables() -> str:
    """Regenerate ``guard.tables`` from ``guard.lark`` (run after editing the grammar); returns its path."""
    import json
    from pathlib import Path

    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    folder = Path(__file__).parent
    grammar = (folder / "guard.lark").read_text(encoding="utf-8")
    data, memo = _build(grammar).memo_serialize([TerminalDef, Rule])
    target = folder / TABLES_FILE
    encoded = json.dumps(_to_json({"data": data, "memo": memo}), separators=(",", ":"), sort_keys=True)
    target.write_text(_grammar_digest(grammar) + "\n" + encoded + "\n", encoding="utf-8")
    return str(target)


def _to_json(value: Any) -> Any:
    """Lark's serialised tables as JSON: tuples and dicts with non-string keys are tagged to survive."""
    if isinstance(value, tuple):
        return {"(tuple)": [_to_json(v) for v in value]}
    if isinstance(value, list):
        return [_to_json(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: _to_json(v) for k, v in value.items()}
        return {"(items)": [[_to_json(k), _to_json(v)] for k, v in value.items()]}
    return value


def _from_json(obj: dict[str, Any]) -> Any:
    if len(obj) == 1:
        if "(tuple)" in obj:
            return tuple(obj["(tuple)"])
        if "(items)" in obj:
            return {(tuple(k) if isinstance(k, list) else k): v for k, v in obj["(items)"]}
    return obj


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
            if len(raw) > MAX_NUMBER_CHARS:
                offset = children[0].start_pos or 0
                raise _BadLiteralError(offset, f"number has more than {MAX_NUMBER_CHARS} characters")
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
            raise _BadLiteralError(base + i, detail)
    return "".join(out)


def _is_hex4(text: str) -> bool:
    return len(text) == 4 and all(c in "0123456789abcdefABCDEF" for c in text)
