"""How the ``openai`` provider fails: its ``OPENAI_*`` codes and the mapping from the SDK's exception classes.

Classification goes by exception class and HTTP status, never by message text:

=================================  ================  =========  =====================================
SDK exception                      kind              retryable  code
=================================  ================  =========  =====================================
AuthenticationError (401)          auth              no         OPENAI_AUTH
PermissionDeniedError (403)        auth              no         OPENAI_AUTH
RateLimitError (429)               rate_limit        yes        OPENAI_RATE_LIMIT (``retry-after`` kept)
  ... with ``retry-after`` > 60 s  usage_limit       no (waits) OPENAI_USAGE_LIMIT (SPEC §15)
APITimeoutError                    timeout           yes        OPENAI_TIMEOUT
APIConnectionError                 transport         yes        OPENAI_CONNECTION
BadRequestError (400), 404, 422    invalid_request   no         OPENAI_INVALID_REQUEST
other 4xx (408 is a timeout)       invalid_request   no         OPENAI_INVALID_REQUEST
InternalServerError (5xx)          internal          yes        OPENAI_SERVER_ERROR
anything else from the SDK         internal          yes        OPENAI_INTERNAL
=================================  ================  =========  =====================================
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from alphred.errors import FAILURE_KINDS, USAGE_LIMIT_SECONDS, ProviderError, UsageLimitError

OPENAI_AUTH = "OPENAI_AUTH"
OPENAI_RATE_LIMIT = "OPENAI_RATE_LIMIT"
OPENAI_TIMEOUT = "OPENAI_TIMEOUT"
OPENAI_CONNECTION = "OPENAI_CONNECTION"
OPENAI_INVALID_REQUEST = "OPENAI_INVALID_REQUEST"
OPENAI_SERVER_ERROR = "OPENAI_SERVER_ERROR"
OPENAI_INTERNAL = "OPENAI_INTERNAL"
OPENAI_RESPONSE_FAILED = "OPENAI_RESPONSE_FAILED"
OPENAI_MAX_TURNS = "OPENAI_MAX_TURNS"
OPENAI_INTERRUPTED = "OPENAI_INTERRUPTED"
OPENAI_NO_KEY = "OPENAI_NO_KEY"
OPENAI_SDK_MISSING = "OPENAI_SDK_MISSING"
OPENAI_BAD_SETTINGS = "OPENAI_BAD_SETTINGS"
OPENAI_USAGE_LIMIT = "OPENAI_USAGE_LIMIT"  # HTTP 429 with retry-after over 60 s: the run waits (SPEC §15)
MCP_SERVER_FAILED = "MCP_SERVER_FAILED"  # an MCP server of the phase did not start (providers/mcp_client.py)
MCP_MISSING = "MCP_MISSING"  # the phase has MCP servers and the mcp package is not installed

CODES = (
    OPENAI_AUTH,
    OPENAI_RATE_LIMIT,
    OPENAI_TIMEOUT,
    OPENAI_CONNECTION,
    OPENAI_INVALID_REQUEST,
    OPENAI_SERVER_ERROR,
    OPENAI_INTERNAL,
    OPENAI_RESPONSE_FAILED,
    OPENAI_MAX_TURNS,
    OPENAI_INTERRUPTED,
    OPENAI_NO_KEY,
    OPENAI_SDK_MISSING,
    OPENAI_BAD_SETTINGS,
    OPENAI_USAGE_LIMIT,
    MCP_SERVER_FAILED,
    MCP_MISSING,
)
"""Every code the ``openai`` provider's failures carry (its descriptor declares them)."""

MAX_RETRY_AFTER = 3600.0
MAX_USAGE_WAIT = 7 * 86400.0  # the longest reset a 429 may announce; limits.max_wait decides what is waited

# `error.code` of a failed Responses API response (streamed ``response.failed``/``error``) -> kind.
_RESPONSE_ERROR_KINDS = {
    "rate_limit_exceeded": "rate_limit",
    "server_error": "internal",
    "vector_store_timeout": "timeout",
    "invalid_prompt": "invalid_request",
    "context_length_exceeded": "invalid_request",
}


def failure(message: str, kind: str, code: str, *, retry_after: float | None = None) -> ProviderError:
    """A ProviderError of the openai provider: the class of ``kind`` (which says whether it is retried)."""
    return FAILURE_KINDS[kind](message, code=code, retry_after=retry_after)


def classify_exception(sdk: Any, exc: BaseException, *, key_env: str | None, base_url: str) -> ProviderError:
    """Map an exception the ``openai`` package raised onto the failure taxonomy with an ``OPENAI_*`` code."""
    where = f" ({base_url})"
    if isinstance(exc, sdk.APIStatusError):
        status = int(exc.status_code)
        detail = f"HTTP {status}: {_message(exc)}{where}"
        if isinstance(exc, sdk.AuthenticationError | sdk.PermissionDeniedError) or status in (401, 403):
            fix = f"check the key in {key_env}" if key_env else "this server wants a key: set api_key_env"
            return failure(f"{detail} — {fix}", "auth", OPENAI_AUTH)
        if isinstance(exc, sdk.RateLimitError) or status == 429:
            after = retry_after_seconds(exc.response.headers, cap=MAX_USAGE_WAIT)
            if after is not None and after > USAGE_LIMIT_SECONDS:  # a usage limit: the run waits (SPEC §15)
                message = f"usage limit, {detail} (retry-after {after:g}s)"
                return UsageLimitError(message, code=OPENAI_USAGE_LIMIT, retry_after=after)
            return failure(f"rate limited, {detail}", "rate_limit", OPENAI_RATE_LIMIT, retry_after=after)
        if status == 408:
            return failure(detail, "timeout", OPENAI_TIMEOUT)
        if status >= 500:
            return failure(f"server error, {detail}", "internal", OPENAI_SERVER_ERROR)
        return failure(f"request refused, {detail}", "invalid_request", OPENAI_INVALID_REQUEST)
    if isinstance(exc, sdk.APITimeoutError):
        return failure(f"the model server did not answer in time{where}", "timeout", OPENAI_TIMEOUT)
    if isinstance(exc, sdk.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        reason = f": {type(cause).__name__}: {cause}" if cause is not None else ""
        return failure(f"cannot reach the model server{where}{reason}", "transport", OPENAI_CONNECTION)
    return failure(f"{type(exc).__name__}: {exc}{where}", "internal", OPENAI_INTERNAL)


def response_failure(error: Mapping[str, Any] | None, status: str) -> ProviderError:
    """A Responses API response that ended ``failed`` (its ``error.code`` decides the kind)."""
    code = str((error or {}).get("code") or "")
    message = str((error or {}).get("message") or f"the response ended {status}")
    kind = _RESPONSE_ERROR_KINDS.get(code, "internal")
    return failure(f"the model server failed the response: {message} ({code or status})", kind, OPENAI_RESPONSE_FAILED)


def retry_after_seconds(
    headers: Mapping[str, str], now: float | None = None, cap: float = MAX_RETRY_AFTER
) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date), at most ``cap``;
    None if absent."""
    milliseconds = headers.get("retry-after-ms")
    if milliseconds is not None:
        seconds = _non_negative(milliseconds)
        if seconds is not None:
            return min(seconds / 1000.0, cap)
    value = headers.get("retry-after")
    if value is None:
        return None
    seconds = _non_negative(value)
    if seconds is None:
        import email.utils  # here, not at the top: ~10 ms of start-up for every command loading the descriptor

        try:
            moment = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        seconds = max(0.0, moment.timestamp() - (time.time() if now is None else now))
    return min(seconds, cap)


def _non_negative(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value >= 0 and value == value and value != float("inf") else None


def _message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error") if isinstance(body.get("error"), dict) else body
        text = inner.get("message") if isinstance(inner, dict) else None
        if isinstance(text, str) and text:
            return text[:2000]
    return str(getattr(exc, "message", exc))[:2000]
