"""Read commands: ``alphred runs``, ``alphred status RUN``, ``alphred logs RUN``. They create nothing."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import click

from alphred.errors import UnknownRunError

from .app import RUN_ID, app, db_option, repo_option


def open_existing_store(repo: str | None, db: str | None) -> Any:
    """The store of ``--repo``/``--db`` if it exists, else None; creates nothing."""
    from alphred.runtime.where import resolve_for_read
    from alphred.store import SqlRunStore

    return SqlRunStore.open_existing(resolve_for_read(repo, db))


@app.command()
@repo_option
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of status objects (without steps).")
@click.option("--limit", type=RUN_ID, default=50, show_default=True, help="How many runs to list, newest first.")
def runs(repo: str | None, db: str | None, as_json: bool, limit: int) -> int:
    """List runs, newest first."""
    from alphred.runtime.status import status_object

    store = open_existing_store(repo, db)
    records = [] if store is None else store.list_runs(limit)
    if as_json:
        sys.stdout.write(json.dumps([status_object(r) for r in records]) + "\n")
        return 0
    if not records:
        click.echo("no runs yet", err=True)
        return 0
    for r in records:
        reason = f" ({r.reason})" if r.reason else ""
        click.echo(
            f"{r.id:>5}  {r.status.value:<10} {r.tree_key}@{r.tree_version}  {r.branch or '-'}  "
            f"{r.tokens} tokens  {r.created_at:%Y-%m-%d %H:%M:%S}{reason}"
        )
    return 0


def _record(store: Any, run_id: int) -> Any:
    record = None if store is None else store.find_run(run_id)
    if record is None:
        raise UnknownRunError(run_id)
    return record


@app.command()
@click.argument("run_id", metavar="RUN", type=RUN_ID)
@repo_option
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the status object as JSON.")
def status(run_id: int, repo: str | None, db: str | None, as_json: bool) -> int:
    """Show a run: status, reason, branch, phases and steps."""
    from alphred.runtime.status import status_object

    store = open_existing_store(repo, db)
    record = _record(store, run_id)
    obj = status_object(record, store.list_steps(run_id))
    if as_json:
        sys.stdout.write(json.dumps(obj) + "\n")
        return 0
    reason = f" ({obj['reason']})" if obj["reason"] else ""
    click.echo(f"run {run_id}: {obj['status']}{reason} · {obj['workflow']['key']} v{obj['workflow']['version']}")
    click.echo(f"branch {obj['branch']} · base {str(obj['base'])[:12]} · head {str(obj['head'])[:12]}")
    if obj["worktree"]:
        click.echo(f"worktree {obj['worktree']}")
    click.echo(f"tokens {obj['tokens']} · cost ${obj['cost_usd']:.4f}")
    click.echo("phases:")
    for p in obj["phases"]:
        extra = f" decision={p['decision']}" if p["decision"] else ""
        extra += f" exit_code={p['exit_code']}" if p["exit_code"] is not None else ""
        click.echo(f"  {p['key']:<20} {p['status']:<10} attempt {p['attempt']} visits {p['visits']}{extra}")
    click.echo("steps:")
    for s in obj["steps"]:
        decision = f" [{s['decision']}]" if s["decision"] else ""
        click.echo(f"  {s['phase']} #{s['attempt']} {s['outcome']}{decision} -> {s['next'] or '-'}")
        for c in s.get("checks") or ():
            if not c["passed"]:
                code = f" (exit code {c['exit_code']})" if c["exit_code"] is not None else ""
                click.echo(f"    check {c['name']} failed{code}")
    return 0


@app.command()
@click.argument("run_id", metavar="RUN", type=RUN_ID)
@click.option("--phase", "phase", metavar="KEY", help="Only this phase's events.")
@click.option("--follow", "-f", is_flag=True, help="Keep printing new events while the run is running.")
@repo_option
@db_option
def logs(run_id: int, phase: str | None, follow: bool, repo: str | None, db: str | None) -> int:
    """Print a run's provider events (stdout), oldest first."""
    store = open_existing_store(repo, db)
    record = _record(store, run_id)
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
        stamp = event.timestamp.strftime("%H:%M:%S")
        head = f"{stamp} {event.node_key}#{event.attempt} {event.sequence:>4} {event.event_type:<11}"
        click.echo(f"{head} {event.content or ''}")
    return after
