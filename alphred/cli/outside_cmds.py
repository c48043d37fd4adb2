"""What a run keeps outside its branch (SPEC §17): ``alphred artifacts`` and ``alphred memory``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from alphred.cli.main import RUN_ID, app, db_option, repo_option
from alphred.errors import UnknownRunError


@app.command()
@click.argument("run_id", metavar="RUN", type=RUN_ID)
@click.argument("path", required=False)
@click.option(
    "-o", "--output", "out", type=click.Path(file_okay=False, path_type=Path), help="Write the files under DIR."
)
@repo_option
@db_option
def artifacts(run_id: int, path: str | None, out: Path | None, repo: str | None, db: str | None) -> int:
    """List a run's artifacts ($ALPHRED_ARTIFACTS), print one (PATH), or write them under DIR (-o DIR).

    With -o the run's artifact tree (or PATH's file or directory) is written under DIR with the same
    relative paths.
    """
    from alphred.cli.inspect_cmds import open_existing_store
    from alphred.operations.artifacts import chosen_files, copy_artifact, write_artifacts

    store = open_existing_store(repo, db)
    if store is None or store.find_run(run_id) is None:
        raise UnknownRunError(run_id)
    files = chosen_files(store, run_id, path)
    if out is not None:
        for written in write_artifacts(store, files, out):
            click.echo(str(written))
        return 0
    if path is not None and len(files) == 1 and files[0].path == path.strip("/"):
        copy_artifact(store, files[0], sys.stdout.buffer)
        sys.stdout.buffer.flush()
        return 0
    for record in files:
        click.echo(f"{record.size:>12,}  {record.path}")
    return 0


@app.command()
@click.argument("name")
@click.option("--workflow", "tree_key", metavar="KEY", help="Only the memory of this workflow key.")
@click.option("--clear", is_flag=True, help="Forget the memory: the next run starts with an empty $ALPHRED_MEMORY.")
@repo_option
@db_option
def memory(name: str, tree_key: str | None, clear: bool, repo: str | None, db: str | None) -> int:
    """Show (or --clear) the memory NAME of this repository: its files, their sizes, the run that saved them."""
    from alphred.cli.inspect_cmds import open_existing_store
    from alphred.git import locate_repository
    from alphred.operations.memory import clear_memories, list_memories

    location = locate_repository(repo)
    store = open_existing_store(repo, db)
    found = [] if store is None else list_memories(store, location.root, name, tree_key)
    if not found:
        click.echo(f"no memory called {name} in this repository")
        return 0
    if clear:
        count = clear_memories(store, location.root, name, tree_key)
        click.echo(f"cleared {count} memor{'y' if count == 1 else 'ies'} called {name}")
        return 0
    for entry in found:
        saved = entry.saved_at.strftime("%Y-%m-%d %H:%M:%S UTC")
        by = f"run {entry.run_id}" if entry.run_id is not None else "no run"
        total = sum(size for _, size in entry.files)
        click.echo(f"memory {entry.name} of workflow {entry.tree_key}: saved by {by} at {saved}, {total:,} bytes")
        for file_path, size in entry.files:
            click.echo(f"{size:>12,}  {file_path}")
    return 0
