"""Take-over: settle what a dead (or interrupted) run process left before the run goes on.

In order: stale git locks of the run are cleared; every process the dead attempt left on this host is
killed; then the attempt that was running is settled. If it had recorded its outcome (the intent written
just before its commit), its commit is finished or recognised and that outcome is fed to the engine: the
work is not redone. Otherwise the attempt was interrupted: what it left uncommitted is saved as its
``interrupted_diff`` artifact and the worktree is reset to the run's last recorded commit.
"""

from __future__ import annotations

from pathlib import Path

from alphred.engine import INTERRUPTED, Event, PhaseInterrupted, RunState, RunStatus
from alphred.git import GitWorktrees, RepoLocation, phase_commit_message
from alphred.git.recovery import clear_stale_locks, head_made_by, save_and_reset
from alphred.store import RunRecord, SqlRunStore

from .orphans import kill_leftovers
from .phase import OUTCOME, outcome_event
from .redact import Redactor

INTERRUPTED_DIFF = "interrupted_diff"
"""Artifact kind of the uncommitted changes an interrupted attempt left (the next attempt starts clean)."""


def settle(
    store: SqlRunStore,
    location: RepoLocation,
    record: RunRecord,
    state: RunState,
    worktree: Path,
    dead_owner: str | None,
    redactor: Redactor,
) -> list[Event]:
    """Make the run safe to continue; return the events that settle its interrupted attempt (if any)."""
    clear_stale_locks(location, worktree, record.branch)
    kill_leftovers(store, record.id, dead_owner)
    worktrees = GitWorktrees(location)
    recorded = record.head_sha or record.base_sha
    if state.status is RunStatus.RUNNING and state.current is not None:
        phase, attempt = state.current, state.phase(state.current).attempt
        outcome = store.latest_artifact(record.id, phase, OUTCOME)
        if outcome is not None and outcome.attempt == attempt and isinstance(outcome.content_json, dict):
            data = outcome.content_json
            visit = int(data.get("visit") or 1)
            message = phase_commit_message(state.workflow.key, phase, visit, run_id=record.id, attempt=attempt)
            if worktree.is_dir():
                recognised = head_made_by(worktree, record.id, phase, attempt)
                commit = worktrees.commit_phase(worktree, message, since=recorded)
                if commit is not None:
                    with store.transaction() as tx:
                        found = {"recovered": True, "commit_found": recognised}
                        tx.add_artifact(
                            record.id, phase, attempt, "diff", text=redactor.redact(commit.diff), data=found
                        )
                        tx.update_run(record.id, head_sha=commit.sha)
            return [outcome_event(phase, attempt, data)]
        _save(store, record.id, phase, attempt, worktree, recorded, redactor)
        return [PhaseInterrupted(phase, attempt)]
    if state.status is RunStatus.PAUSED and state.reason == INTERRUPTED and state.queued is not None:
        _save(store, record.id, state.queued, state.phase(state.queued).attempt, worktree, recorded, redactor)
    return []


def _save(
    store: SqlRunStore, run_id: int, phase: str, attempt: int, worktree: Path, recorded: str | None, redactor: Redactor
) -> None:
    if recorded is None or not worktree.is_dir() or attempt < 1:
        return
    left = save_and_reset(worktree, recorded)
    if left is not None:
        store.add_artifact(
            run_id, phase, attempt, INTERRUPTED_DIFF, text=redactor.redact(left.diff), data={"files": left.files}
        )
