"""``alphred submit``: validate, compile and queue a run for the workers (SPEC §10)."""

from __future__ import annotations

import json
import os
import sys

import click

from alphred.cli.main import app, db_option


@app.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-i", "--input", "pairs", multiple=True, metavar="NAME=VALUE", help="A workflow input (repeatable).")
@click.option("--input-file", metavar="PATH", help="YAML or JSON mapping of workflow inputs.")
@click.option("--repo", "repo", metavar="PATH|NAME", default=None,
              help="Repository (path or registered name) the run belongs to (default: the current one).")  # fmt: skip
@click.option("--base", metavar="REF", help="Commit, branch or tag to branch the run from (default: HEAD).")
@click.option("--branch", metavar="NAME", help="Branch name or template for the run (sanitised into a valid ref).")
@click.option("--pr/--no-pr", "pr", default=None, help="Open a pull request when the run completes (--no-pr wins).")
@click.option("--priority", type=int, default=0, show_default=True, help="Higher runs are claimed first.")
@click.option("--requires", "labels", metavar="LABEL", multiple=True,
              help="A label a worker must offer (--capability) to take the run (repeatable).")  # fmt: skip
@click.option("--preflight", is_flag=True, help="Check the workflow's providers on this machine too.")
@click.option("--json", "as_json", is_flag=True, help="Print the run's status object as JSON on stdout.")
@db_option
def submit(
    file: str,
    pairs: tuple[str, ...],
    input_file: str | None,
    repo: str | None,
    base: str | None,
    branch: str | None,
    pr: bool | None,
    priority: int,
    labels: tuple[str, ...],
    preflight: bool,
    as_json: bool,
    db: str | None,
) -> int:
    """Queue a run: store it pending, with no owner, for `alphred worker` to execute; print its id.

    Nothing runs and no worktree is made here. Exit codes: 0 queued, 2 invalid input.
    """
    from alphred.cli.inputs import collect_inputs
    from alphred.cli.run_cmds import _registered_repo, build_registry, workspace
    from alphred.errors import WorkflowInvalidError
    from alphred.git import GitWorktrees
    from alphred.operations.registration import registered_at
    from alphred.operations.submit import submit_run
    from alphred.operations.where import resolve_for_write
    from alphred.providers import default_registry
    from alphred.runtime.delivery import plan_pull_request
    from alphred.runtime.options import RunOptions
    from alphred.store import SqlRunStore
    from alphred.views.status import run_status
    from alphred.workflow import check_workflow

    workflow, diagnostics = check_workflow(file, providers=default_registry())
    for diagnostic in diagnostics:
        click.echo(diagnostic.format(), err=True)
    if workflow is None:
        raise WorkflowInvalidError(diagnostics)
    inputs = collect_inputs(workflow, pairs, input_file)
    if preflight:
        build_registry(workflow, False)
    environ = dict(os.environ)
    name = repo if repo is not None and not os.path.exists(repo) else None
    repo, repo_template = _registered_repo(repo, environ, db)
    location, url = resolve_for_write(repo, db)
    if name is None or repo_template is None:
        registered = registered_at(location.root, environ, db)
        if registered is not None:
            name = name or registered.name
            repo_template = repo_template or registered.branch_template
    plan = plan_pull_request(
        workflow, location.root, environ, pr=pr, remote=None, draft=False,
        run_base_ref=GitWorktrees(location).resolve_base(base).ref_name, dry_run=False,
    )  # fmt: skip
    options = RunOptions(
        inputs=inputs, base=base, branch=branch, branch_template=repo_template, pull_request=plan, environ=environ
    )
    with SqlRunStore(url) as store:
        run_workspace = workspace(store, location, True)
        run_id = submit_run(run_workspace, workflow, options, priority=priority, labels=labels, name=name)
        if as_json:
            record = store.get_run(run_id)
            sys.stdout.write(json.dumps(run_status(store, record)) + "\n")
        else:
            sys.stdout.write(f"{run_id}\n")
    return 0
