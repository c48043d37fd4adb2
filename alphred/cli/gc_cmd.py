"""``alphred gc``: remove worktrees that no run needs any more (finishing cut-short removals first)."""

from __future__ import annotations

from typing import Any

import click

from alphred.cli.main import app, db_option, repo_option


@app.command()
@repo_option
@db_option
@click.option("--dry-run", is_flag=True, help="Only list what would be removed.")
def gc(repo: str | None, db: str | None, dry_run: bool) -> int:
    """Remove the worktrees of completed and cancelled runs (and of runs that do not exist); branches stay."""
    from alphred.operations.gc import collect
    from alphred.operations.where import resolve_for_write
    from alphred.store import SqlRunStore

    location, url = resolve_for_write(repo, db)
    with SqlRunStore(url) as store:
        ended = _orphaned_children(store, location, dry_run)
        found = collect(store, location, dry_run=dry_run)
    for run_id in ended:  # SPEC §13: a kill between a parent's end and its sub-workflows' left them unfinished
        click.echo(f"{'would cancel' if dry_run else 'cancelled'} run {run_id} (its parent run has ended)")
    verb = "would remove" if dry_run else "removed"
    for leftover in found:
        owner = f"run {leftover.run_id}" if leftover.run_id is not None else "no run"
        click.echo(f"{verb} {leftover.path} ({owner}: {leftover.why})")
    files = sum(1 for leftover in found if leftover.files)
    click.echo(f"gc: {verb} {len(found) - files} worktree(s), {files} run files director(ies)", err=True)
    return 0


def _orphaned_children(store: Any, location: Any, dry_run: bool) -> list[int]:
    """``operations.requests.end_orphaned_children`` with the CLI's workspace (quiet); with ``dry_run`` only
    the runs it would end."""
    from alphred.cli.run_cmds import workspace
    from alphred.operations.requests import end_orphaned_children, orphaned_children

    return orphaned_children(store, location) if dry_run else end_orphaned_children(workspace(store, location, True))
