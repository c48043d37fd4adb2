"""Providers by name: every ``alphred.providers`` entry point, Alphred's own ones included.

Alphred registers its built-in providers (``claude``, ``codex``, ``openai``, ``scripted``) in its own
``pyproject.toml``, in the same entry-point group as any plugin; each entry point names a
``ProviderDescriptor``. A name Alphred registers is always Alphred's: a plugin's entry point with the same
name is ignored. An entry point naming a provider class, factory or instance instead of a descriptor (the
older form) is described for it: one free-form ``options:`` mapping.

Entry points are listed without being loaded; a descriptor is loaded the first time it is looked up (the
loader asks only for the providers a workflow names), its adapter the first time it is resolved. Since a
name Alphred registers is always Alphred's, its own four are found without listing any entry point
(``BUILTIN``, the same targets as ``pyproject.toml``; a test keeps them equal): the installed entry points
are listed (``importlib.metadata``, ~30 ms of start-up) only when a name that is not Alphred's is looked up
or every name is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from importlib import import_module
from typing import TYPE_CHECKING

from alphred.errors import UnknownProviderError
from alphred.providers.base import Provider
from alphred.providers.descriptor import ProviderDescriptor, ProviderFactory

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

ENTRY_POINT_GROUP = "alphred.providers"
BUILTIN = {  # Alphred's own entry points (``pyproject.toml``), found without listing the installed ones
    "claude": "alphred.providers.claude_descriptor:CLAUDE",
    "codex": "alphred.providers.codex_descriptor:CODEX",
    "openai": "alphred.providers.openai_descriptor:OPENAI",
    "scripted": "alphred.providers.scripted:SCRIPTED",
}
STALE_INSTALL = "Alphred's own providers are not registered: reinstall Alphred (`pip install -e .` in a checkout)"


class ProviderRegistry(Mapping[str, ProviderDescriptor]):
    """Name -> provider descriptor (loaded on first look-up) and adapter (built on first ``resolve``).

    Injected wherever providers are needed; tests pass their own: a mapping of names to descriptors, or to
    factories (a provider class, a function returning one).
    """

    def __init__(
        self,
        providers: Mapping[str, ProviderDescriptor | ProviderFactory],
        *,
        loaders: Mapping[str, Callable[[], ProviderDescriptor]] | None = None,
        hint: str | None = None,
        discover: Callable[[], Mapping[str, Callable[[], ProviderDescriptor]]] | None = None,
    ) -> None:
        self._loaders: dict[str, Callable[[], ProviderDescriptor]] = dict(loaders or {})
        self._discover = discover  # more loaders, asked for once, when a name is not found or all are listed
        self._descriptors: dict[str, ProviderDescriptor] = {}
        for name, given in providers.items():
            self._descriptors[name] = given if isinstance(given, ProviderDescriptor) else described(name, given)
            self._loaders.pop(name, None)
        self._instances: dict[str, Provider] = {}
        self._given = tuple(sorted({*self._descriptors, *self._loaders}))  # known without ``discover``
        self._hint = hint  # added to UNKNOWN_AGENT_PROVIDER (Alphred's own providers missing)

    def _discovered(self) -> None:
        """Add the loaders ``discover`` gives (once); the names known already keep theirs."""
        discover, self._discover = self._discover, None
        if discover is not None:
            for name, load in discover().items():
                if name not in self._descriptors:
                    self._loaders.setdefault(name, load)

    @property
    def names(self) -> tuple[str, ...]:
        """Every registered provider name, sorted."""
        self._discovered()
        return tuple(sorted({*self._descriptors, *self._loaders}))

    def __getitem__(self, name: str) -> ProviderDescriptor:
        found = self._descriptors.get(name)
        if found is None:
            if name not in self._loaders:
                self._discovered()
            load = self._loaders.get(name)
            if load is None:
                raise KeyError(name)
            found = self._descriptors.setdefault(name, load())  # two threads loading it get one descriptor
        return found

    def __contains__(self, name: object) -> bool:
        if name in self._descriptors or name in self._loaders:
            return True
        self._discovered()
        return name in self._loaders

    def __iter__(self) -> Iterator[str]:
        """The names known without listing the installed entry points first (sorted), then the others
        (sorted): a search that a built-in provider answers (``defaults: {permission_mode: plan}`` in
        ``validate``) stops before the listing (``importlib.metadata``, ~30 ms)."""
        yield from self._given
        self._discovered()
        yield from sorted({*self._descriptors, *self._loaders}.difference(self._given))

    def __len__(self) -> int:
        return len(self.names)

    def descriptor(self, name: str) -> ProviderDescriptor:
        """The descriptor of provider ``name``; raises UnknownProviderError listing the available ones."""
        if name not in self:
            raise UnknownProviderError(name, self.names, hint=self._hint)
        return self[name]

    def resolve(self, name: str) -> Provider:
        """The provider called ``name`` (one instance per registry); raises UnknownProviderError."""
        if name not in self._instances:
            self._instances[name] = self.descriptor(name).create()
        return self._instances[name]

    def with_provider(self, name: str, provider: ProviderDescriptor | ProviderFactory) -> ProviderRegistry:
        """A copy of this registry with ``name`` (re)bound to ``provider``."""
        self._discovered()
        copy = ProviderRegistry({**self._descriptors, name: provider}, loaders=self._loaders, hint=self._hint)
        return copy


def default_registry(*, builtin_only: bool = False) -> ProviderRegistry:
    """Alphred's own providers and every installed ``alphred.providers`` entry point (Alphred's own win a
    name), none loaded yet; the entry points are listed only when first needed (see the module docstring).
    ``builtin_only``: Alphred's own providers alone (what ``schemas/workflow.schema.json`` is made from).
    """
    loaders = {name: _target_loader(name, target) for name, target in BUILTIN.items()}
    return ProviderRegistry({}, loaders=loaders, discover=None if builtin_only else _plugins)


def _plugins() -> dict[str, Callable[[], ProviderDescriptor]]:
    """The installed entry points of the group other than Alphred's own names (the last one of a name wins)."""
    from importlib.metadata import entry_points

    return {point.name: _loader(point) for point in entry_points(group=ENTRY_POINT_GROUP) if point.name not in BUILTIN}


def _target_loader(name: str, target: str) -> Callable[[], ProviderDescriptor]:
    module, _, attribute = target.partition(":")

    def load() -> ProviderDescriptor:
        descriptor = getattr(import_module(module), attribute)
        assert isinstance(descriptor, ProviderDescriptor) and descriptor.name == name, target
        return descriptor

    return load


def described(name: str, target: object) -> ProviderDescriptor:
    """A descriptor for a provider class, factory or instance that does not describe itself (options only)."""

    def create() -> Provider:
        # A class (which structurally looks like a Provider too) or a factory function is called.
        provider: object = target
        if callable(target) and (isinstance(target, type) or not isinstance(target, Provider)):
            provider = target()
        if not isinstance(provider, Provider):
            raise UnknownProviderError(f"{name} (entry point does not give a Provider)", ())
        return provider

    return ProviderDescriptor(name, create, summary="a provider that does not describe itself: options only")


def _loader(point: EntryPoint) -> Callable[[], ProviderDescriptor]:
    def load() -> ProviderDescriptor:
        try:
            target = point.load()
        except Exception as exc:  # a broken plugin: its keys are unknown; resolving it raises what loading did
            return ProviderDescriptor(point.name, _raiser(exc), summary=f"cannot load: {type(exc).__name__}")
        if isinstance(target, ProviderDescriptor):
            return target if target.name == point.name else replace(target, name=point.name)
        return described(point.name, target)

    return load


def _raiser(exc: Exception) -> ProviderFactory:
    def create() -> Provider:
        raise exc

    return create
