"""Reports, requests and diffs on the run page: a report object as a definition list, text as text.

A report that is a JSON object (a typed ``output:`` report, SPEC §12, or any object a provider returned)
is shown as nested definition lists (lists as numbered lists), never as raw JSON; a text report as
preformatted text. Sizes are bounded: ``MAX_TEXT`` characters of one text, ``MAX_ITEMS`` entries of one
object or list, ``MAX_DEPTH`` levels (deeper values as compact JSON).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

from alphred.store import ArtifactRecord, RunFileRecord
from alphred.ui.html import h

MAX_TEXT = 200_000
MAX_ITEMS = 200
MAX_DEPTH = 6


def cut(text: str, limit: int = MAX_TEXT) -> str:
    """``text``, cut to ``limit`` characters with a note of how many were left out."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} more characters not shown]"


def render_value(value: Any, depth: int = 0) -> str:
    """A report value as HTML: objects as ``<dl>``, lists as ``<ol>``, text as text (everything escaped)."""
    if isinstance(value, Mapping) and value and depth < MAX_DEPTH:
        items = list(value.items())
        rows = "".join(f"<dt>{h(k)}</dt><dd>{render_value(v, depth + 1)}</dd>" for k, v in items[:MAX_ITEMS])
        left = len(items) - MAX_ITEMS
        more = f'<dt class="dim">…</dt><dd class="dim">{left} more</dd>' if left > 0 else ""
        return f'<dl class="report-object">{rows}{more}</dl>'
    if isinstance(value, Sequence) and not isinstance(value, str) and value and depth < MAX_DEPTH:
        rows = "".join(f"<li>{render_value(v, depth + 1)}</li>" for v in list(value)[:MAX_ITEMS])
        more = f'<li class="dim">{len(value) - MAX_ITEMS} more</li>' if len(value) > MAX_ITEMS else ""
        return f'<ol class="report-list">{rows}{more}</ol>'
    if isinstance(value, str):
        shown = cut(value)
        return f'<pre class="text">{h(shown)}</pre>' if "\n" in shown else f'<span class="text">{h(shown)}</span>'
    if value is None:
        return '<span class="dim">null</span>'
    if isinstance(value, bool | int | float):
        return f'<span class="mono">{h(json.dumps(value))}</span>'
    return f'<span class="mono">{h(cut(json.dumps(value, ensure_ascii=False, default=str), 2_000))}</span>'


def artifact_body(artifact: ArtifactRecord) -> str:
    """An artifact's content: its JSON object as a definition list, and its text unless the text only
    repeats the object (its JSON, or one of its values)."""
    data, text = artifact.content_json, artifact.content_text
    shown = render_value(data) if data is not None and data not in ({}, []) else ""
    if text and text.strip() and not (shown and _repeats(text, data)):
        shown += f'<pre class="text">{h(cut(text))}</pre>'
    return shown or '<p class="empty">empty</p>'


def _repeats(text: str, data: Any) -> bool:
    try:
        if json.loads(text) == data:
            return True
    except (ValueError, RecursionError):
        pass
    return isinstance(data, Mapping) and any(text.strip() == v.strip() for v in data.values() if isinstance(v, str))


def phase_reports(phases: Sequence[Mapping[str, Any]]) -> str:
    """The latest report of each phase, where the status object carries one (``report``, SPEC §12)."""
    shown = [p for p in phases if p.get("report") not in (None, "", {}, [])]
    if not shown:
        return ""
    items = "".join(
        f'<article class="report latest" data-phase="{h(p["key"])}"><h3>{h(p["key"])} '
        f'<span class="kind">latest</span></h3>{render_value(p["report"])}</article>'
        for p in shown
    )
    return f'<div class="latest-reports">{items}</div>'


def reports(artifacts: Sequence[ArtifactRecord], older: int = 0, phases: Sequence[Mapping[str, Any]] = ()) -> str:
    """The reports section: each phase's latest report (when carried), then every report and request that
    holds something (the newest ones the page read; ``older`` more are not shown)."""
    latest = phase_reports(phases)
    artifacts = [a for a in artifacts if (a.content_text or "").strip() or a.content_json not in (None, {}, [])]
    if not artifacts:
        return latest or '<p class="empty">No report yet.</p>'
    note = f'<p class="dim">{older} older reports not shown.</p>' if older > 0 else ""
    items = []
    for a in artifacts:
        label = "" if a.kind == "report" else f' <span class="kind">{h(a.kind)}</span>'
        items.append(
            f'<article class="report kind-{h(a.kind)}"><h3>{h(a.node_key)} #{h(a.attempt)}{label}</h3>'
            f"{artifact_body(a)}</article>"
        )
    return latest + note + "".join(items)


def artifact_files(run_id: int, files: Sequence[RunFileRecord]) -> str:
    """The artifacts section: each file of ``$ALPHRED_ARTIFACTS`` with its size and a download link."""
    if not files:
        return '<p class="empty">No artifact.</p>'
    rows = "".join(
        f'<li><a href="/runs/{run_id}/artifacts/{h(quote(f.path))}" download>{h(f.path)}</a>'
        f' <span class="dim">{f.size:,} bytes</span></li>'
        for f in files
    )
    return f'<ul class="artifacts">{rows}</ul>'


def diffs(artifacts: Sequence[ArtifactRecord], older: int = 0) -> str:
    """The changes section: each phase commit's diff, coloured (``older`` more are not shown)."""
    if not artifacts:
        return '<p class="empty">No commit yet.</p>'
    note = f'<p class="dim">{older} older diffs not shown.</p>' if older > 0 else ""
    return note + "".join(
        f'<details class="diff" open><summary>{h(a.node_key)} #{h(a.attempt)}</summary>'
        f"{render_diff(cut(a.content_text or ''))}</details>"
        for a in artifacts
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
