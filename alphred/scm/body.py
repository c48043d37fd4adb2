"""Markdown about a run, from its status object (SPEC §6): the PR body and the CI step summary share it.

Pure string work: status object (and report text) in, Markdown out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from alphred.engine.state import failed_over

MAX_STEP_ROWS = 100
SHORT_SHA = 12
GITHUB_BODY_LIMIT = 65_000  # GitHub rejects bodies over 65,536 characters
CUT_MARKER = "\n\n[... {count} characters cut by alphred]\n\n"


def cell(value: object) -> str:
    """One Markdown table cell: ``–`` for null, pipes escaped, newlines folded."""
    if value is None or value == "":
        return "–"
    text = str(value).replace("\\", "\\\\").replace("|", "\\|")
    return " ".join(text.split())


def format_cost(value: object) -> str:
    """A cost in USD as ``$0.0123``."""
    try:
        return f"${float(value):.4f}"  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "$0.0000"


def format_tokens(value: object) -> str:
    """A token count with thousands separators."""
    return f"{value:,}" if isinstance(value, int) else cell(value)


def run_title(status: Mapping[str, Any]) -> str:
    """``run 7 · fix-issue v1``."""
    workflow = status.get("workflow") or {}
    return f"run {status.get('run_id')} · {workflow.get('key', '?')} v{workflow.get('version', '?')}"


def default_pr_title(status: Mapping[str, Any], workflow_name: str | None = None) -> str:
    """The title of a pull request whose workflow gives none: the workflow's name and the run."""
    workflow = status.get("workflow") or {}
    return f"{workflow_name or workflow.get('key', 'alphred')} (alphred run {status.get('run_id')})"


def phases_table(phases: Sequence[Mapping[str, Any]]) -> str:
    """The phases of a run as a Markdown table."""
    rows = [
        "| Phase | Status | Attempts | Visits | Decision | Exit code | Tokens |",
        "| --- | --- | ---: | ---: | --- | ---: | ---: |",
    ]
    for p in phases:
        rows.append(
            f"| {cell(p.get('key'))} | {cell(p.get('status'))} | {cell(p.get('attempt'))} | {cell(p.get('visits'))} "
            f"| {cell(p.get('decision'))} | {cell(p.get('exit_code'))} | {format_tokens(p.get('tokens'))} |"
        )
    return "\n".join(rows)


def steps_table(steps: Sequence[Mapping[str, Any]], limit: int = MAX_STEP_ROWS) -> str:
    """The run's steps (attempts, decisions, routing) as a Markdown table; only the last ``limit`` rows. A run
    where a fallback provider took over gets a Provider column (which provider did each step)."""
    shown = list(steps)[-limit:] if limit > 0 else []
    first = len(steps) - len(shown) + 1
    providers = failed_over(steps)
    head = "| # | Phase | Provider | Attempt |" if providers else "| # | Phase | Attempt |"
    rule = "| ---: | --- | --- | ---: |" if providers else "| ---: | --- | ---: |"
    rows = [f"{head} Outcome | Decision | Next |", f"{rule} --- | --- | --- |"]
    for number, s in enumerate(shown, start=first):
        provider = f" {cell(s.get('provider'))} |" if providers else ""
        rows.append(
            f"| {number} | {cell(s.get('phase'))} |{provider} {cell(s.get('attempt'))} | {cell(s.get('outcome'))} "
            f"| {cell(s.get('decision'))} | {cell(s.get('next'))} |"
        )
    if first > 1:
        rows.append(f"\n{first - 1} earlier step(s) not shown.")
    return "\n".join(rows)


def checks_table(steps: Sequence[Mapping[str, Any]], limit: int = MAX_STEP_ROWS) -> str:
    """Every check of the run's steps (SPEC §9) as a Markdown table; empty when no step ran checks."""
    rows = (
        [(s, c) for s in steps for c in (s.get("checks") or ()) if isinstance(c, Mapping)][-limit:] if limit > 0 else []
    )
    if not rows:
        return ""
    lines = ["| Phase | Attempt | Check | Result | Exit code |", "| --- | ---: | --- | --- | ---: |"]
    for s, c in rows:
        result = "passed" if c.get("passed") else "**failed**"
        lines.append(
            f"| {cell(s.get('phase'))} | {cell(s.get('attempt'))} | {cell(c.get('name'))} | {result} "
            f"| {cell(c.get('exit_code'))} |"
        )
    return "\n".join(lines)


def costs_table(rows: Sequence[Mapping[str, Any]], limit: int = MAX_STEP_ROWS) -> str:
    """What each step cost and who ran it (SPEC §16): phase, attempt, provider and model, tokens, cost, time;
    only the last ``limit`` rows, then a total line."""
    shown = list(rows)[-limit:] if limit > 0 else []
    first = len(rows) - len(shown) + 1
    lines = [
        "| # | Phase | Attempt | Provider | Model | Tokens | Cost | Time |",
        "| ---: | --- | ---: | --- | --- | ---: | ---: | ---: |",
    ]
    for number, r in enumerate(shown, start=first):
        seconds = r.get("duration_ms")
        took = f"{seconds / 1000:.1f}s" if isinstance(seconds, int) else "–"
        lines.append(
            f"| {number} | {cell(r.get('phase'))} | {cell(r.get('attempt'))} | {cell(r.get('provider'))} "
            f"| {cell(r.get('model'))} | {format_tokens(r.get('tokens'))} | {format_cost(r.get('cost_usd'))} | {took} |"
        )
    tokens = sum(int(r.get("tokens") or 0) for r in rows)
    cost = sum(float(r.get("cost_usd") or 0.0) for r in rows)
    lines.append(f"| | **total** | | | | **{tokens:,}** | **{format_cost(cost)}** | |")
    if first > 1:
        lines.append(f"\n{first - 1} earlier step(s) not shown (the total counts them).")
    return "\n".join(lines)


def branch_result(branch: Mapping[str, Any]) -> str:
    """How a branch of a fan-out ended, for people: ``merged `1a2b3c4d``` , ``cancelled (join: any)``, ..."""
    state = str(branch.get("state") or "pending")
    merges = [str(sha)[:SHORT_SHA] for sha in branch.get("merges") or ()]
    if merges:
        return "merged " + ", ".join(f"`{sha}`" for sha in merges)
    if state == "cancelled" and branch.get("join_mode") == "any":
        return "cancelled (join: any)"
    if state in ("running", "queued") and branch.get("phase"):
        return f"{state}: {branch['phase']}"
    if state == "conflicted":
        paths = ", ".join(f"`{p}`" for p in branch.get("conflicts") or ())
        return f"merge conflicted on {paths}" + (f" (resolver {branch['resolver']})" if branch.get("resolver") else "")
    return state


def branches_table(branches: Sequence[Mapping[str, Any]]) -> str:
    """The branches of the run's fan-outs (SPEC §8) as a Markdown table: git branch, phases, merge result."""
    rows = ["| Fan-out | Branch | Git branch | Phases | Result |", "| --- | --- | --- | --- | --- |"]
    for b in branches:
        join = f" → {b['join']}" if b.get("join") else ""
        phases = ", ".join(str(p) for p in b.get("phases") or ())
        rows.append(
            f"| {cell(str(b.get('fan_out')) + join)} | {cell(b.get('head'))} | `{cell(b.get('branch'))}` "
            f"| {cell(phases)} | {cell(branch_result(b))} |"
        )
    return "\n".join(rows)


def run_summary_markdown(
    status: Mapping[str, Any],
    *,
    include_status: bool = True,
    pr_url: str | None = None,
    heading: str = "###",
    branches: Sequence[Mapping[str, Any]] = (),
    costs: Sequence[Mapping[str, Any]] = (),
) -> str:
    """A Markdown summary of a run: phases, branches of fan-outs (when there are any), steps (attempts and
    decisions), checks, the cost and provider of each step (collapsed), tokens, cost, branch, PR."""
    title = f"Alphred {run_title(status)}"
    if include_status:
        reason = f" ({status['reason']})" if status.get("reason") else ""
        title += f": {status.get('status')}{reason}"
    parts = [f"{heading} {title}", "", phases_table(status.get("phases") or [])]
    if branches:
        parts += ["", "**Branches**", "", branches_table(branches)]
    steps = status.get("steps")
    if steps:
        parts += ["", f"<details><summary>Steps ({len(steps)})</summary>", "", steps_table(steps), "", "</details>"]
        checks = checks_table(steps)
        if checks:
            failed = sum(1 for s in steps for c in s.get("checks") or () if not c.get("passed"))
            parts += ["", f"**Checks** ({failed} failed)" if failed else "**Checks** (all passed)", "", checks]
    if costs:
        total = format_cost(sum(float(r.get("cost_usd") or 0.0) for r in costs))
        summary = f"Cost and provider by step ({total})"
        parts += ["", f"<details><summary>{summary}</summary>", "", costs_table(costs), "", "</details>"]
    facts = [f"**Tokens** {format_tokens(status.get('tokens', 0))}", f"**Cost** {format_cost(status.get('cost_usd'))}"]
    if status.get("branch"):
        facts.append(f"**Branch** `{status['branch']}`")
    for key in ("base", "head"):
        if status.get(key):
            facts.append(f"**{key.capitalize()}** `{str(status[key])[:12]}`")
    parts += ["", " · ".join(facts)]
    link = pr_url if pr_url is not None else status.get("pr_url")
    if link:
        parts += ["", f"**Pull request** {link}"]
    return "\n".join(parts) + "\n"


def build_pr_body(
    status: Mapping[str, Any],
    report_text: str | None,
    limit: int = GITHUB_BODY_LIMIT,
    branches: Sequence[Mapping[str, Any]] = (),
    costs: Sequence[Mapping[str, Any]] = (),
) -> str:
    """The PR body: the ``body_from`` phase's latest report, then a generated summary of the run (with the
    ``branches`` of its fan-outs and their merges, when it has any, and the ``costs`` of its steps)."""
    summary = run_summary_markdown(status, include_status=False, heading="####", branches=branches, costs=costs)
    footer = f"\n---\n\n{summary}\n<sub>Opened by Alphred.</sub>\n"
    report = _report_markdown(report_text)
    room = max(limit - len(footer), 0)
    if len(report) > room:
        report = cut_text(report, room)
    return (report + "\n" + footer if report else footer.lstrip("\n")).strip() + "\n"


def cut_text(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending with a marker that says how much was cut."""
    if len(text) <= limit:
        return text
    marker_room = len(CUT_MARKER.format(count=len(text)))
    keep = max(limit - marker_room, 0)
    return text[:keep] + CUT_MARKER.format(count=len(text) - keep)[: max(limit - keep, 0)]


PROSE_FIELDS = ("body", "summary", "description", "text", "message")


def _report_markdown(report_text: str | None) -> str:
    """The ``body_from`` report as Markdown: text as it is; a structured report's prose field (``body``,
    else ``summary``, ...) followed by its other fields as a list, never a JSON dump."""
    text = (report_text or "").strip()
    if not text or text[0] not in "[{":
        return text
    try:
        parsed = json.loads(text)
    except ValueError:
        return text
    if not isinstance(parsed, dict):
        return _markdown_value(parsed, 0).lstrip("\n")
    prose = next((k for k in PROSE_FIELDS if isinstance(parsed.get(k), str) and parsed[k].strip()), None)
    parts = [parsed[prose].strip()] if prose else []
    rest = [(k, v) for k, v in parsed.items() if k != prose and v not in (None, "", [], {})]
    if rest:
        items = [f"- **{cell(key)}**: {_markdown_value(value, 1)}" for key, value in rest]
        parts.append("\n".join(items))
    return "\n\n".join(parts)


def _markdown_value(value: Any, depth: int) -> str:
    """A JSON value as Markdown: scalars inline, lists and mappings as bullet lists on the lines below."""
    indent = "  " * depth
    if isinstance(value, list):
        return "".join(f"\n{indent}- {_markdown_value(item, depth + 1)}" for item in value)
    if isinstance(value, dict):
        return "".join(f"\n{indent}- **{cell(k)}**: {_markdown_value(v, depth + 1)}" for k, v in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    return " ".join(str(value).split()) if value is not None else "–"
