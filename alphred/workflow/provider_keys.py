"""What validating a workflow needs to know about a provider: its phase keys, their JSON Schema, its checks.

``alphred.workflow`` is pure and knows no provider. The loader is given a catalogue, provider name ->
``ProviderKeys`` (the CLI passes the provider registry, whose descriptors fit this protocol): an agent
phase may hold the common agent keys plus its provider's ``phase_keys``; each key's reader turns the YAML
value into the setting the provider gets (``ProviderOptions.settings``), reporting located errors; then
the provider's ``validate_phase`` hook may check the phase as a whole. A provider the catalogue does not
know takes one free-form ``options:`` mapping (``FREE_FORM``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import yaml

from alphred.lazy import deferred_dataclass
from alphred.workflow import fields as f
from alphred.workflow.yaml_source import Collector

JsonSchema = Mapping[str, Any]


@deferred_dataclass(frozen=True)
class KeyValue:
    """One provider key of a phase, as its reader gets it."""

    name: str  # the key
    node: yaml.Node  # its value (report problems at it)
    phase: str  # the phase that holds it
    out: Collector


Reader = Callable[[KeyValue], Any]


@deferred_dataclass(frozen=True)
class PhaseKey:
    """A key an agent phase of one provider may hold: its JSON Schema fragment and the reader of its value."""

    name: str
    schema: JsonSchema
    read: Reader


@deferred_dataclass(frozen=True)
class ProviderPhase:
    """An agent phase as its provider's ``validate_phase`` hook sees it, after every key was read."""

    key: str  # the phase key
    node: yaml.Node  # the phase key's node: problems of the phase as a whole go there
    fields: Mapping[str, yaml.Node]  # every key the phase holds, its defaults merged in
    settings: Mapping[str, Any]  # what the provider's keys read to
    decisions: tuple[str, ...]
    out: Collector


class ProviderKeys(Protocol):
    """What the loader needs to know about one provider (a provider descriptor is one)."""

    @property
    def phase_keys(self) -> Sequence[PhaseKey]:
        """The provider-specific keys of its agent phases, in the order they are read."""
        ...

    @property
    def validate_phase(self) -> Callable[[ProviderPhase], None] | None:
        """Checks of a phase as a whole (a required key, a combination), or None."""
        ...


ProviderCatalogue = Mapping[str, ProviderKeys]
"""Provider name -> what the loader needs to know about it; the provider registry is one."""


def text(value: KeyValue) -> str | None:
    """A string (numbers are accepted and turned into text)."""
    return f.read_str(value.node, value.name, value.out)


def integer(minimum: int) -> Reader:
    """A reader of an integer of at least ``minimum``."""

    def read(value: KeyValue) -> int | None:
        return f.read_int(value.node, value.name, value.out, minimum)

    return read


def text_list(value: KeyValue) -> list[str]:
    """A list of strings (the ones that are strings, after reporting the others)."""
    items = f.read_str_list(value.node, value.name, value.out)
    return [item for item, _ in items or []]


def mapping(value: KeyValue) -> Any:
    """Any mapping, as plain data."""
    if not isinstance(value.node, yaml.MappingNode):
        value.out.error(value.node, f"'{value.name}' must be a mapping")
        return None
    return f.plain_data(value.node)


OPTIONS_KEY = PhaseKey("options", {"type": "object"}, mapping)


@deferred_dataclass(frozen=True)
class FreeFormKeys:
    """A provider the catalogue does not describe: one free-form ``options:`` mapping."""

    phase_keys: Sequence[PhaseKey] = (OPTIONS_KEY,)
    validate_phase: Callable[[ProviderPhase], None] | None = None


FREE_FORM = FreeFormKeys()


def keys_of(providers: ProviderCatalogue, name: str | None) -> ProviderKeys:
    """What the catalogue says about provider ``name`` (``FREE_FORM`` for an unknown one, or none)."""
    found = providers.get(name) if name is not None else None
    return found if found is not None else FREE_FORM


def declared_keys(providers: ProviderCatalogue) -> tuple[str, ...]:
    """Every provider-specific key of every provider (and ``options``), sorted: what ``defaults`` may set."""
    names = {key.name for keys in providers.values() for key in keys.phase_keys}
    return tuple(sorted(names | {OPTIONS_KEY.name}))


def declares(providers: ProviderCatalogue, key: str) -> bool:
    """Whether some provider declares ``key`` (looks at as few providers as it can)."""
    return key == OPTIONS_KEY.name or any(key in names(keys) for keys in providers.values())


def names(keys: ProviderKeys) -> tuple[str, ...]:
    """The names of a provider's phase keys."""
    return tuple(key.name for key in keys.phase_keys)


def read_settings(
    keys: ProviderKeys,
    phase: str,
    node: yaml.Node,
    fields: Mapping[str, yaml.Node],
    decisions: Iterable[str],
    out: Collector,
    whole: Mapping[str, yaml.Node] | None = None,
) -> dict[str, Any]:
    """Read a phase's provider keys (those present) in declared order, then run the provider's phase check
    (which sees ``whole``, every key of the phase, when given: ``mcp:``, ``tools:``)."""
    settings: dict[str, Any] = {}
    for key in keys.phase_keys:
        if key.name in fields:
            settings[key.name] = key.read(KeyValue(key.name, fields[key.name], phase, out))
    if keys.validate_phase is not None:
        seen = fields if whole is None else whole
        keys.validate_phase(ProviderPhase(phase, node, seen, settings, tuple(decisions), out))
    return settings
