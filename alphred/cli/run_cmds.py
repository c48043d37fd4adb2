"""``alphred run`` and the commands that continue or steer a run: resume, retry, approve, reject, pause, cancel."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from alphred.cli.main import (
    RUN_ID,
    app,
    check_branch_name,
    collector_paused,
    db_option,
    repo_option,
    suggestion_place,
)

if TYPE_CHECKING:
    from alphred.operations.workspace import Workspace
    from alphred.providers import ProviderRegistry
    from alphred.store import RunRecord, SqlRunStore
    from alphred.workflow import Workflow

F = TypeVar("F", bound=Callable[..., Any])


def build_registry(workflow: Workflow, dry_run: bool) -> ProviderRegistry:
    """The providers a workflow needs, resolved and preflighted (or dry-run stand-ins)."""
    from alphred.errors import ProviderError
    from alphred.providers import ProviderRegistry, default_registry
    from alphred.workflow import PhaseType

    agents = [p for p in workflow.all_phases() if p.type is PhaseType.AGENT and p.provider]  # sub-workflows' too
    if dry_run:  # its providers are loaded for a dry run only (issue 29)
        from alphred.providers.dryrun import DryRunProvider
        from alphred.providers.dryrun_reports import stub_reports

        names = {p.provider for p in agents if p.provider}
        reports = stub_reports(workflow)  # so that guards on report.x route as they would for real
        return ProviderRegistry({name: functools.partial(DryRunProvider, name, reports=reports) for name in names})
    registry = default_registry()
    checked: dict[str, Any] = {}  # provider name -> its check() (asked once per provider)
    not_ready: dict[tuple[str, str], list[str]] = {}  # (provider, why) -> its phases
    for phase in agents:
        assert phase.provider is not None
        provider = registry.resolve(phase.provider)  # UNKNOWN_AGENT_PROVIDER before anything is created
        if phase.provider not in checked:
            checked[phase.provider] = provider.check()
        readiness = checked[phase.provider]
        check_phase = getattr(provider, "check_phase", None)
        if (readiness.ready or readiness.depends_on_phase) and callable(check_phase):
            readiness = check_phase(phase.options)
        if not readiness.ready:
            not_ready.setdefault((phase.provider, readiness.detail), []).append(phase.key)
    if not_ready:
        error = ProviderError(not_ready_message(not_ready), kind="auth", code="PROVIDER_NOT_READY")
        error.exit_code = 2
        raise error
    check_sandbox(workflow)
    return registry


def not_ready_message(not_ready: dict[tuple[str, str], list[str]]) -> str:
    """Every provider that is not ready, with its phases and why: one sentence for one, a list for more."""
    parts = []
    for (name, detail), phases in not_ready.items():
        which = f"phase {phases[0]}" if len(phases) == 1 else f"phases {', '.join(phases)}"
        parts.append(f"provider '{name}' ({which}) is not ready: {detail}")
    if len(parts) == 1:
        return parts[0]
    names = {name for name, _ in not_ready}
    head = f"{len(names)} providers are not ready" if len(names) > 1 else "a provider is not ready for several phases"
    return f"{head}:\n" + "\n".join(f"  {part}" for part in parts)


def check_sandbox(workflow: Workflow) -> None:
    """Preflight of ``sandbox:`` (SPEC §14): SANDBOX_UNAVAILABLE (exit 2) when a phase asks for it and
    bubblewrap is missing or cannot run here — before anything is created, never a silent unsandboxed run."""
    sandboxed = [phase.key for phase in workflow.phases if phase.sandbox is not None]
    if not sandboxed:
        return
    from alphred.errors import SandboxUnavailableError
    from alphred.runtime.sandbox import find_bwrap, sandbox_problem

    problem = sandbox_problem(find_bwrap())
    if problem is not None:
        raise SandboxUnavailableError(sandboxed, problem)


def workspace(store: SqlRunStore, location: Any, quiet: bool, events_format: str | None = None) -> Workspace:
    """What the run operations need: store, repository, provider registry, progress and event stream."""
    from alphred.operations.workspace import Workspace
    from alphred.redact import process_redactor
    from alphred.views.jsonl import JsonlEvents
    from alphred.views.progress import Progress

    events = JsonlEvents(sys.stdout, redact=process_redactor().redact) if events_format == "jsonl" else None
    return Workspace(
        store=store,
        location=location,
        registry_for=build_registry,
        progress=lambda run_id: Progress(enabled=not quiet, run_id=run_id),
        events=events,
    )


def _report(store: SqlRunStore, record: RunRecord, as_json: bool, quiet: bool = False) -> int:
    """Print the closing block (stderr) and the status object if asked, write GitHub Actions outputs if
    present, return the exit code."""
    from alphred.views.ci_outputs import write_github_outputs
    from alphred.views.closing import closing_block
    from alphred.views.status import exit_code_for, run_status
    from alphred.views.style import Painter, wants_colour

    status = run_status(store, record)
    if not quiet:
        for line in closing_block(store, record, Painter(wants_colour(sys.stderr)), suggestion_place(record.repo_path)):
            click.echo(line, err=True)
    if as_json:
        sys.stdout.write(json.dumps(status) + "\n")
        sys.stdout.flush()
    from alphred.views.branch_status import run_branch_views

    write_github_outputs(
        status,
        os.environ,
        warn=lambda message: click.echo(f"warning: {message}", err=True),
        branches=lambda: [view.as_dict() for view in run_branch_views(store, record)],
    )
    return exit_code_for(record.status.value, record.reason)


def output_options(func: F) -> F:
    """``--json``, ``--events jsonl`` and ``--quiet``, shared by every command that drives a run."""
    func = click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")(func)
    func = click.option(
        "--events",
        "events_format",
        type=click.Choice(["jsonl"]),
        default=None,
        help="Stream lifecycle and provider events as JSON lines on stdout.",
    )(func)
    return click.option("--json", "as_json", is_flag=True, help="Print the run's status object as JSON on stdout.")(
        func
    )


class RunCommand(click.Command):
    """``alphred run``: also accepts ``--dry-run=agents`` / ``--dry-run=all`` (``--dry-run`` is a flag)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Spell ``--dry-run=SCOPE`` as ``--dry-run-scope SCOPE`` before click parses."""
        rewritten: list[str] = []
        for arg in args:
            if arg == "--":
                rewritten += args[len(rewritten) :]
                break
            if arg.startswith("--dry-run="):
                rewritten += ["--dry-run-scope", arg.partition("=")[2]]
            else:
                rewritten.append(arg)
        return super().parse_args(ctx, rewritten)


@app.command(cls=RunCommand)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-i", "--input", "pairs", multiple=True, metavar="NAME=VALUE", help="A workflow input (repeatable).")
@click.option("--input-file", metavar="PATH", help="YAML or JSON mapping of workflow inputs.")
@repo_option
@click.option("--base", metavar="REF", help="Commit, branch or tag to branch the run from (default: HEAD).")
@click.option(
    "--branch",
    metavar="NAME",
    callback=lambda ctx, param, value: check_branch_name(value),
    help="Branch name or template for the run (sanitised into a valid ref).",
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="No side effect outside the worktree: agents stubbed, commands said not run, no push, no PR.",
)
@click.option(
    "--dry-run-scope",
    type=click.Choice(["all", "agents"]),
    default=None,
    help="With --dry-run: 'agents' still runs command phases (also spelled --dry-run=agents).",
)
@click.option("--keep-worktree", is_flag=True, help="Keep the worktree after a successful run.")
@click.option("--approve-all", is_flag=True, help="Approve every approval phase automatically (for CI).")
@click.option("--pr/--no-pr", "pr", default=None, help="Open a pull request when the run completes (--no-pr wins).")
@click.option("--remote", metavar="NAME", default=None, help="Remote to push the run's branch to (default: origin).")
@click.option("--draft", is_flag=True, help="Open the pull request as a draft.")
@click.option(
    "--pr-branch",
    is_flag=True,
    help="Start on the head of the pull request the workflow's existing: names (pushed to, never forced).",
)
@output_options
@db_option
def run(
    file: str,
    pairs: tuple[str, ...],
    input_file: str | None,
    repo: str | None,
    base: str | None,
    branch: str | None,
    dry_run: bool,
    dry_run_scope: str | None,
    keep_worktree: bool,
    approve_all: bool,
    pr: bool | None,
    remote: str | None,
    draft: bool,
    pr_branch: bool,
    as_json: bool,
    events_format: str | None,
    quiet: bool,
    db: str | None,
) -> int:
    """Run a workflow in a fresh worktree on its own branch.

    Exit codes: 0 completed, 1 failed, 2 invalid input, 3 cancelled, 4 paused or waiting for approval,
    130 interrupted (resume with `alphred resume RUN`).
    """
    with collector_paused():  # the start loads modules and checks the file: long-lived objects, no garbage
        from alphred.cli.inputs import collect_inputs
        from alphred.errors import WorkflowInvalidError
        from alphred.git import GitWorktrees
        from alphred.operations.ci_wait import follow_ci
        from alphred.operations.start import start_run
        from alphred.operations.where import resolve_for_write
        from alphred.providers import default_registry
        from alphred.runtime.delivery import plan_pull_request
        from alphred.runtime.options import RunOptions
        from alphred.store import SqlRunStore
        from alphred.workflow import check_workflow

        workflow, diagnostics = check_workflow(file, providers=default_registry())
        if workflow is None:
            raise WorkflowInvalidError(diagnostics, _file_hint(file, repo))  # lists every diagnostic, once
        for diagnostic in diagnostics:
            click.echo(diagnostic.format(), err=True)
        dry_run = dry_run or dry_run_scope is not None
        inputs = collect_inputs(workflow, pairs, input_file)
        registry = build_registry(workflow, dry_run)
        environ = dict(os.environ)
        repo, repo_template = _registered_repo(repo, environ, db)
        location, url = resolve_for_write(repo, db)
        if repo_template is None:
            from alphred.operations.registration import registered_branch_template

            repo_template = registered_branch_template(location.root, environ, db)
        from alphred.operations.branch_choice import run_branch_template

        branch = run_branch_template(branch, repo_template, environ, inputs)
        resolved = GitWorktrees(location).resolve_base(base)
        plan = plan_pull_request(
            workflow, location.root, environ, pr=pr, remote=remote, draft=draft, run_base_ref=resolved.ref_name,
            dry_run=dry_run,
        )  # fmt: skip
        options = RunOptions(
            inputs=inputs, base=base, resolved_base=resolved, branch=branch, branch_template=repo_template,
            keep_worktree=keep_worktree, approve_all=approve_all, dry_run=dry_run,
            dry_run_scope=dry_run_scope or "all", pull_request=plan, environ=environ, pr_branch=pr_branch,
        )  # fmt: skip
        if dry_run and not quiet and (pr or workflow.pull_request is not None) and pr is not False:
            click.echo("dry run: the pull request this run would open is not opened, and nothing is pushed", err=True)
    with SqlRunStore(url) as store:
        space = workspace(store, location, quiet, events_format)
        record = follow_ci(space, start_run(space, workflow, options, registry))  # SPEC §16: polls while waiting
        return _report(store, record, as_json, quiet)


def _file_hint(file: str, repo: str | None) -> str | None:
    """When FILE is missing here but exists inside ``--repo``: say that FILE is read from the current
    directory, and name the path that would work."""
    if repo is None or os.path.isabs(file) or os.path.exists(file):
        return None
    inside = os.path.join(repo, file)
    if not os.path.isfile(inside):
        return f"FILE is read from the current directory ({os.getcwd()}), not from --repo"
    return f"FILE is read from the current directory, not from --repo: did you mean {inside}?"


def _registered_repo(repo: str | None, environ: dict[str, str], db: str | None) -> tuple[str | None, str | None]:
    """``--repo NAME`` of a registered repository (cloned on first use) -> its path and branch template."""
    if repo is None or os.path.exists(repo):
        return repo, None
    from alphred.operations.registration import resolve_registered_repo

    resolved = resolve_registered_repo(repo, environ, db=db, warn=lambda m: click.echo(f"warning: {m}", err=True))
    return str(resolved[0]), resolved[1]


def _continue(
    run_id: int,
    action: str,
    repo: str | None,
    db: str | None,
    as_json: bool,
    events_format: str | None,
    quiet: bool,
    **kw: Any,
) -> int:
    from alphred.operations.ci_wait import follow_ci
    from alphred.operations.continuing import continue_run
    from alphred.operations.where import resolve_for_write
    from alphred.store import SqlRunStore

    location, url = resolve_for_write(repo, db)
    with SqlRunStore(url) as store:
        space = workspace(store, location, quiet, events_format)
        record = follow_ci(space, continue_run(space, run_id, action, **kw))
        return _report(store, record, as_json, quiet)


RUN_ARG = click.argument("run_id", metavar="RUN", type=RUN_ID)
COMMENT = click.option(
    "--comment", metavar="TEXT", help="Why; visible to guards as report.comment and to the next phase."
)


DETACH = click.option(
    "--detach", is_flag=True, help="Record the request and leave the run to the workers (`alphred worker`); exit 0."
)


def _detach(run_id: int, action: str, repo: str | None, db: str | None, as_json: bool, comment: str | None) -> int:
    from alphred.operations.submit import request_detached
    from alphred.views.status import run_status

    store, _ = _open_existing(repo, db)
    with store:
        record = request_detached(store, run_id, action, comment)
        if as_json:
            sys.stdout.write(json.dumps(run_status(store, record)) + "\n")
        click.echo(f"run {run_id}: {action} requested; a worker continues it", err=True)
    return 0


def _continue_command(action: str, summary: str, with_comment: bool = False) -> None:
    """Register ``alphred ACTION RUN``: it drives the run on in the foreground, like ``run``."""

    def command(
        run_id: int,
        repo: str | None,
        db: str | None,
        as_json: bool,
        events_format: str | None,
        quiet: bool,
        detach: bool,
        comment: str | None = None,
    ) -> int:
        if detach:
            return _detach(run_id, action, repo, db, as_json, comment)
        extra = {"comment": comment} if with_comment else {}
        return _continue(run_id, action, repo, db, as_json, events_format, quiet, **extra)

    command.__doc__ = f"{summary}; exit codes as `run` (0 with --detach once the request is recorded)."
    decorated = DETACH(output_options(db_option(repo_option(command))))
    if with_comment:
        decorated = COMMENT(decorated)
    app.command(name=action)(RUN_ARG(decorated))


_continue_command("resume", "Continue a paused or interrupted run (also one whose process was killed)")
_continue_command("retry", "Retry a failed run: its failed phase runs again as a new attempt")
_continue_command("approve", "Approve the approval phase a run waits on, and continue the run", with_comment=True)
_continue_command("reject", "Reject the approval phase a run waits on, and continue the run", with_comment=True)


def _open_existing(repo: str | None, db: str | None) -> tuple[Any, Any]:
    from alphred.cli.inspect_cmds import open_existing_store
    from alphred.errors import UnknownRunError
    from alphred.git import locate_repository

    location = locate_repository(repo) if not db else None
    store = open_existing_store(repo, db)
    if store is None:
        raise UnknownRunError("(no database yet)")
    return store, location


@app.command()
@RUN_ARG
@repo_option
@db_option
def pause(run_id: int, repo: str | None, db: str | None) -> int:
    """Ask a run to pause after its current phase (exit 0 also when it is already paused)."""
    from alphred.operations.requests import request_pause

    store, _ = _open_existing(repo, db)
    with store:
        click.echo(request_pause(store, run_id), err=True)
    return 0


@app.command()
@RUN_ARG
@repo_option
@db_option
def cancel(run_id: int, repo: str | None, db: str | None) -> int:
    """Cancel a run now: its active phase is interrupted, every pending phase cancelled (the run exits 3)."""
    from alphred.git import locate_repository
    from alphred.operations.requests import request_cancel

    store, location = _open_existing(repo, db)
    with store:
        record = store.find_run(run_id)
        if location is None and record is not None and record.repo_path:
            location = locate_repository(record.repo_path)
        click.echo(request_cancel(workspace(store, location, True), run_id), err=True)
    return 0
