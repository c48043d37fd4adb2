"""Agent providers: the contract of SPEC §4, the registry and the built-in providers."""

from alphred.providers.base import EventType, Provider, ProviderEvent, ProviderOptions, Readiness, result_event
from alphred.providers.registry import BUILTIN_PROVIDERS, ProviderRegistry, default_registry

__all__ = [
    "BUILTIN_PROVIDERS",
    "EventType",
    "Provider",
    "ProviderEvent",
    "ProviderOptions",
    "ProviderRegistry",
    "Readiness",
    "default_registry",
    "result_event",
]
