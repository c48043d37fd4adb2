"""``alphred schema`` and ``alphred init``: the schema of workflow files and the templates a user starts from."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from alphred.cli.main import app


def packaged_text(*parts: str) -> str:
    """A file shipped in the ``alphred`` package (``templates/``), as text."""
    from importlib import resources  # here: ``importlib.resources`` costs every other command its start-up

    node = resources.files("alphred")
    for part in parts:
        node = node.joinpath(part)
    return node.read_text(encoding="utf-8")


def template_names() -> list[str]:
    """The workflow templates ``alphred init`` can write (the bundled ``workflows/*.yaml``): the same list
    ``uses: template:NAME`` names (``workflow.children.bundled_templates``)."""
    from alphred.workflow.children import bundled_templates

    return bundled_templates()


@app.command()
def schema() -> int:
    """Print the JSON Schema of workflow files (for editors: alphred schema > workflow.schema.json).

    Assembled from the installed providers: a provider added by a plugin brings its phase keys along.
    """
    from alphred.providers import default_registry
    from alphred.workflow.json_schema import schema_text

    sys.stdout.write(schema_text(default_registry()))
    return 0


@app.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option(
    "--template",
    "-t",
    "template",
    default="demo",
    show_default=True,
    metavar="NAME",
    help="The bundled workflow to start from (--list shows them).",
)
@click.option("--list", "list_only", is_flag=True, help="List the bundled templates and exit.")
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
def init(file: str | None, template: str, list_only: bool, force: bool) -> int:
    """Write a new workflow file from a bundled template (offline), validated.

    FILE defaults to NAME.yaml in the current directory. Then: alphred run FILE.
    """
    from alphred.errors import UsageError, WorkflowInvalidError
    from alphred.providers import default_registry
    from alphred.workflow import check_workflow

    names = template_names()
    if list_only:
        for name in names:
            first = packaged_text("templates", f"{name}.yaml").splitlines()[0].lstrip("# ").strip()
            click.echo(f"{name:<24} {first}")
        return 0
    if template not in names:
        raise UsageError(f"no template '{template}'; choose one of: {', '.join(names)}")
    target = Path(file or f"{template}.yaml")
    if target.exists() and not force:
        raise UsageError(f"{target} already exists; pick another FILE or pass --force to overwrite it")
    text = packaged_text("templates", f"{template}.yaml")
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    workflow, diagnostics = check_workflow(str(target), providers=default_registry())
    for diagnostic in diagnostics:
        click.echo(diagnostic.format(), err=True)
    if workflow is None:
        raise WorkflowInvalidError(diagnostics)
    from alphred.views.suggestions import relative_file, run_suggestion

    command, fills = run_suggestion(relative_file(str(target)), workflow, dry_run=workflow.key != "demo")
    click.echo(f"wrote {target}: workflow '{workflow.key}', {len(workflow.phases)} phases; next: {command}", err=True)
    if fills:
        click.echo(f"  (replace {' and '.join(fills)} with your own value{'s' if len(fills) > 1 else ''})", err=True)
    return 0
