"""What every run operation works with (``Workspace``) and the steps they share: find a stored run and rebuild
it, claim its lease, make its worktree, and drive it with a ``Runner`` that reports to the views."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from alphred.engine import TERMINAL_RUN_STATUSES, Event, RunState, state_from_json
from alphred.errors import RunBusyError, StoreError, UnknownRunError
from alphred.git import GitWorktrees, RepoLocation
from alphred.lazy import deferred_dataclass
from alphred.providers import ProviderRegistry, default_registry
from alphred.runtime.crash import crash_point
from alphred.runtime.delivery import PullRequestPlan
from alphred.runtime.options import RunOptions
from alphred.settings import SYSTEM_CLOCK, Clock
from alphred.store import RunRecord, SqlRunStore
from alphred.store.owners import LeaseOwner, lease_free, lease_ttl
from alphred.views.jsonl import JsonlEvents
from alphred.views.observers import RunObservers
from alphred.views.progress import Progress
from alphred.workflow import Phase, Workflow, load_workflow

if TYPE_CHECKING:  # the runner is loaded where a run is driven (a new run's start imports it while git works)
    from alphred.runtime.runner import Runner

WANTED_BRANCH = "branch"
"""Runtime key of the branch name a run asked for (its worktree may not exist yet after a crash)."""


@deferred_dataclass
class Workspace:
    """Where run operations work and with what: the store, the repository, how to make the providers a
    workflow needs, and how to show a run (progress lines, the JSON-lines stream)."""

    store: SqlRunStore
    location: RepoLocation
    registry_for: Callable[[Workflow, bool], ProviderRegistry]
    progress: Callable[[int], Progress]
    events: JsonlEvents | None = None
    on_runner: Callable[[Runner], None] | None = None  # a worker keeps its runners, to interrupt them
    clock: Clock = SYSTEM_CLOCK  # usage limits: when they reset, and waiting for it (SPEC §15)
    waits: bool = True  # wait out a usage limit and go on (run, resume); a worker gives the run back instead


@deferred_dataclass(frozen=True)
class StoredRun:
    """A run rebuilt from the store: its workflow (from the stored source), engine state, options and the
    runtime part of its snapshot."""

    workflow: Workflow
    state: RunState
    options: RunOptions
    runtime: dict[str, Any]


def find_run(store: SqlRunStore, run_id: int) -> RunRecord:
    """The stored run ``run_id``; UnknownRunError when there is none."""
    record = store.find_run(run_id)
    if record is None:
        raise UnknownRunError(run_id)
    return record


def restore_run(store: SqlRunStore, record: RunRecord) -> StoredRun:
    """Rebuild the run of ``record`` from its stored workflow source and engine state (StoreError if it cannot)."""
    snapshot = store.run_snapshot(record.id)
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
    return StoredRun(workflow, state, options, dict(stored))


def holder_alive(record: RunRecord) -> bool:
    """True when a live process holds the run's lease (held, its owner alive on this host, not expired)."""
    return not lease_free(record.lease_owner, record.lease_expires_at)


def claim_lease(store: SqlRunStore, record: RunRecord, owner: LeaseOwner | None = None) -> LeaseOwner:
    """Take the run's lease for ``owner`` (default: this process), from a dead holder at once; RunBusyError
    while a live process holds it."""
    owner = owner or LeaseOwner.current()
    holder = record.lease_owner
    steal = holder if holder is not None and not holder_alive(record) else None
    if not store.acquire_lease(record.id, str(owner), lease_ttl(), steal_from=steal):
        raise RunBusyError(record.id, holder)
    return owner


def make_worktree(workspace: Workspace, run_id: int, branch: str, base_sha: str) -> Path:
    """Create (or reuse the half-made) worktree of a run and record where it is."""
    worktree = GitWorktrees(workspace.location).create(run_id, branch, base_sha)
    workspace.store.update_run(run_id, branch=worktree.branch, worktree_path=str(worktree.path))
    return worktree.path


def drive(
    workspace: Workspace,
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
    """Drive the run under ``owner``'s lease from ``first`` until it ends or waits; return its stored record.

    A run that ended (by any path) ends its unfinished sub-workflow runs with it (``requests.end_children``);
    its stored end comes first, so a kill in between leaves them to ``requests.end_orphaned_children``."""
    from alphred.runtime.runner import Runner

    options.clock = workspace.clock
    observer = RunObservers(run_id, workspace.progress(run_id), workspace.events)
    runner = Runner(
        workspace.store, workflow, run_id, workspace.location, registry, worktree=worktree, options=options,
        owner=owner, observer=observer, pull_request_text=_pull_request_text, runtime=runtime,
    )  # fmt: skip
    if workspace.on_runner is not None:
        workspace.on_runner(runner)
    runner.drive(state, first)
    final = workspace.store.get_run(run_id)
    if final.status in TERMINAL_RUN_STATUSES and any(phase.child is not None for phase in workflow.phases):
        crash_point("run_ended")  # SPEC §13: its unfinished sub-workflow runs end with it (a kill here: pending work)
        from alphred.operations.requests import end_children

        end_children(workspace, run_id)
    return final


def _pull_request_text(
    store: SqlRunStore, workflow: Workflow, record: RunRecord, state: RunState, phase: Phase | None = None
) -> tuple[str, str]:
    """``views.pull_request.pull_request_text``, loaded when a run first writes a pull request (issue 29: a
    run's start does not import it)."""
    from alphred.views.pull_request import pull_request_text

    return pull_request_text(store, workflow, record, state, phase)
