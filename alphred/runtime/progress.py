"""Progress on stderr: one line per lifecycle step; on a terminal also a live status line, cut to its width.

Off a terminal (CI logs, pipes) the lines are plain and whole. On a terminal every line is cut to the
terminal's width (so a redraw never wraps and leaves a stale copy behind), the live ``⟳`` line is redrawn in
place, and marks are coloured unless ``NO_COLOR`` is set.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

from .style import Painter, fit, is_terminal, terminal_width, wants_colour

if TYPE_CHECKING:
    from alphred.engine import RecordStep, RunFinished, RunState, StartPhase

    from .phase import AttemptStats


CLEAR_LINE = "\r\x1b[K"
TAIL_LINES_IN_PROGRESS = 3
MARKS = {
    "completed": ("✓", "green"),
    "failed": ("✗", "red"),
    "interrupted": ("‖", "yellow"),
    "cancelled": ("■", "magenta"),
}


class Progress:
    """Writes human-readable progress lines to stderr; never writes to stdout.

    On a terminal it also keeps a live status line at the bottom (the active phase, its attempt,
    elapsed time and the run's tokens), redrawn by ``tick`` and cleared before every progress line.
    """

    def __init__(
        self,
        enabled: bool = True,
        stream: TextIO | None = None,
        run_id: int | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.run_id = run_id
        self.env = os.environ if env is None else env
        self._started = time.monotonic()
        self.live = enabled and is_terminal(self.stream)
        self.paint = Painter(enabled and wants_colour(self.stream, self.env))
        self._active: tuple[str, float] | None = None  # (label, started)
        self._tokens = 0

    def _width(self) -> int:
        return max(terminal_width(self.stream, self.env) - 1, 10)  # the last column would wrap on some terminals

    def _line(self, text: str, mark: str = "", style: str = "") -> None:
        if not self.enabled:
            return
        elapsed = time.monotonic() - self._started
        prefix = f"[run {self.run_id} +{elapsed:6.1f}s]" if self.run_id is not None else f"[+{elapsed:6.1f}s]"
        head = f"{prefix} {mark} " if mark else f"{prefix} "
        if self.live:
            body = fit(head + text, self._width())[len(head) :]
            self.stream.write(CLEAR_LINE)
        else:
            body = text
        marked = f"{self.paint(mark, style, 'bold')} " if mark else ""
        print(f"{self.paint(prefix, 'dim')} {marked}{body}", file=self.stream, flush=True)
        if self.live:
            self.tick()

    def _detail(self, text: str) -> None:
        """An indented line under the last one (the tail of a failed command's output)."""
        if not self.enabled:
            return
        line = f"    │ {text}"
        if self.live:
            self.stream.write(CLEAR_LINE)
            line = fit(line, self._width())
        print(self.paint(line, "dim"), file=self.stream, flush=True)

    def tick(self) -> None:
        """Redraw the live status line (terminals only), cut to the terminal's width."""
        if not self.live or self._active is None:
            return
        label, started = self._active
        elapsed = time.monotonic() - started
        text = fit(f"⟳ {label} · {elapsed:5.1f}s · run {self._tokens} tokens", self._width())
        self.stream.write(f"{CLEAR_LINE}{self.paint(text, 'cyan')}")
        self.stream.flush()

    def clear(self) -> None:
        """Remove the live status line (before something else writes to the terminal)."""
        if self.live and self.enabled:
            self.stream.write(CLEAR_LINE)
            self.stream.flush()

    def note(self, text: str, style: str = "") -> None:
        """A free-form line (a sentence)."""
        if style:
            self._line(text, "•", style)
        else:
            self._line(text)

    def phase_started(self, effect: StartPhase, kind: str, state: RunState) -> None:
        """A phase attempt starts."""
        self._tokens = state.tokens
        self._active = (f"{effect.phase} ({kind}) attempt {effect.attempt}", time.monotonic())
        self._line(
            f"{effect.phase} ({kind}) attempt {effect.attempt}, visit {effect.visit} "
            f"· step {state.steps} · {state.tokens} tokens",
            "▶",
            "blue",
        )

    def step_finished(self, effect: RecordStep, stats: AttemptStats) -> None:
        """A phase attempt finished."""
        self._active = None
        self._tokens += stats.tokens
        outcome = effect.outcome.value
        mark, style = MARKS.get(outcome, ("·", ""))
        parts = [f"{effect.phase} attempt {effect.attempt} {outcome}"]
        exit_code = stats.details.get("exit_code")
        if isinstance(exit_code, int) and (exit_code != 0 or outcome != "completed"):
            parts.append(f"exit code {exit_code}" + (" (allowed)" if outcome == "completed" else ""))
        if stats.details.get("dry_run"):
            parts.append("dry run: command not run")
        if effect.decision:
            parts.append(f"decision {effect.decision}")
        if effect.reason and outcome != "completed" and effect.reason != "exit_code":  # the exit code says it
            parts.append(f"reason {effect.reason}")
        if stats.message and outcome != "completed" and stats.message != f"command exited with {exit_code}":
            parts.append(stats.message.splitlines()[0])
        if effect.next:
            parts.append(f"→ {effect.next}")
        parts.append(f"{stats.duration_ms / 1000:.1f}s, {stats.tokens} tokens")
        self._line(" · ".join(parts), mark, style)
        tail = getattr(stats, "output_tail", "") or ""
        if outcome == "failed" and tail.strip():
            for line in tail.rstrip("\n").splitlines()[-TAIL_LINES_IN_PROGRESS:]:
                self._detail(line)

    def run_finished(self, effect: RunFinished) -> None:
        """The run reached a terminal status (the closing block after it says more)."""
        self._active = None
        status = effect.status.value
        reason = f" ({effect.reason})" if effect.reason else ""
        self._line(f"run {status}{reason}", MARKS.get(status, ("■", ""))[0], MARKS.get(status, ("", ""))[1])
