"""The run page: summary, actions, workflow graph, steps, events, reports, requests and each commit's diff."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from alphred.store import ArtifactRecord
from alphred.ui.data import RunView
from alphred.ui.graph_svg import render_svg
from alphred.ui.html import badge, duration, h, link, money, page, when

MAX_ARTIFACTS = 100  # reports and diffs shown per kind, newest first kept
MAX_TEXT = 200_000  # characters of one report or diff shown


def render_run(view: RunView, *, actions: list[str], read_only: bool, now: datetime | None = None) -> str:
    """The whole run page."""
    now = now or datetime.now(UTC)
    status = view.status
    run_id = int(status["run_id"])
    current = [p["key"] for p in status["phases"] if p["status"] == "running"]
    states = {p["key"]: p for p in status["phases"]}
    after = view.events[-1]["id"] if view.events else 0
    body = (
        f'<section id="summary" data-live>{_summary(status, now)}</section>'
        f'<section id="actions" data-live>{_actions(run_id, actions, read_only)}</section>'
        f'<section id="graph" data-live><h2>Workflow</h2><div class="graph-box">'
        f"{render_svg(view.topology, states, current=current)}</div></section>"
        f'<section id="steps" data-live><h2>Steps</h2>{_steps(status, view.steps_detail)}</section>'
        f'<section id="events-box"><h2>Events</h2>{_events(run_id, view)}</section>'
        f'<section id="reports" data-live><h2>Reports</h2>{_reports(view.artifacts)}</section>'
        f'<section id="diffs" data-live><h2>Changes</h2>{_diffs(view.artifacts)}</section>'
    )
    attrs = f' data-run-id="{run_id}" data-after="{after}" data-state="{h(state_key(status))}"'
    return page(f"run {run_id}", body, kind="run", attrs=attrs, read_only=read_only)


def state_key(status: dict[str, Any]) -> str:
    """What the page shows of the run's state, as one string (ui.js computes the same from a status object)."""
    phases = ",".join(f"{p['key']}:{p['status']}:{p['attempt']}" for p in status.get("phases") or [])
    steps = len(status.get("steps") or [])
    parts = [status.get("status"), status.get("reason"), steps, status.get("tokens"), status.get("pr_url"), phases]
    return "|".join(str(part) for part in parts)


def _summary(status: dict[str, Any], now: datetime) -> str:
    workflow = status.get("workflow") or {}
    fields = [
        ("workflow", f"{h(workflow.get('key'))} <span class=dim>v{h(workflow.get('version'))}</span>"),
        ("branch", f"<span class=mono>{h(status.get('branch') or '–')}</span>"),
        ("base", f"<span class=mono>{h((status.get('base') or '–')[:12])}</span>"),
        ("head", f"<span class=mono>{h((status.get('head') or '–')[:12])}</span>"),
        ("pull request", link(status["pr_url"]) if status.get("pr_url") else "–"),
        ("tokens", h(status.get("tokens"))),
        ("cost", money(status.get("cost_usd"))),
        ("started", when(status.get("started_at"))),
        ("duration", duration(status.get("started_at"), status.get("completed_at"), now)),
    ]
    if status.get("worktree"):
        fields.append(("worktree", f"<span class=mono>{h(status['worktree'])}</span>"))
    if status.get("inputs"):
        shown = ", ".join(f"{h(k)}={h(_short(v, 80))}" for k, v in status["inputs"].items())
        fields.append(("inputs", f"<span class=mono>{shown}</span>"))
    items = "".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in fields)
    return (
        f"<h1>Run #{h(status['run_id'])} {badge(status.get('status'), status.get('reason'))}</h1>"
        f'<dl class="facts">{items}</dl>'
    )


def _actions(run_id: int, actions: list[str], read_only: bool) -> str:
    if read_only:
        return '<p class="dim">Read-only view: actions are disabled.</p>'
    if not actions:
        return ""
    parts = []
    if "approve" in actions:
        parts.append(
            f'<form class="action approval" method="post" action="/api/runs/{run_id}/approve" data-action="approve">'
            '<label>Comment <textarea name="comment" rows="2" maxlength="20000" '
            'placeholder="why (optional; the next phase sees it)"></textarea></label>'
            '<button type="submit" class="approve" name="action" value="approve">Approve</button>'
            f'<button type="submit" class="reject" name="action" value="reject" '
            f'formaction="/api/runs/{run_id}/reject">Reject</button></form>'
        )
    for action in ("resume", "pause", "cancel"):
        if action in actions:
            parts.append(
                f'<form class="action" method="post" action="/api/runs/{run_id}/{action}" data-action="{action}">'
                f'<button type="submit" class="{action}" name="action" value="{action}">{action.title()}</button>'
                "</form>"
            )
    return f'<div class="actions">{"".join(parts)}</div>'


def _steps(status: dict[str, Any], detail: list[dict[str, Any]]) -> str:
    steps = status.get("steps") or []
    if not steps:
        return '<p class="empty">No finished attempt yet.</p>'
    rows = []
    for i, step in enumerate(steps):
        more = detail[i] if i < len(detail) else {}
        checks = step.get("checks")
        shown = (
            " ".join(
                f'<span class="check {"pass" if c.get("passed") else "fail"}">{h(c.get("name"))}'
                f"{'' if c.get('exit_code') is None else ' (' + h(c.get('exit_code')) + ')'}</span>"
                for c in checks
            )
            if checks
            else "–"
        )
        seconds = more.get("duration_ms")
        rows.append(
            f'<tr class="outcome-{h(step.get("outcome"))}"><td>{i + 1}</td><td>{h(step.get("phase"))}</td>'
            f"<td>#{h(step.get('attempt'))}</td><td>{badge(step.get('outcome'))}</td>"
            f"<td>{h(step.get('decision') or '–')}</td><td>{h(step.get('next') or '–')}</td>"
            f"<td>{h(more.get('reason') or '–')}</td>"
            f"<td>{'–' if seconds is None else f'{seconds / 1000:.1f}s'}</td>"
            f"<td class=num>{h(more.get('tokens', 0))}</td><td>{shown}</td></tr>"
        )
    return (
        '<table class="steps"><thead><tr><th>#</th><th>phase</th><th>attempt</th><th>outcome</th>'
        "<th>decision</th><th>next</th><th>reason</th><th>time</th><th class=num>tokens</th><th>checks</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def event_line(event: dict[str, Any]) -> str:
    """One event as a list item (the script builds the same markup for live ones)."""
    stamp = (event.get("timestamp") or "")[11:19]
    return (
        f'<li class="ev ev-{h(event.get("type"))}" data-id="{h(event.get("id"))}">'
        f'<span class="t">{h(stamp)}</span> <span class="ph">{h(event.get("phase"))}#{h(event.get("attempt"))}</span>'
        f' <span class="ty">{h(event.get("type"))}</span> <span class="c">{h(event.get("content"))}</span></li>'
    )


def _events(run_id: int, view: RunView) -> str:
    earlier = (
        f'<p class="dim">Older events: <a href="/api/runs/{run_id}/events?after=0">all events as JSON</a>.</p>'
        if view.earlier_events
        else ""
    )
    items = "".join(event_line(e) for e in view.events)
    empty = "" if view.events else '<p class="empty" id="no-events">No events yet.</p>'
    return f'{earlier}{empty}<ol id="events" class="events">{items}</ol>'


def _artifact_text(artifact: ArtifactRecord) -> str:
    if artifact.content_text is not None and artifact.content_text != "":
        return artifact.content_text
    if artifact.content_json is not None:
        return json.dumps(artifact.content_json, indent=2, ensure_ascii=False, sort_keys=True)
    return ""


def _newest(items: list[ArtifactRecord], what: str) -> tuple[list[ArtifactRecord], str]:
    """The newest ``MAX_ARTIFACTS`` of ``items`` and a note on those left out."""
    if len(items) <= MAX_ARTIFACTS:
        return items, ""
    left = len(items) - MAX_ARTIFACTS
    return items[-MAX_ARTIFACTS:], f'<p class="dim">{left} older {what} not shown.</p>'


def _cut(text: str) -> str:
    if len(text) <= MAX_TEXT:
        return text
    return text[:MAX_TEXT] + f"\n[... {len(text) - MAX_TEXT} more characters not shown]"


def _reports(artifacts: list[ArtifactRecord]) -> str:
    shown, note = _newest([a for a in artifacts if a.kind not in ("diff",)], "reports")
    if not shown:
        return '<p class="empty">No report yet.</p>'
    items = [note]
    for a in shown:
        label = "" if a.kind == "report" else f' <span class="kind">{h(a.kind)}</span>'
        items.append(
            f'<article class="report kind-{h(a.kind)}"><h3>{h(a.node_key)} #{h(a.attempt)}{label}</h3>'
            f'<pre class="text">{h(_cut(_artifact_text(a)))}</pre></article>'
        )
    return "".join(items)


def _diffs(artifacts: list[ArtifactRecord]) -> str:
    diffs, note = _newest([a for a in artifacts if a.kind == "diff"], "diffs")
    if not diffs:
        return '<p class="empty">No commit yet.</p>'
    return note + "".join(
        f'<details class="diff" open><summary>{h(a.node_key)} #{h(a.attempt)}</summary>'
        f"{render_diff(_cut(a.content_text or ''))}</details>"
        for a in diffs
    )


def render_diff(text: str) -> str:
    """A unified diff with added, removed, hunk and file lines marked for colour."""
    lines = []
    for line in text.splitlines():
        if line.startswith(("+++", "---", "diff ", "index ", "new file", "deleted file")):
            cls = "file"
        elif line.startswith("@@"):
            cls = "hunk"
        elif line.startswith("+"):
            cls = "add"
        elif line.startswith("-"):
            cls = "del"
        else:
            cls = "ctx"
        lines.append(f'<span class="{cls}">{h(line)}</span>')
    return f'<pre class="diff-text">{"".join(lines)}</pre>'


def _short(value: Any, limit: int) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
