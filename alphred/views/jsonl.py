"""``--events jsonl`` (SPEC §6): every lifecycle and provider event as one JSON object per line, flushed.

Every line has ``type``, ``run_id``, ``phase``, ``attempt``, ``sequence`` and ``timestamp`` (ISO 8601,
UTC). Lifecycle types are ``run_started``, ``phase_started``, ``phase_finished``, ``routed`` and
``run_finished``; ``phase`` and ``attempt`` are null on run-level lines and ``sequence`` is null on every
lifecycle line. Provider events keep their own type (``system``, ``assistant``, ``tool_use``,
``tool_result``, ``usage``, ``result``), the stored ``sequence`` (gap-free per attempt, the same number as
in ``run_node_stream_events``), ``content`` and ``metadata``, redacted like the stored copy.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, TextIO

from alphred.engine import Effect, RecordRouting, RecordStep, StartPhase
from alphred.providers.base import ProviderEvent
from alphred.redact import cut_event_content

# Characters that json.dumps leaves raw but that some line splitters (Python's splitlines, JavaScript) take
# for line breaks: escaped, so that one event is always exactly one line for every reader.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})
LIFECYCLE_TYPES = ("run_started", "phase_started", "phase_finished", "routed", "run_finished")


def iso_time(seconds: float) -> str:
    """A POSIX time as ISO 8601 in UTC with a ``Z``."""
    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")


class JsonlEvents:
    """Writes the JSON-lines event stream to ``stream``; a stream that breaks disables it, never the run."""

    def __init__(
        self,
        stream: TextIO,
        redact: Callable[[str], str] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._stream = stream
        self._redact = redact or (lambda text: text)
        self._clock = clock
        self.broken = False
        self.lines = 0
        self._branches: dict[tuple[int, str, int], str] = {}  # (run, phase, attempt) -> its parallel branch

    # -- lifecycle --------------------------------------------------------------------------------------

    def run_started(self, run_id: int, workflow_key: str, branch: str | None, **extra: Any) -> None:
        """The run was created (or continues: pass ``resumed=True``) and is about to execute."""
        self._lifecycle("run_started", run_id, None, None, workflow=workflow_key, branch=branch, **extra)

    def phase_started(self, run_id: int, phase: str, attempt: int, visit: int | None = None) -> None:
        """An attempt of a phase starts."""
        self._lifecycle("phase_started", run_id, phase, attempt, visit=visit)

    def phase_finished(
        self,
        run_id: int,
        phase: str,
        attempt: int,
        outcome: str,
        decision: str | None,
        reason: str | None,
        **extra: Any,
    ) -> None:
        """An attempt ended: ``outcome`` is completed, failed, cancelled or interrupted."""
        fields = {"outcome": outcome, "decision": decision, "reason": reason, **extra}
        self._lifecycle("phase_finished", run_id, phase, attempt, **fields)

    def routed(self, run_id: int, phase: str, attempt: int, target: str, decision: str | None, **extra: Any) -> None:
        """Routing chose ``target`` (a phase, ``$end``, ``$fail`` or ``no_route``) after an attempt."""
        self._lifecycle("routed", run_id, phase, attempt, target=target, decision=decision, **extra)

    def run_finished(self, run_id: int, status: str, reason: str | None, **extra: Any) -> None:
        """The run ended or stopped (paused, waiting for approval); pass ``pr_url=`` when there is one."""
        self._lifecycle("run_finished", run_id, None, None, status=status, reason=reason, **extra)

    def effect(self, run_id: int, effect: Effect) -> None:
        """Emit the line for an engine effect: StartPhase, RecordStep, RecordRouting (others: nothing).

        ``RunFinished`` is deliberately not mapped: a run ends after its delivery, so call ``run_finished``.
        """
        branch = effect.branch if isinstance(effect, StartPhase | RecordStep | RecordRouting) else None
        tagged = {"lane": branch} if branch else {}  # the field keeps its published name (SPEC §6)
        if isinstance(effect, StartPhase) and branch:  # a parallel branch's attempt (SPEC §8)
            self._branches[(run_id, effect.phase, effect.attempt)] = branch
            self._lifecycle("phase_started", run_id, effect.phase, effect.attempt, visit=effect.visit, **tagged)
        elif isinstance(effect, StartPhase):
            self.phase_started(run_id, effect.phase, effect.attempt, effect.visit)
        elif isinstance(effect, RecordStep):
            self._branches.pop((run_id, effect.phase, effect.attempt), None)
            self.phase_finished(
                run_id,
                effect.phase,
                effect.attempt,
                effect.outcome.value,
                effect.decision,
                effect.reason,
                next=effect.next,
                error_code=effect.error_code,
                **tagged,
            )
        elif isinstance(effect, RecordRouting):
            extra: dict[str, Any] = {"priority": effect.priority, **tagged}
            if effect.fan_out:
                extra["fan_out"] = list(effect.fan_out)
            self.routed(run_id, effect.source, effect.attempt, effect.target, effect.decision, **extra)

    # -- provider events --------------------------------------------------------------------------------

    def provider_event(self, run_id: int, phase: str, attempt: int, sequence: int, event: ProviderEvent) -> None:
        """One provider event, with its per-attempt ``sequence``, content and metadata (redacted); an event of a
        parallel branch's attempt carries ``lane``."""
        content = cut_event_content(self._redact(event.content))
        record = {
            "type": event.type.value,
            "run_id": run_id,
            "phase": phase,
            "attempt": attempt,
            "sequence": sequence,
            "timestamp": iso_time(event.timestamp),
            "content": content,
            "metadata": self._metadata(event.metadata),
        }
        branch = self._branches.get((run_id, phase, attempt))
        if branch is not None:
            record["lane"] = branch
        self.emit(record)

    def provider_callback(self, run_id: int) -> Callable[[str, int, int, ProviderEvent], None]:
        """A ``(phase, attempt, sequence, event)`` callback bound to ``run_id`` (the runtime's ``on_event``)."""

        def on_event(phase: str, attempt: int, sequence: int, event: ProviderEvent) -> None:
            self.provider_event(run_id, phase, attempt, sequence, event)

        return on_event

    # -- output -----------------------------------------------------------------------------------------

    def emit(self, record: Mapping[str, Any]) -> None:
        """Write ``record`` as one JSON line and flush; after a broken pipe, write nothing more."""
        if self.broken:
            return
        line = json.dumps(record, ensure_ascii=False, default=str, separators=(",", ":")).translate(_LINE_BREAKS)
        try:
            self._stream.write(line + "\n")
            self._stream.flush()
        except (OSError, ValueError):  # a closed pipe or file: the run goes on without its stream
            self.broken = True
            return
        self.lines += 1

    def _lifecycle(self, kind: str, run_id: int, phase: str | None, attempt: int | None, **fields: Any) -> None:
        record: dict[str, Any] = {
            "type": kind,
            "run_id": run_id,
            "phase": phase,
            "attempt": attempt,
            "sequence": None,
            "timestamp": iso_time(self._clock()),
        }
        for key, value in fields.items():
            record[key] = self._redact(value) if isinstance(value, str) and key == "reason" else value
        self.emit(record)

    def _metadata(self, metadata: Mapping[str, Any]) -> Any:
        if not metadata:
            return None
        try:
            text = json.dumps(metadata, default=str, sort_keys=True)
        except (TypeError, ValueError):
            return {"unserialisable": True}
        return json.loads(self._redact(text))
