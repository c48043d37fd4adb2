"""The adapter contract every provider keeps (SPEC §4), checked at run time, plus helpers adapters share.

``ContractCheckedProvider`` wraps any provider (built-in or from the ``alphred.providers`` entry point) and
enforces: only ``ProviderEvent`` objects, forwarded in the order produced; exactly one terminal ``result``;
an event after it is an error; a stream that ends without one is an error; an unexpected exception becomes a
classified ProviderError. Closing the wrapper closes the wrapped stream (so its subprocess stops).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from alphred.errors import BAD_EVENT, EVENT_AFTER_RESULT, NO_RESULT, PROVIDER_CRASH, AlphredError, ProviderError
from alphred.providers.base import EventType, Provider, ProviderEvent, ProviderOptions, Readiness

__all__ = [
    "BAD_EVENT", "EVENT_AFTER_RESULT", "NO_RESULT", "PROVIDER_CRASH", "ContractMonitor", "checked", "checked_stream",
    "unchecked",
]  # fmt: skip


class ContractMonitor:
    """Watches one stream event by event; ``observe`` and ``finish`` raise on a contract breach."""

    def __init__(self, provider: str) -> None:
        self.provider = provider
        self.count = 0
        self.result: ProviderEvent | None = None

    def observe(self, event: object) -> ProviderEvent:
        """Accept the next event, or raise ProviderError when it breaks the contract."""
        if not isinstance(event, ProviderEvent) or not isinstance(event.type, EventType):
            raise ProviderError(
                f"provider '{self.provider}' produced {type(event).__name__!s} instead of a ProviderEvent",
                kind="internal",
                code=BAD_EVENT,
            )
        if self.result is not None:
            raise ProviderError(
                f"provider '{self.provider}' sent a {event.type.value} event after its result",
                kind="internal",
                code=EVENT_AFTER_RESULT,
            )
        self.count += 1
        if event.type is EventType.RESULT:
            self.result = event
        return event

    def crashed(self, exc: Exception) -> ProviderError:
        """The error an exception that is not Alphred's, raised by the stream, becomes (a third-party provider's
        bug must not become a traceback)."""
        return ProviderError(
            f"provider '{self.provider}' raised {type(exc).__name__}: {exc}", kind="internal", code=PROVIDER_CRASH
        )

    async def expect_end(self, stream: AsyncIterator[ProviderEvent]) -> None:
        """After the result: the stream must end (ProviderError for an event after it)."""
        try:
            extra = await anext(stream)
        except StopAsyncIteration:
            return
        self.observe(extra)  # raises: an event after the result

    def finish(self) -> ProviderEvent:
        """The stream ended: return its result, or raise ProviderError when there was none."""
        if self.result is None:
            raise ProviderError(
                f"provider '{self.provider}' ended after {self.count} event(s) without a result event",
                kind="internal",
                code=NO_RESULT,
            )
        return self.result


class ContractCheckedProvider:
    """A provider wrapper that enforces the event contract of SPEC §4 on every run."""

    def __init__(self, inner: Provider) -> None:
        self.inner = inner
        self.name = inner.name

    def check(self) -> Readiness:
        """Delegate the preflight to the wrapped provider."""
        return self.inner.check()

    def run(self, prompt: str, options: ProviderOptions) -> AsyncIterator[ProviderEvent]:
        """Forward the wrapped provider's events in order, raising ProviderError on a contract breach."""
        return checked_stream(self.name, self.inner.run(prompt, options))


async def checked_stream(name: str, events: AsyncIterator[ProviderEvent]) -> AsyncIterator[ProviderEvent]:
    """``events`` under the contract (``ContractMonitor``, for providers and commands alike; an attempt's own
    stream is checked the same way by ``runtime.attempt_stream.consume``, without this layer)."""
    monitor = ContractMonitor(name)
    stream = aiter(events)
    try:
        while True:
            try:
                event = await anext(stream)
            except StopAsyncIteration:
                break
            except AlphredError:
                raise
            except Exception as exc:
                raise monitor.crashed(exc) from exc
            yield monitor.observe(event)
            if monitor.result is not None:
                await monitor.expect_end(stream)
                return
        monitor.finish()
    finally:
        closer = getattr(stream, "aclose", None)
        if closer is not None:
            await closer()


def unchecked(provider: Provider) -> Provider:
    """The provider a ``checked`` one wraps (``provider`` itself when it wraps none)."""
    return provider.inner if isinstance(provider, ContractCheckedProvider) else provider


def checked(provider: Provider) -> Provider:
    """Wrap ``provider`` in the contract checks (idempotent)."""
    return provider if isinstance(provider, ContractCheckedProvider) else ContractCheckedProvider(provider)


def decision_schema(decisions: Sequence[str]) -> dict[str, Any]:
    """The JSON schema of a phase's structured report: a ``decision`` from ``decisions`` and a ``summary``."""
    return {
        "type": "object",
        "properties": {
            "decision": {"type": "string", "enum": list(decisions), "description": "The routing decision."},
            "summary": {"type": "string", "description": "A short report of what was done and why."},
        },
        "required": ["decision", "summary"],
        "additionalProperties": False,
    }


def answer_schema(options: ProviderOptions) -> dict[str, Any] | None:
    """The JSON Schema of the phase's structured answer: its ``output:`` (SPEC §12, ``decision`` already merged
    in), else the decision schema when the phase routes on decisions, else None (a free text answer)."""
    if options.output is not None:
        return dict(options.output)
    return decision_schema(options.decisions) if options.decisions else None


def report_parameters(output: Mapping[str, Any]) -> dict[str, Any]:
    """A typed phase's ``output:`` without the ``decision`` Alphred merged in: the schema of the ``report``
    when the decision is asked for beside it (the openai ``finish`` tool)."""
    schema = dict(output)
    properties = dict(schema.get("properties") or {})
    properties.pop("decision", None)
    schema["properties"] = properties
    if "required" in schema:
        schema["required"] = [name for name in schema["required"] if name != "decision"]
    return schema


def compose_prompt(
    prompt: str, context: Sequence[str], decisions: Sequence[str], output: Mapping[str, Any] | None = None
) -> str:
    """The text an agent gets: upstream context envelopes, the phase prompt, the decision instruction (or,
    for a typed phase, the instruction to answer with an object matching its ``output:`` schema)."""
    parts = [envelope.strip() for envelope in context if envelope.strip()]
    parts.append(prompt.strip() or "Carry out this phase of the workflow.")
    if output is not None:
        parts.append(
            "When you are done, give your final report as the structured output: one JSON object matching this "
            f"JSON Schema:\n{json.dumps(output, sort_keys=True)}"
        )
    elif decisions:
        listed = ", ".join(decisions)
        parts.append(
            "When you are done, give your final report as the structured output: `decision` (exactly one of: "
            f"{listed}) and `summary` (what you did and why)."
        )
    return "\n\n".join(parts)


def decision_and_report(structured: Any) -> tuple[str | None, dict[str, Any] | None]:
    """Split a structured report into (decision, report); a non-object gives (None, None)."""
    if isinstance(structured, str):
        try:
            structured = json.loads(structured)
        except ValueError:
            return None, None
    if not isinstance(structured, dict):
        return None, None
    decision = structured.get("decision")
    return (decision if isinstance(decision, str) else None), structured


def json_object(text: str) -> dict[str, Any] | None:
    """A plain answer read as a JSON object (a fenced ```json block too), or None when it is not one."""
    body = text.strip()
    if body.startswith("```"):
        body = body.split("\n", 1)[1] if "\n" in body else ""
        body = body.rsplit("```", 1)[0]
    try:
        data = json.loads(body)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


MAX_EVENT_CHARS = 16_000


def cap_text(text: str) -> str:
    """``text`` cut to MAX_EVENT_CHARS (head and tail kept, with a visible marker) for one event."""
    if len(text) <= MAX_EVENT_CHARS:
        return text
    half = MAX_EVENT_CHARS // 2
    return f"{text[:half]}\n[... {len(text) - MAX_EVENT_CHARS} characters cut ...]\n{text[-half:]}"


def token_count(value: Any) -> int:
    """A usage figure as a non-negative int (anything else counts 0)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0
