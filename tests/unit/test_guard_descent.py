"""``descent.read_guard`` reads what the LALR grammar reads, into the same AST, and nothing else.

``parse_guard`` trusts it for every guard it reads (``lark`` is then never imported): generated token
soups (every terminal of ``guard.lark``, keywords, near-keywords, stray characters, varied spacing) are
parsed both ways and must agree — same AST, or both refuse.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from alphred.guards.ast import Expr
from alphred.guards.descent import read_guard
from alphred.guards.parse import MAX_NUMBER_CHARS, _BadLiteralError, _parser

ROOT = Path(__file__).resolve().parents[2]
_PIECES = [
    "a", "b.c", "phases.review-x.decision", "or", "and", "not", "in", "true", "false", "null", "order", "true.x",
    "notx", "a-", "a-1", "_x", "1", "-2", "3.5", "1e3", "2.5E-1", "1.", ".5", "'s'", '"t"', "'it\\'s'", '"a\\nb"',
    "'\\q'", "'open", "==", "!=", ">=", "<=", ">", "<", "=", "!", "(", ")", "[", "]", ",", ".", "-", "$", "{", "9" * 45,
]  # fmt: skip
_SPACES = st.sampled_from(["", " ", "  ", "\t", "\n"])


@st.composite
def _soups(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=9))
    return "".join(piece + draw(_SPACES) for piece in pieces)


@st.composite
def _well_formed(draw: st.DrawFn, depth: int = 0) -> str:
    values = st.sampled_from(["a", "b.c", "1", "-2.5", "'s'", '"t"', "true", "false", "null", "[]", "[1, 'x']"])
    kind = draw(st.integers(0, 5 if depth < 3 else 1))
    if kind == 0:
        return draw(values)
    if kind == 1:
        op = draw(st.sampled_from(["==", "!=", ">=", "<=", ">", "<", "in"]))
        return f"{draw(values)} {op} {draw(values)}"
    if kind == 2:
        return "not " + draw(_well_formed(depth + 1))
    if kind == 3:
        return "(" + draw(_well_formed(depth + 1)) + ")"
    joiner = " or " if kind == 4 else " and "
    return draw(_well_formed(depth + 1)) + joiner + draw(_well_formed(depth + 1))


def _lalr(text: str) -> Expr | None:
    from lark.exceptions import UnexpectedInput

    try:
        tree: Any = _parser().parse(text)
    except (UnexpectedInput, _BadLiteralError):
        return None
    return tree  # type: ignore[no-any-return]


def _agree(text: str) -> None:
    read = read_guard(text, MAX_NUMBER_CHARS)
    lalr = _lalr(text)
    if read is not None:
        assert read == lalr, text
    elif lalr is not None:
        # refused here, read by the grammar: only literals the LALR path decodes (escapes) may do that
        assert "\\" in text, text


@settings(max_examples=3000, deadline=None)
@given(_soups())
@example("a == 1 or not b and c in [1, 'x', [true]]")
@example("(a) == 1")
@example("not (a or b) and c")
@example("x == " + "9" * 45)
@example("a == 'it\\'s'")
@example("true.x == order")
def test_token_soups_read_as_the_grammar_reads_them(text: str) -> None:
    _agree(text)


@settings(max_examples=1500, deadline=None)
@given(_well_formed())
def test_well_formed_guards_are_read_here_into_the_grammars_ast(text: str) -> None:
    read = read_guard(text, MAX_NUMBER_CHARS)
    assert read is not None, text
    assert read == _lalr(text), text


@pytest.mark.parametrize("template", ["demo.yaml", "fix-issue.yaml", "plan-parallel.yaml"])
def test_validate_of_a_template_with_guards_does_not_import_lark(template: str) -> None:
    code = (
        "import sys; from alphred.cli import main\n"
        "try:\n    main()\nexcept SystemExit as exit:\n    assert exit.code in (0, None), exit.code\n"
        "print('lark' in sys.modules)"
    )
    path = ROOT / "alphred" / "templates" / template
    result = subprocess.run(
        [sys.executable, "-c", code, "validate", str(path)], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "False", result.stdout + result.stderr
