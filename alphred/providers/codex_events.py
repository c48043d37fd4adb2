"""``codex exec --json`` lines as provider events (``CodexEventMapper``), and how the attempt ended: the
terminal ``result``, or the classified ``ProviderError`` (``CODEX_*`` codes, SPEC §15's usage limit)."""

from __future__ import annotations

import json
import time
from typing import Any

from alphred.errors import NO_RESULT, AttemptInterruptedError, InvalidRequestError, ProviderError
from alphred.providers.base import EventType, ProviderEvent, result_event
from alphred.providers.classification import classify_text, provider_error, tail, usage_limit
from alphred.providers.codex_errors import (
    CODEX_CRASH,
    CODEX_INTERRUPTED,
    CODEX_SANDBOX_BROKEN,
    CODEX_USAGE_LIMIT,
    KIND_CODES,
)
from alphred.providers.contract import cap_text, decision_and_report, token_count

BROKEN_SANDBOX = "bwrap: execvp codex-linux-sandbox"
SANDBOX_BROKEN_HINT = (
    "codex's own sandbox could not run any command (`bwrap: execvp codex-linux-sandbox`): this codex binary "
    "switches to bubblewrap when it is installed and then needs its helper codex-linux-sandbox, which it "
    "lacks, so nothing the agent ran took effect. Use a Codex CLI that ships codex-linux-sandbox, or run "
    "codex phases on a machine without bubblewrap (docs/security.md)"
)
LOGIN_FIX = "set OPENAI_API_KEY (or CODEX_API_KEY), or log in once with `codex login`"


class CodexEventMapper:
    """Turns ``codex exec --json`` lines into provider events and decides how the attempt ended."""

    def __init__(self, wants_decision: bool) -> None:
        self.wants_decision = wants_decision
        self.thread_id: str | None = None
        self.final_message: str | None = None
        self.usage: dict[str, Any] | None = None
        self.completed = False
        self.failure: str | None = None
        self.last_error: str | None = None
        self.interrupted = False
        self.sandbox_broken = False  # a command failed with BROKEN_SANDBOX (see ``finish``)
        self._started: set[str] = set()

    def line(self, raw: str) -> list[ProviderEvent]:
        """The events one JSONL line stands for; a line that is not JSON becomes a system note."""
        raw = raw.strip()
        if not raw:
            return []
        try:
            frame = json.loads(raw)
        except ValueError:
            return [ProviderEvent(EventType.SYSTEM, cap_text(f"codex: {raw}"), metadata={"unparsed": True})]
        if not isinstance(frame, dict):
            return [ProviderEvent(EventType.SYSTEM, cap_text(f"codex: {raw}"), metadata={"unparsed": True})]
        kind = str(frame.get("type"))
        if kind == "thread.started":
            self.thread_id = str(frame.get("thread_id"))
            return [
                ProviderEvent(
                    EventType.SYSTEM, f"codex thread {self.thread_id} started", metadata={"thread_id": self.thread_id}
                )
            ]
        if kind == "turn.started":
            return [ProviderEvent(EventType.SYSTEM, "codex turn started")]
        if kind == "turn.completed":
            self.completed = True
            self.usage = _mapping(frame.get("usage"))
            total = token_count(self.usage.get("input_tokens")) + token_count(self.usage.get("output_tokens"))
            meta = {"total_tokens": total, "usage": self.usage}  # a running total: never counted twice
            return [ProviderEvent(EventType.USAGE, f"{total} tokens", metadata=meta)]
        if kind == "turn.failed":
            error = frame.get("error")
            self.failure = str(error.get("message") if isinstance(error, dict) else error or "turn failed")
            return []
        if kind == "error":
            self.last_error = str(frame.get("message"))
            return [ProviderEvent(EventType.SYSTEM, cap_text(self.last_error), metadata={"error": True})]
        if kind.startswith("item.") and isinstance(frame.get("item"), dict):
            return self._item(kind.removeprefix("item."), frame["item"])
        return [ProviderEvent(EventType.SYSTEM, cap_text(f"codex {kind}"), metadata={"frame": frame})]

    def _item(self, stage: str, item: dict[str, Any]) -> list[ProviderEvent]:
        kind, ident = str(item.get("type")), str(item.get("id"))
        meta: dict[str, Any] = {"item_id": ident, "item_type": kind}
        if kind == "agent_message" and stage == "completed":
            self.final_message = str(item.get("text") or "")
            return [ProviderEvent(EventType.ASSISTANT, cap_text(self.final_message), metadata=meta)]
        if kind == "reasoning" and stage == "completed":
            return [
                ProviderEvent(
                    EventType.ASSISTANT, cap_text(str(item.get("text") or "")), metadata={**meta, "reasoning": True}
                )
            ]
        if kind == "todo_list":
            todo = [_mapping(step) for step in _sequence(item.get("items"))]
            steps = "; ".join(f"[{'x' if step.get('completed') else ' '}] {step.get('text')}" for step in todo)
            return (
                [ProviderEvent(EventType.SYSTEM, cap_text(f"plan: {steps}"), metadata=meta)]
                if stage != "updated" or steps
                else []
            )
        if (
            kind == "command_execution"
            and stage == "completed"
            and BROKEN_SANDBOX in str(item.get("aggregated_output"))
        ):
            self.sandbox_broken = True
        if kind == "error":
            return [
                ProviderEvent(EventType.SYSTEM, cap_text(str(item.get("message"))), metadata={**meta, "error": True})
            ]
        use = _tool_use(kind, item)
        if use is None:
            return (
                [ProviderEvent(EventType.SYSTEM, f"codex item {kind} {stage}", metadata=meta)]
                if stage == "completed"
                else []
            )
        events: list[ProviderEvent] = []
        if ident not in self._started and stage in ("started", "completed"):
            self._started.add(ident)
            events.append(ProviderEvent(EventType.TOOL_USE, cap_text(use[1]), metadata={**meta, "tool": use[0]}))
        if stage == "completed":
            outcome = {**meta, "status": item.get("status"), "exit_code": item.get("exit_code")}
            events.append(ProviderEvent(EventType.TOOL_RESULT, cap_text(_tool_output(kind, item)), metadata=outcome))
        return events

    def finish(self, exit_code: int, stderr: list[str]) -> ProviderEvent:
        """The terminal ``result`` of a finished process, or the classified ProviderError it ended with."""
        if self.interrupted:
            raise AttemptInterruptedError("codex was interrupted", code=CODEX_INTERRUPTED)
        if self.sandbox_broken:  # codex exits 0 and tells the model its commands failed: nothing was done
            raise InvalidRequestError(SANDBOX_BROKEN_HINT, code=CODEX_SANDBOX_BROKEN)
        if self.failure is not None:
            raise _failure(f"codex turn failed: {self.failure}", self.failure)
        if not self.completed:
            detail = self.last_error or tail(stderr) or "no output"
            if exit_code == 0:
                raise provider_error(
                    KIND_CODES, f"codex ended without finishing its turn: {detail}", "internal", code=NO_RESULT
                )
            kind = classify_text(detail)
            message = f"codex exited with code {exit_code}: {detail}"
            raise (
                _failure(message, detail)
                if kind != "internal"
                else provider_error(KIND_CODES, message, code=CODEX_CRASH)
            )
        text = self.final_message or ""
        decision, report = decision_and_report(text) if self.wants_decision else (None, None)
        summary = str(report.get("summary") or "") if report else text
        return result_event(
            summary, decision, report, usage=self.usage or {}, thread_id=self.thread_id, exit_code=exit_code
        )


def _failure(message: str, detail: str) -> ProviderError:
    kind = classify_text(detail)
    fix = f" (fix: {LOGIN_FIX})" if kind == "auth" else ""
    error = provider_error(KIND_CODES, f"{message}{fix}", kind)
    return usage_limit(error, None, time.time(), CODEX_USAGE_LIMIT, text=detail)  # "try again at ..." (SPEC §15)


def _mapping(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, dict) else {}


def _sequence(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def _tool_use(kind: str, item: dict[str, Any]) -> tuple[str, str] | None:
    if kind == "command_execution":
        return "shell", str(item.get("command"))
    if kind == "file_change":
        changes = [_mapping(change) for change in _sequence(item.get("changes"))]
        return "file_change", ", ".join(f"{c.get('kind')} {c.get('path')}" for c in changes)
    if kind == "mcp_tool_call":
        return "mcp", f"{item.get('server')}.{item.get('tool')} {json.dumps(item.get('arguments'), default=str)}"
    if kind == "web_search":
        return "web_search", str(item.get("query"))
    return None


def _tool_output(kind: str, item: dict[str, Any]) -> str:
    if kind == "command_execution":
        return f"exit {item.get('exit_code')}: {item.get('aggregated_output') or ''}"
    if kind == "mcp_tool_call":
        error = item.get("error")
        return (
            f"error: {error.get('message')}" if isinstance(error, dict) else json.dumps(item.get("result"), default=str)
        )
    return str(item.get("status") or "completed")
