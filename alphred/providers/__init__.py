"""Agent providers: the contract of SPEC §4, the registry, and the providers Alphred ships.

Every provider, Alphred's own included, is registered by an ``alphred.providers`` entry point naming its
``ProviderDescriptor`` (docs/providers.md, "Adding a provider").
"""

from alphred.providers.base import EventType, Provider, ProviderEvent, ProviderOptions, Readiness, result_event
from alphred.providers.descriptor import Capabilities, ProviderDescriptor, adapter
from alphred.providers.registry import ProviderRegistry, default_registry

__all__ = [
    "Capabilities",
    "EventType",
    "Provider",
    "ProviderDescriptor",
    "ProviderEvent",
    "ProviderOptions",
    "ProviderRegistry",
    "Readiness",
    "adapter",
    "default_registry",
    "result_event",
]
