"""Progress on stderr: one plain line per lifecycle step (a terminal gets the same lines, with timing)."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from alphred.engine import RecordStep, RunFinished, RunState, StartPhase

    from .phase import AttemptStats


CLEAR_LINE = "\r\x1b[K"


class Progress:
    """Writes human-readable progress lines to stderr; never writes to stdout.

    On a terminal it also keeps a live status line at the bottom (the active phase, its attempt,
    elapsed time and the run's tokens), redrawn by ``tick`` and cleared before every progress line.
    """

    def __init__(self, enabled: bool = True, stream: TextIO | None = None, run_id: int | None = None) -> None:
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.run_id = run_id
        self._started = time.monotonic()
        self.live = enabled and _isatty(self.stream)
        self._active: tuple[str, float] | None = None  # (label, started)
        self._tokens = 0

    def _line(self, text: str) -> None:
        if not self.enabled:
            return
        elapsed = time.monotonic() - self._started
        prefix = f"[run {self.run_id} +{elapsed:6.1f}s]" if self.run_id is not None else f"[+{elapsed:6.1f}s]"
        if self.live:
            self.stream.write(CLEAR_LINE)
        print(f"{prefix} {text}", file=self.stream, flush=True)
        if self.live:
            self.tick()

    def tick(self) -> None:
        """Redraw the live status line (terminals only)."""
        if not self.live or self._active is None:
            return
        label, started = self._active
        elapsed = time.monotonic() - started
        self.stream.write(f"{CLEAR_LINE}⟳ {label} · {elapsed:5.1f}s · run {self._tokens} tokens")
        self.stream.flush()

    def note(self, text: str) -> None:
        """A free-form line."""
        self._line(text)

    def phase_started(self, effect: StartPhase, kind: str, state: RunState) -> None:
        """A phase attempt starts."""
        self._tokens = state.tokens
        self._active = (f"{effect.phase} ({kind}) attempt {effect.attempt}", time.monotonic())
        self._line(
            f"▶ {effect.phase} ({kind}) attempt {effect.attempt}, visit {effect.visit} "
            f"· step {state.steps} · {state.tokens} tokens"
        )

    def step_finished(self, effect: RecordStep, stats: AttemptStats) -> None:
        """A phase attempt finished."""
        self._active = None
        self._tokens += stats.tokens
        mark = {"completed": "✓", "failed": "✗", "interrupted": "‖", "cancelled": "■"}.get(effect.outcome.value, "·")
        parts = [f"{mark} {effect.phase} attempt {effect.attempt} {effect.outcome.value}"]
        if effect.decision:
            parts.append(f"decision {effect.decision}")
        if effect.reason and effect.outcome.value != "completed":
            parts.append(f"reason {effect.reason}")
        if stats.message and effect.outcome.value != "completed":
            parts.append(stats.message.splitlines()[0])
        if effect.next:
            parts.append(f"→ {effect.next}")
        parts.append(f"{stats.duration_ms / 1000:.1f}s, {stats.tokens} tokens")
        self._line(" · ".join(parts))

    def run_finished(self, effect: RunFinished) -> None:
        """The run reached a terminal status."""
        self._active = None
        reason = f" ({effect.reason})" if effect.reason else ""
        self._line(f"run {effect.status.value}{reason}")


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
