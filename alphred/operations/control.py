"""Run lifecycle operations behind the CLI: start, resume, retry, approve/reject, pause, cancel."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alphred.engine import (
    ApprovalGiven,
    Event,
    Resume,
    RetryRun,
    RunStarted,
    RunState,
    RunStatus,
    can_retry,
    initial_state,
    state_from_json,
    state_to_json,
)
from alphred.engine.machine import AWAITING_APPROVAL
from alphred.errors import (
    AlphredError,
    RunBusyError,
    RunStateError,
    StoreError,
    UnknownRunError,
)
from alphred.git import GitWorktrees, RepoLocation, branch_tokens, choose_branch_template, render_branch_name
from alphred.git.repair import clear_stale_locks
from alphred.providers import ProviderRegistry, default_registry
from alphred.redact import Redactor
from alphred.runtime.cleanup import finish_cleanups, pending_cleanups
from alphred.runtime.crash import crash_point
from alphred.runtime.delivery import PullRequestPlan
from alphred.runtime.orphans import kill_leftovers
from alphred.runtime.runner import Runner, RunOptions
from alphred.runtime.takeover import settle
from alphred.store import RunRecord, SqlRunStore
from alphred.store.owners import LeaseOwner, lease_free, lease_ttl
from alphred.store.snapshots import read_snapshot
from alphred.views.jsonl import JsonlEvents
from alphred.views.progress import Progress
from alphred.views.style import shown_path
from alphred.workflow import Workflow, load_workflow

WANTED_BRANCH = "branch"
"""Runtime key of the branch name a run asked for (its worktree may not exist yet after a crash)."""


@dataclass
class Environment:
    """What every run operation needs: the store, the repository and how to make providers."""

    store: SqlRunStore
    location: RepoLocation
    registry_for: Callable[[Workflow, bool], ProviderRegistry]
    progress: Callable[[int], Progress]
    events: JsonlEvents | None = None
    on_runner: Callable[[Runner], None] | None = None  # a worker keeps its runners, to interrupt them


def create_run(
    env: Environment, workflow: Workflow, options: RunOptions, owner: LeaseOwner | None = None
) -> tuple[int, Path, RunState]:
    """Compile the workflow, create the run, its branch and worktree; return (run id, worktree, state).

    The run row, its phases and its engine state come into being in ONE transaction (with the branch name
    it wants), so a kill at any instant leaves either nothing or a run that ``resume``/``worker`` can start:
    its worktree, made after that transaction, is made again (or reused) when it is missing. With ``owner``
    the run is created already leased to it, so no worker can take it before it starts.
    """
    run_id, branch, base_sha, state = insert_run(env, workflow, options, _lease_fields(owner))
    crash_point("run_created")
    worktree = _make_worktree(env, run_id, branch, base_sha)
    return run_id, worktree, state


def insert_run(
    env: Environment,
    workflow: Workflow,
    options: RunOptions,
    fields: Mapping[str, object],
    after: Callable[[Any], None] | None = None,
) -> tuple[int, str, str, RunState]:
    """The run's ONE creating transaction (extra run ``fields``; ``after(tx)`` runs inside it); return
    (run id, the branch it wants, its base SHA, its initial state). Nothing is made on disk."""
    store = env.store
    base = GitWorktrees(env.location).resolve_base(options.base)
    state = initial_state(workflow, options.inputs, deliver=options.pull_request is not None)
    template = choose_branch_template(options.branch, options.branch_template, options.env)
    with store.transaction() as tx:
        tree_id, _version = tx.compile(workflow)
        run_id = tx.create_run(
            tree_id,
            workflow,
            dict(options.inputs),
            base_sha=base.sha,
            base_ref=base.ref_name,
            head_sha=base.sha,
            repo_path=str(env.location.root),
            **fields,
        )
        tokens = branch_tokens(tree_key=workflow.key, run_id=run_id, base_sha=base.sha, node_key=workflow.start)
        runtime = {**options.stored(), WANTED_BRANCH: render_branch_name(template, tokens)}
        tx.update_run(run_id, engine_state={"engine": state_to_json(state), "runtime": runtime})
        if after is not None:
            after(tx)
    return run_id, str(runtime[WANTED_BRANCH]), base.sha, state


def _make_worktree(env: Environment, run_id: int, branch: str, base_sha: str) -> Path:
    """Create (or reuse the half-made) worktree of a run and record where it is."""
    worktree = GitWorktrees(env.location).create(run_id, branch, base_sha)
    env.store.update_run(run_id, branch=worktree.branch, worktree_path=str(worktree.path))
    return worktree.path


def start_run(env: Environment, workflow: Workflow, options: RunOptions, registry: ProviderRegistry) -> RunRecord:
    """Create a run and drive it from its start phase; return its final record."""
    owner = LeaseOwner.current()
    run_id, worktree, state = create_run(env, workflow, options, owner)
    record = env.store.get_run(run_id)
    if options.pull_request is not None and record.branch and record.base_sha:  # before any agent runs
        from alphred.operations.remote_branch import check_branch_pushable, discard_unstarted_run

        try:
            check_branch_pushable(env.location.root, options.pull_request.remote, record.branch, record.base_sha)
        except AlphredError:
            discard_unstarted_run(env.store, GitWorktrees(env.location), run_id, worktree, record.branch)
            raise
    if env.events is not None:
        env.events.run_started(run_id, workflow.key, record.branch)
    env.progress(run_id).note(f"run {run_id} of {workflow.key} on branch {record.branch} in {shown_path(worktree)}")
    runtime = {WANTED_BRANCH: record.branch}
    return _drive(env, workflow, run_id, worktree, options, registry, owner, state, [RunStarted()], runtime)


def continue_run(
    env: Environment,
    run_id: int,
    action: str,
    *,
    comment: str | None = None,
    approve_all: bool | None = None,
    owner: LeaseOwner | None = None,
    taken_from: str | None = None,
) -> RunRecord:
    """``resume``, ``retry``, ``approve`` or ``reject`` a run and drive it on in this process.

    ``owner``: a worker that already leased the run (its claim, from ``taken_from``) continues it under it.
    """
    store = env.store
    record = _find(store, run_id)
    if action == "resume" and any(left.run_id == run_id for left in pending_cleanups(store, env.location)):
        finish_cleanups(store, env.location)  # a completed run whose worktree removal was cut short
        return store.get_run(run_id)
    workflow, state, options, runtime = _restore(store, record)
    if approve_all is not None:
        options.approve_all = approve_all
    first = _first_events(record, state, action, comment)
    dead = taken_from if owner is not None else record.lease_owner
    owner = _claim(store, record, owner)
    try:
        record = _relocate(env, store.get_run(run_id))  # re-read under the lease
        if record.pause_requested:
            store.update_run(run_id, pause_requested=False)  # continuing is the answer to an old pause request
        worktree = _worktree(env, record, runtime)
        first = settle(store, env.location, record, state, worktree, dead, Redactor(options.env)) + first
        if action in ("approve", "reject"):
            _record_approval(store, record, state, action, comment)
        registry = env.registry_for(workflow, bool(options.dry_run))
    except BaseException:
        with contextlib.suppress(AlphredError):
            store.release_lease(run_id, str(owner))
        raise
    return _drive(env, workflow, run_id, worktree, options, registry, owner, state, first, runtime)


def request_pause(store: SqlRunStore, run_id: int) -> str:
    """Ask a running run to pause after its current phase; a message saying what happened."""
    record = _find(store, run_id)
    if record.status in (RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELLED):
        raise RunStateError(run_id, record.status.value, "pause", record.reason, "it has ended")
    if record.status == RunStatus.PAUSED:
        why = f" ({record.reason})" if record.reason and record.reason != "paused" else ""
        return f"run {run_id} is already paused{why}; alphred resume {run_id} continues it"
    store.request_pause(run_id)
    return f"run {run_id}: pause requested; it pauses after its current phase"


def request_cancel(env: Environment, run_id: int) -> str:
    """Cancel a run: at once when no live process runs it, else by asking that process to stop."""
    store = env.store
    record = _find(store, run_id)
    if record.status == RunStatus.CANCELLED:
        return f"run {run_id} is already cancelled"
    if record.status in (RunStatus.COMPLETED, RunStatus.FAILED):
        raise RunStateError(run_id, record.status.value, "cancel", record.reason, "it has ended")
    store.request_cancel(run_id)
    if not lease_is_free(record):
        return f"run {run_id}: cancel requested; the process running it stops now"
    workflow, state, options, runtime = _restore(store, record)
    try:
        owner = _claim(store, record)
    except RunBusyError:
        return f"run {run_id}: cancel requested; the process running it stops now"
    from alphred.engine import CancelRequested

    kill_leftovers(store, run_id, record.lease_owner)  # what a dead process of the run left stops too
    worktree = Path(record.worktree_path) if record.worktree_path else Path("/nonexistent")
    registry = ProviderRegistry({})
    _drive(env, workflow, run_id, worktree, options, registry, owner, state, [CancelRequested()], runtime)
    return f"run {run_id} cancelled"


# -- helpers ----------------------------------------------------------------------------------------------


def _find(store: SqlRunStore, run_id: int) -> RunRecord:
    record = store.find_run(run_id)
    if record is None:
        raise UnknownRunError(run_id)
    return record


def _restore(store: SqlRunStore, record: RunRecord) -> tuple[Workflow, RunState, RunOptions, dict[str, Any]]:
    snapshot = read_snapshot(store, record.id)
    if snapshot.source_text is None or snapshot.engine is None:
        raise StoreError(f"run {record.id} has no stored workflow or engine state; it cannot be continued")
    workflow = load_workflow(
        snapshot.source_path or f"{record.tree_key}.yaml",
        snapshot.source_text,
        snapshot.source_files,
        providers=default_registry(),
    )
    try:
        state = state_from_json(workflow, snapshot.engine)
    except ValueError as exc:
        raise StoreError(f"run {record.id} has an unreadable engine state: {exc}") from None
    stored = snapshot.runtime
    options = RunOptions(
        inputs=dict(record.inputs),
        keep_worktree=bool(stored.get("keep_worktree")),
        approve_all=bool(stored.get("approve_all")),
        dry_run=bool(stored.get("dry_run")),
        dry_run_scope=str(stored.get("dry_run_scope") or "all"),
        pull_request=PullRequestPlan.from_stored(stored.get("pull_request")),
    )
    return workflow, state, options, dict(stored)


def _first_events(record: RunRecord, state: RunState, action: str, comment: str | None) -> list[Event]:
    status = record.status
    if action == "resume":
        if status == RunStatus.PENDING:
            return [RunStarted()]
        if status == RunStatus.PAUSED and record.reason == AWAITING_APPROVAL:
            hint = f"it waits for approval: alphred approve {record.id} or alphred reject {record.id}"
            raise RunStateError(record.id, status.value, "resume", record.reason, hint)
        if status in (RunStatus.PAUSED, RunStatus.RUNNING):
            return [Resume()]
        hint = (
            f"alphred retry {record.id} runs its failed phase again" if status == RunStatus.FAILED else "it has ended"
        )
        raise RunStateError(record.id, status.value, "resume", record.reason, hint)
    if action == "retry":
        if status != RunStatus.FAILED or not can_retry(state):
            hint = (
                "only a failed run can be retried" if status != RunStatus.FAILED else "it has no failed phase to retry"
            )
            raise RunStateError(record.id, status.value, "retry", record.reason, hint)
        return [RetryRun()]
    if status != RunStatus.PAUSED or record.reason != AWAITING_APPROVAL or state.current is None:
        raise RunStateError(record.id, status.value, action, record.reason, "it waits for no approval")
    decision = "approved" if action == "approve" else "rejected"
    return [ApprovalGiven(state.current, decision, comment)]


def _record_approval(store: SqlRunStore, record: RunRecord, state: RunState, action: str, comment: str | None) -> None:
    assert state.current is not None
    decision = "approved" if action == "approve" else "rejected"
    attempt = state.phase(state.current).attempt
    store.add_artifact(
        record.id, state.current, attempt, "report",
        text=comment or decision, data={"decision": decision, "comment": comment},
    )  # fmt: skip


def _lease_fields(owner: LeaseOwner | None) -> dict[str, object]:
    if owner is None:
        return {}
    from datetime import UTC, datetime, timedelta

    return {"lease_owner": str(owner), "lease_expires_at": datetime.now(UTC) + timedelta(seconds=lease_ttl())}


def lease_is_free(record: RunRecord) -> bool:
    """True when no live process holds the run's lease (never held, owner dead on this host, or expired)."""
    return lease_free(record.lease_owner, record.lease_expires_at)


def _claim(store: SqlRunStore, record: RunRecord, owner: LeaseOwner | None = None) -> LeaseOwner:
    owner = owner or LeaseOwner.current()
    holder = record.lease_owner
    steal = holder if holder is not None and lease_is_free(record) else None
    if not store.acquire_lease(record.id, str(owner), lease_ttl(), steal_from=steal):
        raise RunBusyError(record.id, holder)
    return owner


def _relocate(env: Environment, record: RunRecord) -> RunRecord:
    """A run continued from another checkout of its repository (a later CI job, a moved clone): its
    repository path becomes this one, and a worktree inside the old checkout is made again here."""
    root = str(env.location.root)
    if record.repo_path is None or record.repo_path == root:
        return record
    fields: dict[str, object] = {"repo_path": root}
    if record.worktree_path and Path(record.worktree_path).is_relative_to(record.repo_path):
        fields["worktree_path"] = None  # _worktree re-creates it from the run's branch
    env.store.update_run(record.id, **fields)
    return env.store.get_run(record.id)


def _worktree(env: Environment, record: RunRecord, runtime: Mapping[str, Any]) -> Path:
    """The run's worktree: as recorded, reopened on its branch, or made now (a run created by a process
    that died before it made its worktree)."""
    if record.worktree_path and Path(record.worktree_path).is_dir():
        return Path(record.worktree_path)
    wanted = record.branch or runtime.get(WANTED_BRANCH)
    # a kill inside `git worktree add` leaves the branch's ref lock (and the admin directory's): ours, stale
    clear_stale_locks(env.location, GitWorktrees(env.location).worktree_path(record.id), str(wanted or ""))
    if record.branch:
        path = GitWorktrees(env.location).reopen(record.id, record.branch).path
        env.store.update_run(record.id, worktree_path=str(path))
        return path
    if not wanted or not record.base_sha:
        raise StoreError(f"run {record.id} has no branch to continue on")
    return _make_worktree(env, record.id, str(wanted), record.base_sha)


def _drive(
    env: Environment,
    workflow: Workflow,
    run_id: int,
    worktree: Path,
    options: RunOptions,
    registry: ProviderRegistry,
    owner: LeaseOwner,
    state: RunState,
    first: Sequence[Event],
    runtime: Mapping[str, Any],
) -> RunRecord:
    runner = Runner(
        env.store, workflow, run_id, env.location, registry, worktree=worktree, options=options, owner=owner,
        progress=env.progress(run_id), events=env.events, runtime=runtime,
    )  # fmt: skip
    if env.on_runner is not None:
        env.on_runner(runner)
    runner.drive(state, first)
    return env.store.get_run(run_id)
