"""``Redactor.redact`` on text: a bearer token is masked whole, and nothing key-shaped survives, whatever
surrounds it (the bearer token has its own pattern since issue 29: a lookbehind among the key shapes made
every string the store writes cost 9x more to screen)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from alphred.redact import Redactor

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
