"""The offline, deterministic ``scripted`` provider (SPEC §4): demos, ``--dry-run`` and tests.

The whole provider in one module, registered by one entry point line (``scripted =
"alphred.providers.scripted:SCRIPTED"`` in ``pyproject.toml``): its descriptor, its one phase key
(``script``, with its JSON Schema and its reader), its phase check and its implementation. Any provider can
be added the same way (docs/providers.md, "Adding a provider").
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from alphred.errors import InternalProviderError, InvalidRequestError
from alphred.providers.base import EventType, ProviderEvent, ProviderOptions, Readiness, result_event
from alphred.providers.descriptor import Capabilities, ProviderDescriptor
from alphred.workflow import fields as f
from alphred.workflow.provider_keys import KeyValue, PhaseKey, ProviderPhase
from alphred.workflow.yaml_source import did_you_mean, known_keys

if TYPE_CHECKING:
    import asyncio

SCRIPTED_FAIL = "SCRIPTED_FAIL"  # an entry's ``fail``: the attempt fails with this code
ENTRY_KEYS = ("decision", "report", "files", "delete", "fail", "tokens", "sleep")
SCRIPT_BY = ("attempt", "visit")
ENTRY_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "decision": {"type": "string"},
        "report": {"type": ["string", "object"]},
        "files": {"type": "object", "additionalProperties": {"type": "string"}},
        "delete": {"type": "array", "items": {"type": "string"}},
        "fail": {"type": "string"},
        "tokens": {"type": "integer", "minimum": 0},
        "sleep": {"type": "number", "minimum": 0},
    },
}


class ScriptedProvider:
    """Execution number ``attempt`` takes ``script[min(attempt, len(script)) - 1]``; the last entry repeats.

    With ``script_by: visit`` the entry is chosen by the phase's visit instead (its retries replay it)."""

    name = "scripted"
    spawns = False  # it starts no process: the end of its attempts needs no search for leftovers

    def check(self) -> Readiness:
        """Always ready: no binary, no network, no credentials."""
        return Readiness(True, "offline, no credentials needed")

    async def run(self, prompt: str, options: ProviderOptions) -> AsyncIterator[ProviderEvent]:
        """Play the script entry of this attempt."""
        script: list[dict[str, Any]] = options.settings.get("script") or [{}]  # read, never copied: O(1) an attempt
        number = options.visit if options.settings.get("script_by") == "visit" else options.attempt
        index = min(max(number, 1), len(script)) - 1
        entry = script[index]
        yield ProviderEvent(
            EventType.SYSTEM,
            f"scripted: phase {options.phase} attempt {options.attempt} plays entry {index + 1}/{len(script)}",
            metadata={
                "entry": index + 1,
                "prompt_chars": len(prompt),
                "context_items": len(options.context),
                **recorded_tooling(options),
            },
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
        for rel in entry.get("delete") or ():
            path = _inside(options.working_directory, rel)
            yield ProviderEvent(EventType.TOOL_USE, f"delete {rel}", metadata={"tool": "delete", "path": rel})
            existed = path.is_file() or path.is_symlink()
            if existed:
                path.unlink()
            yield ProviderEvent(EventType.TOOL_RESULT, f"deleted {rel}" if existed else f"{rel} did not exist")
        tokens = int(entry.get("tokens") or 0)
        if tokens:
            yield ProviderEvent(EventType.USAGE, f"{tokens} tokens", metadata={"tokens": tokens})
        if entry.get("fail"):
            raise InternalProviderError(str(entry["fail"]), code=SCRIPTED_FAIL)
        report = entry.get("report")
        text = report if isinstance(report, str) else json.dumps(report, sort_keys=True) if report else ""
        yield (ProviderEvent(EventType.ASSISTANT, text) if text else ProviderEvent(EventType.ASSISTANT, "(no report)"))
        yield result_event(text, entry.get("decision"), report if isinstance(report, dict) else None)


def recorded_tooling(options: ProviderOptions) -> dict[str, Any]:
    """``tools:`` and ``mcp:`` as the attempt's first event records them (SPEC §14: tests assert on them);
    MCP servers by name and transport, never a variable's value."""
    found: dict[str, Any] = {}
    if options.tools is not None:
        allow = list(options.tools.allow) if options.tools.allow is not None else None
        found["tools"] = {"allow": allow, "deny": list(options.tools.deny)}
    if options.mcp:
        found["mcp"] = {server.name: server.describe() for server in options.mcp}
    return found


def _inside(root: Path, rel: str) -> Path:
    path = (root / rel).resolve()
    if not path.is_relative_to(root.resolve()):
        raise InvalidRequestError(f"scripted file path '{rel}' leaves the worktree")
    return path


async def _sleep(seconds: float, cancel: asyncio.Event | None) -> None:
    import asyncio  # here, not at the top: loading the descriptor (``alphred validate``) needs no event loop

    if cancel is None:
        await asyncio.sleep(seconds)
        return
    try:
        await asyncio.wait_for(cancel.wait(), timeout=seconds)
    except TimeoutError:
        return


# -- the workflow side: the ``script`` key and the phase check -----------------------------------------------


def read_script(value: KeyValue) -> list[dict[str, Any]]:
    """A non-empty list of script entries, each key checked (located errors)."""
    node, out = value.node, value.out
    if not isinstance(node, yaml.SequenceNode) or not node.value:
        out.error(node, f"'script' of phase '{value.phase}' must be a non-empty list of entries")
        return []
    return [_entry(item, value) for item in node.value]


def _entry(item: yaml.Node, value: KeyValue) -> dict[str, Any]:
    out = value.out
    entry: dict[str, Any] = {}
    for name, value_node in known_keys(item, ENTRY_KEYS, "script entry", out).items():
        if name in ("decision", "fail"):
            entry[name] = f.read_str(value_node, name, out)
        elif name == "report":
            data = f.plain_data(value_node)
            if not isinstance(data, str | dict):
                out.error(value_node, "'report' must be a string or a mapping")
            entry[name] = data
        elif name == "files":
            data = f.plain_data(value_node)
            if not isinstance(data, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in data.items()
            ):
                out.error(value_node, "'files' must map relative paths to text content")
                continue
            for rel in data:
                if rel.startswith("/") or ".." in Path(rel).parts:
                    out.error(value_node, f"file path '{rel}' must stay inside the worktree")
            entry[name] = data
        elif name == "delete":
            paths = f.read_str_list(value_node, name, out) or []
            for rel, node in paths:
                if rel.startswith("/") or ".." in Path(rel).parts or not rel.strip():
                    out.error(node, f"file path '{rel}' must stay inside the worktree")
            entry[name] = [rel for rel, _ in paths]
        elif name == "tokens":
            entry[name] = f.read_int(value_node, name, out, 0)
        elif name == "sleep":
            seconds = f.plain_data(value_node)
            if not isinstance(seconds, int | float) or isinstance(seconds, bool) or not 0 <= seconds <= 86400:
                out.error(value_node, "'sleep' must be a number of seconds from 0 to 86400")
            entry[name] = seconds
    return entry


def read_script_by(value: KeyValue) -> str:
    """``attempt`` (the default) or ``visit``: what chooses the script entry."""
    text = f.read_str(value.node, value.name, value.out)
    if text not in SCRIPT_BY:
        value.out.error(value.node, f"'script_by' must be attempt or visit{did_you_mean(str(text), SCRIPT_BY)}")
        return "attempt"
    return text


def check_decisions(phase: ProviderPhase) -> None:
    """Warn about a script entry whose decision the phase does not declare (it could not route), and about a
    report that breaks the phase's ``output:`` (SPEC §12: the attempt that plays it fails ``OUTPUT_INVALID``)."""
    if "output" in phase.fields:
        _check_reports(phase, f.plain_data(phase.fields["output"]))
    for entry in phase.settings.get("script") or ():
        decision = entry.get("decision")
        if decision is not None and decision not in phase.decisions:
            declared = ", ".join(phase.decisions) or "none"
            phase.out.warning(
                phase.node,
                f"decision '{decision}' is not declared by phase '{phase.key}' (decisions: {declared})"
                f"{did_you_mean(decision, phase.decisions)} (used in script)",
            )


def _check_reports(phase: ProviderPhase, schema: Any) -> None:
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return  # the loader reports an unusable ``output:``
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError:
        return
    validator = Draft202012Validator(schema)
    for number, entry in enumerate(phase.settings.get("script") or (), start=1):
        if entry.get("fail") or "report" not in entry:
            continue
        report = entry["report"]
        errors = list(validator.iter_errors(report)) if isinstance(report, dict) else None
        if errors == []:
            continue
        shown = (
            "; ".join(f"/{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors[:3])
            if errors
            else "it is not an object"
        )
        phase.out.warning(
            phase.fields["script"],
            f"the report of script entry {number} of phase '{phase.key}' does not match its output ({shown}); "
            "the attempt that plays it fails with OUTPUT_INVALID",
        )


SCRIPTED = ProviderDescriptor(
    name="scripted",
    factory=ScriptedProvider,
    summary="a deterministic script, offline (demos, tests)",
    phase_keys=(
        PhaseKey("script", {"type": "array", "minItems": 1, "items": ENTRY_SCHEMA}, read_script),
        PhaseKey("script_by", {"enum": list(SCRIPT_BY)}, read_script_by),
    ),
    validate_phase=check_decisions,
    error_codes=(SCRIPTED_FAIL,),
    # it starts no process and writes inside the worktree only; ``tools:`` and ``mcp:`` are recorded on the attempt
    capabilities=Capabilities(allowed_tools=True, disallowed_tools=True, sandbox=True, mcp=True, tool_patterns=True),
)
