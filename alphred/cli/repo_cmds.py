"""``alphred repo add|list|remove``: the user-level registry of repositories that ``run --repo NAME`` uses."""

from __future__ import annotations

import json
import os
import sys

import click

from alphred.cli.dburl import db_url_callback
from alphred.cli.main import app

registry_db_option = click.option(
    "--db",
    "db",
    metavar="URL",
    default=None,
    envvar="ALPHRED_DATABASE_URL",
    callback=db_url_callback,
    help="SQLAlchemy database URL of the registry (default: SQLite at $ALPHRED_HOME/alphred.db, ~/.alphred).",
)


@app.group()
def repo() -> None:
    """Register repositories by name, so that `alphred run --repo NAME` works from anywhere."""


@repo.command("add")
@click.argument("name")
@click.argument("location", metavar="PATH|URL")
@click.option("--branch-template", metavar="TEMPLATE", help="Branch name template for runs in this repository.")
@registry_db_option
def add(name: str, location: str, branch_template: str | None, db: str | None) -> int:
    """Register a working tree (PATH) or a remote to clone on first use (URL) as NAME."""
    from alphred.operations.registration import registration_for, registry_db_url
    from alphred.store import SqlRunStore, check_repository_name

    check_repository_name(name)
    path, url = registration_for(location)
    with SqlRunStore(registry_db_url(os.environ, db)) as store:
        record = store.add_repository(name, path=path, remote_url=url, branch_template=branch_template)
    where = f"{record.remote_url} (cloned on first use)" if record.remote_url else str(record.path)
    click.echo(f"registered repository {record.name}: {where}", err=True)
    return 0


@repo.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of the registered repositories.")
@registry_db_option
def list_(as_json: bool, db: str | None) -> int:
    """List the registered repositories, by name."""
    from alphred.operations.registration import registry_db_url
    from alphred.store import SqlRunStore

    store = SqlRunStore.open_existing(registry_db_url(os.environ, db))
    records = []
    if store is not None:
        with store:
            records = store.list_repositories()
    if as_json:
        sys.stdout.write(json.dumps([r.to_json() for r in records]) + "\n")
        return 0
    if not records:
        click.echo("no repositories registered (alphred repo add NAME PATH|URL)", err=True)
        return 0
    width = max(len(r.name) for r in records)
    for r in records:
        template = f"  branch {r.branch_template}" if r.branch_template else ""
        clone = f"  [{r.clone_status}]" if r.remote_url else ""
        click.echo(f"{r.name:<{width}}  {r.location}{clone}{template}")
    return 0


@repo.command("remove")
@click.argument("name")
@registry_db_option
def remove(name: str, db: str | None) -> int:
    """Unregister NAME (its files, and any clone under ~/.alphred/repos/, are kept)."""
    from alphred.errors import UnknownRepositoryError
    from alphred.operations.registration import registry_db_url
    from alphred.store import SqlRunStore

    store = SqlRunStore.open_existing(registry_db_url(os.environ, db))
    if store is None:
        raise UnknownRepositoryError(name, ())
    with store, store.transaction() as tx:
        record = tx.remove_repository(name)
        known = [r.name for r in tx.list_repositories()]
    if record is None:
        raise UnknownRepositoryError(name, known)
    kept = f" (the clone at {record.path} is kept)" if record.remote_url and record.path else ""
    click.echo(f"removed repository {name}{kept}", err=True)
    return 0
