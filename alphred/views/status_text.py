"""``alphred status`` as text: the run, its phases, its branches, its steps and what to do next.

Light by design (``status`` answers at once): the workflow is loaded again only for a run whose tree has a
fan-out (its branches need it), the retry hint reads the stored engine state as JSON, and the store may be
the light SQLite reader (``alphred.store.open_reader``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from alphred.engine.state import failed_over
from alphred.views.closing import holder_alive, local_time, retryable, status_summary
from alphred.views.item_groups import counted, item_base
from alphred.views.routing_text import explanation_lines, routes_by_step
from alphred.views.status import child_awaiting_approval, shown_phase_status, status_object
from alphred.views.style import Painter, table
from alphred.views.suggestions import Place, next_commands

if TYPE_CHECKING:
    from alphred.store import RunRecord, SqlRunStore, StepRecord
    from alphred.workflow import Workflow


def parallel_workflow(store: SqlRunStore, record: RunRecord) -> Workflow | None:
    """The run's workflow when its tree has a fan-out (its branches need it), else None without loading it."""
    if record.tree_id not in store.trees_with_fan_outs([record.tree_id]):
        return None
    from alphred.views.branch_status import run_workflows

    return run_workflows(store, [record]).get(record.tree_id)


def status_json(store: SqlRunStore, record: RunRecord, explain: bool = False) -> dict[str, Any]:
    """The status object ``status --json`` prints (with the ``branch`` of every phase and step; with
    ``explain``, each step's ``routing``: the stored explanation of its routing, or null)."""
    workflow = parallel_workflow(store, record)
    branches: dict[str, str] = {}
    if workflow is not None:
        from alphred.views.branch_status import phase_branches

        branches = phase_branches(workflow, record.branch)
    obj = status_object(record, store.list_steps(record.id), branches, store.latest_reports(record.id))
    # SPEC §13: the runs of its workflow phases, each with its steps (and its own sub-workflows), oldest first
    obj["children"] = [status_json(store, child, explain) for child in store.child_runs(record.id)]
    if explain:
        routes = routes_by_step(store.routing_decisions(record.id))
        for step in obj["steps"]:
            route = routes.get((step["phase"], step["attempt"]))
            step["routing"] = route.explanation if route is not None else None
    return obj


def _run_lines(record: RunRecord, obj: dict[str, Any], paint: Painter, place: Place, waiting: str | None) -> list[str]:
    facts = status_summary(record)
    reason = f" ({obj['reason']})" if obj["reason"] and obj["reason"] != obj["status"] else ""
    state = paint.status(obj["status"], obj["status"])
    lines = [f"run {record.id}: {state}{reason} · {obj['workflow']['key']} v{obj['workflow']['version']}"]
    if record.wake_at is not None and obj["reason"] == "usage_limit":
        lines.append(paint(f"  waits out a usage limit until {local_time(record.wake_at)}", "yellow"))
    if facts["owner_gone"]:
        resume = place.alphred(f"resume {record.id}")
        lines.append(paint(f"  the process running it is gone — run `{resume}` to continue it", "yellow"))
    if record.started_at is None:  # never started: no branch, no duration yet
        lines.append(f"created {local_time(record.created_at)} · not started yet")
        if waiting:  # a submitted run: why it waits
            lines.append(paint(waiting, "yellow"))
        if obj["base"]:
            lines.append(f"base {str(obj['base'])[:12]}")
        return lines
    ended = f" · ended {facts['completed']}" if facts["completed"] else ""
    lines.append(f"started {facts['started']}{ended} · took {facts['took']}")
    lines.append(f"branch {obj['branch'] or '-'} · base {str(obj['base'])[:12]} · head {str(obj['head'] or '-')[:12]}")
    if obj["worktree"]:
        lines.append(f"worktree {obj['worktree']}")
    lines.append(f"pull request {obj['pr_url'] or '-'}")
    lines.append(f"tokens {obj['tokens']:,} · cost ${obj['cost_usd']:.4f}")
    return lines


def _phase_lines(obj: dict[str, Any]) -> list[str]:
    rows: list[tuple[str, ...]] = [("PHASE", "STATUS", "ATTEMPT", "VISITS", "DECISION", "EXIT", "TOKENS")]
    items: dict[str, list[dict[str, Any]]] = {}
    for p in obj["phases"]:
        base = item_base(p["key"])
        if base is not None:
            items.setdefault(base, []).append(p)
    for p in obj["phases"]:
        if item_base(p["key"]) is not None:
            continue  # a for_each's items: one row for all of them, below
        if p["key"] in items:  # `implement ×12  9 completed, 2 running, 1 failed`
            group = items[p["key"]]
            words = [shown_phase_status(obj["status"], obj["reason"], i["status"]) for i in group]
            attempts, visits = sum(i["attempt"] for i in group), sum(i["visits"] for i in group)
            tokens = sum(i["tokens"] for i in group)
            rows.append(
                (f"{p['key']} ×{len(group)}", counted(words), str(attempts), str(visits), "-", "-", f"{tokens:,}")
            )
            continue
        shown = shown_phase_status(obj["status"], obj["reason"], p["status"])  # the web view says the same
        exit_code = "-" if p["exit_code"] is None else str(p["exit_code"])
        rows.append(
            (p["key"], shown, str(p["attempt"]), str(p["visits"]), p["decision"] or "-", exit_code, f"{p['tokens']:,}")
        )
    return ["phases:", *(f"  {line}" for line in table(rows, right={2, 3, 5, 6}))]


def _step_lines(
    obj: dict[str, Any],
    heads: dict[str, str],
    explained: dict[tuple[str, int], list[str]],
    nested: dict[int, list[str]] | None = None,
) -> list[str]:
    """The ``steps:`` block; ``nested``: the lines shown under step N (its sub-workflow run, SPEC §13)."""
    lines = ["steps:"]
    providers = failed_over(obj["steps"])  # a fallback took over: say which provider did each step (SPEC §15)
    for number, s in enumerate(obj["steps"], start=1):
        decision = f" [{s['decision']}]" if s["decision"] else ""
        tag = f"[{heads[s['phase']]}] " if s["phase"] in heads else ""
        by = f" ({s['provider']})" if providers and s.get("provider") else ""
        lines.append(
            f"  {number:>3}. {tag}{s['phase']}{by} #{s['attempt']} {s['outcome']}{decision} → {s['next'] or '-'}"
        )
        lines += explained.get((s["phase"], s["attempt"]), [])
        for c in s.get("checks") or ():
            if not c["passed"]:
                code = f" (exit code {c['exit_code']})" if c["exit_code"] is not None else ""
                lines.append(f"       check {c['name']} failed{code}")
        lines += (nested or {}).get(number, [])
    if not obj["steps"]:
        lines.append("  (none yet)")
    lines += (nested or {}).get(0, [])  # a child whose workflow phase is still under way
    return lines


def explained_steps(store: SqlRunStore, record: RunRecord, every: bool) -> dict[tuple[str, int], list[str]]:
    """The routing explanation lines of each ``(phase, attempt)``: of every routed step with ``every``
    (``status --explain``), else only of a step that matched no transition."""
    routes = store.routing_decisions(record.id)
    if not every:
        routes = [r for r in routes if r.target == "no_route"]
    return {step: explanation_lines(route, "       ") for step, route in routes_by_step(routes).items()}


def status_lines(
    store: SqlRunStore,
    record: RunRecord,
    paint: Painter,
    place: Place,
    waiting: str | None = None,
    explain: bool = False,
) -> list[str]:
    """The text of ``alphred status RUN`` (``waiting``: why a submitted run waits, from ``waiting_reason``;
    ``explain``: under every step, how its routing chose)."""
    workflow = parallel_workflow(store, record)
    steps = store.list_steps(record.id)
    branches: dict[str, str] = {}
    heads: dict[str, str] = {}
    if workflow is not None:
        from alphred.views.branch_status import phase_branches, phase_heads

        branches, heads = phase_branches(workflow, record.branch), phase_heads(workflow)
    obj = status_object(record, steps, branches)
    lines = _run_lines(record, obj, paint, place, waiting)
    lines += _phase_lines(obj)
    if workflow is not None:
        from alphred.views.branch_lines import branch_lines

        lines += branch_lines(store, record, workflow, steps, paint)
    no_route = any(step.next == "no_route" for step in steps)
    explained = explained_steps(store, record, explain) if explain or no_route else {}
    nested = child_lines(store, record, steps, paint, "       ")
    lines += _step_lines(obj, heads, explained, nested)
    lines += parent_lines(record, place)
    waits = child_awaiting_approval(store, record) is not None
    alive, again = holder_alive(record), retryable(store, record)
    hints = next_commands(record, steps, holder_alive=alive, retryable=again, place=place, child_waits=waits)
    lines.append("next: " + " · ".join(hints))
    return lines


def parent_lines(record: RunRecord, place: Place) -> list[str]:
    """For a sub-workflow's run (SPEC §13): the run it belongs to."""
    if record.parent_run_id is None:
        return []
    phase = (record.parent_step or "").partition("#")[0]
    parent = place.alphred(f"status {record.parent_run_id}")
    return [f"sub-workflow of run {record.parent_run_id} (phase {phase}): {parent}"]


def child_lines(
    store: SqlRunStore, record: RunRecord, steps: list[StepRecord], paint: Painter, pad: str
) -> dict[int, list[str]]:
    """SPEC §13: the lines of ``record``'s sub-workflow runs, by the number of the step they go under: the
    last step of the workflow phase's attempts that ran the child (the one that started it, and those that
    continued it); 0 for a child whose phase has no step yet (under way). Each child shows its own steps,
    its own children under them, indented by ``pad``."""
    nested: dict[int, list[str]] = {}
    children = [(_started_by(child), child) for child in store.child_runs(record.id)]
    for (phase, attempt), child in children:
        later = [a for (p, a), _c in children if p == phase and a > attempt]
        until = min(later, default=None)
        numbers = [
            n
            for n, step in enumerate(steps, start=1)
            if step.phase == phase and step.attempt >= attempt and (until is None or step.attempt < until)
        ]
        nested.setdefault(max(numbers, default=0), []).extend(_child_block(store, child, paint, pad))
    return nested


def _started_by(child: RunRecord) -> tuple[str, int]:
    """The workflow phase and attempt that started ``child`` (its ``parent_step``, ``phase#visit.attempt``)."""
    phase, _, numbers = (child.parent_step or "").rpartition("#")
    attempt = numbers.partition(".")[2]
    return phase, int(attempt) if attempt.isdigit() else 0


def _child_block(store: SqlRunStore, child: RunRecord, paint: Painter, pad: str) -> list[str]:
    reason = f" ({child.reason})" if child.reason and child.reason != child.status.value else ""
    state = paint.status(child.status.value, child.status.value)
    lines = [f"{pad}↳ sub-workflow run {child.id}: {state}{reason} · {child.tree_key} v{child.tree_version}"]
    steps = store.list_steps(child.id)
    nested = child_lines(store, child, steps, paint, pad + "       ")
    for number, step in enumerate(steps, start=1):
        decision = f" [{step.decision}]" if step.decision else ""
        outcome = f"{step.outcome.value}{decision} → {step.next or '-'}"
        lines.append(f"{pad}  {number:>3}. {step.phase} #{step.attempt} {outcome}")
        lines += nested.get(number, [])
    if not steps:
        lines.append(f"{pad}  (none yet)")
    return lines + nested.get(0, [])


def artifacts_json(store: SqlRunStore, run_id: int) -> list[dict[str, Any]]:
    """The run's artifacts for ``status --artifacts --json``: path, size, sha256, when stored."""
    return [
        {"path": f.path, "size": f.size, "sha256": f.sha256, "stored_at": f.updated_at.isoformat()}
        for f in store.run_files(run_id, "artifacts")
    ]


def artifact_lines(store: SqlRunStore, run_id: int, place: Place) -> list[str]:
    """The ``artifacts:`` block of ``status --artifacts``: each file with its size, and how to fetch them."""
    files = store.run_files(run_id, "artifacts")
    if not files:
        return ["artifacts: none"]
    total = sum(f.size for f in files)
    lines = [f"artifacts: {len(files)} file{'s' if len(files) != 1 else ''}, {total:,} bytes"]
    lines += [f"  {f.size:>12,}  {f.path}" for f in files]
    lines.append(f"  fetch: {place.alphred(f'artifacts {run_id} -o DIR')}")
    return lines
