"""Guard language, SPEC §3: parsing, canonical printing, syntax errors, paths and compared strings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alphred.errors import GuardSyntaxError
from alphred.guards import (
    COMPARE_OPS,
    KEYWORDS,
    And,
    Compare,
    Expr,
    ListExpr,
    Literal,
    Not,
    Or,
    Path,
    Value,
    compared_strings,
    format_guard,
    guard_paths,
    parse_guard,
)


def p(dotted: str) -> Path:
    return Path(tuple(dotted.split(".")))


# --- strategies: random ASTs ----------------------------------------------------------------------

names = st.builds(
    lambda head, tail, suffix: head + tail + suffix,
    st.sampled_from("aiotnZ_"),
    st.text("anrdotuel_9", max_size=4),
    st.sampled_from(["", "", "-x", "-2b"]),
)
paths = (
    st.lists(names, min_size=1, max_size=3)
    .filter(lambda parts: len(parts) > 1 or parts[0] not in KEYWORDS)
    .map(lambda parts: Path(tuple(parts)))
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
values: st.SearchStrategy[Value] = st.recursive(
    st.one_of(scalars.map(Literal), paths),
    lambda inner: st.lists(inner, max_size=4).map(lambda items: ListExpr(tuple(items))),
    max_leaves=8,
)
exprs: st.SearchStrategy[Expr] = st.recursive(
    st.one_of(values, st.builds(Compare, st.sampled_from(COMPARE_OPS), values, values)),
    lambda inner: st.one_of(st.builds(Not, inner), st.builds(And, inner, inner), st.builds(Or, inner, inner)),
    max_leaves=10,
)


@settings(max_examples=200)
@given(exprs)
def test_format_then_parse_gives_the_same_ast(expr: Expr) -> None:
    text = format_guard(expr)
    again = parse_guard(text)
    assert again == expr
    assert format_guard(again) == text  # also tells 1 from 1.0 from true, which == on the AST does not


@given(st.text(max_size=12))
def test_any_string_literal_round_trips(value: str) -> None:
    assert parse_guard(format_guard(Literal(value))) == Literal(value)


@given(st.text(max_size=30))
def test_parse_guard_either_parses_or_raises_guard_syntax_error(text: str) -> None:
    try:
        expr = parse_guard(text)
    except GuardSyntaxError as exc:
        assert 1 <= exc.column <= len(text) + 1
        assert exc.expression == text
    else:
        assert parse_guard(format_guard(expr)) == expr


# --- grammar --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('decision == "approved"', Compare("==", p("decision"), Literal("approved"))),
        ("exit_code != 0", Compare("!=", p("exit_code"), Literal(0))),
        ("attempt > 2", Compare(">", p("attempt"), Literal(2))),
        ("attempt < 2", Compare("<", p("attempt"), Literal(2))),
        ("attempt >= 2", Compare(">=", p("attempt"), Literal(2))),
        ("attempt <= 2", Compare("<=", p("attempt"), Literal(2))),
        ("attempt>=2", Compare(">=", p("attempt"), Literal(2))),
        ('decision in ["a", "b"]', Compare("in", p("decision"), ListExpr((Literal("a"), Literal("b"))))),
        ('"x" in report', Compare("in", Literal("x"), p("report"))),
        ("phases.review.decision", p("phases.review.decision")),
        ("phases.fix-tests.exit_code", p("phases.fix-tests.exit_code")),
        ("report.in", p("report.in")),  # a keyword is a name after a dot
        ("true.x", p("true.x")),
        ("notable", p("notable")),
        ("true", Literal(True)),
        ("false", Literal(False)),
        ("null", Literal(None)),
        ("[]", ListExpr(())),
        ("[1, [2, []]]", ListExpr((Literal(1), ListExpr((Literal(2), ListExpr(())))))),
    ],
)
def test_parse_builds_the_ast(text: str, expected: Expr) -> None:
    assert parse_guard(text) == expected


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0", 0),
        ("42", 42),
        ("-7", -7),
        ("1.5", 1.5),
        ("-0.25", -0.25),
        ("2e3", 2000.0),
        ("1.5E-2", 0.015),
        ('"double"', "double"),
        ("'single'", "single"),
        ("''", ""),
        (r'"say \"hi\""', 'say "hi"'),
        (r"'it\'s'", "it's"),
        (r'"a\\b"', "a\\b"),
        (r'"tab\tnew\nline\rcr"', "tab\tnew\nline\rcr"),
        (r'"\u00e9\u4e2D"', "é中"),
        (r'"a/\/"', "a//"),
        ('"it\'s"', "it's"),
    ],
)
def test_literals(text: str, value: object) -> None:
    expr = parse_guard(text)
    assert expr == Literal(value)  # type: ignore[arg-type]
    assert isinstance(expr, Literal) and type(expr.value) is type(value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a or b and c", Or(p("a"), And(p("b"), p("c")))),
        ("a and b or c", Or(And(p("a"), p("b")), p("c"))),
        ("a or b or c", Or(Or(p("a"), p("b")), p("c"))),
        ("a and b and c", And(And(p("a"), p("b")), p("c"))),
        ("not a and b", And(Not(p("a")), p("b"))),
        ("not a == 1", Not(Compare("==", p("a"), Literal(1)))),
        ("not not a", Not(Not(p("a")))),
        ("not (a or b)", Not(Or(p("a"), p("b")))),
        ("(a or b) and c", And(Or(p("a"), p("b")), p("c"))),
        ("((a))", p("a")),
        ("not(a)", Not(p("a"))),
        ("a\n  and\tb", And(p("a"), p("b"))),
    ],
)
def test_precedence_and_grouping(text: str, expected: Expr) -> None:
    assert parse_guard(text) == expected


@pytest.mark.parametrize(
    ("expr", "text"),
    [
        (Or(p("a"), And(p("b"), p("c"))), "a or b and c"),
        (And(Or(p("a"), p("b")), p("c")), "(a or b) and c"),
        (And(p("a"), And(p("b"), p("c"))), "a and (b and c)"),
        (Or(p("a"), Or(p("b"), p("c"))), "a or (b or c)"),
        (Not(And(p("a"), p("b"))), "not (a and b)"),
        (Not(Not(Compare("==", p("x"), Literal(-1.5)))), "not not x == -1.5"),
        (
            Compare("in", Literal('a"b\n'), ListExpr((Literal(None), Literal(True)))),
            r'"a\"b\n" in [null, true]',
        ),
        (Literal("\x00\x7f"), r'"\u0000\u007f"'),
        (Literal(1e16), "1e+16"),
    ],
)
def test_format_guard_is_canonical_and_minimal(expr: Expr, text: str) -> None:
    assert format_guard(expr) == text
    assert parse_guard(text) == expr


def test_format_guard_rejects_non_finite_numbers() -> None:
    with pytest.raises(ValueError, match="finite"):
        format_guard(Literal(float("inf")))


def test_parse_guard_returns_the_same_ast_for_the_same_text() -> None:
    assert parse_guard("a == 1") is parse_guard("a == 1")


# --- syntax errors --------------------------------------------------------------------------------


def test_syntax_error_message_has_a_caret_under_the_column() -> None:
    with pytest.raises(GuardSyntaxError) as info:
        parse_guard("exit_code == == 0")
    assert info.value.column == 14
    assert info.value.code == "GUARD_SYNTAX"
    assert str(info.value) == (
        "invalid guard: unexpected '=='; expected a value\n    exit_code == == 0\n                 ^"
    )


@pytest.mark.parametrize(
    ("text", "column", "detail"),
    [
        ("", 1, "empty guard expression"),
        ("   ", 1, "empty guard expression"),
        ("decision ==", 12, "unexpected end of expression; expected a value"),
        ("a == b == c", 8, "unexpected '=='; expected 'and', 'or' or end of expression"),
        ("a b", 3, "unexpected path b; expected 'and', 'or', end of expression or an operator"),
        ("(a or b", 8, "unexpected end of expression; expected ')' or 'or'"),
        ("a or b)", 7, "unmatched ')'"),
        ("not", 4, "unexpected end of expression; expected '(', 'not' or a value"),
        ("a and", 6, "unexpected end of expression; expected '(', 'not' or a value"),
        ("x in [1, 2", 11, "unexpected end of expression; expected ',' or ']'"),
        ("[1,]", 4, "unexpected ']'; expected a value"),
        ("[1 2]", 4, "unexpected number 2; expected ',' or ']'"),
        ("a & b", 3, "unexpected character '&'"),
        ("a = 1", 3, "unexpected character '='"),
        ("a . b", 3, "unexpected character '.'"),
        ('x == "open', 6, "unterminated string"),
        (r'x == "a\qb"', 8, r"invalid escape '\q' in string (use \\ for a backslash)"),
        (r'"\u12"', 2, r"invalid escape '\u' in string (use \\ for a backslash)"),
        ("in", 1, "unexpected 'in'; expected '(', 'not' or a value"),
        ("x == true and", 14, "unexpected end of expression; expected '(', 'not' or a value"),
        ("(x) == 1", 5, "unexpected '=='; expected 'and', 'or' or end of expression"),
        ("- 1", 1, "unexpected character '-'"),
    ],
)
def test_syntax_errors_report_the_column(text: str, column: int, detail: str) -> None:
    with pytest.raises(GuardSyntaxError) as info:
        parse_guard(text)
    assert info.value.column == column
    assert info.value.expression == text
    assert info.value.detail == detail
    assert str(info.value).splitlines()[-1] == "    " + " " * (column - 1) + "^"


def test_keywords_are_reserved() -> None:
    for word in ("or", "and", "not", "in"):
        with pytest.raises(GuardSyntaxError):
            parse_guard(f"{word} == 1")
    assert parse_guard("null == x") == Compare("==", Literal(None), p("x"))


def test_too_deep_nesting_is_a_syntax_error() -> None:
    assert parse_guard("not " * 150 + "a") is not None
    with pytest.raises(GuardSyntaxError, match="nested deeper"):
        parse_guard("not " * 300 + "a")
    with pytest.raises(GuardSyntaxError, match="nested deeper"):
        parse_guard("[" * 300 + "]" * 300)


# --- guard_paths and compared_strings -------------------------------------------------------------


def test_guard_paths_in_order_of_appearance_without_duplicates() -> None:
    expr = parse_guard('decision == "a" or (exit_code != 0 and [x.y, decision] == run.steps) or not x.y')
    assert guard_paths(expr) == (("decision",), ("exit_code",), ("x", "y"), ("run", "steps"))


def test_guard_paths_of_a_literal_is_empty() -> None:
    assert guard_paths(parse_guard("true")) == ()


def test_compared_strings_finds_equality_and_membership_in_order() -> None:
    expr = parse_guard(
        'decision == "approved" or "blocked" != decision or decision in ["retry", 1, "approved", x] '
        'or phases.review.decision == "other" or decision == 3 or "sub" in decision or decision > "zzz"'
    )
    assert compared_strings(expr, ("decision",)) == ("approved", "blocked", "retry")
    assert compared_strings(expr, ("phases", "review", "decision")) == ("other",)
    assert compared_strings(expr, ("exit_code",)) == ()


def test_compared_strings_ignores_path_to_path_comparisons() -> None:
    assert compared_strings(parse_guard("decision == inputs.wanted"), ("decision",)) == ()


def test_deep_parentheses_are_refused_before_parsing() -> None:
    text = "(" * 100_000 + "x" + ")" * 100_000
    with pytest.raises(GuardSyntaxError) as info:
        parse_guard(text)
    assert "nested deeper than" in str(info.value)
    assert info.value.column == 201


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert parse_guard('report == "' + "(" * 500 + '"') is not None


def test_huge_number_literal_is_a_located_syntax_error() -> None:
    with pytest.raises(GuardSyntaxError) as info:
        parse_guard("visits == " + "9" * 5000)
    assert "number has more than" in str(info.value)
    assert info.value.column == 11
