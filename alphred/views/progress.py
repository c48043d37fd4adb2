"""Progress on stderr: one line per lifecycle step; on a terminal also a live status line, cut to its width.

Off a terminal (CI logs, pipes) the lines are plain and whole. On a terminal every line is cut to the
terminal's width (so a redraw never wraps and leaves a stale copy behind), the live ``⟳`` line is redrawn in
place, and marks are coloured unless ``NO_COLOR`` is set.

On a terminal a progress line longer than the width goes on over indented continuation lines, broken
between its `` · `` parts, so nothing of it (the routing ``→ next`` last of all) is lost; only the lines
of a command's output are cut. The live line of one running phase ends with the last line its command (or
an agent's tool) printed, redacted and stripped of control characters.

Parallel branches (SPEC §8): several phases may run at once, started and finished by the branch tasks of one
run. Each is tracked by ``(phase, attempt)``; a line about a phase of a branch starts with the branch's
head phase in brackets (``[security] ▶ security (agent) attempt 1``) and counts the steps of that branch
(``branch step 2``) rather than the run's, and the live line lists every running phase, cut to the
terminal's width. Every write of one line (and the redraw after it) holds a lock, so lines of different
branches never interleave.
"""

from __future__ import annotations

import os
import sys
import textwrap
import threading
import time
from collections.abc import Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from alphred.lazy import deferred_dataclass
from alphred.redact import process_redactor
from alphred.views.held_lines import held_for
from alphred.views.item_groups import item_base
from alphred.views.style import (
    Painter,
    display_width,
    fit,
    is_terminal,
    printable,
    terminal_width,
    wants_colour,
)

if TYPE_CHECKING:
    from alphred.engine import RecordStep, RunFinished, RunState, StartPhase


CLEAR_LINE = "\r\x1b[K"
TAIL_LINES_IN_PROGRESS = 3
CONTINUATION = "    "  # the indent of a progress line's continuation on a terminal
SEPARATOR = " · "

MARKS = {
    "completed": ("✓", "green"),
    "failed": ("✗", "red"),
    "interrupted": ("‖", "yellow"),
    "cancelled": ("■", "magenta"),
}


class Measured(Protocol):
    """What the runtime measured of an attempt (its ``AttemptStats``), as far as a progress line shows it."""

    tokens: int
    message: str | None
    details: dict[str, Any]
    output_tail: str

    @property
    def duration_ms(self) -> int:
        """Milliseconds the attempt took."""
        ...


@deferred_dataclass(frozen=True)
class Active:
    """A phase attempt that runs now: what the live line calls it, its branch head (None: the run branch)."""

    label: str
    branch: str | None
    started: float
    last_output: list[str] = field(default_factory=lambda: [""])  # the last line it printed (raw)


def elapsed_text(seconds: float) -> str:
    """``+4.2s``, ``+1m05s``, ``+2h03m``: the time since the run started, as short as it can be."""
    if seconds < 60:
        return f"+{seconds:.1f}s"
    if seconds < 3600:
        return f"+{int(seconds // 60)}m{int(seconds % 60):02d}s"
    return f"+{int(seconds // 3600)}h{int(seconds % 3600 // 60):02d}m"


def wrap_parts(text: str, first: int, rest: int) -> list[str]:
    """``text`` broken between its `` · `` parts into lines of at most ``first`` columns (the first line)
    and ``rest`` (the others); a part too long for a line of its own is broken between its words."""
    lines: list[str] = []
    current = ""
    for part in text.split(SEPARATOR):
        room = first if not lines else rest
        candidate = f"{current}{SEPARATOR}{part}" if current else part
        if display_width(candidate) <= room:
            current = candidate
            continue
        if current:
            lines.append(current)
            room = rest
        if display_width(part) <= room:
            current = part
            continue
        words = textwrap.wrap(part, room, break_long_words=True, break_on_hyphens=False) or [""]
        lines.append(fit(words[0], room))
        words = textwrap.wrap(" ".join(words[1:]), rest, break_long_words=True, break_on_hyphens=False) or [""]
        lines += [fit(word, rest) for word in words[:-1]]
        current = fit(words[-1], rest)
    lines.append(current)
    return [line for line in lines if line] or [""]


def _grouped_items(active: list[Active], now: float) -> list[str] | None:
    """The live line's entries with a for_each's running items as one (``implement ×12 4.2s``, the oldest's
    time; SPEC §13); None when no two running attempts are items of the same phase."""
    bases = [item_base(a.label.split(" ", 1)[0]) for a in active]
    counts: dict[str, int] = {}
    for base in bases:
        if base is not None:
            counts[base] = counts.get(base, 0) + 1
    if not any(n > 1 for n in counts.values()):
        return None
    entries: list[str] = []
    shown: set[str] = set()
    for a, base in zip(active, bases, strict=True):
        if base is not None and counts[base] > 1:
            if base not in shown:  # the first (oldest) item stands for them all
                entries.append(f"{base} ×{counts[base]} {now - a.started:.1f}s")
                shown.add(base)
            continue
        entries.append(f"{branch_tag(a.branch)}{a.label} {now - a.started:.1f}s")
    return entries


def branch_tag(branch: str | None) -> str:
    """``[security] `` for a line about a phase of branch ``security``; nothing on the run branch."""
    return f"[{branch}] " if branch else ""


class Progress:
    """Writes human-readable progress lines to stderr; never writes to stdout.

    On a terminal it also keeps a live status line at the bottom (the running phases, their attempts,
    elapsed times and the run's tokens), redrawn by ``tick`` and cleared before every progress line.
    """

    def __init__(
        self,
        enabled: bool = True,
        stream: TextIO | None = None,
        run_id: int | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.run_id = run_id
        self.environ = os.environ if environ is None else environ
        self._started = time.monotonic()
        self.live = enabled and is_terminal(self.stream)
        self.paint = Painter(enabled and wants_colour(self.stream, self.environ))
        self._active: dict[tuple[str, int], Active] = {}  # (phase, attempt) -> the attempt running
        self._branch_steps: dict[str, int] = {}  # branch head -> attempts started in that branch
        self._tokens = 0
        self._lock = threading.RLock()
        self._held = held_for(self.stream)

    def _width(self) -> int:
        return max(terminal_width(self.stream, self.environ) - 1, 10)  # the last column would wrap on some terminals

    def _line(
        self, text: str, mark: str = "", style: str = "", branch: str | None = None, details: tuple[str, ...] = ()
    ) -> None:
        """One progress line (``branch``: the branch head it is about), then ``details`` under it, then the
        live line again; all of it at once, so lines of concurrent branches never interleave."""
        if not self.enabled:
            return
        with self._lock:
            elapsed = elapsed_text(time.monotonic() - self._started)
            prefix = f"[run {self.run_id} {elapsed}]" if self.run_id is not None else f"[{elapsed}]"
            tag = branch_tag(branch)
            head = f"{prefix} {tag}{mark} " if mark else f"{prefix} {tag}"
            if not self.live:  # a CI log, a pipe: whole lines, held a moment to go out together (``held_lines``)
                if self.paint.enabled:  # FORCE_COLOR (unpainted, the head is ``head`` already)
                    head = self._painted_head(prefix, tag, mark, style)
                lines = [f"{head}{text}", *(self._detail_text(detail) for detail in details)]
                self._held.write("\n".join(lines) + "\n")
                return
            more: list[str] = []
            width = self._width()
            room = width - display_width(head)
            if room >= 12:  # the line goes on over continuation lines, broken between its parts
                body, *more = wrap_parts(text, room, width - len(CONTINUATION))
            else:  # a very narrow terminal: cut
                body = fit(head + text, width)
                body = body[len(head) :] if body.startswith(head) else ""
            self.stream.write(CLEAR_LINE)
            shown_head = self._painted_head(prefix, tag, mark, style)
            if not body and display_width(head) > self._width():
                shown_head = fit(head, self._width())  # a very narrow terminal: plain, cut
            print(f"{shown_head}{body}", file=self.stream, flush=True)
            for line in more:
                print(f"{CONTINUATION}{line}", file=self.stream, flush=True)
            for detail in details:
                self.stream.write(CLEAR_LINE)
                print(self._detail_text(detail, self._width()), file=self.stream, flush=True)
            self.tick()

    def _painted_head(self, prefix: str, tag: str, mark: str, style: str) -> str:
        """A line's head (its time, its branch tag, its mark) in the painter's styles."""
        marked = f"{self.paint(mark, style, 'bold')} " if mark else ""
        return f"{self.paint(prefix, 'dim')} {self.paint(tag.rstrip(), 'bold')}{' ' if tag else ''}{marked}"

    def _detail_text(self, text: str, width: int | None = None) -> str:
        """An indented line under the last one (the tail of a failed command's output), cut to ``width``
        columns on a terminal."""
        line = f"    │ {text}"
        return self.paint(line if width is None else fit(line, width), "dim")

    def flush(self) -> None:
        """Write the lines held off a terminal now (the run's drive ends: others write to the stream next)."""
        if self.enabled and not self.live:
            self._held.flush()

    def status_text(self, width: int) -> str:
        """The live line's text, at most ``width`` columns: every running phase (oldest first) and the run's
        tokens; '' when nothing runs."""
        with self._lock:
            active = sorted(self._active.values(), key=lambda a: a.started)
        if not active:
            return ""
        now = time.monotonic()
        tail = f" · run {self._tokens} tokens"
        if len(active) == 1:
            one = active[0]
            text = f"⟳ {branch_tag(one.branch)}{one.label} · {now - one.started:5.1f}s{tail}"
            output = printable(process_redactor().redact(one.last_output[0])) if one.last_output[0] else ""
            if output:
                text += f" · │ {output}"
            return fit(text, width)
        head = f"⟳ {len(active)} running: "
        entries = _grouped_items(active, now)
        if entries is None:
            entries = [f"{branch_tag(a.branch)}{a.label} {now - a.started:.1f}s" for a in active]
        room = width - display_width(head) - display_width(tail)
        listed = " · ".join(entries)
        if display_width(listed) > room:  # the short form: phase names and times only
            listed = " · ".join(f"{a.label.split(' ', 1)[0]} {now - a.started:.0f}s" for a in active)
        if display_width(listed) > room:  # each name cut to its share; what does not fit is counted
            listed = _squeeze([f"{a.label.split(' ', 1)[0]} {now - a.started:.0f}s" for a in active], room)
        if display_width(listed) > room:
            return fit(head + listed, width)
        return head + listed + tail

    def tick(self) -> None:
        """Redraw the live status line (terminals only), cut to the terminal's width."""
        if not self.live or not self.enabled:
            return
        with self._lock:
            text = self.status_text(self._width())
            if not text:
                return
            self.stream.write(f"{CLEAR_LINE}{self.paint(text, 'cyan')}")
            self.stream.flush()

    def countdown(self, text: str) -> None:
        """Show ``text`` (a usage-limit wait, SPEC §15) on the live line; off a terminal nothing is drawn."""
        if not self.live or not self.enabled:
            return
        with self._lock:
            self.stream.write(f"{CLEAR_LINE}{self.paint(fit(text, self._width()), 'yellow')}")
            self.stream.flush()

    def clear(self) -> None:
        """Remove the live status line (before something else writes to the terminal)."""
        if self.live and self.enabled:
            with self._lock:
                self.stream.write(CLEAR_LINE)
                self.stream.flush()

    def running(self) -> list[tuple[str, int]]:
        """The ``(phase, attempt)`` pairs running now, oldest first."""
        with self._lock:
            return [key for key, _ in sorted(self._active.items(), key=lambda item: item[1].started)]

    def note(self, text: str, style: str = "", branch: str | None = None) -> None:
        """A free-form line (a sentence); ``branch``: the branch head it is about (tags the line)."""
        if style:
            self._line(text, "•", style, branch)
        else:
            self._line(text, branch=branch)

    def output(self, phase: str, attempt: int, text: str) -> None:
        """A line a running attempt printed (a command's output, an agent's tool result): the live line
        shows the last non-blank one. Cheap: it only keeps the text, the redraw redacts and cleans it."""
        if not self.live:
            return
        active = self._active.get((phase, attempt))
        if active is None:
            return
        lines = text.rstrip().rsplit("\n", 1)
        if lines[-1].strip():
            active.last_output[0] = lines[-1][-500:]

    def phase_started(self, effect: StartPhase, kind: str, state: RunState) -> None:
        """A phase attempt starts (``effect.branch``: the branch head it runs in, None on the run branch).

        On the run branch it shows the run's step number; in a branch, the count of that branch's steps
        (the branches of a fan-out start together, when the run's count is already past them all)."""
        if not self.enabled:  # -q: nobody watches, nothing to keep or format
            return
        branch = effect.branch
        with self._lock:
            self._tokens = max(self._tokens, state.tokens)
            label = f"{effect.phase} ({kind}) attempt {effect.attempt}"
            self._active[(effect.phase, effect.attempt)] = Active(label, branch, time.monotonic())
            if branch is not None:
                self._branch_steps[branch] = self._branch_steps.get(branch, 0) + 1
                step = f"branch step {self._branch_steps[branch]}"
            else:
                step = f"step {state.steps}"
        self._line(
            f"{effect.phase} ({kind}) attempt {effect.attempt}, visit {effect.visit} · {step} · {state.tokens} tokens",
            "▶",
            "blue",
            branch,
        )

    def step_finished(self, effect: RecordStep, stats: Measured) -> None:
        """A phase attempt finished (or was interrupted or cancelled)."""
        if not self.enabled:
            return
        with self._lock:
            self._active.pop((effect.phase, effect.attempt), None)
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
        tail = stats.output_tail or ""
        details = tuple(tail.rstrip("\n").splitlines()[-TAIL_LINES_IN_PROGRESS:]) if outcome == "failed" else ()
        self._line(" · ".join(parts), mark, style, effect.branch, details if tail.strip() else ())

    def run_finished(self, effect: RunFinished) -> None:
        """The run reached a terminal status (the closing block after it says more)."""
        with self._lock:
            self._active.clear()
        status = effect.status.value
        reason = f" ({effect.reason})" if effect.reason else ""
        self._line(f"run {status}{reason}", MARKS.get(status, ("■", ""))[0], MARKS.get(status, ("", ""))[1])


def _squeeze(entries: list[str], room: int) -> str:
    """``entries`` joined by ``, ``, each cut to its share of ``room`` columns (at least 8); the ones that
    still do not fit are counted (``+2``)."""
    share = max((room - 2 * (len(entries) - 1)) // max(len(entries), 1), 8)
    shown = ""
    for index, entry in enumerate(entries):
        candidate = f"{shown}, {fit(entry, share)}" if shown else fit(entry, share)
        left = len(entries) - index - 1
        if display_width(candidate) + (len(f", +{left}") if left else 0) > room:
            rest = len(entries) - index
            return f"{shown}, +{rest}" if shown else f"+{rest}"
        shown = candidate
    return shown
