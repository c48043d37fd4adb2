"""Steering a run from another process: ``pause`` (after its current phase) and ``cancel``.

Both record a request the process running the run reads at its next heartbeat; a cancel of a run that no
live process runs is carried out here and now.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from alphred.engine import TERMINAL_RUN_STATUSES, Action, CancelRequested, allowed_actions
from alphred.errors import RunBusyError, RunStateError
from alphred.git import RepoLocation
from alphred.operations.workspace import Workspace, claim_lease, drive, find_run, holder_alive, restore_run
from alphred.providers import ProviderRegistry
from alphred.runtime.cleanup import ours
from alphred.runtime.orphans import kill_leftovers
from alphred.store import RunRecord, RunStatus, SqlRunStore


def _allows(record: RunRecord, action: Action) -> bool:
    found = allowed_actions(record.status, record.reason, holder_alive=holder_alive(record), retryable=False)
    return action in found


def request_pause(store: SqlRunStore, run_id: int) -> str:
    """Ask a running run to pause after its current phase; a message saying what happened."""
    record = find_run(store, run_id)
    if record.status == RunStatus.PAUSED:
        why = f" ({record.reason})" if record.reason and record.reason != "paused" else ""
        return f"run {run_id} is already paused{why}; alphred resume {run_id} continues it"
    if not _allows(record, Action.PAUSE):
        raise RunStateError(run_id, record.status.value, "pause", record.reason, "it has ended")
    store.request_pause(run_id)
    return f"run {run_id}: pause requested; it pauses after its current phase"


def request_cancel(workspace: Workspace, run_id: int) -> str:
    """Cancel a run: at once when no live process runs it, else by asking that process to stop."""
    store = workspace.store
    record = find_run(store, run_id)
    if record.status == RunStatus.CANCELLED:
        return f"run {run_id} is already cancelled"
    if not _allows(record, Action.CANCEL):
        raise RunStateError(run_id, record.status.value, "cancel", record.reason, "it has ended")
    store.request_cancel(run_id)
    if holder_alive(record):
        return f"run {run_id}: cancel requested; the process running it stops now"
    stored = restore_run(store, record)
    try:
        owner = claim_lease(store, record)
    except RunBusyError:
        return f"run {run_id}: cancel requested; the process running it stops now"
    kill_leftovers(store, run_id, record.lease_owner)  # what a dead process of the run left stops too
    worktree = Path(record.worktree_path) if record.worktree_path else Path("/nonexistent")
    first = [CancelRequested()]
    # the drive also cancels its sub-workflows' runs (SPEC §13: ``end_children``)
    drive(workspace, stored.workflow, run_id, worktree, stored.options, ProviderRegistry({}), owner, stored.state,
          first, stored.runtime)  # fmt: skip
    return f"run {run_id} cancelled"


def end_children(workspace: Workspace, run_id: int) -> list[int]:
    """SPEC §13: the unfinished sub-workflow runs of run ``run_id``, which has ended (by any path: cancel,
    failure, a timeout at ``resume``/``approve``), end with it as ``cancel`` ends them, their own children
    too; the runs ended. Safe to repeat: a kill half-way leaves them for ``end_orphaned_children``."""
    ended = []
    for child in workspace.store.child_runs(run_id):
        if child.status not in TERMINAL_RUN_STATUSES:
            request_cancel(workspace, child.id)
            ended.append(child.id)
    return ended


def orphaned_children(store: SqlRunStore, location: RepoLocation) -> list[int]:
    """The unfinished sub-workflow runs of this repository whose parent has ended (``gc --dry-run`` lists
    them; another repository's are left to its own worker or ``gc``)."""
    return [run_id for run_id in store.orphaned_child_ids() if ours(location, store.get_run(run_id).repo_path)]


def end_orphaned_children(workspace: Workspace) -> list[int]:
    """End ``orphaned_children`` (a kill between their parent's end and theirs: ``resume``, ``worker`` and
    ``gc`` finish the job); the runs ended. One a live process still holds is asked to stop (its process
    ends it) and is not counted."""
    store = workspace.store
    ended = []
    for run_id in orphaned_children(store, workspace.location):
        with contextlib.suppress(RunStateError):  # ended meanwhile by the process that held it
            request_cancel(workspace, run_id)
        if store.get_run(run_id).status in TERMINAL_RUN_STATUSES:
            ended.append(run_id)
    return ended
