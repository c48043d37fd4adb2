"""Typed outputs at run time (SPEC §12): the answer of a phase with ``output:`` is validated by Alphred with
``jsonschema`` (draft 2020-12), whatever its provider promised; a command phase's report comes from the file
named by ``$ALPHRED_OUTPUT`` (outside the worktree, never committed)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from alphred.lazy import deferred_dataclass
from alphred.providers import EventType, ProviderEvent
from alphred.providers.contract import json_object
from alphred.workflow import Phase
from alphred.workflow.files import FileRefusedError, read_regular_text

OUTPUT_ENV = "ALPHRED_OUTPUT"
OUTPUT_FILE = "alphred-output.json"
MAX_OUTPUT_BYTES = 1_000_000
MAX_VIOLATIONS = 20
ROOT = "(root)"  # how a violation of the whole report is shown (its JSON pointer is empty)
PROBLEM_KEY = "output_problem"  # result metadata: why a command's output file gave no report


@deferred_dataclass(frozen=True)
class Answer:
    """A typed phase's answer: its decision and report object, and every way it breaks the schema."""

    decision: str | None
    report: dict[str, Any] | None
    violations: tuple[str, ...]  # "POINTER: message" (ROOT for the whole report), empty when it conforms


def typed_answer(phase: Phase, decision: str | None, report: Any, text: str, problem: str | None = None) -> Answer:
    """Check the answer of ``phase`` (which has ``output:``) against its schema.

    The report is the provider's structured object, else its text when that is a JSON object (a plain
    answer). A decision given beside the report (scripted, the openai ``finish`` tool) joins it; a decision
    inside the report is the routing decision when the provider gave none.
    """
    assert phase.output is not None
    if report is None and problem is None:
        report = json_object(text)
    if report is None:
        why = problem or "the phase gave no report object (its answer must be a JSON object matching 'output')"
        return Answer(decision, None, (f"{ROOT}: {why}",))
    schema = phase.output
    if isinstance(report, dict):
        if decision is not None and "decision" in _properties(schema) and "decision" not in report:
            report = {**report, "decision": decision}
        if decision is None and isinstance(report.get("decision"), str):
            decision = report["decision"]
    from jsonschema import Draft202012Validator

    errors = sorted(Draft202012Validator(dict(schema)).iter_errors(report), key=lambda e: list(map(str, e.path)))
    violations = tuple(f"{pointer(e.absolute_path) or ROOT}: {e.message}" for e in errors[:MAX_VIOLATIONS])
    if len(errors) > MAX_VIOLATIONS:
        violations += (f"{ROOT}: and {len(errors) - MAX_VIOLATIONS} more violation(s)",)
    return Answer(decision, report if isinstance(report, dict) else None, violations)


def pointer(path: Any) -> str:
    """The JSON pointer (RFC 6901) of a jsonschema error path: ``/tasks/0/title``, ``""`` for the root."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def violations_message(phase: str, violations: tuple[str, ...]) -> str:
    """The failure message of an attempt whose answer broke its ``output:`` (one violation a line)."""
    return f"the report of phase {phase} does not match its output schema: " + "; ".join(violations)


def _properties(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    properties = schema.get("properties")
    return properties if isinstance(properties, Mapping) else {}


async def with_output_file(events: AsyncIterator[ProviderEvent], host_path: Path) -> AsyncIterator[ProviderEvent]:
    """A command's stream with its ``result`` carrying the JSON the command wrote to ``$ALPHRED_OUTPUT``."""
    import asyncio

    async for event in events:
        if event.type is EventType.RESULT:
            report, problem = await asyncio.to_thread(read_output_file, host_path)
            extra: dict[str, Any] = {"report": report} if report is not None else {PROBLEM_KEY: problem}
            event = replace(event, metadata={**event.metadata, **extra})
        yield event


def read_output_file(path: Path) -> tuple[Any, str | None]:
    """(the JSON value in ``path``, None), or (None, why there is none)."""
    try:
        text = read_regular_text(path, MAX_OUTPUT_BYTES)
    except FileNotFoundError:
        return None, f"the command wrote no report to ${OUTPUT_ENV}"
    except (FileRefusedError, OSError) as exc:
        return None, f"the report file ${OUTPUT_ENV} cannot be read: {exc}"
    try:
        return json.loads(text), None
    except ValueError as exc:
        return None, f"the report written to ${OUTPUT_ENV} is not JSON: {exc}"
