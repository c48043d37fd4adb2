"""The run's timeline as server-side SVG: one lane per branch, one bar per attempt (a Gantt chart).

The run branch is the first lane, each parallel branch (a fan-out's branch, a ``for_each`` item) a lane of
its own, in the order they first ran. A bar spans an attempt from its start to its end (to now while it
runs), coloured by its outcome, labelled ``phase #attempt`` where it is wide enough; its tooltip says the
outcome and duration. A phase waiting for approval does not stretch the time axis: its bar runs open to
the right edge. The bars are those of the newest ``MAX_BARS`` steps the page shows and of the attempts
running now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from html import escape

from alphred.ui.data import RunView
from alphred.views.status import WAITING_FOR_APPROVAL, shown_phase_status
from alphred.views.style import format_seconds

WIDTH, LABEL_W, RIGHT, TOP, LANE_H, BAR_H = 960, 150, 16, 26, 28, 18
MAX_BARS = 60  # the newest finished attempts drawn (more would be slivers; the steps table lists them all)
CHAR_W = 6.6
RUN_LANE = "run branch"


@dataclass(frozen=True)
class Bar:
    """One attempt on the timeline; ``end`` is None while it runs."""

    lane: str
    phase: str
    attempt: int
    outcome: str
    start: datetime
    end: datetime | None


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def lane_name(branch: object, run_branch: str | None) -> str:
    """A lane's name: the part of a parallel branch's git branch after ``<run branch>.``."""
    if not branch:
        return RUN_LANE
    text = str(branch)
    prefix = f"{run_branch}."
    return text[len(prefix) :] if run_branch and text.startswith(prefix) else text


def bars(view: RunView) -> list[Bar]:
    """The bars of the page's steps and of the attempts running now."""
    run_branch = view.record.branch
    found = []
    for row in view.steps[-MAX_BARS:]:
        end = _utc(row.record.created_at)
        start = end - timedelta(milliseconds=row.record.duration_ms or 0)
        lane = lane_name(row.entry.get("branch"), run_branch)
        found.append(Bar(lane, row.record.phase, row.record.attempt, row.record.outcome.value, start, end))
    if view.newest_steps:
        branches = {p["key"]: p.get("branch") for p in view.status.get("phases") or []}
        status, reason = view.status.get("status"), view.status.get("reason")
        for node in view.record.nodes:
            if node.status.value == "running" and node.started_at is not None:
                shown = shown_phase_status(status, reason, "running")
                outcome = "waiting" if shown == WAITING_FOR_APPROVAL else "running"
                lane = lane_name(branches.get(node.node_key), run_branch)
                found.append(Bar(lane, node.node_key, node.attempt, outcome, _utc(node.started_at), None))
    return found


def render_timeline(items: Sequence[Bar], now: datetime) -> str:
    """The SVG, or a short note when no attempt has started yet."""
    if not items:
        return '<p class="empty">No attempt yet.</p>'
    now = _utc(now)
    lanes: list[str] = [RUN_LANE] if any(b.lane == RUN_LANE for b in items) else []
    for item in sorted(items, key=lambda b: b.start):
        if item.lane not in lanes:
            lanes.append(item.lane)
    first = min(b.start for b in items)
    # a phase waiting for approval is not work: it does not stretch the axis (its bar runs open to the edge)
    last = max(max(b.start if b.outcome == "waiting" else b.end or now for b in items), first + timedelta(seconds=1))
    if any(b.outcome == "waiting" for b in items):
        last += (last - first) * 0.15
    span = (last - first).total_seconds()
    plot = WIDTH - LABEL_W - RIGHT
    height = TOP + LANE_H * len(lanes) + 8

    def x_of(moment: datetime) -> float:
        return LABEL_W + plot * max((moment - first).total_seconds(), 0.0) / span

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="timeline" role="img" aria-label="timeline of attempts" '
        f'viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}">'
    ]
    for tick in range(5):
        x = LABEL_W + plot * tick / 4
        anchor = "end" if tick == 4 else "middle" if tick else "start"
        parts.append(
            f'<line class="tick" x1="{x:.1f}" y1="{TOP - 6}" x2="{x:.1f}" y2="{height - 4}"/>'
            f'<text class="tick-label" x="{x:.1f}" y="{TOP - 10}" text-anchor="{anchor}">'
            f"+{escape(format_seconds(span * tick / 4))}</text>"
        )
    for index, lane in enumerate(lanes):
        top = TOP + index * LANE_H
        parts.append(
            f'<g class="lane" data-lane="{escape(lane)}"><rect class="lane-bg" x="0" y="{top}" width="{WIDTH}" '
            f'height="{LANE_H}"/><text class="lane-label" x="8" y="{top + LANE_H / 2 + 4:.1f}">'
            f"{escape(_cut(lane, int((LABEL_W - 14) / CHAR_W)))}</text></g>"
        )
    for item in items:
        y = TOP + lanes.index(item.lane) * LANE_H + (LANE_H - BAR_H) / 2
        x1 = x_of(item.start)
        width = max(x_of(last if item.outcome == "waiting" else item.end or now) - x1, 2.0)
        seconds = ((item.end or now) - item.start).total_seconds()
        label = f"{item.phase} #{item.attempt}"
        state = {"running": "running", "waiting": WAITING_FOR_APPROVAL}.get(item.outcome, item.outcome)
        title = f"{label}: {state}, {format_seconds(max(seconds, 0.0))}" + (
            "" if item.lane == RUN_LANE else f" (branch {item.lane})"
        )
        text = (
            f'<text x="{x1 + 4:.1f}" y="{y + BAR_H / 2 + 4:.1f}">{escape(label)}</text>'
            if width >= len(label) * CHAR_W + 8
            else ""
        )
        parts.append(
            f'<g class="bar out-{escape(item.outcome)}" data-phase="{escape(item.phase)}" '
            f'data-attempt="{item.attempt}" data-lane="{escape(item.lane)}"><title>{escape(title)}</title>'
            f'<rect x="{x1:.1f}" y="{y:.1f}" width="{width:.1f}" height="{BAR_H}" rx="3"/>{text}</g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 1)] + "…"
