"""Hostile workflow text: every pathology is a located error (exit 2 at the CLI), never a crash or a hang."""

from __future__ import annotations

import pytest

from alphred.providers import default_registry
from alphred.workflow import check_workflow
from alphred.workflow.yaml_source import MAX_DEPTH, MAX_NODES

PROVIDERS = default_registry()  # every installed provider, as the CLI has them

HEAD = "alphred: 1\nkey: wf\n"
PHASE = "phases:\n  a:\n    provider: scripted\n"


def errors(text: str) -> list[str]:
    workflow, found = check_workflow("wf.yaml", text, providers=PROVIDERS)
    messages = [d.format() for d in found if d.severity == "error"]
    assert (workflow is None) == bool(messages)
    return messages


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        (HEAD + PHASE + "name: !foo x\n", "wf.yaml:6:7", "tags are not allowed (!foo)"),
        (HEAD + PHASE + 'name: !!int "abc"\n', "wf.yaml:6:7", "tags are not allowed (!!int)"),
        (HEAD + PHASE + "name: !!bool maybe\n", "wf.yaml:6:7", "tags are not allowed (!!bool)"),
        (HEAD + PHASE + "name: !!python/name:os.system x\n", "wf.yaml:6:7", "(!!python/name:os.system)"),
        (HEAD + PHASE + "defaults: !!map {max_retries: 1}\n", "wf.yaml:6:11", "tags are not allowed"),
        (HEAD + "b: &b {provider: scripted}\nphases:\n  a:\n    <<: *b\n", "wf.yaml:6:5", "merge keys (<<)"),
        (HEAD + PHASE + "    options: &o {a: [*o]}\n", "wf.yaml:6:22", "recursive alias *o"),
    ],
)
def test_yaml_features_a_workflow_never_needs_are_refused_at_their_position(text: str, where: str, words: str) -> None:
    (message,) = errors(text)
    assert message.startswith(where + ": error: YAML not allowed: ")
    assert words in message


def test_30000_nested_brackets_are_refused_before_libyaml_composes_them() -> None:
    (message,) = errors(HEAD + PHASE + "    options: {a: " + "[" * 30_000 + "]" * 30_000 + "}\n")
    assert f"nested deeper than {MAX_DEPTH} levels" in message


def test_deep_block_nesting_is_refused() -> None:
    text = HEAD + PHASE + "    options:\n" + "".join("  " * (i + 3) + f"k{i}:\n" for i in range(900))
    (message,) = errors(text)
    assert "nested deeper than" in message


def test_a_billion_laughs_alias_bomb_is_refused_by_counting_expanded_nodes() -> None:
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, 9)]
    text = HEAD + PHASE + "    options:\n" + "".join(f"      {line}\n" for line in lines)
    (message,) = errors(text)
    assert f"more than {MAX_NODES} nodes once aliases are expanded" in message


def test_plain_aliases_and_a_quoted_merge_key_still_work() -> None:
    text = HEAD + "defaults: &d {provider: scripted}\nphases:\n  a: *d\n  b:\n    provider: scripted\n"
    text += "    script: [{report: {'<<': 1}}]\n"
    assert errors(text) == []


@pytest.mark.parametrize("field", ["max_visits", "max_retries"])
@pytest.mark.parametrize("value", [str(2**63), "9" * 5000])
def test_integers_are_bounded_to_what_sql_stores(field: str, value: str) -> None:
    (message,) = errors(HEAD + PHASE + f"    {field}: {value}\n")
    assert f"'{field}' must be at most {2**63 - 1}" in message


def test_transition_max_priority_and_limits_are_bounded_too() -> None:
    big = str(2**63)
    text = HEAD + f"limits: {{max_steps: {big}, max_tokens: {big}}}\n" + PHASE
    text += f"    transitions:\n      - {{to: a, max: {big}, priority: {big}, when: 'visits < 3'}}\n"
    assert len(errors(text)) == 4


def test_the_largest_stored_integer_is_accepted() -> None:
    assert errors(HEAD + PHASE + f"    max_visits: {2**63 - 1}\n") == []


@pytest.mark.parametrize("value", [".inf", ".nan", "-.inf", "1.0e+308", "1e308", "9" * 400 + "s", "400d", "0"])
def test_bad_durations_are_located_errors(value: str) -> None:
    (message,) = errors(HEAD + PHASE + f"    timeout: {value}\n")
    assert message.startswith("wf.yaml:6:14: error: bad duration")


@pytest.mark.parametrize("value", [".inf", ".nan"])
def test_cost_limits_must_be_finite(value: str) -> None:
    (message,) = errors(HEAD + f"limits: {{max_cost_usd: {value}}}\n" + PHASE)
    assert "'max_cost_usd' must be a positive number" in message


def test_scripted_sleep_must_be_finite() -> None:
    (message,) = errors(HEAD + PHASE + "    script: [{sleep: .inf}]\n")
    assert "'sleep' must be a number of seconds from 0 to 86400" in message


def test_a_huge_guard_number_and_deep_guard_parentheses_are_located_errors() -> None:
    text = HEAD + PHASE + "    transitions:\n      - {to: a, when: 'visits == " + "9" * 5000 + "'}\n"
    (message,) = errors(text)
    assert message.startswith("wf.yaml:7:34: error:") and "number has more than" in message
    deep = "(" * 100_000 + "visits" + ")" * 100_000
    (message,) = errors(HEAD + PHASE + f"    transitions:\n      - {{to: a, when: '{deep}'}}\n")
    assert "nested deeper than 200 levels" in message


def test_invalid_timestamps_and_long_integers_in_free_data_stay_text() -> None:
    text = HEAD + PHASE + "    script: [{report: {when: 2001-13-45, n: " + "7" * 5000 + "}}]\n"
    workflow, found = check_workflow("wf.yaml", text, providers=PROVIDERS)
    assert workflow is not None, found
    assert workflow.phases[0].options["script"] == [{"report": {"when": "2001-13-45", "n": "7" * 5000}}]
