"""The runs list: status, workflow, branch, started, duration, tokens, cost and PR; a status filter; pages."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from alphred.ui.data import RUN_STATUSES
from alphred.ui.html import badge, duration, h, link, money, page, query, when


def render_runs(
    runs: list[dict[str, Any]],
    *,
    status: str | None,
    before: int | None,
    next_before: int | None,
    read_only: bool,
    now: datetime | None = None,
) -> str:
    """The runs list page (``runs`` are status objects without steps, newest first)."""
    now = now or datetime.now(UTC)
    tabs = [f'<a href="/"{_current(status is None)}>all</a>']
    tabs += [f'<a href="/{query(status=s)}"{_current(status == s)}>{h(s)}</a>' for s in RUN_STATUSES]
    nav = f'<nav class="filter" aria-label="filter by status">{"".join(tabs)}</nav>'
    if runs:
        rows = "".join(_row(run, now) for run in runs)
        table = (
            '<table class="runs"><thead><tr><th>run</th><th>status</th><th>workflow</th><th>branch</th>'
            "<th>started</th><th>duration</th><th class=num>tokens</th><th class=num>cost</th><th>PR</th></tr>"
            f"</thead><tbody>{rows}</tbody></table>"
        )
    else:
        table = '<p class="empty">No runs yet' + (f" with status {h(status)}" if status else "") + ".</p>"
    pager = []
    if before is not None:
        pager.append(f'<a href="/{query(status=status)}">newest</a>')
    if next_before is not None:
        pager.append(f'<a class="older" href="/{query(status=status, before=next_before)}">older →</a>')
    pages = f'<nav class="pager">{" ".join(pager)}</nav>' if pager else ""
    body = f'{nav}<section id="runs" data-live>{table}{pages}</section>'
    return page("runs", body, kind="runs", read_only=read_only)


def _current(yes: bool) -> str:
    return ' aria-current="page" class="current"' if yes else ""


def _row(run: dict[str, Any], now: datetime) -> str:
    run_id = int(run["run_id"])
    workflow = run.get("workflow") or {}
    return (
        f'<tr data-run="{run_id}"><td><a href="/runs/{run_id}">#{run_id}</a></td>'
        f"<td>{badge(run.get('status'), run.get('reason'))}</td>"
        f"<td>{h(workflow.get('key'))} <span class=dim>v{h(workflow.get('version'))}</span></td>"
        f"<td class=mono>{h(run.get('branch') or '–')}</td><td>{when(run.get('started_at'))}</td>"
        f"<td>{duration(run.get('started_at'), run.get('completed_at'), now)}</td>"
        f"<td class=num>{h(run.get('tokens'))}</td><td class=num>{money(run.get('cost_usd'))}</td>"
        f"<td>{link(run.get('pr_url'), 'PR') if run.get('pr_url') else '–'}</td></tr>"
    )
