"""``Redactor.redact`` on text: a bearer token is masked whole, and nothing key-shaped survives, whatever
surrounds it (the bearer token has its own pattern since issue 29: a lookbehind among the key shapes made
every string the store writes cost 9x more to screen)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from alphred.redact import FEW_VALUES, KEY_SHAPES, MASK, Redactor, may_hold_key

REDACTOR = Redactor({})
# the single pattern of before, the bearer token among the key shapes: what it finds must not survive
ANY_SECRET = re.compile(
    r"sk-ant-[A-Za-z0-9_\-]{16,}|sk-(?:proj-)?[A-Za-z0-9_\-]{20,}|gh[pousr]_[A-Za-z0-9]{30,}"
    r"|github_pat_[A-Za-z0-9_]{30,}|xox[abprs]-[A-Za-z0-9\-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_\-]{35}"
    r"|glpat-[A-Za-z0-9_\-]{20,}|(?<=Bearer )[A-Za-z0-9._\-]{16,}"
)


def test_a_bearer_token_is_masked_whole_even_when_it_holds_a_key_shape() -> None:
    text = "Authorization: Bearer abc.sk-ant-abcdefghijklmnopqrstuv.tail, then Bearer short"
    assert REDACTOR.redact(text) == "Authorization: Bearer [REDACTED], then Bearer short"


def test_key_shapes_are_masked_where_no_bearer_is() -> None:
    text = "key sk-proj-abcdefghijklmnopqrstuvwx and ghp_" + "a1" * 16 + " and AKIA" + "B" * 16
    assert REDACTOR.redact(text) == "key [REDACTED] and [REDACTED] and [REDACTED]"


PREFIXES = ["Bearer ", "sk-", "sk-ant-", "sk-proj-", "ghp_", "xoxb-", "AKIA", "AIza", "glpat-"]
PIECES = st.sampled_from([*PREFIXES, " ", ".", "-", "_", "abcdefghij", "ABCDEFGHIJ", "0123456789", "Q7w8E9r0T1", "["])


@given(st.lists(PIECES, max_size=30).map("".join))
def test_nothing_key_shaped_survives(text: str) -> None:
    assert ANY_SECRET.search(REDACTOR.redact(text)) is None


# pieces a hostile text is made of: secret shapes, their near misses, a known value and the characters around them
PIECES = st.sampled_from(
    [
        "sk-ant-",
        "sk-proj-",
        "ghp_",
        "AKIA",
        "Bearer ",
        "https://",
        "user:pw@",
        "known-secret-value",
        "known-secret",
        "abcdefghij",
        "0123456789",
        "-",
        "_",
        "\n",
        " ",
        ":",
        "@",
        '"',
    ]
)
TEXTS = st.lists(st.lists(PIECES, max_size=12).map("".join), max_size=6)


@given(TEXTS)
def test_texts_left_alone_together_are_each_left_alone(texts: list[str]) -> None:
    """``leaves_alone`` answers for all texts in one pass: True only if ``redact`` changes none of them (a
    secret in any one of them, a known value or a shape, makes it False), so the store and the event sink may
    skip the per-text way on its word."""
    redactor = Redactor({"API_TOKEN": "known-secret-value"})
    if redactor.leaves_alone(texts):
        assert all(redactor.redact(text) == text for text in texts)
    if any(redactor.redact(text) != text for text in texts):
        assert not redactor.leaves_alone(texts)


def test_a_secret_in_one_of_many_texts_is_seen() -> None:
    redactor = Redactor({"API_TOKEN": "known-secret-value"})
    clean = ["plain", "Bearer short", "https://host/path", "sk-short"]
    assert redactor.leaves_alone(clean)
    assert not redactor.leaves_alone([*clean, "x known-secret-value y"])
    assert not redactor.leaves_alone(["ghp_" + "a1" * 16, *clean])
    assert not redactor.leaves_alone([*clean, "https://user:pw@host"])


KEY_EXAMPLES = [  # one of each ``KEY_SHAPES`` alternative
    "sk-ant-" + "a" * 16,
    "sk-" + "b" * 20,
    "sk-proj-" + "c" * 20,
    *(f"gh{kind}_" + "d1" * 15 for kind in "pousr"),
    "github_pat_" + "e" * 30,
    *(f"xox{kind}-" + "f" * 10 for kind in "abprs"),
    "AKIA" + "G" * 16,
    "AIza" + "h" * 35,
    "glpat-" + "i" * 20,
]


@pytest.mark.parametrize("key", KEY_EXAMPLES)
def test_the_key_screen_lets_every_key_shape_through(key: str) -> None:
    """``may_hold_key`` answers False only where ``KEY_SHAPES`` finds nothing: a shape added to one and not the
    other fails here."""
    assert KEY_SHAPES.fullmatch(key)
    assert may_hold_key(f"x {key} y")
    assert REDACTOR.redact(f"x {key} y") == f"x {MASK} y"
    assert not REDACTOR.leaves_alone(["clean", f"x {key} y"])
    assert REDACTOR.redact_bytes(f"x {key} y".encode()) == f"x {MASK} y".encode()  # the bytes' screen lets it through


@given(st.lists(PIECES, max_size=30).map("".join))
def test_a_text_the_key_screen_turns_away_holds_no_key_shape(text: str) -> None:
    if not may_hold_key(text):
        assert KEY_SHAPES.search(text) is None


GITHUB_PIECES = st.sampled_from(
    ["gh", "g", "h", "ghp", "gho_", "ghx_", "p_", "r_", "_", "github_pat_", "github_pa", "git", "hub", "d1" * 8, " "]
)


@given(st.lists(GITHUB_PIECES, max_size=30).map("".join))
def test_githubs_key_shapes_pass_the_key_screen_wherever_gh_is(text: str) -> None:
    """``may_hold_key`` looks at each ``gh`` (``gh`` inside ``ggh``, one after another, a ``gh`` at the end) and
    for ``github_pat_`` where GitHub's key shapes once had a regex of their own: it says False only where neither
    ``KEY_SHAPES`` nor that regex finds anything."""
    if not may_hold_key(text):
        assert KEY_SHAPES.search(text) is None
        assert re.search(r"gh[pousr]_|github_pat_", text) is None


@pytest.mark.parametrize("count", [1, FEW_VALUES // 2, FEW_VALUES + 3])
def test_known_values_few_or_many_are_each_masked(count: int) -> None:
    """A few known values are looked for one by one, more by their regex: each is masked either way, and one
    added later too (the values looked for are the current ones)."""
    values = [f"secret-value-{i:03d}" for i in range(count)]
    redactor = Redactor({f"TOKEN_{i}": value for i, value in enumerate(values)})
    for value in values:
        assert redactor.redact(f"a {value} b") == f"a {MASK} b"
        assert not redactor.leaves_alone(["clean", f"a {value} b"])
    assert redactor.leaves_alone(["clean", "secret-value-"])
    redactor.add(["added-later-1"])
    assert not redactor.leaves_alone(["x added-later-1"])
    assert redactor.redact("x added-later-1") == f"x {MASK}"
