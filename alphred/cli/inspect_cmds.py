"""Read commands: ``alphred runs``, ``alphred status RUN``, ``alphred logs RUN``. They create nothing."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import click

from alphred.cli.main import RUN_ID, app, db_option, repo_option, suggestion_place
from alphred.errors import UnknownRunError


def open_existing_store(repo: str | None, db: str | None) -> Any:
    """The store of ``--repo``/``--db`` if it exists, else None; creates nothing."""
    from alphred.operations.where import resolve_for_read
    from alphred.store import SqlRunStore

    return SqlRunStore.open_existing(resolve_for_read(repo, db))


@app.command()
@repo_option
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of status objects (without steps).")
@click.option("--limit", type=RUN_ID, default=50, show_default=True, help="How many runs to list, newest first.")
def runs(repo: str | None, db: str | None, as_json: bool, limit: int) -> int:
    """List runs, newest first."""
    from alphred.views.status import branches_by_run, status_object

    store = open_existing_store(repo, db)
    records = [] if store is None else store.list_runs(limit)
    if as_json:
        branches = branches_by_run(store, records) if records else {}
        sys.stdout.write(json.dumps([status_object(r, None, branches.get(r.id)) for r in records]) + "\n")
        return 0
    if not records:
        click.echo("no runs yet (start one with: alphred run FILE)", err=True)
        return 0
    from alphred.views.closing import local_time
    from alphred.views.style import table

    rows: list[tuple[str, ...]] = [("RUN", "STATUS", "WORKFLOW", "BRANCH", "TOKENS", "CREATED")]
    from alphred.views.closing import holder_alive

    for r in records:
        state = r.status.value + (f" ({r.reason})" if r.reason and r.reason != r.status.value else "")
        if r.status.value == "running" and not holder_alive(r):
            state += " (process gone: alphred resume)"
        created = local_time(r.created_at)
        rows.append((str(r.id), state, f"{r.tree_key} v{r.tree_version}", r.branch or "-", f"{r.tokens:,}", created))
    for line in table(rows, right={0, 4}):
        click.echo(line)
    return 0


def _record(store: Any, run_id: int | None) -> Any:
    if run_id is None:  # the latest run
        latest = [] if store is None else store.list_runs(1)
        if not latest:
            raise UnknownRunError("(none yet: start one with `alphred run FILE`)")
        return latest[0]
    record = None if store is None else store.find_run(run_id)
    if record is None:
        raise UnknownRunError(run_id)
    return record


RUN_OR_LATEST = click.argument("run_id", metavar="[RUN]", type=RUN_ID, required=False)


@app.command()
@RUN_OR_LATEST
@repo_option
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the status object as JSON.")
def status(run_id: int | None, repo: str | None, db: str | None, as_json: bool) -> int:
    """Show a run (default: the latest): status, branch, pull request, phases, steps, what to do next."""
    from alphred.views.branch_lines import branch_lines
    from alphred.views.branch_status import phase_branches, phase_heads, run_workflows
    from alphred.views.closing import holder_alive, retryable, status_summary
    from alphred.views.status import status_object
    from alphred.views.style import Painter, table, wants_colour
    from alphred.views.suggestions import next_commands

    store = open_existing_store(repo, db)
    record = _record(store, run_id)
    run_id = record.id
    steps = store.list_steps(run_id)
    workflow = run_workflows(store, [record]).get(record.tree_id)
    obj = status_object(record, steps, phase_branches(workflow, record.branch) if workflow is not None else {})
    if as_json:
        sys.stdout.write(json.dumps(obj) + "\n")
        return 0
    paint = Painter(wants_colour(sys.stdout))
    facts = status_summary(record)
    reason = f" ({obj['reason']})" if obj["reason"] and obj["reason"] != obj["status"] else ""
    state = paint.status(obj["status"], obj["status"])
    click.echo(f"run {run_id}: {state}{reason} · {obj['workflow']['key']} v{obj['workflow']['version']}")
    if facts["owner_gone"]:
        resume = suggestion_place(record.repo_path).alphred(f"resume {run_id}")
        click.echo(paint(f"  the process running it is gone — run `{resume}` to continue it", "yellow"))
    ended = f" · ended {facts['completed']}" if facts["completed"] else ""
    click.echo(f"started {facts['started']}{ended} · took {facts['took']}")
    if record.queued and obj["status"] == "pending":  # a submitted run: why does it wait?
        from alphred.operations.submit import waiting_reason

        waiting = waiting_reason(store, record)
        if waiting:
            click.echo(paint(waiting, "yellow"))
    click.echo(f"branch {obj['branch']} · base {str(obj['base'])[:12]} · head {str(obj['head'])[:12]}")
    if obj["worktree"]:
        click.echo(f"worktree {obj['worktree']}")
    click.echo(f"pull request {obj['pr_url'] or '-'}")
    click.echo(f"tokens {obj['tokens']:,} · cost ${obj['cost_usd']:.4f}")
    waiting = obj["status"] == "paused" and obj["reason"] == "awaiting_approval"
    rows: list[tuple[str, ...]] = [("PHASE", "STATUS", "ATTEMPT", "VISITS", "DECISION", "EXIT", "TOKENS")]
    for p in obj["phases"]:
        shown = "waiting for approval" if waiting and p["status"] == "running" else p["status"]
        exit_code = "-" if p["exit_code"] is None else str(p["exit_code"])
        rows.append(
            (p["key"], shown, str(p["attempt"]), str(p["visits"]), p["decision"] or "-", exit_code, f"{p['tokens']:,}")
        )
    click.echo("phases:")
    for line in table(rows, right={2, 3, 5, 6}):
        click.echo(f"  {line}")
    if workflow is not None:
        for line in branch_lines(store, record, workflow, steps, paint):
            click.echo(line)
    click.echo("steps:")
    heads = phase_heads(workflow) if workflow is not None else {}
    for number, s in enumerate(obj["steps"], start=1):
        decision = f" [{s['decision']}]" if s["decision"] else ""
        tag = f"[{heads[s['phase']]}] " if s["phase"] in heads else ""
        click.echo(f"  {number:>3}. {tag}{s['phase']} #{s['attempt']} {s['outcome']}{decision} → {s['next'] or '-'}")
        for c in s.get("checks") or ():
            if not c["passed"]:
                code = f" (exit code {c['exit_code']})" if c["exit_code"] is not None else ""
                click.echo(f"       check {c['name']} failed{code}")
    if not obj["steps"]:
        click.echo("  (none yet)")
    hints = next_commands(
        record,
        steps,
        holder_alive=holder_alive(record),
        retryable=retryable(store, record, workflow),
        place=suggestion_place(record.repo_path),
    )
    click.echo("next: " + " · ".join(hints))
    return 0


@app.command()
@RUN_OR_LATEST
@click.option("--phase", "phase", metavar="KEY", help="Only this phase's events.")
@click.option("--follow", "-f", is_flag=True, help="Keep printing new events while the run is running.")
@repo_option
@db_option
def logs(run_id: int | None, phase: str | None, follow: bool, repo: str | None, db: str | None) -> int:
    """Print a run's provider events (default: the latest run) on stdout, oldest first."""
    store = open_existing_store(repo, db)
    record = _record(store, run_id)
    run_id = record.id
    if phase is not None and phase not in {n.node_key for n in record.nodes}:
        from alphred.errors import UsageError

        raise UsageError(f"run {run_id} has no phase '{phase}'")
    after = _print_events(store, run_id, phase, 0)
    while follow and store.get_run(run_id).status.value in ("pending", "running"):
        time.sleep(0.5)
        after = _print_events(store, run_id, phase, after)
    if follow:
        _print_events(store, run_id, phase, after)  # what arrived while the run ended
    return 0


def _print_events(store: Any, run_id: int, phase: str | None, after: int) -> int:
    """Print the run's events newer than ``after``; return the id of the last one printed."""
    for event in store.events(run_id, phase, after):
        after = event.id
        stamp = _clock(event.timestamp)
        head = f"{stamp} {event.node_key}#{event.attempt} {event.sequence:>4} {event.event_type:<11}"
        click.echo(f"{head} {event.content or ''}")
    return after


def _clock(value: Any) -> str:
    """``19:50:23 UTC``: an event's time in the local zone, with the zone's name."""
    from datetime import UTC

    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return str(value.astimezone().strftime("%H:%M:%S %Z"))
