"""What a person reads when a run stops: the closing block of ``run``/``resume``/..., and ``status`` hints.

Built from the stored run only (status, steps, artifacts), so a run that was resumed, retried or approved
in another process ends the same way. Each line is a sentence or a short labelled fact; the last one says
which command makes sense next.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from alphred.engine.actions import stored_can_retry
from alphred.store.owners import lease_free
from alphred.views.routing_text import explanation_lines
from alphred.views.style import Painter, format_seconds, shown_path
from alphred.views.suggestions import Place, failed_step, next_commands

if TYPE_CHECKING:
    from alphred.store import RoutingRecord, RunRecord, SqlRunStore, StepRecord

TAIL_LINES = 15
REASON_WORDS = {
    "exit_code": "its command exited with a non-zero code",
    "checks_failed": "its checks failed",
    "timeout": "it ran past its timeout",
    "idle_timeout": "it produced no event for its idle_timeout",
    "auth": "the provider is not logged in or its credentials were refused",
    "rate_limit": "the provider's rate limit was hit",
    "transport": "the connection to the provider failed",
    "invalid_request": "the provider refused the request",
    "internal": "the provider or the runtime failed",
}
LIMIT_REASONS = {
    "max_steps": "the run reached its limit of steps (limits.max_steps in the workflow).",
    "max_visits": "a phase was entered as often as its max_visits allows.",
    "budget_exhausted": "the run used up its budget (limits.max_tokens or limits.max_cost_usd in the workflow).",
    "timeout": "the run ran past its wall clock (limits.timeout in the workflow, from the run's start).",
}
MARKS = {"completed": "✓", "failed": "✗", "cancelled": "■", "paused": "‖", "running": "⟳", "pending": "·"}


def local_time(value: datetime | None) -> str:
    """A stored time in the local zone, with the zone's name: ``2026-11-22 19:50:23 UTC``."""
    if value is None:
        return "-"
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone().strftime("%Y-%m-%d %H:%M:%S %Z")


def duration(record: RunRecord) -> str:
    """How long the run took (or has taken so far): ``0.6s``, ``2m 05s``, ``1h 02m``."""
    start = record.started_at or record.created_at
    end = record.completed_at or datetime.now(UTC)
    if start.tzinfo is None:
        start = start.replace(tzinfo=UTC)
    if end.tzinfo is None:
        end = end.replace(tzinfo=UTC)
    seconds = max((end - start).total_seconds(), 0.0)
    return format_seconds(seconds)


def dry_run_scope(store: SqlRunStore, run_id: int) -> str | None:
    """``all`` or ``agents`` for a dry run, None otherwise (from the options stored with the run)."""
    try:
        runtime = store.run_snapshot(run_id).runtime or {}
    except Exception:  # an unreadable snapshot only loses the dry-run line
        return None
    if not runtime.get("dry_run"):
        return None
    return str(runtime.get("dry_run_scope") or "all")


NOTES = {
    "nothing_to_deliver": "nothing to deliver (the branch has no commit on top of its base)",
    "pull_request_when_false": "not wanted (the workflow's pull_request.when did not hold)",
}


def delivery_note(store: SqlRunStore, run_id: int) -> str | None:
    """Why a run with a pull request completed without opening one (SPEC §16), in words; else None."""
    try:
        engine = store.run_snapshot(run_id).engine or {}
    except Exception:  # an unreadable snapshot only loses this line
        return None
    note = engine.get("delivery_note")
    return NOTES.get(str(note), str(note)) if note else None


def holder_alive(record: RunRecord) -> bool:
    """True when a live process holds the run's lease (it is running the run now)."""
    return not lease_free(record.lease_owner, record.lease_expires_at)


def retryable(store: SqlRunStore, record: RunRecord) -> bool:
    """Whether ``alphred retry`` has something to run again for this failed run, from its stored engine state
    (True when that state cannot be read: the retry itself says so)."""
    if record.status.value != "failed":
        return False
    try:
        engine = store.run_snapshot(record.id).engine
    except Exception:  # an unreadable snapshot only loses the precision of the hint
        return True
    return True if engine is None else stored_can_retry(engine)


def _failure_lines(
    store: SqlRunStore, record: RunRecord, steps: list[StepRecord], paint: Painter, dry_run: bool = False
) -> list[str]:
    if record.reason in LIMIT_REASONS:
        return [f"  {LIMIT_REASONS[record.reason]}"]
    if record.reason == "stalled":
        return _stalled_lines(store, record, steps)
    if record.reason == "usage_limit":
        return ["  the provider's usage limit outlasted limits.max_wait (default 6h) of waiting in all."]
    if record.reason == "no_route":
        return no_route_lines(store, record)
    step = failed_step(steps)
    if step is None or record.reason == "delivery_failed":
        return []
    lines: list[str] = []
    if step.outcome.value == "failed":
        why = REASON_WORDS.get(step.reason or "", step.reason or "it failed")
        code = f" ({step.error_code})" if step.error_code and step.error_code.lower() != step.reason else ""
        lines.append(f"  phase {step.phase} attempt {step.attempt} failed: {why}{code}.")
        failed_checks = [c for c in getattr(step, "checks", ()) if not c.get("passed")]
        for check in failed_checks:
            said = f" (exit code {check['exit_code']})" if check.get("exit_code") is not None else ""
            lines.append(f"  check {check.get('name')} failed{said}: {check.get('description')}")
            lines += _tail_lines(str(check.get("output") or ""), paint)
        artifact = store.latest_artifact(record.id, step.phase, "output")
        if not failed_checks and artifact is not None and artifact.attempt == step.attempt:
            lines += _tail_lines(artifact.content_text or "", paint)
    else:
        route = _route_of(store, record, step.phase, step.attempt)
        if route is not None and route.explanation:  # what routing stored: no need to load the workflow
            said = _explained_guard_text(route.explanation, dry_run)
            lines.append(f"  phase {step.phase} routed the run to $fail{said}.")
            lines += explanation_lines(route, "    ")
        else:
            lines.append(f"  phase {step.phase} routed the run to $fail{_guard_text(store, record, step, dry_run)}.")
    return lines


def _stalled_lines(store: SqlRunStore, record: RunRecord, steps: list[StepRecord]) -> list[str]:
    """Which phase stalled and which of its visits changed nothing (SPEC §15), from the stored engine state."""
    step = next((s for s in reversed(steps) if s.reason == "stalled"), None)
    if step is None:
        return ["  a loop changed nothing for limits.max_stalls visits in a row."]
    try:
        phase = ((store.run_snapshot(record.id).engine or {}).get("phases") or {}).get(step.phase) or {}
        visits, stalls = int(phase.get("visits", 0)), int(phase.get("stalls", 0))
    except Exception:  # an unreadable snapshot only loses the visit numbers
        visits, stalls = 0, 0
    if visits and stalls:
        which = f"visits {visits - stalls} to {visits} left the same tree and the same report"
    else:
        which = "its last visits left the same tree and the same report"
    return [f"  phase {step.phase} stalled: {which} (limits.max_stalls in a row), so the loop makes no progress."]


def no_route_lines(store: SqlRunStore, record: RunRecord) -> list[str]:
    """For a run that ended ``no_route``: which phase matched no transition, and what each guard read."""
    routes = [r for r in store.routing_decisions(record.id) if r.target == "no_route"]
    if not routes:
        return []
    route = routes[-1]
    head = f"  phase {route.node_key} attempt {route.attempt} matched none of its transitions"
    return [f"{head}; what each one read:", *explanation_lines(route, "    ")]


def _route_of(store: SqlRunStore, record: RunRecord, phase: str, attempt: int) -> RoutingRecord | None:
    found = [r for r in store.routing_decisions(record.id) if r.node_key == phase and r.attempt == attempt]
    return found[-1] if found else None


def _tail_lines(text: str, paint: Painter) -> list[str]:
    """The last TAIL_LINES lines of a command's or check's output, indented, under a line that says so."""
    tail = text.rstrip("\n").splitlines()[-TAIL_LINES:]
    if not tail:
        return []
    return [f"  the last {len(tail)} line(s) of its output:", *(paint(f"    │ {line}", "dim") for line in tail)]


def _explained_guard_text(explanation: list[Any], dry_run: bool) -> str:
    """``_guard_text`` from a stored explanation (its last entry is the transition taken)."""
    entries = [entry for entry in explanation if isinstance(entry, dict)]
    taken = entries[-1].get("when") if entries else None
    said = f" (its transition `when: {taken}` matched)" if taken else ""
    if not taken:
        said = " (none of its guards before the final `to: $fail` matched)"
    if dry_run and any("report." in str(entry.get("when") or "") for entry in entries):
        said += "; a dry run's stub reports meet guards on `report.x` only where one field decides them"
    return said


def _guard_text(store: SqlRunStore, record: RunRecord, step: StepRecord, dry_run: bool) -> str:
    """Which transition sent the run to ``$fail``: its guard, or that no earlier guard matched."""
    try:
        from alphred.providers import default_registry
        from alphred.workflow import load_workflow

        snapshot = store.run_snapshot(record.id)
        if snapshot.source_text is None:
            return ""
        source = snapshot.source_path or "workflow.yaml"
        workflow = load_workflow(source, snapshot.source_text, snapshot.source_files, providers=default_registry())
        routes = [r for r in store.routing_decisions(record.id) if r.node_key == step.phase]
        priority = routes[-1].priority if routes else None
        transition = next((t for t in workflow.phase(step.phase).transitions if t.priority == priority), None)
    except Exception:  # explaining is best effort: never fail the closing block over it
        return ""
    if transition is None:
        return ""
    said = f" (its transition `when: {transition.when}` matched)" if transition.when else ""
    if not transition.when:
        said = " (none of its guards before the final `to: $fail` matched)"
    guards = " ".join(t.when or "" for t in workflow.phase(step.phase).transitions)
    if dry_run and "report." in guards:
        said += "; a dry run's stub reports meet guards on `report.x` only where one field decides them"
    return said


def closing_block(store: SqlRunStore, record: RunRecord, paint: Painter, place: Place | None = None) -> list[str]:
    """The lines printed on stderr when ``run``, ``resume``, ``retry``, ``approve`` or ``reject`` ends; the
    ``next:`` commands work where the person is (``place``)."""
    steps = store.list_steps(record.id)
    status = record.status.value
    reason = f" ({record.reason})" if record.reason and record.reason != status else ""
    mark = MARKS.get(status, "·")
    head = (
        f"{paint.status(mark, status)} {paint(f'run {record.id}', 'bold')} {paint.status(status, status)}{reason}"
        f" · {record.tree_key} v{record.tree_version} · {duration(record)}"
        f" · {record.tokens:,} tokens · ${record.cost_usd:.4f}"
    )
    lines = ["", head]
    if record.branch:
        where = f"  branch {record.branch}"
        if record.worktree_path:
            where += f" · worktree {shown_path(record.worktree_path)} (kept)"
        lines.append(where)
    if record.pr_url:
        lines.append(f"  pull request {paint(record.pr_url, 'bold')}")
    note = delivery_note(store, record.id)
    if note is not None and not record.pr_url:
        lines.append(f"  pull request: none, {note}")
    scope = dry_run_scope(store, record.id)
    if scope is not None:
        what = "commands ran for real" if scope == "agents" else "commands were not run (counted as passed)"
        lines.append(
            f"  dry run: agent phases were stubbed, {what}; nothing was pushed and no pull request was opened."
        )
    if status == "failed":  # a run that completed after a failed attempt shows none of its output
        lines += _failure_lines(store, record, steps, paint, dry_run=scope is not None)
    elif record.reason == "no_route":
        lines += no_route_lines(store, record)
    if status == "paused" and record.reason == "waiting_for_ci":
        waiting = next((n.node_key for n in record.nodes if n.status.value == "running"), None)
        due = f" at {record.wake_at:%H:%M:%S} UTC" if record.wake_at is not None else ""
        lines.append(
            f"  phase {waiting} waits for the pull request's checks, holding nothing; its next look{due}"
            " comes with `alphred resume` or any worker."
        )
    if status == "paused" and record.reason == "awaiting_approval":
        waiting = next((n.node_key for n in record.nodes if n.status.value == "running"), None)
        if waiting:
            lines.append(f"  phase {waiting} waits for a person's approval.")
    from alphred.views.status import child_awaiting_approval  # off the run's start path (issue 29)

    child = child_awaiting_approval(store, record)
    if child is not None:
        waiting = next((n.node_key for n in child.nodes if n.status.value == "running"), None)
        lines.append(
            f"  phase {waiting} of sub-workflow run {child.id} ({child.tree_key}) waits for a person's approval."
        )
    alive, again = holder_alive(record), retryable(store, record)
    commands = next_commands(
        record, steps, holder_alive=alive, retryable=again, place=place, child_waits=child is not None
    )
    lines.append("  next: " + " · ".join(paint(c, "cyan") for c in commands))
    return lines


def status_summary(record: RunRecord) -> dict[str, Any]:
    """Facts ``alphred status`` adds to the status object for people: owner gone, times with zone."""
    owner_gone = record.status.value == "running" and not holder_alive(record)
    return {
        "owner_gone": owner_gone,
        "started": local_time(record.started_at or record.created_at),
        "completed": local_time(record.completed_at) if record.completed_at else None,
        "took": duration(record),
    }
