"""A provider describing itself: what an ``alphred.providers`` entry point names.

A descriptor is cheap to import (no SDK, no adapter): ``alphred validate``, ``alphred schema`` and
``--help`` read descriptors only; the adapter behind ``factory`` is imported when a phase runs or a
preflight checks it. It declares the provider's phase keys (each with its JSON Schema fragment and its
reader, so the workflow schema and the loader are assembled from the registry), a hook checking a phase
as a whole, the error codes its failures carry, and what it can enforce on a phase.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

from alphred.lazy import deferred_dataclass
from alphred.providers.base import Provider
from alphred.workflow.provider_keys import OPTIONS_KEY, PhaseKey, ProviderPhase

ProviderFactory = Callable[[], Provider]


@deferred_dataclass(frozen=True)
class Capabilities:
    """What a provider can enforce on a phase; ``validate`` will refuse a setting a provider cannot enforce.

    ``allowed_tools``/``disallowed_tools``: it enforces ``tools.allow`` (every tool not listed refused) /
    ``tools.deny``; ``mcp_tool_filters``: it can refuse MCP tools by name (``tools.deny`` of
    ``mcp__server__tool`` entries) even without a deny-list of its own tools; ``sandbox``: it confines what
    the agent's commands may write; ``mcp``: it connects the MCP servers a phase names. ``tool_names``: the
    names of its own tools when it knows them all (``validate`` then checks the names), ``tool_patterns``:
    it checks patterns such as ``Bash(pytest:*)``; ``tools_note``: why it cannot enforce more (in messages).
    """

    allowed_tools: bool = False
    disallowed_tools: bool = False
    mcp_tool_filters: bool = False
    sandbox: bool = False
    mcp: bool = False
    tool_names: tuple[str, ...] | None = None
    tool_patterns: bool = False
    tools_note: str = ""


@deferred_dataclass(frozen=True)
class ProviderDescriptor:
    """What a provider declares about itself; ``create()`` builds its adapter (imported only then)."""

    name: str
    factory: ProviderFactory  # builds the adapter; import the adapter's module inside it (see ``adapter``)
    summary: str = ""  # one line: what runs
    phase_keys: Sequence[PhaseKey] = (OPTIONS_KEY,)  # the provider-specific keys of its agent phases
    validate_phase: Callable[[ProviderPhase], None] | None = None  # checks of a phase as a whole
    error_codes: Sequence[str] = ()  # the stable codes its failures carry (besides the contract's)
    capabilities: Capabilities = Capabilities()

    def create(self) -> Provider:
        """A new adapter instance."""
        return self.factory()


def adapter(target: str) -> ProviderFactory:
    """A factory importing ``"package.module:Attribute"`` on its first call, then calling that attribute."""
    module_name, _, attribute = target.partition(":")

    def create() -> Provider:
        made: Provider = getattr(importlib.import_module(module_name), attribute)()
        return made

    create.__qualname__ = f"adapter({target!r})"
    return create
