"""Token and cost accounting over the usage shapes providers report."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from alphred.engine import TokenCounter


def fed(*usages: dict[str, Any]) -> TokenCounter:
    counter = TokenCounter()
    for usage in usages:
        counter.feed(usage)
    return counter


def test_incremental_tokens_add_up() -> None:
    assert fed({"tokens": 5}, {"tokens": 7}).total == 12


def test_cumulative_totals_keep_the_largest() -> None:
    counter = fed({"totalTokens": 10}, {"total_tokens": 25}, {"tokensUsed": 3})
    assert (counter.total, counter.cumulative, counter.incremental) == (25, 25, 0)


def test_input_output_pairs_count_as_one_call() -> None:
    assert fed({"input_tokens": 10, "output_tokens": 5}, {"input_tokens": 1}).total == 16
    assert fed({"prompt_tokens": 3, "completion_tokens": 4}).total == 7


def test_per_call_usage_with_its_own_total_is_not_mistaken_for_a_running_total() -> None:
    call = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    assert fed(call, call).total == 30


def test_incremental_tokens_win_over_a_pair_in_the_same_report() -> None:
    assert fed({"tokens": 4, "input_tokens": 10, "output_tokens": 10}).total == 4


def test_usage_nested_under_usage_is_read() -> None:
    assert fed({"type": "usage", "usage": {"input_tokens": 1, "output_tokens": 2}}).total == 3
    assert fed({"usage": {"totalTokens": 40}}, {"tokens": 5}).total == 40


def test_top_level_usage_wins_over_nested_usage() -> None:
    assert fed({"tokens": 2, "usage": {"tokens": 100}}).total == 2


def test_total_is_the_larger_of_increments_and_running_total() -> None:
    counter = fed({"tokens": 30}, {"totalTokens": 20})
    assert counter.total == 30
    counter.feed({"totalTokens": 50})
    assert counter.total == 50


def test_cost_incremental_and_cumulative() -> None:
    assert fed({"cost_usd": 0.25}, {"cost_usd": 0.5}).cost_usd == 0.75
    assert fed({"cost_usd": 0.25}, {"total_cost_usd": 1.5}).cost_usd == 1.5
    assert fed({"usage": {"input_tokens": 7}, "total_cost_usd": 0.1}).total == 7


def test_feed_returns_how_much_the_total_grew() -> None:
    counter = TokenCounter()
    assert counter.feed({"totalTokens": 10}) == 10
    assert counter.feed({"totalTokens": 8}) == 0
    assert counter.feed({"tokens": 15}) == 5


def test_junk_is_ignored() -> None:
    counter = fed(
        {"tokens": "5"},
        {"tokens": -1},
        {"tokens": True},
        {"tokens": float("nan")},
        {"totalTokens": float("inf")},
        {"usage": 5},
        {"cost_usd": -2.0},
        {},
    )
    assert (counter.total, counter.cost_usd) == (0, 0.0)


json_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 10**20),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.lists(st.integers(), max_size=2),
)
usage_keys = st.sampled_from(
    [
        "tokens",
        "tokensUsed",
        "totalTokens",
        "total_tokens",
        "input_tokens",
        "output_tokens",
        "prompt_tokens",
        "completion_tokens",
        "cost_usd",
        "total_cost_usd",
        "usage",
    ]
)
usages = st.dictionaries(usage_keys | st.text(max_size=4), json_values, max_size=5)


@settings(max_examples=100, deadline=None)
@given(st.lists(usages | st.fixed_dictionaries({"usage": usages}), max_size=8))
def test_any_usage_data_is_safe_and_totals_never_shrink(reports: list[dict[str, Any]]) -> None:
    counter = TokenCounter()
    for report in reports:
        before = (counter.total, counter.cost_usd)
        grew = counter.feed(report)
        assert grew >= 0 and counter.total == before[0] + grew
        assert counter.cost_usd >= before[1]


@settings(max_examples=200, deadline=None)
@given(
    steps=st.lists(st.integers(0, 1000), max_size=6),
    running=st.lists(st.integers(0, 5000), max_size=6),
    data=st.data(),
)
def test_total_is_max_of_summed_increments_and_largest_running_total(
    steps: list[int], running: list[int], data: st.DataObject
) -> None:
    reports = [{"tokens": n} for n in steps] + [{"totalTokens": n} for n in running]
    ordered = data.draw(st.permutations(reports))
    assert fed(*ordered).total == max(sum(steps), max(running, default=0))
