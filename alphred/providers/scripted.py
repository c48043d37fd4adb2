"""The offline, deterministic ``scripted`` provider (SPEC §4): demos, ``--dry-run`` and tests."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from alphred.errors import ProviderError
from alphred.providers.base import EventType, ProviderEvent, ProviderOptions, Readiness, result_event


class ScriptedProvider:
    """Execution number ``attempt`` takes ``script[min(attempt, len(script)) - 1]``; the last entry repeats."""

    name = "scripted"

    def check(self) -> Readiness:
        """Always ready: no binary, no network, no credentials."""
        return Readiness(True, "offline, no credentials needed")

    async def run(self, prompt: str, options: ProviderOptions) -> AsyncIterator[ProviderEvent]:
        """Play the script entry of this attempt."""
        script: list[dict[str, Any]] = list(options.settings.get("script") or [{}])
        index = min(max(options.attempt, 1), len(script)) - 1
        entry = script[index]
        yield ProviderEvent(
            EventType.SYSTEM,
            f"scripted: phase {options.phase} attempt {options.attempt} plays entry {index + 1}/{len(script)}",
            metadata={"entry": index + 1, "prompt_chars": len(prompt), "context_items": len(options.context)},
        )
        sleep = float(entry.get("sleep") or 0)
        if sleep > 0:
            await _sleep(sleep, options.cancel)
        for rel, content in (entry.get("files") or {}).items():
            path = _inside(options.working_directory, rel)
            yield ProviderEvent(EventType.TOOL_USE, f"write {rel}", metadata={"tool": "write", "path": rel})
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
            yield ProviderEvent(EventType.TOOL_RESULT, f"wrote {len(content)} chars to {rel}")
        tokens = int(entry.get("tokens") or 0)
        if tokens:
            yield ProviderEvent(EventType.USAGE, f"{tokens} tokens", metadata={"tokens": tokens})
        if entry.get("fail"):
            raise ProviderError(str(entry["fail"]), kind="internal", code="SCRIPTED_FAIL")
        report = entry.get("report")
        text = report if isinstance(report, str) else json.dumps(report, sort_keys=True) if report else ""
        yield (ProviderEvent(EventType.ASSISTANT, text) if text else ProviderEvent(EventType.ASSISTANT, "(no report)"))
        yield result_event(text, entry.get("decision"), report if isinstance(report, dict) else None)


def _inside(root: Path, rel: str) -> Path:
    path = (root / rel).resolve()
    if not path.is_relative_to(root.resolve()):
        raise ProviderError(f"scripted file path '{rel}' leaves the worktree", kind="invalid_request")
    return path


async def _sleep(seconds: float, cancel: asyncio.Event | None) -> None:
    if cancel is None:
        await asyncio.sleep(seconds)
        return
    try:
        await asyncio.wait_for(cancel.wait(), timeout=seconds)
    except TimeoutError:
        return
