"""Failure classification shared by the agent adapters: text or HTTP status -> failure kind -> error class.

Codes are constants of each provider (``claude_errors``, ``codex_errors``): per failure kind (``CLAUDE_AUTH``,
``CODEX_RATE_LIMIT``..., the provider's ``KIND_CODES``) unless an adapter names a more precise one
(``CLAUDE_NOT_FOUND``, ``CODEX_CRASH``...); the same failure always gets the same code. Whether it is
retried is its class's (``alphred.errors.failures``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime

from alphred.errors import FAILURE_KINDS, KINDS, USAGE_LIMIT_SECONDS, ProviderError, RateLimitError, UsageLimitError
from alphred.providers.usage_limits import reset_from_text

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
    kind_codes: Mapping[str, str],
    message: str,
    kind: str | None = None,
    *,
    code: str | None = None,
    retry_after: float | None = None,
) -> ProviderError:
    """The ProviderError subclass of ``kind`` (classified from ``message`` when None) with a deterministic code.

    ``kind_codes`` is the provider's code for each kind (``claude_errors.KIND_CODES``...), used when ``code``
    names no more precise one.
    """
    resolved = kind if kind in KINDS else classify_text(message)
    return FAILURE_KINDS[resolved](message, code=code or kind_codes[resolved], retry_after=retry_after)


def usage_limit(
    error: ProviderError, reset_at: float | None, now: float, code: str, *, text: str | None = None
) -> ProviderError:
    """``error`` (a rate limit) as the usage limit it is when it resets more than ``USAGE_LIMIT_SECONDS`` after
    ``now`` (SPEC §15): the run then waits for ``reset_at``; a shorter limit stays a retried rate limit.
    ``text`` is read for the reset time (``usage_limits.reset_from_text``) when ``reset_at`` is None."""
    if reset_at is None and text is not None:
        reset_at = reset_from_text(text, now)
    if error.kind != RateLimitError.kind or reset_at is None or reset_at - now <= USAGE_LIMIT_SECONDS:
        return error
    return UsageLimitError(f"{error.message} (usage limit: resets {_utc(reset_at)})", code=code, reset_at=reset_at)


def _utc(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def tail(lines: list[str], limit: int = 2000) -> str:
    """The last ``limit`` characters of ``lines`` joined, for error messages."""
    text = "\n".join(line.rstrip("\n") for line in lines).strip()
    return text[-limit:]
