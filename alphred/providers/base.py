"""The provider contract of SPEC §4: events, options, the Provider protocol and readiness checks."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    import asyncio  # only named in a type: importing the provider contract starts no event loop machinery

    from alphred.workflow.options import McpServer, SandboxPolicy, ToolPolicy

from alphred.engine.provider_events import EventType as EventType  # defined below providers and store
from alphred.lazy import deferred_dataclass


@deferred_dataclass(frozen=True)
class ProviderEvent:
    """One event of a provider's stream; ``result`` is the single terminal event."""

    type: EventType
    content: str = ""
    timestamp: float = field(default_factory=time.time)
    metadata: Mapping[str, Any] = field(default_factory=dict)


def result_event(text: str, decision: str | None = None, report: Any = None, **extra: Any) -> ProviderEvent:
    """Build the terminal ``result`` event with the routing decision and structured report."""
    metadata: dict[str, Any] = {"routingDecision": decision, **extra}
    if report is not None:
        metadata["report"] = report
    return ProviderEvent(EventType.RESULT, text, metadata=metadata)


@deferred_dataclass(frozen=True)
class ProviderOptions:
    """What a provider gets for one phase attempt (SPEC §4 ``options``)."""

    working_directory: Path
    phase: str
    attempt: int
    visit: int = 0  # the phase's visit this attempt belongs to (1-based; 0: not known)
    system_prompt: str | None = None
    context: tuple[str, ...] = ()
    timeout: float | None = None
    model: str | None = None
    decisions: tuple[str, ...] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)  # provider-specific phase keys
    cancel: asyncio.Event | None = None
    # Variables every process the provider starts for this attempt gets, over ``base_environment`` (Alphred's
    # markers: a take-over and the end of the phase find what the attempt left running, even when several
    # runs share one worker process).
    environment: Mapping[str, str] = field(default_factory=dict)
    # The environment the provider's processes (its agent, the agent's tools) start from, built by the runtime
    # (``runtime/environment.py``): secret variables dropped except the phase's ``env:`` list. A provider
    # gives its own key to its own client only, never to its agent's tools. None (a provider called outside
    # a run: tests, demos): this process's environment.
    base_environment: Mapping[str, str] | None = None
    # ``sandbox:`` (SPEC §14): None, or the policy the provider enforces (its own sandbox, or ``confine``)
    sandbox: SandboxPolicy | None = None
    # Wraps a command's argv so that it runs inside Alphred's sandbox (bubblewrap): set with ``sandbox``
    confine: Callable[[Sequence[str]], list[str]] | None = None
    # ``tools:`` (SPEC §14): the allow/deny lists the provider enforces; None: its own tool set
    tools: ToolPolicy | None = None
    # ``mcp:`` (SPEC §14): the MCP servers offered to the agent, and per server the values of the variables its
    # ``env`` names (resolved by the runtime from the run's environment; given to that server only)
    mcp: tuple[McpServer, ...] = ()
    mcp_env: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # ``output:`` (SPEC §12): the JSON Schema the answer must match (``decision`` merged in when the phase has
    # decisions); the provider asks its model for it by its own mechanism. None: the decision schema.
    output: Mapping[str, Any] | None = None


@deferred_dataclass(frozen=True)
class Readiness:
    """Result of a provider's preflight: ready, or why not and how to fix it."""

    ready: bool
    detail: str = ""
    depends_on_phase: bool = False  # not ready as set up by default, but a phase's own settings may be


@runtime_checkable
class Provider(Protocol):
    """An agent provider: one call of ``run`` is one phase attempt."""

    name: str

    def run(self, prompt: str, options: ProviderOptions) -> AsyncIterator[ProviderEvent]:
        """Stream the attempt's events; exactly one terminal ``result``; raise ProviderError on failure."""
        ...

    def check(self) -> Readiness:
        """Preflight: is the provider usable here (binary found, credentials present)?"""
        ...
