"""The run page: summary, actions, workflow graph, timeline, steps, events, reports, requests and diffs.

``render_run`` builds the whole page; ``render_live`` the parts a live update replaces (the summary,
actions, graph and timeline, the rows of new steps, and the reports and diffs only when they changed), so
that a change of a 20,000-step run sends a few kilobytes, not the page.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from alphred.store import RunRecord
from alphred.ui.data import RunView, StepRow
from alphred.ui.graph_svg import render_svg
from alphred.ui.html import badge, duration, h, link, money, page, query, when
from alphred.ui.reports_html import artifact_files, diffs, reports
from alphred.ui.timeline_svg import bars, lane_name, render_timeline
from alphred.views.item_groups import item_base


def render_run(view: RunView, *, actions: list[str], read_only: bool, now: datetime | None = None) -> str:
    """The whole run page."""
    now = now or datetime.now(UTC)
    parts = live_sections(view, actions=actions, read_only=read_only, now=now)
    run_id = view.record.id
    after = view.events[-1]["id"] if view.events else 0
    body = (
        f'<section id="summary" data-live>{parts["summary"]}</section>'
        f'<section id="actions" data-live>{parts["actions"]}</section>'
        f'<section id="graph" data-live>{parts["graph"]}</section>'
        f'<section id="timeline" data-live>{parts["timeline"]}</section>'
        f'<section id="items" data-live>{parts.get("items", "")}</section>'
        f'<section id="children" data-live>{parts.get("children", "")}</section>'
        f'<section id="steps"><h2>Steps</h2>{_steps(view)}</section>'
        f'<section id="events-box"><h2>Events</h2>{_events(run_id, view)}</section>'
        f'<section id="reports" data-live>{parts["reports"]}</section>'
        f'<section id="diffs" data-live>{parts["diffs"]}</section>'
        f'<section id="artifacts" data-live>{parts.get("artifacts", "")}</section>'
    )
    attrs = (
        f' data-run-id="{run_id}" data-after="{after}" data-steps="{view.step_total}"'
        f' data-artifact="{view.newest_artifact}" data-state="{h(state_key(view.status, view.step_total))}"'
    )
    return page(f"run {run_id}", body, kind="run", attrs=attrs, read_only=read_only)


def render_live(
    view: RunView,
    *,
    actions: list[str],
    read_only: bool,
    after: int,
    columns: tuple[bool, bool] | None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """A live update of a run page that shows steps up to number ``after`` in a table with ``columns``
    (None: no table yet); ``view`` holds the newest steps. JSON-ready: the HTML of the sections to replace,
    the rows of the newer steps (or the whole steps section when the page has no table, other columns, or
    would miss steps), the step count, the state key and the newest artifact id."""
    sections = live_sections(view, actions=actions, read_only=read_only, now=now or datetime.now(UTC))
    rows = ""
    gap = bool(view.steps) and view.steps[0].number > after + 1  # more new steps than the window holds
    if columns is None or columns != _columns(view) or gap:
        sections["steps"] = f"<h2>Steps</h2>{_steps(view)}"
    else:
        rows = "".join(_step_row(row, columns, view.record.branch) for row in view.steps if row.number > after)
    return {
        "sections": sections,
        "steps": rows,
        "step_total": view.step_total,
        "artifact": view.newest_artifact if view.reports is not None else None,
        "state": state_key(view.status, view.step_total),
    }


def live_sections(view: RunView, *, actions: list[str], read_only: bool, now: datetime) -> dict[str, str]:
    """The inner HTML of every section a live update replaces (reports and diffs only when read)."""
    status = view.status
    current = [item_base(p["key"]) or p["key"] for p in status["phases"] if p["status"] == "running"]
    states = _grouped_states(status["phases"])
    sections = {
        "summary": _summary(status, view.step_total, now),
        "actions": _actions(view.record.id, actions, read_only, view.waiting_child) + _answered_by_parent(view.record),
        "graph": '<h2>Workflow</h2><div class="graph-box">'
        f"{render_svg(view.graph, states, current=current, run=status, counts=_counts(view))}</div>",
        "timeline": f'<h2>Timeline</h2><div class="timeline-box">{render_timeline(bars(view), now)}</div>',
    }
    items = _items(status, view.items)
    if items:  # a run with for_each items (SPEC §13)
        sections["items"] = items
    if view.children:  # the runs of its workflow phases (SPEC §13)
        sections["children"] = _children(view)
    if view.reports is not None:
        sections["reports"] = f"<h2>Reports</h2>{reports(view.reports, view.older_reports, status['phases'])}"
    if view.diffs is not None:
        sections["diffs"] = f"<h2>Changes</h2>{diffs(view.diffs, view.older_diffs)}"
    if view.reports is not None:  # a phase ended since the page read them: its files too (SPEC §17)
        sections["artifacts"] = f"<h2>Artifacts</h2>{artifact_files(view.record.id, view.files)}"
    return sections


def state_key(status: dict[str, Any], steps: int) -> str:
    """What the page shows of the run's state, as one string (ui.js computes the same from the stream)."""
    phases = ",".join(f"{p['key']}:{p['status']}:{p['attempt']}" for p in status.get("phases") or [])
    parts = [status.get("status"), status.get("reason"), steps, status.get("tokens"), status.get("pr_url"), phases]
    return "|".join(str(part) for part in parts)


def _counts(view: RunView) -> dict[str, int]:
    """How many items (branches) each ``for_each`` phase ran: its instances ``<phase>-<index>`` (SPEC §13)."""
    each = {n.key for n in view.graph.nodes if n.each is not None}
    counts: dict[str, int] = {}
    for p in view.status.get("phases") or []:
        base = item_base(p["key"])
        if base in each:
            counts[base] = counts.get(base, 0) + 1
    return counts


def _grouped_states(phases: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The status entry of each phase for the graph; a for_each phase's stacked node stands for its items:
    running while any runs, failed when any failed, completed once all completed."""
    states = {p["key"]: p for p in phases}
    items: dict[str, list[dict[str, Any]]] = {}
    for p in phases:
        base = item_base(p["key"])
        if base is not None:
            items.setdefault(base, []).append(p)
    for base, group in items.items():
        found = {p["status"] for p in group}
        status = next((s for s in ("running", "failed", "pending") if s in found), group[0]["status"])
        states[base] = {**states.get(base, {}), "status": status, "attempt": sum(p["attempt"] for p in group)}
    return states


def _items(status: dict[str, Any], branches: dict[str, tuple[str, str]] | None = None) -> str:
    """The phases of a run's for_each items as a table (empty without any): each with its branch's outcome
    (``branches``: phase -> (outcome, state), ``UiData.item_branches``; its state beside it when that says
    more, ``completed merged``) and the phase's own status, attempt, decision and git branch."""
    rows = [p for p in status.get("phases") or [] if item_base(p["key"]) is not None]
    if not rows:
        return ""
    branches = branches or {}

    def outcome(key: str) -> str:
        found = branches.get(key)
        if found is None:  # the workflow's source no longer loads: the phases' status only
            return "–"
        return badge(found[0], found[1] if found[1] != found[0] else None)

    body = "".join(
        f"<tr><td class=mono>{h(p['key'])}</td><td class=outcome>{outcome(p['key'])}</td>"
        f"<td class=phase-status>{badge(str(p['status']))}</td><td>{h(p['attempt'])}</td>"
        f"<td>{h(p.get('decision') or '–')}</td><td class=mono>{h(p.get('branch') or '–')}</td></tr>"
        for p in rows
    )
    head = (
        "<tr><th>item phase</th><th>branch</th><th>phase status</th><th>attempt</th><th>decision</th>"
        "<th>git branch</th></tr>"
    )
    return f"<h2>Items</h2><table class=items><thead>{head}</thead><tbody>{body}</tbody></table>"


def _children(view: RunView) -> str:
    """The sub-workflow runs of the run's workflow phases (SPEC §13), each linking to its own page."""
    body = "".join(
        f'<tr><td class=mono>{h(c.parent_step)}</td><td><a href="/runs/{h(c.id)}">run {h(c.id)}</a></td>'
        f"<td>{h(c.tree_key)} <span class=dim>v{h(c.tree_version)}</span></td>"
        f"<td>{badge(c.status.value, c.reason)}</td>"
        f"<td>{h(sum(1 for n in c.nodes if n.status.value == 'completed'))}/{h(len(c.nodes))}</td>"
        f"<td>{h(c.tokens)}</td></tr>"
        for c in view.children
    )
    head = "<tr><th>phase step</th><th>run</th><th>workflow</th><th>status</th><th>phases done</th><th>tokens</th></tr>"
    return f"<h2>Sub-workflows</h2><table class=children><thead>{head}</thead><tbody>{body}</tbody></table>"


def _summary(status: dict[str, Any], steps: int, now: datetime) -> str:
    workflow = status.get("workflow") or {}
    fields = [
        ("workflow", f"{h(workflow.get('key'))} <span class=dim>v{h(workflow.get('version'))}</span>"),
        ("branch", f"<span class=mono>{h(status.get('branch') or '–')}</span>"),
        ("base", f"<span class=mono>{h((status.get('base') or '–')[:12])}</span>"),
        ("head", f"<span class=mono>{h((status.get('head') or '–')[:12])}</span>"),
        ("pull request", link(status["pr_url"]) if status.get("pr_url") else "–"),
        ("tokens", h(status.get("tokens"))),
        ("cost", money(status.get("cost_usd"))),
        ("steps", h(steps)),
        ("started", when(status.get("started_at"))),
        ("duration", duration(status.get("started_at"), status.get("completed_at"), now)),
    ]
    if status.get("worktree"):
        fields.append(("worktree", f"<span class=mono>{h(status['worktree'])}</span>"))
    if status.get("parent_run_id") is not None:  # a sub-workflow's run (SPEC §13): back to its parent
        parent, step = status["parent_run_id"], status.get("parent_step") or ""
        fields.append(("sub-workflow of", f'<a href="/runs/{h(parent)}">run {h(parent)}</a> ({h(step)})'))
    if status.get("inputs"):
        shown = ", ".join(f"{h(k)}={h(_short(v, 80))}" for k, v in status["inputs"].items())
        fields.append(("inputs", f"<span class=mono>{shown}</span>"))
    items = "".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in fields)
    reason = status.get("reason")
    if status.get("status") == "paused" and reason == "awaiting_approval":
        reason = "waiting for approval"
    return f'<h1>Run #{h(status["run_id"])} {badge(status.get("status"), reason)}</h1><dl class="facts">{items}</dl>'


def _actions(run_id: int, actions: list[str], read_only: bool, waiting: RunRecord | None = None) -> str:
    if read_only:
        return '<p class="dim">Read-only view: actions are disabled.</p>'
    if not actions:
        return ""
    parts = []
    if "approve" in actions:
        parts.append(
            f'<form class="action approval" method="post" action="/api/runs/{run_id}/approve" data-action="approve">'
            f"{_waiting_child(run_id, waiting)}"
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


def _waiting_child(run_id: int, child: RunRecord | None) -> str:
    """Which sub-workflow run (SPEC §13) the approval form answers, when the run itself waits for none."""
    if child is None:
        return ""
    phase = next((n.node_key for n in child.nodes if n.status.value == "running"), "")
    at = f" at phase <span class=mono>{h(phase)}</span>" if phase else ""
    return (
        f'<p class="waiting-child" data-child="{h(child.id)}">Sub-workflow <a href="/runs/{h(child.id)}">run '
        f"{h(child.id)}</a> ({h(child.tree_key)}) waits for approval{at}: the answer goes to it, and run "
        f"{h(run_id)} continues.</p>"
    )


def _answered_by_parent(record: RunRecord) -> str:
    """On a sub-workflow's run waiting at an approval (SPEC §13): where it is answered, its parent's page."""
    if record.parent_run_id is None or record.status.value != "paused" or record.reason != "awaiting_approval":
        return ""
    parent = h(record.parent_run_id)
    link_to = f'<a href="/runs/{parent}">run {parent}</a>'
    return f'<p class="answered-by-parent">Approve or reject it on its parent {link_to}.</p>'


def _columns(view: RunView) -> tuple[bool, bool]:
    """Whether the steps table has a branch column (a parallel run) and a provider column (the steps ran on
    more than one provider: several agents, or a ``fallback`` took over, SPEC §15)."""
    parallel = any(n.lane for n in view.graph.nodes)
    return parallel, len({row.entry.get("provider") for row in view.steps} - {None}) > 1


def _steps(view: RunView) -> str:
    return steps_table(view.steps, view.step_total, columns=_columns(view), run_branch=view.record.branch)


def steps_table(
    rows: list[StepRow], total: int, *, columns: tuple[bool, bool] = (False, False), run_branch: str | None = None
) -> str:
    """The steps table of ``rows`` (a window of the run's ``total`` steps) with its pager; ``columns`` says
    whether it has a branch and a provider column."""
    if not rows:
        return '<p class="empty">No finished attempt yet.</p>' if total == 0 else _pager(rows, total)
    branch, provider = columns
    head = "<th>#</th><th>phase</th>" + ("<th>branch</th>" if branch else "") + "<th>attempt</th><th>outcome</th>"
    head += "<th>decision</th><th>next</th><th>reason</th><th>time</th><th class=num>tokens</th>"
    head += ("<th>provider</th>" if provider else "") + "<th>checks</th>"
    body = "".join(_step_row(row, columns, run_branch) for row in rows)
    first, last = rows[0].number, rows[-1].number
    follow = "1" if last >= total else "0"
    return (
        f'{_pager(rows, total)}<table class="steps"><thead><tr>{head}</tr></thead>'
        f'<tbody id="step-rows" data-first="{first}" data-last="{last}" data-follow="{follow}" '
        f'data-columns="{int(branch)}{int(provider)}">{body}</tbody></table>'
    )


def _pager(rows: list[StepRow], total: int) -> str:
    """Which steps the table shows, and links to older ones and back to the newest."""
    if not rows:
        return f'<p class="dim">No step before this one (the run has {total}). <a href="?">newest steps</a></p>'
    first, last = rows[0].number, rows[-1].number
    newest = last >= total
    links = []
    if first > 1:
        links.append(f'<a class="older" href="{h(query(steps_before=first))}">older steps →</a>')
    if not newest:
        links.append('<a class="newest" href="?">newest steps</a>')
    shown = f"steps {first}–{last} of {total}" if first > 1 or not newest else ""
    if not links and not shown:
        return ""
    return f'<p class="pager dim" id="steps-pager">{shown} {" ".join(links)}</p>'


def _step_row(row: StepRow, columns: tuple[bool, bool], run_branch: str | None) -> str:
    step, record = row.entry, row.record
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
    seconds = record.duration_ms
    branch = ""
    if columns[0]:
        lane = lane_name(step.get("branch"), run_branch) if step.get("branch") else "–"
        branch = f'<td class=mono title="{h(step.get("branch") or "")}">{h(lane)}</td>'
    provider = f"<td>{h(step.get('provider') or '–')}</td>" if columns[1] else ""
    return (
        f'<tr class="outcome-{h(step.get("outcome"))}" data-step="{row.number}"><td>{row.number}</td>'
        f"<td>{h(step.get('phase'))}</td>{branch}"
        f"<td>#{h(step.get('attempt'))}</td><td>{badge(step.get('outcome'))}</td>"
        f"<td>{h(step.get('decision') or '–')}</td><td>{h(step.get('next') or '–')}</td>"
        f"<td>{h(record.reason or '–')}</td>"
        f"<td>{'–' if seconds is None else f'{seconds / 1000:.1f}s'}</td>"
        f"<td class=num>{h(record.tokens)}</td>{provider}<td>{shown}</td></tr>"
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
    events = view.events or []
    items = "".join(event_line(e) for e in events)
    empty = "" if events else '<p class="empty" id="no-events">No events yet.</p>'
    return f'{earlier}{empty}<ol id="events" class="events">{items}</ol>'


def _short(value: Any, limit: int) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
