"""Guard evaluation, SPEC §3: paths, comparison without coercion, membership, truthiness, never raising."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alphred.guards import (
    COMPARE_OPS,
    And,
    Compare,
    Expr,
    ListExpr,
    Literal,
    Not,
    Or,
    Path,
    Value,
    evaluate_guard,
    evaluate_value,
    is_truthy,
    parse_guard,
    resolve_path,
    values_equal,
)

CONTEXT: dict[str, object] = {
    "decision": "approved",
    "report": {"verdict": {"score": 7, "ok": True}, "notes": "all tests pass", "tags": ["fast", "safe"]},
    "exit_code": 0,
    "attempt": 2,
    "visits": 1,
    "inputs": {"issue": "Fix the login bug", "style": ""},
    "phases": {"tests": {"decision": None, "exit_code": 1, "report": "3 failed", "visits": 2, "status": "completed"}},
    "run": {"tokens": 1200, "cost_usd": 0.25, "steps": 4},
}


def check(text: str, context: Mapping[str, object] = CONTEXT) -> bool:
    return evaluate_guard(parse_guard(text), context)


# --- paths ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parts", "value"),
    [
        (("decision",), "approved"),
        (("report", "verdict", "score"), 7),
        (("phases", "tests", "exit_code"), 1),
        (("missing",), None),
        (("inputs", "nope"), None),
        (("report", "notes", "length"), None),  # a string is not an object
        (("report", "tags", "first"), None),  # nor is a list
        (("exit_code", "x"), None),
        ((), CONTEXT),
    ],
)
def test_resolve_path_walks_objects_only(parts: tuple[str, ...], value: object) -> None:
    assert resolve_path(CONTEXT, parts) == value


def test_resolve_path_on_a_report_that_is_text() -> None:
    context = {"report": "plain text report"}
    assert resolve_path(context, ("report",)) == "plain text report"
    assert resolve_path(context, ("report", "x", "y")) is None


@pytest.mark.parametrize(
    "text",
    [
        'decision == "approved"',
        "missing == null",
        "report.notes.x == null",
        "inputs.nope == null",
        "not missing",
        "report.verdict.score >= 7 and report.verdict.ok",
        "phases.tests.exit_code != 0 and phases.tests.decision == null",
        'phases.tests.status == "completed" and phases.tests.visits == 2',
        "run.tokens < 2000 and run.cost_usd <= 0.25 and run.steps == 4",
        "attempt > visits",
    ],
)
def test_guards_over_a_phase_context(text: str) -> None:
    assert check(text) is True


# --- == and != without coercion -------------------------------------------------------------------

EQUALITY = [
    ("1 == 1", True),
    ("1 == 1.0", True),
    ("-0.0 == 0", True),
    ('1 == "1"', False),
    ("true == 1", False),
    ("false == 0", False),
    ("true == true", True),
    ("null == null", True),
    ("null == false", False),
    ('null == ""', False),
    ("null == 0", False),
    ('"a" == "a"', True),
    ('"a" == "A"', False),
    ('[1, "a"] == [1.0, "a"]', True),
    ("[true] == [1]", False),
    ("[1, 2] == [2, 1]", False),
    ("[] == []", True),
    ("[] == null", False),
    ("report.verdict == report.verdict", True),
    ("report.verdict == report.tags", False),
    ("1 != 1.0", False),
    ('1 != "1"', True),
    ("true != 1", True),
    ("missing != null", False),
]


@pytest.mark.parametrize(("text", "expected"), EQUALITY)
def test_equality_never_coerces(text: str, expected: bool) -> None:
    assert check(text) is expected


def test_objects_compare_by_keys_and_values() -> None:
    context = {
        "a": {"x": 1, "y": [True]},
        "b": {"y": [True], "x": 1.0},
        "c": {"x": 1},
        "d": {"x": True, "y": [1]},
    }
    assert check("a == b", context)
    assert not check("a == c", context)
    assert not check("a == d", context)


# --- ordering -------------------------------------------------------------------------------------

ORDERING = [
    ("2 > 1", True),
    ("1 > 2", False),
    ("1.5 >= 1.5", True),
    ("1 < 1.5", True),
    ("2 <= 1", False),
    ('"b" > "a"', True),
    ('"apple" < "banana"', True),
    ('"a" >= "a"', True),
    ('1 < "2"', False),
    ('"2" > 1', False),
    ("true > 0", False),
    ("true >= false", False),
    ("null < 1", False),
    ("null >= null", False),
    ("missing > 0", False),
    ("missing <= 0", False),
    ("[2] > [1]", False),
    ("report.verdict > 0", False),
]


@pytest.mark.parametrize(("text", "expected"), ORDERING)
def test_ordering_only_between_two_numbers_or_two_strings(text: str, expected: bool) -> None:
    assert check(text) is expected


# --- in -------------------------------------------------------------------------------------------

MEMBERSHIP = [
    ('decision in ["approved", "blocked"]', True),
    ('decision in ["blocked"]', False),
    ("1 in [1.0, 2]", True),
    ('1 in ["1"]', False),
    ("true in [1]", False),
    ("1 in [true]", False),
    ("null in [null]", True),
    ("missing in [null, 1]", True),
    ("[1] in [[1], 2]", True),
    ("1 in []", False),
    ('"fast" in report.tags', True),
    ('"slow" in report.tags', False),
    ('"tests pass" in report.notes', True),
    ('"TESTS" in report.notes', False),
    ('"" in report.notes', True),
    ('1 in "123"', False),
    ('"verdict" in report', False),  # objects are not searched
    ('"a" in missing', False),
    ("1 in 1", False),
    ('["a"] in "a"', False),
]


@pytest.mark.parametrize(("text", "expected"), MEMBERSHIP)
def test_membership(text: str, expected: bool) -> None:
    assert check(text) is expected


# --- truthiness, not, and, or ---------------------------------------------------------------------

TRUTHINESS: list[tuple[object, bool]] = [
    (True, True),
    (False, False),
    (None, False),
    (0, False),
    (0.0, False),
    (-0.0, False),
    (1, True),
    (-2.5, True),
    (float("nan"), True),
    (Decimal("0"), False),
    (Decimal("0.1"), True),
    ("", False),
    ("0", True),
    ("false", True),
    ([], False),
    ([0], True),
    ((), False),
    ({}, False),
    ({"a": None}, True),
    (object(), False),
]


@pytest.mark.parametrize(("value", "expected"), TRUTHINESS)
def test_is_truthy(value: object, expected: bool) -> None:
    assert is_truthy(value) is expected
    assert evaluate_guard(Path(("v",)), {"v": value}) is expected
    assert evaluate_guard(Not(Path(("v",))), {"v": value}) is (not expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("true and true", True),
        ("true and false", False),
        ("false or true", True),
        ("false or null", False),
        ("not true", False),
        ("not null", True),
        ("not not 3", True),
        ('inputs.style or "x"', True),  # a bare value operand counts by its truthiness
        ("inputs.style and true", False),
        ("inputs.issue and report.tags and run.tokens", True),
        ('[] or 0 or ""', False),
    ],
)
def test_boolean_operators_return_bools(text: str, expected: bool) -> None:
    assert check(text) is expected
    assert type(evaluate_value(parse_guard(text), CONTEXT)) is bool


def test_and_or_short_circuit_left_to_right() -> None:
    assert evaluate_value(parse_guard("false and missing"), {}) is False
    assert evaluate_value(parse_guard("true or missing"), {}) is True


def test_evaluate_value_of_values() -> None:
    assert evaluate_value(parse_guard("[1, report.verdict.score, null]"), CONTEXT) == [1, 7, None]
    assert evaluate_value(parse_guard('"x"'), CONTEXT) == "x"


def test_values_equal_is_symmetric_on_mixed_numbers() -> None:
    assert values_equal(Decimal("1.5"), 1.5) and values_equal(1.5, Decimal("1.5"))
    assert not values_equal(Decimal("NaN"), Decimal("NaN"))
    assert not values_equal(float("nan"), float("nan"))


def test_odd_data_never_raises() -> None:
    cyclic: list[object] = []
    cyclic.append(cyclic)
    deep: object = 0
    for _ in range(5000):
        deep = [deep]

    class Exploding:
        def __eq__(self, other: object) -> bool:
            raise RuntimeError("boom")

        def __hash__(self) -> int:
            return 0

    context: dict[str, object] = {
        "cyclic": cyclic,
        "deep": deep,
        "odd": Exploding(),
        "snan": Decimal("sNaN"),
        "mixed": {1: "a", "b": 2},
        "tuple": (1, 2),
    }
    for text in [
        "cyclic == cyclic",
        "deep == deep",
        "odd == odd",
        "odd in [odd]",
        "snan > 1",
        "snan == 0",
        "snan",
        "mixed == mixed",
        "1 in tuple",
        "tuple == [1, 2]",
    ]:
        assert isinstance(check(text, context), bool), text
    assert check("1 in tuple", context) and check("tuple == [1, 2]", context)


# --- properties -----------------------------------------------------------------------------------

keys = st.sampled_from(["a", "b", "report", "x"])
data = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=4), st.decimals(places=2)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.tuples(inner, inner), st.dictionaries(keys, inner, max_size=3)
    ),
    max_leaves=10,
)
contexts = st.dictionaries(keys, data, max_size=4)
paths = st.lists(keys, min_size=1, max_size=3).map(lambda parts: Path(tuple(parts)))
values: st.SearchStrategy[Value] = st.recursive(
    st.one_of(
        paths,
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-3, 3),
            st.floats(allow_nan=False),
            st.sampled_from(["", "a"]),
        ).map(Literal),
    ),
    lambda inner: st.lists(inner, max_size=3).map(lambda items: ListExpr(tuple(items))),
    max_leaves=6,
)
exprs: st.SearchStrategy[Expr] = st.recursive(
    st.one_of(values, st.builds(Compare, st.sampled_from(COMPARE_OPS), values, values)),
    lambda inner: st.one_of(st.builds(Not, inner), st.builds(And, inner, inner), st.builds(Or, inner, inner)),
    max_leaves=8,
)


@settings(max_examples=200)
@given(exprs, contexts)
def test_evaluation_never_raises_and_returns_a_bool(expr: Expr, context: dict[str, object]) -> None:
    assert type(evaluate_guard(expr, context)) is bool


@settings(max_examples=100)
@given(exprs, contexts)
def test_double_negation_is_truthiness(expr: Expr, context: dict[str, object]) -> None:
    assert evaluate_guard(Not(Not(expr)), context) == is_truthy(evaluate_value(expr, context))


@settings(max_examples=100)
@given(st.sampled_from(["==", "!="]), values, values, contexts)
def test_not_equal_is_the_negation_of_equal(op: str, left: Value, right: Value, ctx: dict[str, object]) -> None:
    equal = evaluate_guard(Compare("==", left, right), ctx)
    assert evaluate_guard(Compare("!=", left, right), ctx) is (not equal)
    assert evaluate_guard(Compare("==", right, left), ctx) is equal


@settings(max_examples=100)
@given(st.sampled_from([">", "<", ">=", "<="]), data, data)
def test_ordering_is_false_unless_both_numbers_or_both_strings(op: str, left: object, right: object) -> None:
    def kind(value: object) -> str:
        if isinstance(value, bool) or value is None:
            return "other"
        if isinstance(value, int | float | Decimal):
            return "number"
        return "string" if isinstance(value, str) else "other"

    result = evaluate_guard(Compare(op, Path(("l",)), Path(("r",))), {"l": left, "r": right})  # type: ignore[arg-type]
    if kind(left) != kind(right) or kind(left) == "other":
        assert result is False


@settings(max_examples=100)
@given(data, st.lists(data, max_size=4))
def test_membership_matches_equality_with_some_item(needle: object, haystack: list[object]) -> None:
    context = {"n": needle, "h": haystack}
    expected = any(values_equal(needle, item) for item in haystack)
    assert evaluate_guard(Compare("in", Path(("n",)), Path(("h",))), context) is expected
