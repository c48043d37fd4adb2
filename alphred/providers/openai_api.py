"""The two wire dialects of the ``openai`` provider: the Responses API and Chat Completions.

Each keeps its own conversation (the full history is sent on every request, so stateless servers work too)
and turns one model request — streamed or not — into a ``Turn``: the assistant's text, its tool calls and
the request's usage. Completed assistant messages are handed to ``emit`` as they arrive, so a streamed answer
reaches the event stream before the request ends.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from alphred.providers.base import EventType, ProviderEvent
from alphred.providers.contract import cap_text, token_count
from alphred.providers.openai_errors import response_failure
from alphred.providers.openai_tools import ToolCall

Emit = Callable[[ProviderEvent], Awaitable[None]]


@dataclass
class Turn:
    """What one model request produced."""

    texts: list[str] = field(default_factory=list)
    calls: list[ToolCall] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)  # input_tokens, output_tokens, cached_tokens

    @property
    def text(self) -> str:
        """The assistant's text of this turn."""
        return "\n\n".join(text for text in self.texts if text)


class Conversation(Protocol):
    """One phase attempt's dialogue with the model in one API dialect."""

    async def request(self, emit: Emit) -> Turn:
        """Send the conversation so far; return the model's turn (its messages already emitted)."""
        ...

    def answer(self, results: Sequence[tuple[ToolCall, str]]) -> None:
        """Add the tool results the model gets on its next turn."""
        ...


class ResponsesConversation:
    """``client.responses.create`` with function tools; output items are replayed as the next input."""

    def __init__(
        self, client: Any, model: str, instructions: str | None, prompt: str, tools: list[dict[str, Any]], stream: bool
    ) -> None:
        self.client = client
        self.model = model
        self.instructions = instructions
        self.items: list[Any] = [{"role": "user", "content": prompt}]
        self.tools = [{"type": "function", "strict": False, **tool} for tool in tools]
        self.stream = stream

    async def request(self, emit: Emit) -> Turn:
        """One Responses API request (streamed: items are emitted at ``response.output_item.done``)."""
        # Input and tools go in `extra_body`: they are already in wire form (see ChatConversation.request).
        kwargs: dict[str, Any] = {"model": self.model, "extra_body": {"input": self.items, "tools": self.tools}}
        if self.instructions:
            kwargs["instructions"] = self.instructions
        turn = Turn()
        if not self.stream:
            response = await self.client.responses.create(**kwargs)
            if getattr(response, "status", None) == "failed":
                raise response_failure(_as_dict(getattr(response, "error", None)), "failed")
            output = list(response.output or [])
            for item in output:
                await self._item(item, turn, emit)
            turn.usage = responses_usage(response.usage)
        else:
            done: list[Any] = []
            final: Any = None
            stream = await self.client.responses.create(**kwargs, stream=True)
            try:
                async for event in stream:
                    kind = getattr(event, "type", "")
                    if kind == "response.output_item.done":
                        done.append(event.item)
                        await self._item(event.item, turn, emit)
                    elif kind in ("response.completed", "response.incomplete"):
                        final = event.response
                    elif kind == "response.failed":
                        raise response_failure(_as_dict(getattr(event.response, "error", None)), "failed")
                    elif kind == "error":
                        raise response_failure({"code": event.code, "message": event.message}, "error")
            finally:
                await stream.close()
            output = list(final.output) if final is not None and final.output else done
            if final is not None and final.output and len(final.output) != len(done):
                turn.texts, turn.calls = [], []
                for item in output:  # the final response is authoritative; no event twice
                    _collect(item, turn)
            turn.usage = responses_usage(final.usage if final is not None else None)
        self.items.extend(_as_dict(item) for item in output)
        return turn

    async def _item(self, item: Any, turn: Turn, emit: Emit) -> None:
        for event in _collect(item, turn):
            await emit(event)

    def answer(self, results: Sequence[tuple[ToolCall, str]]) -> None:
        """Append one ``function_call_output`` item per call."""
        for call, output in results:
            self.items.append({"type": "function_call_output", "call_id": call.call_id, "output": output})


def _collect(item: Any, turn: Turn) -> list[ProviderEvent]:
    """Record one Responses output item in ``turn``; the events it stands for."""
    kind = getattr(item, "type", "")
    if kind == "message":
        parts = [
            str(getattr(part, "text", None) or getattr(part, "refusal", None) or "")
            for part in getattr(item, "content", None) or []
        ]
        text = "".join(parts)
        turn.texts.append(text)
        return [ProviderEvent(EventType.ASSISTANT, cap_text(text), metadata={"item_id": getattr(item, "id", None)})]
    if kind == "function_call":
        turn.calls.append(ToolCall(str(item.call_id), str(item.name), str(item.arguments or "")))
        return []
    if kind == "reasoning":
        summary = "\n".join(str(getattr(part, "text", "")) for part in getattr(item, "summary", None) or [])
        return [ProviderEvent(EventType.ASSISTANT, cap_text(summary), metadata={"reasoning": True})] if summary else []
    return [ProviderEvent(EventType.SYSTEM, f"openai output item {kind}", metadata={"item_type": kind})]


class ChatConversation:
    """``client.chat.completions.create`` with function tools; streamed deltas are put back together."""

    def __init__(
        self, client: Any, model: str, instructions: str | None, prompt: str, tools: list[dict[str, Any]], stream: bool
    ) -> None:
        self.client = client
        self.model = model
        self.messages: list[dict[str, Any]] = [{"role": "system", "content": instructions}] if instructions else []
        self.messages.append({"role": "user", "content": prompt})
        self.tools = [{"type": "function", "function": tool} for tool in tools]
        self.stream = stream

    async def request(self, emit: Emit) -> Turn:
        """One Chat Completions request (streamed with ``include_usage`` for the final usage chunk)."""
        # The history goes in `extra_body`: it is already in wire form, and the SDK's typed transform of
        # request parameters costs time that grows with every turn (measured: most of a long loop's time).
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": [],
            "extra_body": {"messages": self.messages, "tools": self.tools},
        }
        text = ""
        calls: list[ToolCall] = []
        usage: Any = None
        if not self.stream:
            completion = await self.client.chat.completions.create(**kwargs)
            message = completion.choices[0].message if completion.choices else None
            if message is not None:
                text = str(message.content or getattr(message, "refusal", None) or "")
                for number, call in enumerate(message.tool_calls or []):
                    function = getattr(call, "function", None)
                    name, arguments = (function.name, function.arguments) if function is not None else ("", "")
                    calls.append(ToolCall(call.id or f"call_{number}", str(name), str(arguments or "")))
            usage = completion.usage
        else:
            pieces: list[str] = []
            partial: dict[int, dict[str, Any]] = {}
            stream = await self.client.chat.completions.create(
                **kwargs, stream=True, stream_options={"include_usage": True}
            )
            try:
                async for chunk in stream:
                    usage = chunk.usage or usage
                    for choice in chunk.choices or []:
                        delta = choice.delta
                        if delta is None:
                            continue
                        pieces.append(str(delta.content or ""))
                        for call in delta.tool_calls or []:
                            slot = partial.setdefault(call.index, {"id": None, "name": "", "arguments": ""})
                            slot["id"] = call.id or slot["id"]
                            if call.function is not None:
                                slot["name"] += call.function.name or ""
                                slot["arguments"] += call.function.arguments or ""
            finally:
                await stream.close()
            text = "".join(pieces)
            for index in sorted(partial):
                slot = partial[index]
                calls.append(ToolCall(slot["id"] or f"call_{index}", slot["name"], slot["arguments"]))
        turn = Turn([text] if text else [], calls, chat_usage(usage))
        if text:
            await emit(ProviderEvent(EventType.ASSISTANT, cap_text(text)))
        message_out: dict[str, Any] = {"role": "assistant", "content": text or None}
        if calls:
            message_out["tool_calls"] = [
                {"id": c.call_id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in calls
            ]
        self.messages.append(message_out)
        return turn

    def answer(self, results: Sequence[tuple[ToolCall, str]]) -> None:
        """Append one ``tool`` message per call."""
        for call, output in results:
            self.messages.append({"role": "tool", "tool_call_id": call.call_id, "content": output})


def responses_usage(usage: Any) -> dict[str, int]:
    """Input/output/cached tokens of a Responses API ``usage`` (empty when the server sent none)."""
    if usage is None:
        return {}
    details = getattr(usage, "input_tokens_details", None)
    return {
        "input_tokens": token_count(getattr(usage, "input_tokens", 0)),
        "output_tokens": token_count(getattr(usage, "output_tokens", 0)),
        "cached_tokens": token_count(getattr(details, "cached_tokens", 0)),
    }


def chat_usage(usage: Any) -> dict[str, int]:
    """Input/output/cached tokens of a Chat Completions ``usage`` (empty when the server sent none)."""
    if usage is None:
        return {}
    details = getattr(usage, "prompt_tokens_details", None)
    return {
        "input_tokens": token_count(getattr(usage, "prompt_tokens", 0)),
        "output_tokens": token_count(getattr(usage, "completion_tokens", 0)),
        "cached_tokens": token_count(getattr(details, "cached_tokens", 0)),
    }


def _as_dict(value: Any) -> Any:
    """An SDK model as the plain dict the server sent (fields it did not send left out)."""
    if value is None or isinstance(value, dict):
        return value
    to_dict = getattr(value, "to_dict", None)
    return to_dict(mode="json") if callable(to_dict) else value
