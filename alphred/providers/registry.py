"""Providers resolved by name: the built-ins plus the ``alphred.providers`` entry-point group."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib.metadata import entry_points

from alphred.errors import UnknownProviderError
from alphred.providers.base import Provider

ProviderFactory = Callable[[], Provider]
ENTRY_POINT_GROUP = "alphred.providers"


def _scripted() -> Provider:
    from alphred.providers.scripted import ScriptedProvider

    return ScriptedProvider()


def _claude() -> Provider:
    from alphred.providers.claude import ClaudeProvider

    return ClaudeProvider()


def _codex() -> Provider:
    from alphred.providers.codex import CodexProvider

    return CodexProvider()


def _openai() -> Provider:
    from alphred.providers.openai import OpenAIProvider

    return OpenAIProvider()


BUILTIN_PROVIDERS: dict[str, ProviderFactory] = {
    "scripted": _scripted,
    "claude": _claude,
    "codex": _codex,
    "openai": _openai,
}


class ProviderRegistry:
    """Name -> provider factory; injected wherever providers are needed (tests pass their own)."""

    def __init__(self, factories: Mapping[str, ProviderFactory]) -> None:
        self._factories = dict(factories)
        self._instances: dict[str, Provider] = {}

    @property
    def names(self) -> tuple[str, ...]:
        """Every registered provider name, sorted."""
        return tuple(sorted(self._factories))

    def resolve(self, name: str) -> Provider:
        """The provider called ``name``; raises UnknownProviderError listing the available ones."""
        if name not in self._factories:
            raise UnknownProviderError(name, self.names)
        if name not in self._instances:
            self._instances[name] = self._factories[name]()
        return self._instances[name]

    def with_provider(self, name: str, factory: ProviderFactory) -> ProviderRegistry:
        """A copy of this registry with ``name`` (re)bound to ``factory``."""
        return ProviderRegistry({**self._factories, name: factory})


def default_registry() -> ProviderRegistry:
    """Built-in providers plus every installed ``alphred.providers`` entry point (built-ins win)."""
    factories: dict[str, ProviderFactory] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        factories[ep.name] = _entry_point_factory(ep.name, ep.load)
    factories.update(BUILTIN_PROVIDERS)
    return ProviderRegistry(factories)


def _entry_point_factory(name: str, load: Callable[[], object]) -> ProviderFactory:
    def factory() -> Provider:
        target = load()
        # A class (which structurally looks like a Provider too) or a factory function is called.
        provider: object = target
        if callable(target) and (isinstance(target, type) or not isinstance(target, Provider)):
            provider = target()
        if not isinstance(provider, Provider):
            raise UnknownProviderError(f"{name} (entry point does not give a Provider)", ())
        return provider

    return factory
