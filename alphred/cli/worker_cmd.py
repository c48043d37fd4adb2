"""``alphred worker`` and ``alphred workers``: the fleet that executes queued and abandoned runs (SPEC §10)."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime

import click

from alphred.cli.main import Seconds, app, db_option


@app.command()
@click.option(
    "--repo",
    "repos",
    metavar="PATH",
    multiple=True,
    help="A clone this worker may run in (repeatable; default: the current repository, if any).",
)
@db_option
@click.option("--concurrency", type=click.IntRange(min=1), default=1, show_default=True, help="Runs at once.")
@click.option("--capability", "labels", metavar="LABEL", multiple=True, help="A label this worker offers (repeatable).")
@click.option("--once", is_flag=True, help="Stop when nothing this worker can claim is left (default: keep waiting).")
@click.option("--poll", "poll_seconds", type=Seconds(min=0.05), default=5.0, show_default=True,
              help="Seconds between looks for work (PostgreSQL also wakes the worker on each submit).")  # fmt: skip
@click.option("--max-runs", type=click.IntRange(min=1), default=None, help="Stop after claiming this many runs.")
@click.option("--grace", type=Seconds(min=0), default=30.0, show_default=True,
              help="Seconds SIGTERM/SIGINT leave the active runs to record their interruption.")  # fmt: skip
@click.option(
    "--allow-workflows",
    "allow_workflows",
    metavar="GLOB",
    multiple=True,
    help="Take only runs of workflows whose key matches GLOB (repeatable; default: every workflow).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
def worker(
    repos: tuple[str, ...],
    db: str | None,
    concurrency: int,
    labels: tuple[str, ...],
    once: bool,
    poll_seconds: float,
    max_runs: int | None,
    grace: float,
    allow_workflows: tuple[str, ...],
    quiet: bool,
) -> int:
    """Claim pending runs (highest --priority first, then oldest) and abandoned ones (owner dead or lease
    expired) whose requirements this worker offers, and execute them as `alphred run` would; several
    workers may share one database. Whoever can submit a run runs code on this worker, with its
    credentials: --allow-workflows limits which workflows it takes.
    """
    import os
    import signal
    from pathlib import Path

    from alphred.cli.run_cmds import workspace
    from alphred.errors import NotAGitRepositoryError
    from alphred.git import locate_repository
    from alphred.operations.clones import RepoChooser
    from alphred.operations.where import resolve_for_write
    from alphred.operations.worker import Worker, WorkerOptions, offered_providers
    from alphred.store import SqlRunStore

    paths = [Path(r) for r in repos]
    if db is None:
        location, db = resolve_for_write(repos[0] if repos else None, None)
        paths = paths or [location.root]
    elif not paths:
        try:
            paths = [locate_repository().root]
        except NotAGitRepositoryError:
            paths = []  # a clone-only worker
    chooser = RepoChooser(paths, os.environ)
    options = WorkerOptions(concurrency, labels, poll_seconds, once, max_runs, grace, allow_workflows)

    def say(message: str) -> None:
        click.echo(f"worker: {message}", err=True)

    with SqlRunStore(db) as store:
        fleet = Worker(
            store, chooser, lambda location: workspace(store, location, quiet or concurrency > 1), options,
            [*offered_providers(), *labels], say,
        )  # fmt: skip
        previous = {sig: signal.signal(sig, lambda *_: fleet.stop()) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            stats = fleet.run()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        if fleet.still_running():  # --grace is over: leave them to lease expiry, exit now
            from alphred.providers import groups

            groups.kill_all()
            sys.stderr.flush()
            os._exit(0)
    say(f"finished {len(stats.finished)} run(s)")
    return 1 if stats.failed and once else 0


@app.command()
@db_option
@click.option("--repo", "repo", metavar="PATH", default=None, help="Repository whose database to read.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of worker objects.")
def workers(db: str | None, repo: str | None, as_json: bool) -> int:
    """List the registered workers: live or lost, heartbeat, capabilities and the runs in hand."""
    from alphred.cli.inspect_cmds import open_read_store
    from alphred.store.owners import lease_ttl

    store = open_read_store(repo, db)
    rows = []
    if store is not None:
        with store:
            rows = store.list_workers(2 * lease_ttl())
    if as_json:
        sys.stdout.write(json.dumps(rows) + "\n")
        return 0
    if not rows:
        click.echo("no workers (start one with: alphred worker)", err=True)
        return 0
    from alphred.views.closing import local_time
    from alphred.views.style import format_seconds, table

    now = datetime.now(UTC)
    lines: list[tuple[str, ...]] = [("WORKER", "STATE", "STARTED", "HEARTBEAT", "CAPABILITIES", "RUNS", "PAUSED")]
    for row in rows:
        beat = datetime.fromisoformat(row["heartbeat_at"])
        ago = format_seconds(max((now - beat).total_seconds(), 0.0))
        started = local_time(datetime.fromisoformat(row["started_at"]))
        runs = ",".join(str(r) for r in row["runs"]) or "-"
        paused = ", ".join(  # providers waiting out a usage limit on this worker (SPEC §15)
            f"{provider} until {local_time(datetime.fromisoformat(wake))}"
            for provider, wake in sorted(row.get("paused", {}).items())
            if datetime.fromisoformat(wake) > now
        )
        capabilities = ",".join(row["capabilities"]) or "-"
        lines.append((row["id"], row["state"], started, f"{ago} ago", capabilities, runs, paused or "-"))
    for line in table(lines):
        click.echo(line)
    return 0
