"""What the runtime tells about a run as it goes, and to whom: a ``RunObserver``.

The runtime knows this protocol only, never how it is shown: ``alphred.views.observers.RunObservers`` (the
progress lines on stderr and the ``--events jsonl`` stream) implements it, and the operations hand it to the
runner. The runtime and the views therefore import nothing of each other.
"""

from __future__ import annotations

from typing import Protocol

from alphred.engine import Effect, RunFinished, RunState, StartPhase
from alphred.providers import ProviderEvent
from alphred.runtime.attempt_context import AttemptStats


class RunObserver(Protocol):
    """Told, on the event loop, what happens to one run; must never raise nor block."""

    @property
    def live(self) -> bool:
        """True when it redraws a live line: the runner then calls ``tick`` twice a second."""
        ...

    @property
    def watches_events(self) -> bool:
        """False when ``provider_event`` shows nothing: the runtime then forwards no provider event (issue 29:
        ``--json -q`` does no work per event). An observer without this property is told every event."""
        ...

    def note(self, text: str, style: str = "", branch: str | None = None) -> None:
        """A sentence about the run (``branch``: the branch head it is about)."""

    def phase_started(self, effect: StartPhase, kind: str, state: RunState) -> None:
        """An attempt of a ``kind`` phase (agent, command, approval) starts."""

    def persisted(self, effect: Effect, stats: AttemptStats | None) -> None:
        """``effect`` is stored; ``stats`` is what was measured of the attempt a ``RecordStep`` ends."""

    def provider_event(self, phase: str, attempt: int, sequence: int, event: ProviderEvent) -> None:
        """An attempt's provider (or command) event, with its stored ``sequence``."""

    def run_finished(self, effect: RunFinished, pr_url: str | None) -> None:
        """The run reached a terminal status (``pr_url``: its pull request, if one was opened)."""

    def tick(self) -> None:
        """Redraw the live line."""

    def flush(self) -> None:
        """Write what it holds back now (the run's drive ends, or the process exits at once)."""


class QuietObserver:
    """An observer that shows nothing."""

    live = False
    watches_events = False

    def note(self, text: str, style: str = "", branch: str | None = None) -> None:
        """Nothing."""

    def phase_started(self, effect: StartPhase, kind: str, state: RunState) -> None:
        """Nothing."""

    def persisted(self, effect: Effect, stats: AttemptStats | None) -> None:
        """Nothing."""

    def provider_event(self, phase: str, attempt: int, sequence: int, event: ProviderEvent) -> None:
        """Nothing."""

    def run_finished(self, effect: RunFinished, pr_url: str | None) -> None:
        """Nothing."""

    def tick(self) -> None:
        """Nothing."""

    def flush(self) -> None:
        """Nothing."""
