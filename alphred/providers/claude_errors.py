"""The ``claude`` provider's failure codes (``ProviderError.code``; docs/providers.md lists them).

Stable constants: the code of each failure kind (``KIND_CODES``, used by ``classification.provider_error``
when the adapter names no more precise one) and the more precise ones the adapter names.
"""

from __future__ import annotations

CLAUDE_AUTH = "CLAUDE_AUTH"
CLAUDE_RATE_LIMIT = "CLAUDE_RATE_LIMIT"
CLAUDE_TIMEOUT = "CLAUDE_TIMEOUT"
CLAUDE_TRANSPORT = "CLAUDE_TRANSPORT"
CLAUDE_INVALID_REQUEST = "CLAUDE_INVALID_REQUEST"
CLAUDE_INTERNAL = "CLAUDE_INTERNAL"
# ... and the more precise ones:
CLAUDE_USAGE_LIMIT = "CLAUDE_USAGE_LIMIT"  # a usage limit with its reset time: the run waits for it (SPEC §15)
CLAUDE_BILLING = "CLAUDE_BILLING"  # the account cannot pay
CLAUDE_BUDGET = "CLAUDE_BUDGET"  # the run's budget is spent
CLAUDE_MAX_TURNS = "CLAUDE_MAX_TURNS"  # the turn limit was reached
CLAUDE_NO_DECISION = "CLAUDE_NO_DECISION"  # the CLI gave up on the structured output
CLAUDE_NOT_FOUND = "CLAUDE_NOT_FOUND"  # no Claude Code CLI
CLAUDE_ROOT_BYPASS = "CLAUDE_ROOT_BYPASS"  # Claude Code refuses to bypass permissions as root
CLAUDE_BAD_SETTINGS = "CLAUDE_BAD_SETTINGS"  # an unknown permission_mode, a bad max_turns
CLAUDE_SDK_MISSING = "CLAUDE_SDK_MISSING"  # claude-agent-sdk is not installed
CLAUDE_CRASH = "CLAUDE_CRASH"  # the CLI exited non-zero
CLAUDE_BAD_OUTPUT = "CLAUDE_BAD_OUTPUT"  # the CLI printed a line the SDK cannot parse
CLAUDE_CONNECTION = "CLAUDE_CONNECTION"  # the SDK cannot talk to the CLI
CLAUDE_INTERRUPTED = "CLAUDE_INTERRUPTED"  # the attempt was cancelled

KIND_CODES: dict[str, str] = {
    "auth": CLAUDE_AUTH,
    "rate_limit": CLAUDE_RATE_LIMIT,
    "timeout": CLAUDE_TIMEOUT,
    "transport": CLAUDE_TRANSPORT,
    "invalid_request": CLAUDE_INVALID_REQUEST,
    "internal": CLAUDE_INTERNAL,
}
"""The code of each failure kind, when the adapter names no more precise one."""

CODES = (
    *KIND_CODES.values(),
    CLAUDE_USAGE_LIMIT,
    CLAUDE_BILLING,
    CLAUDE_BUDGET,
    CLAUDE_MAX_TURNS,
    CLAUDE_NO_DECISION,
    CLAUDE_NOT_FOUND,
    CLAUDE_ROOT_BYPASS,
    CLAUDE_BAD_SETTINGS,
    CLAUDE_SDK_MISSING,
    CLAUDE_CRASH,
    CLAUDE_BAD_OUTPUT,
    CLAUDE_CONNECTION,
    CLAUDE_INTERRUPTED,
)
"""Every code the ``claude`` provider's failures carry (its descriptor declares them)."""
