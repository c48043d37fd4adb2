"""How Claude Code's SDK messages become provider events, and how a failed session is classified."""

from __future__ import annotations

import json
import time
from typing import Any

from alphred.errors import AttemptInterruptedError, ProviderError
from alphred.providers.base import EventType, ProviderEvent, result_event
from alphred.providers.classification import classify_status, classify_text, provider_error, usage_limit
from alphred.providers.claude_errors import (
    CLAUDE_AUTH,
    CLAUDE_BILLING,
    CLAUDE_BUDGET,
    CLAUDE_INTERRUPTED,
    CLAUDE_INVALID_REQUEST,
    CLAUDE_MAX_TURNS,
    CLAUDE_NO_DECISION,
    CLAUDE_RATE_LIMIT,
    CLAUDE_TRANSPORT,
    CLAUDE_USAGE_LIMIT,
    KIND_CODES,
)
from alphred.providers.contract import cap_text, decision_and_report, token_count

LOGIN_FIX = (
    "set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`), or log in once with `claude /login`"
)

INTERRUPTED_REASONS = ("aborted_streaming", "aborted_tools")
ASSISTANT_ERRORS = {
    "authentication_failed": ("auth", CLAUDE_AUTH),
    "billing_error": ("auth", CLAUDE_BILLING),
    "rate_limit": ("rate_limit", CLAUDE_RATE_LIMIT),
    "invalid_request": ("invalid_request", CLAUDE_INVALID_REQUEST),
    "server_error": ("transport", CLAUDE_TRANSPORT),
}
RESULT_SUBTYPES = {
    "error_max_turns": ("internal", CLAUDE_MAX_TURNS),
    "error_max_budget_usd": ("invalid_request", CLAUDE_BUDGET),
    "error_max_structured_output_retries": ("internal", CLAUDE_NO_DECISION),
}


class ClaudeEventMapper:
    """Turns claude-agent-sdk messages into provider events; remembers the result or the failure."""

    def __init__(self, sdk: Any, permission_mode: str, wants_decision: bool) -> None:
        self.sdk = sdk
        self.permission_mode = permission_mode
        self.wants_decision = wants_decision
        self.result: ProviderEvent | None = None
        self.failure: ProviderError | None = None
        self.interrupted = False
        self.api_error: str | None = None
        self.resets_at: float | None = None  # a rejected rate-limit window's reset (SPEC §15)
        self._tokens_by_message: dict[str, int] = {}

    def events(self, message: Any) -> list[ProviderEvent]:
        """The events one SDK message stands for (possibly none)."""
        sdk = self.sdk
        if isinstance(message, sdk.ResultMessage):
            return self._result(message)
        if isinstance(message, sdk.AssistantMessage):
            return self._assistant(message)
        if isinstance(message, sdk.UserMessage):
            return [e for block in _blocks(message.content) if (e := self._block(block, {})) is not None]
        if isinstance(message, sdk.SystemMessage):
            if message.subtype == "api_retry":
                return [self._api_retry(message.data if isinstance(message.data, dict) else {})]
            return [_system(message)]
        if isinstance(message, sdk_types(sdk, "RateLimitEvent")):
            info = message.rate_limit_info
            if info.status == "rejected":
                reset = info.overage_resets_at if info.rate_limit_type == "overage" else info.resets_at
                self.resets_at = float(reset) if isinstance(reset, int | float) and reset > 0 else None
            meta = {"rate_limit": {"status": info.status, "resets_at": info.resets_at, "type": info.rate_limit_type}}
            return [ProviderEvent(EventType.SYSTEM, f"rate limit status: {info.status}", metadata=meta)]
        return []

    def _api_retry(self, data: dict[str, Any]) -> ProviderEvent:
        """Claude Code retrying a failed API call; an auth failure is final, so fail now instead of waiting."""
        error, status = str(data.get("error") or "unknown"), data.get("error_status")
        text = f"API call failed ({error}, HTTP {status}): retry {data.get('attempt')}/{data.get('max_retries')}"
        if error in ("authentication_failed", "billing_error") or status in (401, 403):
            code = CLAUDE_BILLING if error == "billing_error" else CLAUDE_AUTH
            self.failure = provider_error(KIND_CODES, f"claude failed: {text} (fix: {LOGIN_FIX})", "auth", code=code)
        meta = {"subtype": "api_retry", "error": error, "error_status": status, "attempt": data.get("attempt")}
        return ProviderEvent(EventType.SYSTEM, text, metadata=meta)

    def _assistant(self, message: Any) -> list[ProviderEvent]:
        base: dict[str, Any] = {"model": message.model}
        if message.parent_tool_use_id:
            base["parent_tool_use_id"] = message.parent_tool_use_id
        events = [e for block in message.content if (e := self._block(block, base)) is not None]
        if getattr(message, "error", None):
            self.api_error = str(message.error)
        usage = getattr(message, "usage", None)
        if isinstance(usage, dict) and usage:
            key = getattr(message, "message_id", None) or f"anonymous-{len(self._tokens_by_message)}"
            self._tokens_by_message[key] = token_count(usage.get("input_tokens")) + token_count(
                usage.get("output_tokens")
            )
            total = sum(self._tokens_by_message.values())
            meta = {"total_tokens": total, "message_usage": dict(usage)}  # a running total: never counted twice
            events.append(ProviderEvent(EventType.USAGE, f"{total} tokens so far", metadata=meta))
        return events

    def _block(self, block: Any, base: dict[str, Any]) -> ProviderEvent | None:
        sdk = self.sdk
        if isinstance(block, sdk.TextBlock):
            return ProviderEvent(EventType.ASSISTANT, cap_text(block.text), metadata=base)
        if isinstance(block, sdk.ThinkingBlock):
            return ProviderEvent(EventType.ASSISTANT, cap_text(block.thinking), metadata={**base, "thinking": True})
        if isinstance(block, sdk_types(sdk, "ToolUseBlock", "ServerToolUseBlock")):
            meta = {**base, "tool": block.name, "id": block.id, "input": block.input}
            return ProviderEvent(EventType.TOOL_USE, cap_text(f"{block.name} {_json(block.input)}"), metadata=meta)
        if isinstance(block, sdk_types(sdk, "ToolResultBlock", "ServerToolResultBlock")):
            meta = {**base, "tool_use_id": block.tool_use_id, "is_error": bool(getattr(block, "is_error", False))}
            return ProviderEvent(EventType.TOOL_RESULT, cap_text(_text(block.content)), metadata=meta)
        return None

    def _result(self, message: Any) -> list[ProviderEvent]:
        usage = dict(message.usage or {})
        cost = message.total_cost_usd
        events: list[ProviderEvent] = []
        denials = list(getattr(message, "permission_denials", None) or [])
        if denials:
            text = f"{len(denials)} tool use(s) denied by permission mode {self.permission_mode}"
            events.append(ProviderEvent(EventType.SYSTEM, text, metadata={"permission_denials": denials[:20]}))
        if message.is_error or message.subtype != "success":
            events.append(
                ProviderEvent(
                    EventType.USAGE, "usage of the failed session", metadata={"usage": usage, "total_cost_usd": cost}
                )
            )
            self.failure = self._failure(message)
            return events
        decision, report = (
            decision_and_report(getattr(message, "structured_output", None)) if self.wants_decision else (None, None)
        )
        if self.wants_decision and report is None:
            text = "claude finished without a structured output: no routing decision"
            events.append(ProviderEvent(EventType.SYSTEM, text, metadata={"structured_output": None}))
        summary = str(report.get("summary") or "") if report else ""
        self.result = result_event(
            message.result or summary,
            decision,
            report,
            usage=usage,
            total_cost_usd=cost,
            num_turns=message.num_turns,
            session_id=message.session_id,
            duration_ms=message.duration_ms,
            terminal_reason=getattr(message, "terminal_reason", None),
            permission_denials=len(denials),
        )
        events.append(self.result)
        return events

    def _failure(self, message: Any) -> ProviderError:
        errors = getattr(message, "errors", None) or []
        text = (message.result or "; ".join(str(e) for e in errors) or message.subtype or "error").strip()
        terminal, status = getattr(message, "terminal_reason", None), getattr(message, "api_error_status", None)
        if terminal in INTERRUPTED_REASONS or self.interrupted:
            reason = terminal or "interrupt"
            return AttemptInterruptedError(f"claude was interrupted ({reason})", code=CLAUDE_INTERRUPTED)
        code: str | None = None
        if self.api_error in ASSISTANT_ERRORS:
            kind, code = ASSISTANT_ERRORS[self.api_error]
        elif isinstance(status, int) and status:
            kind = classify_status(status)
        elif message.subtype in RESULT_SUBTYPES:
            kind, code = RESULT_SUBTYPES[message.subtype]
        else:
            kind = classify_text(text)
        fix = f" (fix: {LOGIN_FIX})" if kind == "auth" else ""
        subtype = f" [{message.subtype}]" if message.subtype != "success" else ""
        error = provider_error(KIND_CODES, f"claude failed{subtype}: {text}{fix}", kind, code=code)
        return usage_limit(error, self.resets_at, time.time(), CLAUDE_USAGE_LIMIT, text=text)


def sdk_types(sdk: Any, *names: str) -> Any:
    """The SDK classes called ``names`` that this SDK version has (older ones lack some)."""
    return tuple(t for name in names if isinstance(t := getattr(sdk, name, None), type))


def _system(message: Any) -> ProviderEvent:
    data = message.data if isinstance(message.data, dict) else {}
    if message.subtype == "init":
        keys = ("session_id", "model", "cwd", "permissionMode", "claude_code_version", "apiKeySource")
        meta = {"subtype": "init", **{k: data[k] for k in keys if k in data}, "tools": len(data.get("tools") or [])}
        text = (
            f"claude session started: model {data.get('model')}, permission mode {data.get('permissionMode')}, "
            f"cwd {data.get('cwd')}"
        )
        return ProviderEvent(EventType.SYSTEM, text, metadata=meta)
    return ProviderEvent(EventType.SYSTEM, str(message.subtype), metadata={"subtype": message.subtype})


def _blocks(content: Any) -> list[Any]:
    return list(content) if isinstance(content, list) else []


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            str(p.get("text", "")) if isinstance(p, dict) and p.get("type") == "text" else _json(p) for p in content
        ]
        return "\n".join(parts)
    return _json(content)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
