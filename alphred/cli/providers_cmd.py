"""``alphred providers``: every registered provider and whether it is ready here (binary, credentials)."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from alphred.cli.main import app


def provider_readiness() -> list[dict[str, Any]]:
    """Name, readiness, detail and what it enforces (SPEC §14) of every registered provider, sorted by name;
    never raises."""
    from alphred.providers import default_registry
    from alphred.views.tooling import enforced

    registry = default_registry()
    rows: list[dict[str, Any]] = []
    for name in registry.names:
        try:
            readiness = registry.resolve(name).check()
            enforces = enforced(registry.descriptor(name).capabilities)
            rows.append(
                {"name": name, "ready": bool(readiness.ready), "detail": readiness.detail, "enforces": enforces}
            )
        except Exception as exc:  # a broken third-party plugin is reported, not a traceback
            rows.append({"name": name, "ready": False, "detail": f"cannot load: {type(exc).__name__}: {exc}"})
    return rows


@app.command()
@click.argument("workflow", required=False, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print JSON: a list of {name, ready, detail, enforces}.")
def providers(workflow: str | None, as_json: bool) -> int:
    """List every registered provider with its readiness check (binary found, credentials present) and what
    it enforces (tools.allow, tools.deny, mcp, sandbox); with WORKFLOW, also each agent phase's tools and MCP
    servers."""
    rows = provider_readiness()
    phases = _phases(workflow) if workflow else None
    if as_json:
        sys.stdout.write(json.dumps(rows if phases is None else {"providers": rows, "phases": phases}) + "\n")
        return 0
    width = max((len(r["name"]) for r in rows), default=0)
    for row in rows:
        state = "ready" if row["ready"] else "not ready"
        click.echo(f"{row['name']:<{width}}  {state:<9}  {row['detail']}")
        click.echo(f"{'':<{width}}  {'':<9}  enforces: {row.get('enforces', 'nothing')}")
    if workflow:
        from alphred.providers import default_registry
        from alphred.views.tooling import tooling_lines
        from alphred.workflow import load_workflow

        click.echo(f"{workflow}:")
        for line in tooling_lines(load_workflow(workflow, providers=default_registry())):
            click.echo(line)
    return 0


def _phases(path: str) -> list[dict[str, Any]]:
    from alphred.providers import default_registry
    from alphred.views.tooling import phase_tooling
    from alphred.workflow import PhaseType, load_workflow

    loaded = load_workflow(path, providers=default_registry())
    return [phase_tooling(p) for p in loaded.phases if p.type is PhaseType.AGENT]
