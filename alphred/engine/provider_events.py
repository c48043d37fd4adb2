"""The kinds of event a provider's stream carries (SPEC §4): one definition, below both the providers that
emit them (``alphred.providers``) and the store that keeps them (``run_node_stream_events.event_type``)."""

from __future__ import annotations

from enum import StrEnum


class EventType(StrEnum):
    """The six provider event types."""

    SYSTEM = "system"
    ASSISTANT = "assistant"
    TOOL_USE = "tool_use"
    TOOL_RESULT = "tool_result"
    USAGE = "usage"
    RESULT = "result"
