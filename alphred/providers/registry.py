"""Providers by name: every ``alphred.providers`` entry point, Alphred's own ones included.

Alphred registers its built-in providers (``claude``, ``codex``, ``openai``, ``scripted``) in its own
``pyproject.toml``, in the same entry-point group as any plugin; each entry point names a
``ProviderDescriptor``. A name Alphred registers is always Alphred's: a plugin's entry point with the same
name is ignored. An entry point naming a provider class, factory or instance instead of a descriptor (the
older form) is described for it: one free-form ``options:`` mapping.

Entry points are listed without being loaded; a descriptor is loaded the first time it is looked up (the
loader asks only for the providers a workflow names), its adapter the first time it is resolved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from importlib.metadata import EntryPoint, entry_points

from alphred.errors import UnknownProviderError
from alphred.providers.base import Provider
from alphred.providers.descriptor import ProviderDescriptor, ProviderFactory

ENTRY_POINT_GROUP = "alphred.providers"
DISTRIBUTION = "alphred"  # the distribution whose entry points are the built-in providers
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
    ) -> None:
        self._loaders: dict[str, Callable[[], ProviderDescriptor]] = dict(loaders or {})
        self._descriptors: dict[str, ProviderDescriptor] = {}
        for name, given in providers.items():
            self._descriptors[name] = given if isinstance(given, ProviderDescriptor) else described(name, given)
            self._loaders.pop(name, None)
        self._instances: dict[str, Provider] = {}
        self._hint = hint  # added to UNKNOWN_AGENT_PROVIDER (Alphred's own providers missing)

    @property
    def names(self) -> tuple[str, ...]:
        """Every registered provider name, sorted."""
        return tuple(sorted({*self._descriptors, *self._loaders}))

    def __getitem__(self, name: str) -> ProviderDescriptor:
        found = self._descriptors.get(name)
        if found is None:
            load = self._loaders.get(name)
            if load is None:
                raise KeyError(name)
            found = self._descriptors.setdefault(name, load())  # two threads loading it get one descriptor
        return found

    def __contains__(self, name: object) -> bool:
        return name in self._descriptors or name in self._loaders

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

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
        copy = ProviderRegistry({**self._descriptors, name: provider}, loaders=self._loaders, hint=self._hint)
        return copy


def default_registry(*, builtin_only: bool = False) -> ProviderRegistry:
    """Every installed ``alphred.providers`` entry point (Alphred's own win a name), none loaded yet.

    ``builtin_only``: Alphred's own providers alone (what ``schemas/workflow.schema.json`` is made from).
    """
    chosen: dict[str, EntryPoint] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if builtin_only and not _is_builtin(point):
            continue
        if point.name not in chosen or not _is_builtin(chosen[point.name]):
            chosen[point.name] = point
    loaders = {name: _loader(point) for name, point in chosen.items()}
    builtins = any(_is_builtin(point) for point in chosen.values())
    return ProviderRegistry({}, loaders=loaders, hint=None if builtins else STALE_INSTALL)


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


def _is_builtin(point: EntryPoint) -> bool:
    dist = getattr(point, "dist", None)
    return dist is not None and str(dist.name).lower() == DISTRIBUTION
