"""``alphred providers``: every registered provider and whether it is ready here (binary, credentials)."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from alphred.cli.main import app


def provider_readiness() -> list[dict[str, Any]]:
    """Name, readiness and detail of every registered provider, sorted by name; never raises."""
    from alphred.providers import default_registry

    registry = default_registry()
    rows: list[dict[str, Any]] = []
    for name in registry.names:
        try:
            readiness = registry.resolve(name).check()
            rows.append({"name": name, "ready": bool(readiness.ready), "detail": readiness.detail})
        except Exception as exc:  # a broken third-party plugin is reported, not a traceback
            rows.append({"name": name, "ready": False, "detail": f"cannot load: {type(exc).__name__}: {exc}"})
    return rows


@app.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of {name, ready, detail}.")
def providers(as_json: bool) -> int:
    """List every registered provider with its readiness check (binary found, credentials present)."""
    rows = provider_readiness()
    if as_json:
        sys.stdout.write(json.dumps(rows) + "\n")
        return 0
    width = max((len(r["name"]) for r in rows), default=0)
    for row in rows:
        state = "ready" if row["ready"] else "not ready"
        click.echo(f"{row['name']:<{width}}  {state:<9}  {row['detail']}")
    return 0
