"""The adapter contract checks (any provider) and the shared failure classification."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from helpers.providers import collect
from hypothesis import given
from hypothesis import strategies as st

from alphred.errors import FAILURE_KINDS, KINDS, ProviderError
from alphred.providers import EventType, ProviderEvent, ProviderOptions, Readiness, claude_errors, codex_errors
from alphred.providers.classification import classify_status, classify_text, provider_error
from alphred.providers.contract import (
    BAD_EVENT,
    EVENT_AFTER_RESULT,
    NO_RESULT,
    PROVIDER_CRASH,
    ContractCheckedProvider,
    checked,
    compose_prompt,
    decision_and_report,
    decision_schema,
)

KIND_CODES = {"CLAUDE": claude_errors.KIND_CODES, "CODEX": codex_errors.KIND_CODES}

OPTIONS = ProviderOptions(working_directory=Path("."), phase="p", attempt=1)


class FakeProvider:
    """Plays a fixed list of items (events, or anything else) and optionally raises at the end."""

    name = "fake"

    def __init__(self, items: Sequence[object], raise_at_end: BaseException | None = None) -> None:
        self.items = list(items)
        self.raise_at_end = raise_at_end
        self.pulled = 0
        self.closed = False

    def check(self) -> Readiness:
        return Readiness(True, "fake")

    async def run(self, prompt: str, options: ProviderOptions) -> AsyncIterator[Any]:
        try:
            for item in self.items:
                self.pulled += 1
                yield item
            if self.raise_at_end is not None:
                raise self.raise_at_end
        finally:
            self.closed = True


def drain(provider: Any) -> tuple[list[ProviderEvent], ProviderError | None]:
    return collect(provider, "prompt", OPTIONS)


events_st = st.lists(
    st.builds(ProviderEvent, st.sampled_from(list(EventType)), st.text(max_size=5), st.just(0.0)), max_size=8
)


@given(events_st)
def test_wrapper_forwards_in_order_up_to_the_first_result_and_rejects_the_rest(events: list[ProviderEvent]) -> None:
    seen, error = drain(checked(FakeProvider(events)))
    results = [i for i, e in enumerate(events) if e.type is EventType.RESULT]
    if not results:
        assert seen == events
        assert error is not None and error.code == NO_RESULT
        return
    first = results[0]
    assert seen == events[: first + 1]
    if first + 1 < len(events):
        assert error is not None and error.code == EVENT_AFTER_RESULT
        assert events[first + 1].type.value in error.message
    else:
        assert error is None


def test_a_stream_with_exactly_one_final_result_passes() -> None:
    events = [ProviderEvent(EventType.SYSTEM, "hi"), ProviderEvent(EventType.RESULT, "done")]
    inner = FakeProvider(events)
    seen, error = drain(checked(inner))
    assert error is None and seen == events and inner.closed


def test_objects_that_are_not_events_are_rejected() -> None:
    _, error = drain(checked(FakeProvider([{"type": "result"}])))
    assert error is not None and error.code == BAD_EVENT and "dict" in error.message


def test_unexpected_exceptions_become_classified_provider_errors() -> None:
    _, error = drain(checked(FakeProvider([ProviderEvent(EventType.SYSTEM)], KeyError("oops"))))
    assert error is not None and error.code == PROVIDER_CRASH and "KeyError" in error.message and error.retryable
    original = ProviderError("quota", kind="rate_limit", code="X_RATE")
    _, passed = drain(checked(FakeProvider([], original)))
    assert passed is original


def test_closing_the_wrapper_closes_the_wrapped_stream() -> None:
    inner = FakeProvider([ProviderEvent(EventType.SYSTEM, str(i)) for i in range(5)])

    async def go() -> None:
        stream = checked(inner).run("p", OPTIONS)
        await anext(stream)
        await stream.aclose()  # type: ignore[attr-defined]

    asyncio.run(go())
    assert inner.closed and inner.pulled == 1


def test_wrapper_keeps_name_and_check_and_is_idempotent() -> None:
    inner = FakeProvider([])
    wrapped = checked(inner)
    assert isinstance(wrapped, ContractCheckedProvider)
    assert wrapped.name == "fake" and wrapped.check() == Readiness(True, "fake")
    assert checked(wrapped) is wrapped


@given(st.text(max_size=60), st.sampled_from(["CLAUDE", "CODEX"]))
def test_classified_errors_have_deterministic_codes_and_retry_flags(message: str, prefix: str) -> None:
    error = provider_error(KIND_CODES[prefix], message)
    assert error.kind in KINDS and type(error) is FAILURE_KINDS[error.kind]
    assert error.code == f"{prefix}_{error.kind.upper()}"
    assert error.retryable is (error.kind not in ("auth", "invalid_request"))
    assert provider_error(KIND_CODES[prefix], message).code == error.code


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Not logged in · Please run /login", "auth"),
        ("unexpected status 401 Unauthorized: Missing bearer", "auth"),
        ("exceeded retry limit, last status: 429 Too Many Requests", "rate_limit"),
        ("Control request timeout: initialize", "timeout"),
        ("stream disconnected before completion: error sending request", "transport"),
        ("We’re currently experiencing high demand, which may cause temporary errors.", "transport"),
        ("model `gpt-9` not found", "invalid_request"),
        ("segfault", "internal"),
    ],
)
def test_messages_seen_from_the_real_clis_are_classified(text: str, kind: str) -> None:
    assert classify_text(text) == kind


def test_http_statuses_are_classified() -> None:
    assert [classify_status(s) for s in (401, 403, 429, 529, 400, 404, 500, 503, 504)] == [
        "auth",
        "auth",
        "rate_limit",
        "rate_limit",
        "invalid_request",
        "invalid_request",
        "transport",
        "transport",
        "timeout",
    ]


def test_prompt_puts_context_first_and_asks_for_the_decision_last() -> None:
    text = compose_prompt("Do the work.", ("<from plan>", "  "), ("approved", "blocked"))
    assert text.index("<from plan>") < text.index("Do the work.") < text.index("approved, blocked")
    assert compose_prompt("Just this.", (), ()) == "Just this."


def test_decision_schema_and_report_split() -> None:
    schema = decision_schema(("yes", "no"))
    assert schema["properties"]["decision"]["enum"] == ["yes", "no"]
    assert schema["required"] == ["decision", "summary"] and schema["additionalProperties"] is False
    assert decision_and_report('{"decision": "yes", "summary": "s"}') == ("yes", {"decision": "yes", "summary": "s"})
    assert decision_and_report({"summary": "no decision"}) == (None, {"summary": "no decision"})
    assert decision_and_report(None) == (None, None)
    assert decision_and_report("not json") == (None, None)
