"""``{{ path }}`` templates: parsing into literals and placeholders, rendering from a context."""

from __future__ import annotations

import shlex
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alphred.errors import TemplateError
from alphred.guards.templates import Placeholder, Template, parse_template, render_template

CONTEXT: dict[str, object] = {
    "inputs": {"issue": "Fix the login bug", "empty": "", "quote": "it's; rm -rf /"},
    "decision": None,
    "attempt": 3,
    "run": {"cost_usd": 0.25, "ok": True, "bad": False},
    "report": {"b": [1, "é"], "a": {"z": None}},
    "tags": ["x", 2],
}


# --- parsing ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "plain text", "a } b }} c", "{ single }", "{x}"])
def test_text_without_placeholders_is_one_literal(text: str) -> None:
    template = parse_template(text)
    assert template == Template(text, (text,))
    assert template.paths == ()


def test_placeholders_and_literals_in_order_with_offsets() -> None:
    text = "Fix {{ inputs.issue }} (try {{attempt}}){{   phases.fix-tests.report   }}"
    template = parse_template(text)
    assert template.parts == (
        "Fix ",
        Placeholder(("inputs", "issue"), 4),
        " (try ",
        Placeholder(("attempt",), 28),
        ")",
        Placeholder(("phases", "fix-tests", "report"), 40),
    )
    assert [ph.dotted for ph in template.paths] == ["inputs.issue", "attempt", "phases.fix-tests.report"]
    assert text[40:42] == "{{"


def test_whitespace_inside_braces_is_optional_and_may_be_newlines() -> None:
    assert parse_template("{{a}}").parts == (Placeholder(("a",), 0),)
    assert parse_template("{{\n  a.b\t}}").parts == (Placeholder(("a", "b"), 0),)


def test_text_after_the_placeholder_keeps_extra_braces() -> None:
    assert parse_template("{{ a }}}").parts == (Placeholder(("a",), 0), "}")


@pytest.mark.parametrize(
    ("text", "offset", "detail"),
    [
        ("Fix {{ inputs.issue", 4, "unclosed '{{' at offset 4 (expected '}}')"),
        ("{{}}", 0, "empty placeholder '{{ }}' at offset 0"),
        ("ok {{ a }} then {{   }}", 16, "empty placeholder '{{ }}' at offset 16"),
        ("{{ a b }}", 0, "'{{ a b }}' at offset 0 is not a path (like inputs.issue)"),
        ("x{{ 1 }}", 1, "'{{ 1 }}' at offset 1 is not a path (like inputs.issue)"),
        ("{{ a. }}", 0, "'{{ a. }}' at offset 0 is not a path (like inputs.issue)"),
        ("{{ a..b }}", 0, "'{{ a..b }}' at offset 0 is not a path (like inputs.issue)"),
        ("{{ true }}", 0, "'{{ true }}' at offset 0 is not a path (like inputs.issue)"),
        ("{{ x | upper }}", 0, "'{{ x | upper }}' at offset 0 is not a path (like inputs.issue)"),
        ("{{{ a }}", 0, "'{{ { a }}' at offset 0 is not a path (like inputs.issue)"),
        (
            "docker inspect --format '{{.State}}'",
            25,
            "'{{ .State }}' at offset 25 is not a path (like inputs.issue)",
        ),
    ],
)
def test_malformed_placeholders_raise_template_error(text: str, offset: int, detail: str) -> None:
    with pytest.raises(TemplateError) as info:
        parse_template(text)
    assert info.value.offset == offset
    assert info.value.text == text
    assert info.value.detail == detail
    assert info.value.code == "TEMPLATE_SYNTAX"
    assert str(info.value) == f"invalid template: {detail}"


literal_text = st.text(alphabet=st.characters(blacklist_characters="{}"), max_size=10)
path_parts = st.lists(st.sampled_from(["inputs", "issue", "a", "run", "fix-it", "_x9"]), min_size=1, max_size=3)


@settings(max_examples=100)
@given(st.lists(st.tuples(literal_text, path_parts, st.sampled_from(["", " ", "  "])), max_size=4), literal_text)
def test_parse_recovers_literals_and_placeholders(pieces: list[tuple[str, list[str], str]], tail: str) -> None:
    text = ""
    expected: list[str | Placeholder] = []
    for literal, parts, pad in pieces:
        if literal:
            expected.append(literal)
        text += literal
        expected.append(Placeholder(tuple(parts), len(text)))
        text += "{{" + pad + ".".join(parts) + pad + "}}"
    if tail or not expected:
        expected.append(tail)
    text += tail
    assert parse_template(text).parts == tuple(expected)


# --- rendering --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rendered"),
    [
        ("Fix: {{ inputs.issue }}", "Fix: Fix the login bug"),
        ("[{{ decision }}]", "[]"),
        ("[{{ missing.path }}]", "[]"),
        ("[{{ inputs.empty }}]", "[]"),
        ("attempt {{ attempt }}", "attempt 3"),
        ("{{ run.cost_usd }}", "0.25"),
        ("{{ run.ok }}/{{ run.bad }}", "true/false"),
        ("{{ report }}", '{"a":{"z":null},"b":[1,"é"]}'),
        ("{{ tags }}", '["x",2]'),
        ("{{ inputs.issue.deeper }}", ""),
        ("no placeholders", "no placeholders"),
    ],
)
def test_render_values(text: str, rendered: str) -> None:
    assert render_template(parse_template(text), CONTEXT) == rendered


def test_quote_applies_to_every_value_but_not_to_literal_text() -> None:
    template = parse_template("echo {{ inputs.quote }} {{ decision }} {{ attempt }} 'lit'")
    assert render_template(template, CONTEXT, quote=shlex.quote) == "echo 'it'\"'\"'s; rm -rf /' '' 3 'lit'"
    assert shlex.split(render_template(template, CONTEXT, quote=shlex.quote)) == [
        "echo",
        "it's; rm -rf /",
        "",
        "3",
        "lit",
    ]


def test_render_never_raises_on_odd_data() -> None:
    cyclic: list[object] = []
    cyclic.append(cyclic)

    class BadStr:
        def __str__(self) -> str:
            raise RuntimeError("boom")

    context: dict[str, object] = {
        "cyclic": cyclic,
        "mixed": {1: "a", "b": 2},
        "dec": Decimal("1.50"),
        "obj": BadStr(),
        "nan": float("nan"),
        "nested": {"d": Decimal("2"), "t": (1, 2)},
        "big": 10**20,
    }
    template = parse_template("{{ cyclic }}|{{ mixed }}|{{ dec }}|{{ obj }}|{{ nan }}|{{ nested }}|{{ big }}")
    assert render_template(template, context) == (
        '[[...]]|{"1":"a","b":2}|1.50||nan|{"d":"2","t":[1,2]}|100000000000000000000'
    )


json_data = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=100)
@given(st.dictionaries(st.sampled_from(["a", "b"]), json_data, max_size=2))
def test_render_is_total_and_quote_sees_every_value(context: dict[str, object]) -> None:
    template = parse_template("x {{ a }} y {{ b }} z {{ a.b }}")
    seen: list[str] = []

    def quote(value: str) -> str:
        seen.append(value)
        return "<" + value + ">"

    rendered = render_template(template, context, quote=quote)
    assert len(seen) == 3
    assert rendered == f"x <{seen[0]}> y <{seen[1]}> z <{seen[2]}>"
    assert render_template(template, context) == f"x {seen[0]} y {seen[1]} z {seen[2]}"
