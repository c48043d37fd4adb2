"""Provider failure codes are constants of ``alphred.errors``, looked up, never built from strings at run time."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import alphred.errors as errors
from alphred.errors import PROVIDER_KIND_CODES
from alphred.providers.failures import KINDS, NOT_RETRYABLE, provider_error

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"\b(?:CLAUDE|CODEX)_[A-Z_]+\b")
SETTINGS = {"CLAUDE_CLI", "CLAUDE_CONFIG_DIR", "CODEX_BIN", "CODEX_HOME", "CODEX_API_KEY"}  # variables, not codes


def is_code(name: str) -> bool:
    return name not in SETTINGS and not name.startswith("CLAUDE_CODE_")  # CLAUDE_CODE_*: Claude's variables


def code_constants() -> dict[str, str]:
    return {name: value for name, value in vars(errors).items() if CODE.fullmatch(name) and isinstance(value, str)}


@pytest.mark.parametrize("prefix", sorted(PROVIDER_KIND_CODES))
@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_has_its_constant_and_the_codes_did_not_change(prefix: str, kind: str) -> None:
    code = PROVIDER_KIND_CODES[prefix][kind]
    assert code == f"{prefix}_{kind.upper()}"  # the documented code
    assert code_constants()[code] == code
    failure = provider_error(prefix, "something broke", kind)
    assert (failure.code, failure.kind, failure.retryable) == (code, kind, kind not in NOT_RETRYABLE)


def test_a_classified_message_gets_the_constant_of_its_kind() -> None:
    assert provider_error("CLAUDE", "HTTP 429 Too Many Requests").code == errors.CLAUDE_RATE_LIMIT
    assert provider_error("CODEX", "connection reset by peer").code == errors.CODEX_TRANSPORT
    assert provider_error("CODEX", "boom", code=errors.CODEX_CRASH).code == errors.CODEX_CRASH


def test_every_code_the_adapters_name_is_a_constant_and_documented() -> None:
    constants = code_constants()
    named = set()
    for source in (ROOT / "alphred" / "providers").glob("*.py"):
        named |= {m for m in CODE.findall(source.read_text(encoding="utf-8")) if is_code(m)}
    assert named <= set(constants), sorted(named - set(constants))
    documented = set(CODE.findall((ROOT / "docs" / "providers.md").read_text(encoding="utf-8")))
    assert set(constants) <= documented, sorted(set(constants) - documented)
