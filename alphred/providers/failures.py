"""Failure classification shared by the agent adapters: text or HTTP status -> kind, retryable flag, code.

Codes are constants of ``alphred.errors``: per agent CLI and failure kind (``CLAUDE_AUTH``,
``CODEX_RATE_LIMIT``..., looked up in ``PROVIDER_KIND_CODES``) unless an adapter names a more precise one
(``CLAUDE_NOT_FOUND``, ``CODEX_CRASH``...); the same failure always gets the same code.
"""

from __future__ import annotations

import re

from alphred.errors import PROVIDER_KIND_CODES, ProviderError

KINDS = ("auth", "rate_limit", "timeout", "transport", "invalid_request", "internal")
NOT_RETRYABLE = frozenset({"auth", "invalid_request"})

# First match wins; checked against the lower-cased message.
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "auth",
        re.compile(
            r"not logged in|/login|\b401\b|\b403\b|unauthori[sz]ed|forbidden|authentication|invalid api key"
            r"|invalid x-api-key|api key|credential|oauth token|token (?:has )?expired|permission denied for"
        ),
    ),
    ("rate_limit", re.compile(r"\b429\b|rate.?limit|too many requests|quota|usage limit|overloaded|\b529\b")),
    ("timeout", re.compile(r"timed? ?out|timeout|deadline exceeded")),
    (
        "transport",
        re.compile(
            r"connection|disconnected|network|dns|name does not resolve|error sending request|socket|broken pipe"
            r"|\b50[0234]\b|internal server error|bad gateway|service unavailable|high demand|temporar"
        ),
    ),
    (
        "invalid_request",
        re.compile(
            r"\b400\b|\b404\b|\b413\b|\b422\b|invalid_request|invalid request|bad request|not found|unknown model"
            r"|model .*(?:not exist|not supported|unsupported)|context.{0,20}(?:length|window)|prompt is too long"
        ),
    ),
)

_STATUS_KINDS = {401: "auth", 403: "auth", 429: "rate_limit", 529: "rate_limit", 408: "timeout", 504: "timeout"}


def classify_text(message: str) -> str:
    """The failure kind a provider's error message describes (``internal`` when nothing matches)."""
    lowered = message.lower()
    for kind, pattern in _PATTERNS:
        if pattern.search(lowered):
            return kind
    return "internal"


def classify_status(status: int) -> str:
    """The failure kind of an HTTP status reported by a provider."""
    if status in _STATUS_KINDS:
        return _STATUS_KINDS[status]
    if status >= 500:
        return "transport"
    if 400 <= status < 500:
        return "invalid_request"
    return "internal"


def provider_error(
    prefix: str, message: str, kind: str | None = None, *, code: str | None = None, retry_after: float | None = None
) -> ProviderError:
    """A ProviderError with ``kind`` (classified from ``message`` when None) and a deterministic code.

    ``prefix`` names the agent CLI (``CLAUDE``, ``CODEX``): a key of ``PROVIDER_KIND_CODES``.
    """
    resolved = kind if kind in KINDS else classify_text(message)
    return ProviderError(
        message,
        kind=resolved,
        retryable=resolved not in NOT_RETRYABLE,
        code=code or PROVIDER_KIND_CODES[prefix][resolved],
        retry_after=retry_after,
    )


def tail(lines: list[str], limit: int = 2000) -> str:
    """The last ``limit`` characters of ``lines`` joined, for error messages."""
    text = "\n".join(line.rstrip("\n") for line in lines).strip()
    return text[-limit:]
