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


def open_read_store(repo: str | None, db: str | None) -> Any:
    """The store of ``--repo``/``--db`` to read from (``status``, ``runs``, ``logs``, ``workers``: on a SQLite
    file without SQLAlchemy), or None when there is none; creates nothing."""
    from alphred.operations.where import resolve_for_read
    from alphred.store import open_reader

    return open_reader(resolve_for_read(repo, db))


@app.command()
@repo_option
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of status objects (without steps).")
@click.option("--limit", type=RUN_ID, default=50, show_default=True, help="How many runs to list, newest first.")
def runs(repo: str | None, db: str | None, as_json: bool, limit: int) -> int:
    """List runs, newest first."""
    from alphred.views.status import branches_by_run, listed_runs

    store = open_read_store(repo, db)
    records = [] if store is None else store.list_runs(limit)
    if as_json:
        branches = branches_by_run(store, records) if records else {}
        sys.stdout.write(json.dumps(listed_runs(store, records, branches)) + "\n")
        return 0
    if not records:
        click.echo("no runs yet (start one with: alphred run FILE)", err=True)
        return 0
    from alphred.views.closing import local_time
    from alphred.views.style import table

    rows: list[tuple[str, ...]] = [("RUN", "STATUS", "WORKFLOW", "BRANCH", "TOKENS", "CREATED")]
    from alphred.views.closing import holder_alive

    children = store.child_run_ids(r.id for r in records)  # SPEC §13: its sub-workflow runs
    for r in records:
        state = r.status.value + (f" ({r.reason})" if r.reason and r.reason != r.status.value else "")
        if r.status.value == "running" and not holder_alive(r):
            state += " (process gone: alphred resume)"
        created = local_time(r.created_at)
        subs = len(children.get(r.id, ()))
        shown = f"{r.tree_key} v{r.tree_version}" + (f" +{subs} sub-workflow{'s' if subs > 1 else ''}" if subs else "")
        rows.append((str(r.id), state, shown, r.branch or "-", f"{r.tokens:,}", created))
    for line in table(rows, right={0, 4}):
        click.echo(line)
    return 0


def _record(store: Any, run_id: int | None) -> Any:
    if run_id is None:  # the latest run
        latest = [] if store is None else store.list_runs(1)
        if not latest:
            raise UnknownRunError(None)
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
@click.option("--explain", is_flag=True, help="Under every step, each guard routing tried and the values it read.")
@click.option("--artifacts", "with_artifacts", is_flag=True, help="List the run's artifacts ($ALPHRED_ARTIFACTS) too.")
def status(
    run_id: int | None, repo: str | None, db: str | None, as_json: bool, explain: bool, with_artifacts: bool
) -> int:
    """Show a run (default: the latest): status, branch, pull request, phases, steps, what to do next."""
    from alphred.views.status_text import artifact_lines, artifacts_json, status_json, status_lines
    from alphred.views.style import Painter, wants_colour

    store = open_read_store(repo, db)
    record = _record(store, run_id)
    if as_json:
        obj = status_json(store, record, explain)
        if with_artifacts:
            obj["artifacts"] = artifacts_json(store, record.id)
        sys.stdout.write(json.dumps(obj) + "\n")
        return 0
    waiting = None
    if record.queued and record.status.value == "pending":  # a submitted run: why does it wait?
        from alphred.operations.takers import waiting_reason

        waiting = waiting_reason(store, record)
    paint = Painter(wants_colour(sys.stdout))
    for line in status_lines(store, record, paint, suggestion_place(record.repo_path), waiting, explain):
        click.echo(line)
    if with_artifacts:
        for line in artifact_lines(store, record.id, suggestion_place(record.repo_path)):
            click.echo(line)
    return 0


@app.command()
@RUN_OR_LATEST
@click.option("--phase", "phase", metavar="KEY", help="Only this phase's events.")
@click.option("--follow", "-f", is_flag=True, help="Keep printing new events while the run is running.")
@repo_option
@db_option
def logs(run_id: int | None, phase: str | None, follow: bool, repo: str | None, db: str | None) -> int:
    """Print a run's provider events (default: the latest run) on stdout, oldest first."""
    store = open_read_store(repo, db)
    record = _record(store, run_id)
    run_id = record.id
    if phase is not None and phase not in {n.node_key for n in record.nodes}:
        from alphred.errors import UsageError

        raise UsageError(f"run {run_id} has no phase '{phase}'")
    from alphred.views.log_lines import phase_width

    width = phase_width(n.node_key for n in record.nodes)
    after = _print_events(store, run_id, phase, 0, width)
    while follow and store.get_run(run_id).status.value in ("pending", "running"):
        time.sleep(0.5)
        after = _print_events(store, run_id, phase, after, width)
    if follow:
        _print_events(store, run_id, phase, after, width)  # what arrived while the run ended
    return 0


def _print_events(store: Any, run_id: int, phase: str | None, after: int, width: int) -> int:
    """Print the run's events newer than ``after``; return the id of the last one printed."""
    from alphred.views.log_lines import event_lines

    terminal = sys.stdout.isatty()
    for event in store.events(run_id, phase, after):
        after = event.id
        for line in event_lines(event, width, terminal):
            click.echo(line)
    return after
