"""What a person (``Progress``, stderr) and a program (``JsonlEvents``, ``--events jsonl``) are told while a
run executes: ``RunObservers`` joins the two into the runtime's ``RunObserver`` for one run."""

from __future__ import annotations

from alphred.engine import Effect, RecordStep, RunFinished, RunState, StartPhase
from alphred.providers import EventType, ProviderEvent
from alphred.views.jsonl import JsonlEvents
from alphred.views.progress import Measured, Progress


class RunObservers:
    """The progress lines and the JSON-lines stream (either may be absent) of run ``run_id``."""

    def __init__(self, run_id: int, progress: Progress | None = None, events: JsonlEvents | None = None) -> None:
        self.run_id = run_id
        self.progress = progress or Progress(enabled=False)
        self.events = events

    @property
    def live(self) -> bool:
        """True when the progress keeps a live line on a terminal."""
        return self.progress.live

    @property
    def watches_events(self) -> bool:
        """True when a provider event is shown: as a JSON line, or on the live progress line (a terminal)."""
        return self.events is not None or self.progress.live

    def note(self, text: str, style: str = "", branch: str | None = None) -> None:
        """A progress line."""
        self.progress.note(text, style, branch)

    def phase_started(self, effect: StartPhase, kind: str, state: RunState) -> None:
        """The ``▶`` progress line of an attempt (the JSON line comes with the stored ``StartPhase``)."""
        self.progress.phase_started(effect, kind, state)

    def persisted(self, effect: Effect, stats: Measured | None) -> None:
        """A stored effect: the progress line of a finished step, the JSON line of a lifecycle effect."""
        if isinstance(effect, RecordStep) and stats is not None:
            self.progress.step_finished(effect, stats)
        if self.events is not None:
            self.events.effect(self.run_id, effect)

    def provider_event(self, phase: str, attempt: int, sequence: int, event: ProviderEvent) -> None:
        """A provider event, as a JSON line; a line of output also goes to the live progress line."""
        if event.type is EventType.TOOL_RESULT and event.content:
            self.progress.output(phase, attempt, event.content)
        if self.events is not None:
            self.events.provider_event(self.run_id, phase, attempt, sequence, event)

    def run_finished(self, effect: RunFinished, pr_url: str | None) -> None:
        """The run's last progress line and its ``run_finished`` JSON line."""
        self.progress.run_finished(effect)
        if self.events is not None:
            self.events.run_finished(self.run_id, effect.status.value, effect.reason, pr_url=pr_url)

    def tick(self) -> None:
        """Redraw the live line."""
        self.progress.tick()

    def flush(self) -> None:
        """Write the progress lines held off a terminal (``views.held_lines``)."""
        self.progress.flush()
