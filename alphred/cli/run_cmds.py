"""``alphred run``: validate, preflight, create the run and its worktree, drive it, report."""

from __future__ import annotations

import json
import os
import sys

import click

from .app import app, db_option, repo_option


def _registry_for(workflow: object, dry_run: bool) -> object:
    from alphred.providers import ProviderRegistry, default_registry
    from alphred.providers.dryrun import DryRunProvider
    from alphred.spec import PhaseType, Workflow

    assert isinstance(workflow, Workflow)
    registry = default_registry()
    agents = [p for p in workflow.phases if p.type is PhaseType.AGENT and p.provider]
    if dry_run:
        names = {p.provider for p in agents if p.provider}
        return ProviderRegistry({name: (lambda n=name: DryRunProvider(n)) for name in names})
    for phase in agents:
        assert phase.provider is not None
        provider = registry.resolve(phase.provider)  # UNKNOWN_AGENT_PROVIDER before anything is created
        readiness = provider.check()
        if not readiness.ready:
            from alphred.errors import ProviderError

            error = ProviderError(
                f"provider '{phase.provider}' (phase {phase.key}) is not ready: {readiness.detail}",
                kind="auth",
                code="PROVIDER_NOT_READY",
            )
            error.exit_code = 2
            raise error
    return registry


@app.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-i", "--input", "pairs", multiple=True, metavar="NAME=VALUE", help="A workflow input (repeatable).")
@click.option("--input-file", metavar="PATH", help="YAML or JSON mapping of workflow inputs.")
@repo_option
@click.option("--base", metavar="REF", help="Commit, branch or tag to branch the run from (default: HEAD).")
@click.option("--branch", metavar="NAME", help="Branch name or template for the run (sanitised into a valid ref).")
@click.option("--dry-run", is_flag=True, help="Replace every agent phase by a stub taking its first decision.")
@click.option("--json", "as_json", is_flag=True, help="Print the run's status object as JSON on stdout.")
@click.option("--keep-worktree", is_flag=True, help="Keep the worktree after a successful run.")
@click.option("--approve-all", is_flag=True, help="Approve every approval phase automatically (for CI).")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@db_option
def run(
    file: str,
    pairs: tuple[str, ...],
    input_file: str | None,
    repo: str | None,
    base: str | None,
    branch: str | None,
    dry_run: bool,
    as_json: bool,
    keep_worktree: bool,
    approve_all: bool,
    quiet: bool,
    db: str | None,
) -> int:
    """Run a workflow in a fresh worktree on its own branch; exit 0 completed, 1 failed, 4 paused."""
    from alphred.providers import ProviderRegistry
    from alphred.runtime.progress import Progress
    from alphred.runtime.runner import Runner, RunOptions, create_run, start_run
    from alphred.runtime.status import exit_code_for, status_object
    from alphred.runtime.where import resolve_for_write
    from alphred.spec import check_workflow
    from alphred.store import SqlRunStore

    from .inputs import collect_inputs

    workflow, diagnostics = check_workflow(file)
    for diagnostic in diagnostics:
        click.echo(diagnostic.format(), err=True)
    if workflow is None:
        from alphred.errors import WorkflowInvalidError

        raise WorkflowInvalidError(diagnostics)
    inputs = collect_inputs(workflow, pairs, input_file)
    registry = _registry_for(workflow, dry_run)
    assert isinstance(registry, ProviderRegistry)
    location, url = resolve_for_write(repo, db)
    options = RunOptions(inputs=inputs, base=base, branch=branch, keep_worktree=keep_worktree, approve_all=approve_all)
    with SqlRunStore(url) as store:
        run_id, worktree, state = create_run(store, workflow, location, options)
        progress = Progress(enabled=not quiet, run_id=run_id)
        progress.note(f"run {run_id} of {workflow.key} on branch {store.get_run(run_id).branch} in {worktree}")
        runner = Runner(
            store, workflow, run_id, location, registry,
            worktree=worktree, keep_worktree=keep_worktree, approve_all=approve_all,
            env=dict(os.environ), progress=progress,
        )  # fmt: skip
        start_run(runner, state)
        record = store.get_run(run_id)
        if as_json:
            sys.stdout.write(json.dumps(status_object(record, store.list_steps(run_id))) + "\n")
        return exit_code_for(record.status.value, record.reason)
