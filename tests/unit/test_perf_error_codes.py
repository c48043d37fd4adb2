"""Provider failure codes are constants of the provider that raises them, looked up, never built from strings
at run time; each provider's descriptor declares exactly its codes, and docs/providers.md lists them."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

from alphred.errors import FAILURE_KINDS, KINDS
from alphred.providers import claude_errors, codex_errors, default_registry, openai_errors
from alphred.providers.classification import provider_error

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"\b(?:CLAUDE|CODEX|OPENAI|MCP)_[A-Z_]+\b")
SETTINGS = {  # variables and constants that are not codes
    "CLAUDE_CLI",
    "CLAUDE_CONFIG_DIR",
    "CODEX_BIN",
    "CODEX_HOME",
    "CODEX_API_KEY",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_APIS",
}
MODULES: dict[str, ModuleType] = {"claude": claude_errors, "codex": codex_errors, "openai": openai_errors}
KIND_CODES = {"CLAUDE": claude_errors.KIND_CODES, "CODEX": codex_errors.KIND_CODES}


def is_code(name: str) -> bool:
    return name not in SETTINGS and not name.startswith("CLAUDE_CODE_") and name != "MCP_PREFIX"  # not codes


def code_constants(module: ModuleType) -> dict[str, str]:
    return {name: value for name, value in vars(module).items() if CODE.fullmatch(name) and isinstance(value, str)}


@pytest.mark.parametrize("prefix", sorted(KIND_CODES))
@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_has_its_constant_and_the_codes_did_not_change(prefix: str, kind: str) -> None:
    code = KIND_CODES[prefix][kind]
    assert code == f"{prefix}_{kind.upper()}"  # the documented code
    assert code_constants(MODULES[prefix.lower()])[code] == code
    failure = provider_error(KIND_CODES[prefix], "something broke", kind)
    assert (failure.code, failure.kind, type(failure)) == (code, kind, FAILURE_KINDS[kind])
    assert failure.retryable is (kind not in ("auth", "invalid_request"))


def test_a_classified_message_gets_the_constant_of_its_kind() -> None:
    assert provider_error(KIND_CODES["CLAUDE"], "HTTP 429 Too Many Requests").code == claude_errors.CLAUDE_RATE_LIMIT
    assert provider_error(KIND_CODES["CODEX"], "connection reset by peer").code == codex_errors.CODEX_TRANSPORT
    crashed = provider_error(KIND_CODES["CODEX"], "boom", code=codex_errors.CODEX_CRASH)
    assert crashed.code == codex_errors.CODEX_CRASH


@pytest.mark.parametrize("name", sorted(MODULES))
def test_each_descriptor_declares_exactly_the_codes_its_provider_defines(name: str) -> None:
    declared = default_registry()[name].error_codes
    assert len(set(declared)) == len(declared)
    assert set(declared) == set(code_constants(MODULES[name]).values())


def test_every_code_the_adapters_name_is_a_constant_and_documented() -> None:
    constants: dict[str, str] = {}
    for module in MODULES.values():
        constants |= code_constants(module)
    named = set()
    for source in (ROOT / "alphred" / "providers").glob("*.py"):
        named |= {m for m in CODE.findall(source.read_text(encoding="utf-8")) if is_code(m)}
    assert named <= set(constants), sorted(named - set(constants))
    docs = (ROOT / "docs" / "providers.md").read_text(encoding="utf-8")
    declared = {code for provider in default_registry().values() for code in provider.error_codes}
    undocumented = [code for code in sorted(set(constants) | declared) if not re.search(rf"\b{code}\b", docs)]
    assert undocumented == []
