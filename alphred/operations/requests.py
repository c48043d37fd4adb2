"""Steering a run from another process: ``pause`` (after its current phase) and ``cancel``.

Both record a request the process running the run reads at its next heartbeat; a cancel of a run that no
live process runs is carried out here and now.
"""

from __future__ import annotations

from pathlib import Path

from alphred.engine import Action, CancelRequested, allowed_actions
from alphred.errors import RunBusyError, RunStateError
from alphred.operations.workspace import Workspace, claim_lease, drive, find_run, holder_alive, restore_run
from alphred.providers import ProviderRegistry
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
    drive(workspace, stored.workflow, run_id, worktree, stored.options, ProviderRegistry({}), owner, stored.state,
          first, stored.runtime)  # fmt: skip
    for child in store.child_runs(run_id):  # SPEC §13: its sub-workflows' runs are cancelled with it
        if child.status not in (RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELLED):
            request_cancel(workspace, child.id)
    return f"run {run_id} cancelled"
