"""HTML building blocks for the web view: escaping, the page frame, badges, times, money and links.

Every value that comes from a run (names, reports, events, diffs, URLs) goes through ``h`` (or ``link``,
which also refuses any URL that is not http(s)); the frame never inlines a script or a style, so the
Content-Security-Policy can forbid both.
"""

from __future__ import annotations

from datetime import datetime
from html import escape
from typing import Any
from urllib.parse import urlencode

from alphred.views.style import format_seconds

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


def h(value: Any) -> str:
    """``value`` as text, HTML-escaped (quotes too: safe inside attributes)."""
    return escape("" if value is None else str(value), quote=True)


def link(url: Any, text: Any = None) -> str:
    """An ``<a>`` to ``url`` when it is an http(s) URL; otherwise the escaped text alone."""
    label = h(text if text is not None else url)
    if isinstance(url, str) and url.lower().startswith(("https://", "http://")):
        return f'<a href="{h(url)}" rel="noopener noreferrer">{label}</a>'
    return label


def query(**params: Any) -> str:
    """``?a=1&b=2`` from the parameters that are not None ('' when none is left)."""
    kept = {k: v for k, v in params.items() if v is not None and v != ""}
    return "?" + urlencode(kept) if kept else ""


def badge(status: Any, reason: Any = None) -> str:
    """A coloured status label, with the reason after it."""
    text = f'<span class="badge st-{h(status)}" data-status="{h(status)}">{h(status)}</span>'
    return text + (f' <span class="reason">{h(reason)}</span>' if reason else "")


def parse_time(value: str | None) -> datetime | None:
    """An ISO time of the status object back into a datetime."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def when(value: str | None) -> str:
    """A ``<time>`` element (the script shows it in local time; without it, UTC)."""
    moment = parse_time(value)
    if moment is None:
        return "–"
    return f'<time datetime="{h(value)}">{h(moment.strftime("%Y-%m-%d %H:%M:%S"))} UTC</time>'


def duration(started: str | None, ended: str | None, now: datetime) -> str:
    """``1h 02m``, ``3m 07s`` or ``12.3s`` between two times (``now`` when not ended)."""
    start = parse_time(started)
    if start is None:
        return "–"
    end = parse_time(ended) or now
    seconds = max((end - start).total_seconds(), 0.0)
    return format_seconds(seconds)


def money(value: Any) -> str:
    """A cost in USD."""
    try:
        return f"${float(value):.4f}"
    except (TypeError, ValueError):
        return "–"


def page(title: str, body: str, *, kind: str, attrs: str = "", read_only: bool = False) -> str:
    """The whole HTML document around ``body``."""
    mode = '<span class="mode">read-only</span>' if read_only else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{h(title)}</title><link rel="stylesheet" href="/static/ui.css">'
        '<script src="/static/ui.js" defer></script></head>'
        f'<body data-page="{h(kind)}"{attrs}><header class="top"><a class="brand" href="/">alphred</a>'
        f'<span class="title">{h(title)}</span>{mode}<span id="live" class="live" hidden>live</span></header>'
        f'<main>{body}</main><div id="toast" class="toast" role="status" hidden></div></body></html>'
    )


def error_page(status: int, title: str, message: str, *, hint: str = "") -> str:
    """A page for an error (404, 403, 400, 503, ...): what happened, and where to go."""
    more = f'<p class="dim">{hint}</p>' if hint else ""
    body = (
        f'<section class="error-page"><h1>{status} · {h(title)}</h1><p>{h(message)}</p>{more}'
        '<p><a href="/">all runs</a></p></section>'
    )
    return page(title, body, kind="error")
