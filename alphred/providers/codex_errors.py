"""The ``codex`` provider's failure codes (``ProviderError.code``; docs/providers.md lists them).

Stable constants: the code of each failure kind (``KIND_CODES``, used by ``classification.provider_error``
when the adapter names no more precise one) and the more precise ones the adapter names.
"""

from __future__ import annotations

CODEX_AUTH = "CODEX_AUTH"
CODEX_RATE_LIMIT = "CODEX_RATE_LIMIT"
CODEX_TIMEOUT = "CODEX_TIMEOUT"
CODEX_TRANSPORT = "CODEX_TRANSPORT"
CODEX_INVALID_REQUEST = "CODEX_INVALID_REQUEST"
CODEX_INTERNAL = "CODEX_INTERNAL"
# ... and the more precise ones:
CODEX_USAGE_LIMIT = "CODEX_USAGE_LIMIT"  # a usage limit with its reset time: the run waits for it (SPEC §15)
CODEX_NOT_FOUND = "CODEX_NOT_FOUND"  # no codex binary
CODEX_BAD_SETTINGS = "CODEX_BAD_SETTINGS"  # an unknown sandbox
CODEX_CRASH = "CODEX_CRASH"  # codex exited non-zero
CODEX_INTERRUPTED = "CODEX_INTERRUPTED"  # the attempt was cancelled
CODEX_SANDBOX_BROKEN = "CODEX_SANDBOX_BROKEN"  # codex's own sandbox cannot run its commands (bwrap installed)

KIND_CODES: dict[str, str] = {
    "auth": CODEX_AUTH,
    "rate_limit": CODEX_RATE_LIMIT,
    "timeout": CODEX_TIMEOUT,
    "transport": CODEX_TRANSPORT,
    "invalid_request": CODEX_INVALID_REQUEST,
    "internal": CODEX_INTERNAL,
}
"""The code of each failure kind, when the adapter names no more precise one."""

CODES = (
    *KIND_CODES.values(),
    CODEX_USAGE_LIMIT,
    CODEX_NOT_FOUND,
    CODEX_BAD_SETTINGS,
    CODEX_CRASH,
    CODEX_INTERRUPTED,
    CODEX_SANDBOX_BROKEN,
)
"""Every code the ``codex`` provider's failures carry (its descriptor declares them)."""
