"""Run lifecycle operations behind the CLI: start, resume, retry, approve/reject, pause, cancel."""

from __future__ import annotations

import contextlib
import dataclasses
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

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
from alphred.errors import AlphredError, DeliveryError, RunBusyError, RunStateError, StoreError, UnknownRunError
from alphred.git import GitWorktrees, RepoLocation, branch_tokens, choose_branch_template, render_branch_name
from alphred.git.location import read_gitfile
from alphred.providers import ProviderRegistry
from alphred.spec import Workflow, load_workflow
from alphred.store import RunRecord, SqlRunStore
from alphred.store.snapshots import read_snapshot

from .delivery import DELIVERY_FAILED, PullRequestPlan, deliver
from .jsonl import JsonlEvents
from .lease import LeaseOwner, lease_ttl, owner_is_dead
from .progress import Progress
from .redact import Redactor
from .runner import Runner, RunOptions, existing_events_for
from .style import shown_path


@dataclass
class Environment:
    """What every run operation needs: the store, the repository and how to make providers."""

    store: SqlRunStore
    location: RepoLocation
    registry_for: Callable[[Workflow, bool], ProviderRegistry]
    progress: Callable[[int], Progress]
    events: JsonlEvents | None = None


def create_run(
    env: Environment, workflow: Workflow, options: RunOptions, owner: LeaseOwner | None = None
) -> tuple[int, Path, RunState]:
    """Compile the workflow, create the run, its branch and worktree; return (run id, worktree, state).

    With ``owner`` the run is created already leased to it, so no worker can take it before it starts.
    """
    store = env.store
    worktrees = GitWorktrees(env.location)
    base = worktrees.resolve_base(options.base)
    tree_id, _version = store.compile(workflow)
    run_id = store.create_run(
        tree_id,
        workflow,
        dict(options.inputs),
        base_sha=base.sha,
        base_ref=base.ref_name,
        repo_path=str(env.location.root),
        **_lease_fields(owner),
    )
    template = choose_branch_template(options.branch, options.branch_template, options.env)
    tokens = branch_tokens(tree_key=workflow.key, run_id=run_id, base_sha=base.sha, node_key=workflow.start)
    worktree = worktrees.create(run_id, render_branch_name(template, tokens), base.sha)
    state = initial_state(workflow, options.inputs)
    store.update_run(
        run_id,
        branch=worktree.branch,
        worktree_path=str(worktree.path),
        head_sha=base.sha,
        engine_state={"engine": state_to_json(state), "runtime": options.stored()},
    )
    return run_id, worktree.path, state


def start_run(env: Environment, workflow: Workflow, options: RunOptions, registry: ProviderRegistry) -> RunRecord:
    """Create a run and drive it from its start phase; return its final record."""
    owner = LeaseOwner.current()
    run_id, worktree, state = create_run(env, workflow, options, owner)
    record = env.store.get_run(run_id)
    if options.pull_request is not None and record.branch and record.base_sha:  # before any agent runs
        from .remote_branch import check_branch_pushable, discard_unstarted_run

        try:
            check_branch_pushable(env.location.root, options.pull_request.remote, record.branch, record.base_sha)
        except AlphredError:
            discard_unstarted_run(env.store, GitWorktrees(env.location), run_id, worktree, record.branch)
            raise
    if env.events is not None:
        env.events.run_started(run_id, workflow.key, record.branch)
    env.progress(run_id).note(f"run {run_id} of {workflow.key} on branch {record.branch} in {shown_path(worktree)}")
    return _drive(env, workflow, run_id, worktree, options, registry, owner, state, [RunStarted()])


def continue_run(
    env: Environment,
    run_id: int,
    action: str,
    *,
    comment: str | None = None,
    approve_all: bool | None = None,
) -> RunRecord:
    """``resume``, ``retry``, ``approve`` or ``reject`` a run and drive it on in this process."""
    store = env.store
    record = _find(store, run_id)
    workflow, state, options = _restore(store, record)
    if approve_all is not None:
        options.approve_all = approve_all
    if action == "retry" and record.reason == DELIVERY_FAILED and options.pull_request is not None:
        return _redeliver(env, record, workflow, state, options)
    first = _first_events(record, state, action, comment)
    owner = _claim(store, record)
    try:
        record = _relocate(env, store.get_run(run_id))  # re-read under the lease
        if record.pause_requested:
            store.update_run(run_id, pause_requested=False)  # continuing is the answer to an old pause request
        if record.status == RunStatus.RUNNING:
            first = existing_events_for(state) + first
        worktree = _worktree(env, record)
        if action in ("approve", "reject"):
            _record_approval(store, record, state, action, comment)
        registry = env.registry_for(workflow, bool(options.dry_run))
    except BaseException:
        with contextlib.suppress(AlphredError):
            store.release_lease(run_id, str(owner))
        raise
    return _drive(env, workflow, run_id, worktree, options, registry, owner, state, first)


def _redeliver(
    env: Environment, record: RunRecord, workflow: Workflow, state: RunState, options: RunOptions
) -> RunRecord:
    """``retry`` of a run whose delivery failed: push and open the pull request again, nothing else."""
    store, run_id, plan = env.store, record.id, options.pull_request
    assert plan is not None
    owner = _claim(store, record)
    progress = env.progress(run_id)
    try:
        record = _relocate(env, store.get_run(run_id))
        store.set_run_status(run_id, RunStatus.RUNNING.value)
        try:
            url = deliver(store, workflow, run_id, plan, state, (), Redactor(options.env), options.env)
        except DeliveryError as exc:
            sys.stderr.write(f"Error [{exc.code}]: {exc}\n")
            store.set_run_status(run_id, RunStatus.FAILED.value, DELIVERY_FAILED)
            return store.get_run(run_id)
        progress.note(f"pull request: {url}")
        done = dataclasses.replace(state, status=RunStatus.COMPLETED, reason=None)
        fields: dict[str, object] = {
            "pr_url": url,
            "engine_state": {"engine": state_to_json(done), "runtime": options.stored()},
        }
        worktree = Path(record.worktree_path) if record.worktree_path else None
        if worktree is not None and worktree.is_dir() and not options.keep_worktree:
            GitWorktrees(env.location).remove(worktree)
            fields["worktree_path"] = None
        store.set_run_status(run_id, RunStatus.COMPLETED.value, None, **fields)
        progress.note("run completed")
    finally:
        with contextlib.suppress(AlphredError):
            store.release_lease(run_id, str(owner))
    return store.get_run(run_id)


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
    workflow, state, options = _restore(store, record)
    try:
        owner = _claim(store, record)
    except RunBusyError:
        return f"run {run_id}: cancel requested; the process running it stops now"
    from alphred.engine import CancelRequested

    worktree = Path(record.worktree_path) if record.worktree_path else Path("/nonexistent")
    registry = ProviderRegistry({})
    _drive(env, workflow, run_id, worktree, options, registry, owner, state, [CancelRequested()])
    return f"run {run_id} cancelled"


# -- helpers ----------------------------------------------------------------------------------------------


def _find(store: SqlRunStore, run_id: int) -> RunRecord:
    record = store.find_run(run_id)
    if record is None:
        raise UnknownRunError(run_id)
    return record


def _restore(store: SqlRunStore, record: RunRecord) -> tuple[Workflow, RunState, RunOptions]:
    snapshot = read_snapshot(store, record.id)
    if snapshot.source_text is None or snapshot.engine is None:
        raise StoreError(f"run {record.id} has no stored workflow or engine state; it cannot be continued")
    workflow = load_workflow(
        snapshot.source_path or f"{record.tree_key}.yaml", snapshot.source_text, snapshot.source_files
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
    return workflow, state, options


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
    holder = record.lease_owner
    return holder is None or owner_is_dead(holder) or _expired(record)


def _expired(record: RunRecord) -> bool:
    from datetime import UTC, datetime

    expires = record.lease_expires_at
    if expires is None:
        return True
    if expires.tzinfo is None:
        expires = expires.replace(tzinfo=UTC)
    return expires < datetime.now(UTC)


def _claim(store: SqlRunStore, record: RunRecord) -> LeaseOwner:
    owner = LeaseOwner.current()
    holder = record.lease_owner
    steal = holder if holder is not None and (owner_is_dead(holder) or _expired(record)) else None
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


def _worktree(env: Environment, record: RunRecord) -> Path:
    worktrees = GitWorktrees(env.location)
    if record.worktree_path and Path(record.worktree_path).is_dir():
        path = Path(record.worktree_path)
    elif record.branch:
        path = worktrees.reopen(record.id, record.branch).path
        env.store.update_run(record.id, worktree_path=str(path))
    else:
        raise StoreError(f"run {record.id} has no branch to continue on")
    _clear_stale_git_locks(path)
    return path


def _clear_stale_git_locks(worktree: Path) -> None:
    """A process killed mid-commit leaves ``index.lock`` behind; its owner is gone, so remove it."""
    dot_git = worktree / ".git"
    gitdir = read_gitfile(dot_git) if dot_git.is_file() else dot_git
    with contextlib.suppress(FileNotFoundError):
        (gitdir / "index.lock").unlink()


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
) -> RunRecord:
    runner = Runner(
        env.store, workflow, run_id, env.location, registry,
        worktree=worktree, options=options, owner=owner, progress=env.progress(run_id), events=env.events,
    )  # fmt: skip
    runner.drive(state, first)
    return env.store.get_run(run_id)
