"""Branch templates, tokens and sanitising (SPEC §5, Git): pure string rules."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from alphred.git import (
    DEFAULT_BRANCH_TEMPLATE,
    FALLBACK_BRANCH,
    branch_tokens,
    choose_branch_template,
    render_branch_name,
    sanitize_branch_name,
)

# The rules of `git check-ref-format --branch` (refs/heads/ prepended), written out independently.
_FORBIDDEN = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|//")


def assert_valid_branch(name: str) -> None:
    assert name
    assert not _FORBIDDEN.search(name), name
    assert not name.startswith(("-", "/")), name
    assert not name.endswith(("/", ".", ".lock")), name
    assert name not in {"@", "HEAD"}
    for component in name.split("/"):
        assert component and not component.startswith("."), name
        assert not component.endswith(".lock"), name


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("alphred/fix-and-review/7", "alphred/fix-and-review/7"),
        ("Feature/ABC-12_x", "Feature/ABC-12_x"),
        ("fix the bug!", "fix-the-bug"),
        ("a..b", "a.b"),
        ("a@{1}", "a-1"),
        ("-lead/trail/", "lead/trail"),
        ("//double//slash//", "double/slash"),
        ("x.lock", "x"),
        ("x.lock.lock/y.lock", "x/y"),
        (".hidden/.git", "hidden/git"),
        ("ends.", "ends"),
        ("tilde~caret^colon:q?star*[br]\\", "tilde-caret-colon-q-star-br"),
        ("café/naïve", "cafe/naive"),
        ("日本語", FALLBACK_BRANCH),
        ("", FALLBACK_BRANCH),
        ("///", FALLBACK_BRANCH),
        ("HEAD", "alphred/HEAD"),
        ("@", FALLBACK_BRANCH),
        ("a\tb\nc\x7fd", "a-b-c-d"),
    ],
)
def test_sanitize_examples(raw: str, expected: str) -> None:
    assert sanitize_branch_name(raw) == expected


def test_sanitize_caps_length_and_components() -> None:
    name = sanitize_branch_name("x" * 150 + "/" + "y" * 150 + "/z")
    assert len(name) <= 200
    assert all(len(part) <= 100 for part in name.split("/"))
    assert_valid_branch(name)


@given(st.text(max_size=80))
def test_sanitize_is_valid_and_idempotent(raw: str) -> None:
    name = sanitize_branch_name(raw)
    assert_valid_branch(name)
    assert sanitize_branch_name(name) == name


@given(st.text(alphabet="ab./-@{}~:^ .lock", max_size=40))
def test_sanitize_tricky_alphabet(raw: str) -> None:
    name = sanitize_branch_name(raw)
    assert_valid_branch(name)
    assert sanitize_branch_name(name) == name


def test_default_template_renders_the_spec_example() -> None:
    tokens = branch_tokens(tree_key="fix-and-review", run_id=7)
    assert render_branch_name(DEFAULT_BRANCH_TEMPLATE, tokens) == "alphred/fix-and-review/7"


def test_all_tokens_render() -> None:
    moment = datetime(2025, 3, 4, 5, 6, 7, tzinfo=timezone(timedelta(hours=2)))
    tokens = branch_tokens(
        tree_key="wf", run_id=12, base_sha="abcdef0123456789", node_key="impl", issue_id="GH-9", now=moment
    )
    template = "{tree-key}/{run-id}/{node-key}/{issue-id}/{timestamp}/{short-hash}/{date}"
    assert render_branch_name(template, tokens) == "wf/12/impl/GH-9/20250304-030607/abcdef0/2025-03-04"


def test_missing_token_disappears_with_its_separators() -> None:
    tokens = branch_tokens(tree_key="wf", run_id=3, now=datetime(2025, 1, 1, tzinfo=UTC))
    assert render_branch_name("alphred/{issue-id}/{tree-key}-{node-key}/{run-id}", tokens) == "alphred/wf/3"


def test_unknown_token_stays_visible() -> None:
    assert render_branch_name("alphred/{tree_key}/{run-id}", {"run-id": "4"}) == "alphred/tree_key/4"


def test_token_values_cannot_add_hierarchy_or_break_the_ref() -> None:
    tokens = {"tree-key": "wf", "run-id": "1", "issue-id": "https://x.org/o/r/issues/12 ..lock"}
    name = render_branch_name("{tree-key}/{issue-id}", tokens)
    assert name.count("/") == 1
    assert_valid_branch(name)


@pytest.mark.parametrize(
    ("explicit", "repo", "env", "expected"),
    [
        ("my/branch", "repo/{run-id}", {"ALPHRED_BRANCH_TEMPLATE": "env/{run-id}"}, "my/branch"),
        (None, "repo/{run-id}", {"ALPHRED_BRANCH_TEMPLATE": "env/{run-id}"}, "repo/{run-id}"),
        ("  ", "", {"ALPHRED_BRANCH_TEMPLATE": "env/{run-id}"}, "env/{run-id}"),
        (None, None, {}, DEFAULT_BRANCH_TEMPLATE),
        (None, None, {"ALPHRED_BRANCH_TEMPLATE": ""}, DEFAULT_BRANCH_TEMPLATE),
    ],
)
def test_template_precedence(explicit: str | None, repo: str | None, env: dict[str, str], expected: str) -> None:
    assert choose_branch_template(explicit, repo, env) == expected


def test_explicit_branch_is_sanitised_too() -> None:
    template = choose_branch_template("my branch..name", None, {})
    assert render_branch_name(template, {}) == "my-branch.name"
