"""``alphred worker``: finish runs whose process is gone, from a shared database."""

from __future__ import annotations

import click

from .app import app, db_option, repo_option


@app.command()
@repo_option
@db_option
@click.option("--once", is_flag=True, help="Stop when no run is left to take over (default: keep polling).")
@click.option("--poll", "poll_seconds", default=5.0, show_default=True, help="Seconds between looks for work.")
@click.option("--max-runs", type=int, default=None, help="Stop after finishing this many runs.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
def worker(repo: str | None, db: str | None, once: bool, poll_seconds: float, max_runs: int | None, quiet: bool) -> int:
    """Take over runs of this repository that no live process executes (pending, or running with a dead or
    expired lease) and finish them; several workers may share one database.
    """
    from alphred.runtime.where import resolve_for_write
    from alphred.runtime.worker import work
    from alphred.store import SqlRunStore

    from .run_cmds import environment

    location, url = resolve_for_write(repo, db)
    with SqlRunStore(url) as store:
        stats = work(
            environment(store, location, quiet),
            once=once,
            poll_seconds=poll_seconds,
            say=lambda message: click.echo(f"worker: {message}", err=True),
            max_runs=max_runs,
        )
    click.echo(f"worker: finished {len(stats.finished)} run(s)", err=True)
    return 1 if stats.failed else 0
