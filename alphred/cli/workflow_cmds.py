"""``alphred validate`` and ``alphred graph``: workflow files, no database, no git."""

from __future__ import annotations

import click

from alphred.cli.main import app, db_option, repo_option


@app.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--strict",
    is_flag=True,
    help="Treat warnings as errors, and warn about paths into the report of a phase without 'output:'.",
)
@click.option("--quiet", "-q", is_flag=True, help="Print nothing for valid files.")
@repo_option
@db_option
def validate(files: tuple[str, ...], strict: bool, quiet: bool, repo: str | None, db: str | None) -> int:
    """Check workflow files; print every problem as FILE:LINE:COL: severity: message.

    Exit 0 when every file is valid (warnings allowed unless --strict), 2 otherwise. Reads no database
    and no repository: --repo and --db are accepted for uniformity and ignored.
    """
    from alphred.providers import default_registry
    from alphred.views.tooling import tooling_lines
    from alphred.workflow import check_workflow

    providers = default_registry()
    failed = False
    for path in files:
        workflow, diagnostics = check_workflow(path, providers=providers, strict=strict)
        for diagnostic in diagnostics:
            click.echo(diagnostic.format(), err=True)
        errors = sum(d.severity == "error" for d in diagnostics)
        warnings = sum(d.severity == "warning" for d in diagnostics)
        if errors or (strict and warnings):
            failed = True
        elif not quiet and workflow is not None:
            note = f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings else ""
            click.echo(f"{path}: ok: workflow '{workflow.key}', {len(workflow.phases)} phases{note}", err=True)
            for line in tooling_lines(workflow):  # what each agent will have (SPEC §14)
                click.echo(line, err=True)
    return 2 if failed else 0


@app.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["mermaid", "dot"]),
    default="mermaid",
    show_default=True,
    help="Output format.",
)
@repo_option
@db_option
def graph(file: str, fmt: str, repo: str | None, db: str | None) -> int:
    """Print a workflow's phases and transitions (guards on the edges) as Mermaid or DOT."""
    from alphred.providers import default_registry
    from alphred.workflow import load_workflow
    from alphred.workflow.diagram import render_dot, render_mermaid

    workflow = load_workflow(file, providers=default_registry())
    click.echo(render_mermaid(workflow) if fmt == "mermaid" else render_dot(workflow), nl=False)
    return 0
