"""Starting a run (``alphred run``): compile the workflow, create the run with its branch and worktree in a
crash-safe order, check that its branch can be pushed, and drive it from its start phase."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from alphred.engine import RunStarted, RunState, initial_state, state_to_json
from alphred.errors import AlphredError
from alphred.git import GitWorktrees, branch_tokens, choose_branch_template, render_branch_name
from alphred.git.command import load_gitpython
from alphred.lazy import imported_meanwhile
from alphred.operations.continuing import go_on_after_waits
from alphred.operations.memory import repository_key
from alphred.operations.remote_branch import check_branch_pushable, discard_unstarted_run
from alphred.operations.workspace import WANTED_BRANCH, Workspace, drive, make_worktree
from alphred.providers import ProviderRegistry
from alphred.runtime.crash import crash_point
from alphred.runtime.options import RunOptions
from alphred.store import RunRecord
from alphred.store.owners import LeaseOwner, lease_ttl
from alphred.views.style import shown_path
from alphred.workflow import Workflow

DRIVE_MODULES = ("alphred.runtime.runner",)
"""What ``drive`` imports that nothing before it needs (~40 modules, ~35 M instructions): loaded while
``git worktree add`` runs, after the run's intent is committed (it is no side effect)."""


def create_run(
    workspace: Workspace, workflow: Workflow, options: RunOptions, owner: LeaseOwner | None = None
) -> tuple[int, Path, RunState]:
    """Compile the workflow, create the run, its branch and worktree; return (run id, worktree, state).

    The run row, its phases and its engine state come into being in ONE transaction (with the branch name
    it wants), so a kill at any instant leaves either nothing or a run that ``resume``/``worker`` can start:
    its worktree, made after that transaction, is made again (or reused) when it is missing. With ``owner``
    the run is created already leased to it, so no worker can take it before it starts.
    """
    run_id, branch, base_sha, state = insert_run(workspace, workflow, options, _lease_fields(owner))
    crash_point("run_created")
    load_gitpython()  # now, so that ``make_worktree`` imports nothing while the runner's modules load
    with imported_meanwhile(*DRIVE_MODULES):  # on another core, while git checks the worktree out (issue 29)
        worktree = make_worktree(workspace, run_id, branch, base_sha)
    return run_id, worktree, state


def insert_run(
    workspace: Workspace,
    workflow: Workflow,
    options: RunOptions,
    fields: Mapping[str, object],
    after: Callable[[Any], None] | None = None,
) -> tuple[int, str, str, RunState]:
    """The run's ONE creating transaction (extra run ``fields``; ``after(tx)`` runs inside it); return
    (run id, the branch it wants, its base SHA, its initial state). Nothing is made on disk."""
    store = workspace.store
    base = options.resolved_base or GitWorktrees(workspace.location).resolve_base(options.base)
    state = initial_state(workflow, options.inputs, deliver=bool(options.pull_request and options.pull_request.at_end))
    template = choose_branch_template(options.branch, options.branch_template, options.environ)
    memory_key = repository_key(workspace.location.root) if workflow.memory is not None else None
    with store.transaction() as tx:
        tree_id, _version = tx.compile(workflow)
        run_id = tx.create_run(
            tree_id,
            workflow,
            dict(options.inputs),
            base_sha=base.sha,
            base_ref=base.ref_name,
            head_sha=base.sha,
            repo_path=str(workspace.location.root),
            **fields,
        )
        tokens = branch_tokens(tree_key=workflow.key, run_id=run_id, base_sha=base.sha, node_key=workflow.start)
        runtime = {**options.stored(), WANTED_BRANCH: render_branch_name(template, tokens)}
        tx.update_run(run_id, engine_state={"engine": state_to_json(state), "runtime": runtime})
        if memory_key is not None and workflow.memory is not None:  # its memory, as the last completion left it
            tx.use_memory(run_id, memory_key, workflow.key, workflow.memory)
        if after is not None:
            after(tx)
    return run_id, str(runtime[WANTED_BRANCH]), base.sha, state


def start_run(workspace: Workspace, workflow: Workflow, options: RunOptions, registry: ProviderRegistry) -> RunRecord:
    """Create a run and drive it from its start phase; return its final record."""
    owner = LeaseOwner.current()
    run_id, worktree, state = create_run(workspace, workflow, options, owner)
    store = workspace.store
    record = store.get_run(run_id)
    if options.pull_request is not None and record.branch and record.base_sha:  # before any agent runs
        try:
            check_branch_pushable(workspace.location.root, options.pull_request.remote, record.branch, record.base_sha)
        except AlphredError:
            discard_unstarted_run(store, GitWorktrees(workspace.location), run_id, worktree, record.branch)
            raise
    if options.pr_branch:  # SPEC §17: the existing pull request's head, before any phase runs
        try:
            check_out_at_start(workspace, workflow, options, state, run_id, worktree)
        except AlphredError:
            discard_unstarted_run(store, GitWorktrees(workspace.location), run_id, worktree, record.branch or "")
            raise
        record = store.get_run(run_id)
    if workspace.events is not None:
        workspace.events.run_started(run_id, workflow.key, record.branch)
    say = f"run {run_id} of {workflow.key} on branch {record.branch} in {shown_path(worktree)}"
    workspace.progress(run_id).note(say)
    runtime = {WANTED_BRANCH: record.branch}
    final = drive(workspace, workflow, run_id, worktree, options, registry, owner, state, [RunStarted()], runtime)
    return go_on_after_waits(workspace, final)  # a usage limit: wait for its reset and go on (SPEC §15)


def check_out_at_start(
    workspace: Workspace, workflow: Workflow, options: RunOptions, state: RunState, run_id: int, worktree: Path
) -> None:
    """``--pr-branch``: move the new run's worktree to the head of the pull request its first ``existing:``
    phase names (rendered from the inputs), recorded as the run's head; a usage error without such a phase."""
    from alphred.engine import template_context
    from alphred.errors import DeliveryError, UsageError
    from alphred.guards.templates import render_template
    from alphred.runtime.pr_phase import check_out_existing
    from alphred.workflow import PhaseType

    phase = next((p for p in workflow.phases if p.type is PhaseType.PULL_REQUEST and "existing" in p.templates), None)
    if phase is None or options.pull_request is None:
        raise UsageError("--pr-branch needs a pull request to push to: a type: pull_request phase with existing:")
    ref = render_template(phase.templates["existing"], template_context(state, workflow, phase.key)).strip()
    worktrees = GitWorktrees(workspace.location, hooks=workflow.git_hooks)
    try:
        _pull, head, said = check_out_existing(
            worktrees, worktree, options.environ, phase, ref, options.pull_request.remote
        )
    except DeliveryError as exc:
        raise UsageError(exc.message) from None
    workspace.store.update_run(run_id, head_sha=head)
    for line in said:
        workspace.progress(run_id).note(line)


def _lease_fields(owner: LeaseOwner | None) -> dict[str, object]:
    if owner is None:
        return {}
    return {"lease_owner": str(owner), "lease_expires_at": datetime.now(UTC) + timedelta(seconds=lease_ttl())}
