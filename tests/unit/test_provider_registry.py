"""The provider registry: Alphred's providers come from entry points like any plugin's, are described before
they are loaded, and a registry is injectable (descriptors or plain factories)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from alphred.errors import UnknownProviderError
from alphred.providers import (
    Capabilities,
    ProviderDescriptor,
    ProviderOptions,
    ProviderRegistry,
    Readiness,
    default_registry,
)
from alphred.providers.base import ProviderEvent, result_event
from alphred.providers.registry import BUILTIN, STALE_INSTALL
from alphred.providers.scripted import SCRIPTED, ScriptedProvider
from alphred.workflow.provider_keys import declares

ROOT = Path(__file__).resolve().parents[2]


class FakeProvider:
    name = "fake"
    made = 0

    def __init__(self) -> None:
        FakeProvider.made += 1

    def check(self) -> Readiness:
        return Readiness(True, "fake")

    async def run(self, prompt: str, options: ProviderOptions) -> AsyncIterator[ProviderEvent]:
        yield result_event(prompt)


def test_alphreds_providers_are_entry_points_and_describe_themselves() -> None:
    registry = default_registry(builtin_only=True)
    assert registry.names == ("claude", "codex", "openai", "scripted")
    assert registry["scripted"] is SCRIPTED and registry.resolve("scripted").name == "scripted"
    assert {name: [k.name for k in registry[name].phase_keys] for name in registry.names} == {
        "claude": ["permission_mode", "max_turns", "allowed_tools", "disallowed_tools", "system_prompt"],
        "codex": ["sandbox"],
        "openai": ["base_url", "api", "api_key_env", "max_turns", "system_prompt", "price_per_mtok"],
        "scripted": ["script", "script_by"],
    }
    # SPEC §14: what each enforces (docs/providers.md, "Tools and MCP servers")
    every = {"allowed_tools": True, "disallowed_tools": True, "sandbox": True, "mcp": True}
    assert registry["claude"].capabilities == Capabilities(**every, tool_patterns=True)
    assert registry["scripted"].capabilities == Capabilities(**every, tool_patterns=True)  # it records them
    codex = registry["codex"].capabilities
    assert (codex.allowed_tools, codex.disallowed_tools, codex.mcp_tool_filters, codex.mcp, codex.sandbox) == (
        False,
        False,
        True,
        True,
        True,
    )
    assert "shell, apply_patch" in codex.tools_note
    openai = registry["openai"].capabilities  # its shell runs in Alphred's sandbox; it is the MCP client
    assert openai == Capabilities(**every, tool_names=("shell", "read_file", "write_file", "edit_file", "list_files"))


def test_the_builtin_table_is_alphreds_own_entry_points() -> None:
    from importlib.metadata import distribution

    points = {p.name: p.value for p in distribution("alphred").entry_points if p.group == "alphred.providers"}
    assert points == BUILTIN


def test_a_workflow_of_builtin_providers_lists_no_entry_point_but_a_plugin_name_does() -> None:
    code = (
        "import sys\n"
        "from alphred.providers import default_registry\n"
        "registry = default_registry()\n"
        "assert registry['scripted'].name == 'scripted' and 'claude' in registry\n"
        "assert 'importlib.metadata' not in sys.modules, 'listed the entry points for a built-in name'\n"
        "assert 'no-such-plugin' not in registry and 'importlib.metadata' in sys.modules\n"
        "assert registry.names[:4] == ('claude', 'codex', 'openai', 'scripted')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_a_default_key_of_a_builtin_provider_lists_no_entry_point() -> None:
    """``defaults: {permission_mode: plan}`` (the parallel-review template) is a claude key: found without
    listing the installed entry points (a search over every provider used to list them first)."""
    listed: list[int] = []

    def discover() -> dict[str, Any]:
        listed.append(1)
        return {"aaa-plugin": lambda: ProviderDescriptor("aaa-plugin", FakeProvider)}

    registry = ProviderRegistry({"scripted": ScriptedProvider, "fake": FakeProvider}, discover=discover)
    assert declares(registry, "options") and not listed
    assert any(name == "fake" for name in registry) and not listed  # the search stopped at a known name
    assert [*iter(registry)] == ["fake", "scripted", "aaa-plugin"] and listed == [1]  # known first, then listed
    assert registry.names == ("aaa-plugin", "fake", "scripted") and list(registry) == ["fake", "scripted", "aaa-plugin"]
    code = (
        "import sys\n"
        "from alphred.cli import main\n"
        "try:\n    main()\nexcept SystemExit as exit:\n    assert exit.code in (0, None), exit.code\n"
        "assert 'importlib.metadata' not in sys.modules, 'listed the entry points'\n"
    )
    template = ROOT / "alphred" / "templates" / "parallel-review.yaml"
    done = subprocess.run([sys.executable, "-c", code, "validate", str(template)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_describing_loads_no_adapter() -> None:
    code = (
        "import sys\n"
        "from alphred.providers import default_registry\n"
        "registry = default_registry()\n"
        "[registry[name].phase_keys for name in registry.names]\n"
        "adapters = ('alphred.providers.claude', 'alphred.providers.codex', 'alphred.providers.openai', 'asyncio')\n"
        "assert not [m for m in adapters if m in sys.modules], [m for m in adapters if m in sys.modules]\n"
        "assert registry.resolve('claude').name == 'claude' and 'alphred.providers.claude' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_an_injected_registry_takes_descriptors_or_factories() -> None:
    FakeProvider.made = 0
    described = ProviderDescriptor("fake", FakeProvider, summary="a fake")
    registry = ProviderRegistry({"zeta": FakeProvider, "fake": described, "scripted": ScriptedProvider})
    assert registry.names == ("fake", "scripted", "zeta") and list(registry) == list(registry.names)
    assert registry["fake"] is described and registry["zeta"].summary.endswith("options only")
    assert registry.resolve("zeta") is registry.resolve("zeta") and FakeProvider.made == 1
    assert [k.name for k in registry["scripted"].phase_keys] == ["options"]  # a class does not describe itself
    assert "nope" not in registry and registry.get("nope") is None
    rebound = registry.with_provider("zeta", SCRIPTED)
    assert rebound["zeta"] is SCRIPTED and registry["zeta"] is not SCRIPTED


def test_an_unknown_provider_lists_the_available_ones_sorted() -> None:
    registry = ProviderRegistry({"zeta": FakeProvider, "alpha": FakeProvider})
    with pytest.raises(UnknownProviderError) as caught:
        registry.resolve("nosuch")
    assert (caught.value.code, caught.value.exit_code) == ("UNKNOWN_AGENT_PROVIDER", 2)
    assert str(caught.value) == "unknown provider 'nosuch'; available providers: alpha, zeta"
    stale = ProviderRegistry({}, hint=STALE_INSTALL)
    with pytest.raises(
        UnknownProviderError, match=r"available providers: none \(Alphred's own providers are not registered"
    ):
        stale.descriptor("scripted")


def test_something_that_is_no_provider_is_refused_when_resolved() -> None:
    registry = ProviderRegistry({"odd": lambda: 42})
    assert registry["odd"].phase_keys[0].name == "options"  # describing it does not call it
    with pytest.raises(UnknownProviderError, match="odd \\(entry point does not give a Provider\\)"):
        registry.resolve("odd")
