"""Continuing a stored run in this process: ``resume``, ``retry``, ``approve`` and ``reject``.

The run is rebuilt from the store, its lease claimed, its worktree found (or made again), what a dead
process left settled (``runtime.takeover``), and it is driven on from the events its action feeds.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from alphred.engine import (
    AWAITING_APPROVAL,
    TERMINAL_RUN_STATUSES,
    USAGE_LIMIT,
    Action,
    ApprovalGiven,
    Event,
    Resume,
    RetryRun,
    RunStarted,
    RunState,
    RunStatus,
    allowed_actions,
    can_retry,
)
from alphred.errors import AlphredError, RunStateError, StoreError
from alphred.git import GitWorktrees
from alphred.operations.workspace import (
    WANTED_BRANCH,
    Workspace,
    claim_lease,
    drive,
    find_run,
    make_worktree,
    restore_run,
)
from alphred.redact import Redactor
from alphred.store import RunRecord, SqlRunStore
from alphred.store.owners import LeaseOwner
from alphred.views.waits import clock_time, countdown, waiting_note


def continue_run(
    workspace: Workspace,
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
    A run waiting out a usage limit is resumed at its ``wake_at`` (SPEC §15): ``resume`` waits for it first
    (``workspace.waits``), and a run that hits a limit again waits again.
    """
    record = find_run(workspace.store, run_id)
    if record.parent_run_id is not None:  # SPEC §13: a sub-workflow's run goes on only inside its parent's
        parent = record.parent_run_id
        how = f"alphred {action} {parent} answers" if action in _DECIDED else f"alphred resume {parent} continues"
        raise RunStateError(
            run_id, record.status.value, action, record.reason, f"it is a sub-workflow of run {parent}: {how} both"
        )
    if (
        action == "resume"
        and workspace.waits
        and usage_wait(record) is not None
        and not wait_for_wake(workspace, record)
    ):
        return workspace.store.get_run(run_id)
    if action == "resume" and record.status in TERMINAL_RUN_STATUSES and _ended_children(workspace, run_id):
        return workspace.store.get_run(run_id)  # a kill between the run's end and its children's: finished now
    child = waiting_child(workspace.store, record, action)
    final = _continue_once(workspace, run_id, action, comment, approve_all, owner, taken_from, child)
    return go_on_after_waits(workspace, final)


def waiting_child(store: SqlRunStore, record: RunRecord, action: str) -> RunRecord | None:
    """The sub-workflow run (SPEC §13) whose approval ``approve|reject RUN`` answers when the run itself waits
    for none (``child_awaiting_approval``); None for any other action."""
    from alphred.views.status import child_awaiting_approval  # off the run's start path (issue 29)

    return child_awaiting_approval(store, record) if action in _DECIDED else None


def answer_events(
    store: SqlRunStore, record: RunRecord, state: RunState, action: str, comment: str | None, child: RunRecord | None
) -> tuple[list[Event], RunState | None]:
    """``first_events`` of ``action`` on the run; for an approval its sub-workflow run ``child`` waits on
    (``waiting_child``), the answer is checked against the child and the run itself resumes: then also the
    child's state."""
    if child is None:
        return first_events(record, state, action, comment), None
    child_state = restore_run(store, child).state
    first_events(child, child_state, action, comment)  # the child can take the answer (RunStateError if not)
    return first_events(record, state, "resume", None), child_state


def usage_wait(record: RunRecord) -> float | None:
    """When the run, paused by a usage limit, may go on (seconds since the epoch); None when it does not wait."""
    if record.status == RunStatus.PAUSED and record.reason == USAGE_LIMIT and record.wake_at is not None:
        return record.wake_at.timestamp()
    return None


def wait_for_wake(workspace: Workspace, record: RunRecord) -> bool:
    """Count down on the live line until the run's ``wake_at``; False when Ctrl+C ended the wait (the run
    stays paused, waiting: exit 4)."""
    wake_at = usage_wait(record)
    if wake_at is None:
        return True
    clock = workspace.clock
    progress = workspace.progress(record.id)
    try:
        progress.note(waiting_note(wake_at, clock.now()), "yellow")
        while (left := wake_at - clock.now()) > 0:
            progress.countdown(f"⏸ usage limit · goes on in {countdown(left)} · at {clock_time(wake_at)}")
            clock.sleep(min(1.0, left))
    except KeyboardInterrupt:
        progress.clear()
        progress.note(f"left waiting until {clock_time(wake_at)}: alphred resume {record.id} goes on then", "yellow")
        return False
    progress.clear()
    return True


def go_on_after_waits(workspace: Workspace, final: RunRecord) -> RunRecord:
    """After a drive: while the run waits out a usage limit, wait for it and resume (``workspace.waits``)."""
    while workspace.waits and usage_wait(final) is not None:
        try:
            woke = wait_for_wake(workspace, final)
        except KeyboardInterrupt:  # Ctrl+C as the drive ended, before the countdown began: the same answer
            woke = False
        if not woke:
            return workspace.store.get_run(final.id)
        final = _continue_once(workspace, final.id, "resume", None, None, None, None)
    return final


def _continue_once(
    workspace: Workspace,
    run_id: int,
    action: str,
    comment: str | None,
    approve_all: bool | None,
    owner: LeaseOwner | None,
    taken_from: str | None,
    child: RunRecord | None = None,
) -> RunRecord:
    """One drive of the run; ``child``: the sub-workflow run whose approval ``action`` answers (the run
    resumes, its child finds the answer recorded and goes on with it)."""
    store = workspace.store
    record = find_run(store, run_id)
    # Resuming's own modules load here: a new run (``start_run``) never needs them before its first step.
    from alphred.runtime.cleanup import finish_cleanups, pending_cleanups
    from alphred.runtime.takeover import settle

    if action == "resume" and any(left.run_id == run_id for left in pending_cleanups(store, workspace.location)):
        finish_cleanups(store, workspace.location)  # a completed run whose worktree removal was cut short
        return store.get_run(run_id)
    stored = restore_run(store, record)
    workflow, state, options, runtime = stored.workflow, stored.state, stored.options, stored.runtime
    if approve_all is not None:
        options.approve_all = approve_all
    first, child_state = answer_events(store, record, state, action, comment, child)
    dead = taken_from if owner is not None else record.lease_owner
    owner = claim_lease(store, record, owner)
    try:
        record = _relocate(workspace, store.get_run(run_id))  # re-read under the lease
        if record.pause_requested:
            store.update_run(run_id, pause_requested=False)  # continuing is the answer to an old pause request
        worktree = _worktree(workspace, record, runtime)
        first = settle(store, workspace.location, record, state, worktree, dead, Redactor(options.environ)) + first
        if child is not None and child_state is not None:  # the answer first (the intent): a kill keeps it
            _record_approval(store, child, child_state, action, comment)
            said = f"{_DECIDED[action]} phase {child_state.current} of sub-workflow run {child.id} ({child.tree_key})"
            workspace.progress(run_id).note(f"{said}; run {run_id} continues", "green")
        elif action in ("approve", "reject"):
            _record_approval(store, record, state, action, comment)
        registry = workspace.registry_for(workflow, bool(options.dry_run))
    except BaseException:
        with contextlib.suppress(AlphredError):
            store.release_lease(run_id, str(owner))
        raise
    return drive(workspace, workflow, run_id, worktree, options, registry, owner, state, first, runtime)


def _ended_children(workspace: Workspace, run_id: int) -> list[int]:
    """End the unfinished sub-workflow runs of the ended run ``run_id`` (``requests.end_children``)."""
    from alphred.operations.requests import end_children

    return end_children(workspace, run_id)


def first_events(record: RunRecord, state: RunState, action: str, comment: str | None) -> list[Event]:
    """The events ``action`` feeds the run first; RunStateError when its state does not allow the action.

    Whether a live process holds the run's lease does not matter here: claiming the lease says so
    (``RunBusyError``), and a request left for the workers waits for the lease anyway.
    """
    allowed = allowed_actions(record.status, record.reason, holder_alive=False, retryable=can_retry(state))
    status = record.status
    if action == "resume":
        if Action.RESUME not in allowed:
            raise RunStateError(record.id, status.value, "resume", record.reason, _why_not_resume(record))
        return [RunStarted()] if status == RunStatus.PENDING else [Resume()]
    if action == "retry":
        if Action.RETRY not in allowed:
            hint = (
                "only a failed run can be retried" if status != RunStatus.FAILED else "it has no failed phase to retry"
            )
            raise RunStateError(record.id, status.value, "retry", record.reason, hint)
        return [RetryRun()]
    if Action(action) not in allowed or state.current is None:
        raise RunStateError(record.id, status.value, action, record.reason, "it waits for no approval")
    decision = "approved" if action == "approve" else "rejected"
    return [ApprovalGiven(state.current, decision, comment)]


def _why_not_resume(record: RunRecord) -> str:
    if record.status == RunStatus.PAUSED and record.reason == AWAITING_APPROVAL:
        return f"it waits for approval: alphred approve {record.id} or alphred reject {record.id}"
    if record.status == RunStatus.FAILED:
        return f"alphred retry {record.id} runs its failed phase again"
    return "it has ended"


_DECIDED = {"approve": "approved", "reject": "rejected"}


def _record_approval(store: SqlRunStore, record: RunRecord, state: RunState, action: str, comment: str | None) -> None:
    assert state.current is not None
    decision = "approved" if action == "approve" else "rejected"
    attempt = state.phase(state.current).attempt
    store.add_artifact(
        record.id, state.current, attempt, "report",
        text=comment or decision, data={"decision": decision, "comment": comment},
    )  # fmt: skip


def _relocate(workspace: Workspace, record: RunRecord) -> RunRecord:
    """A run continued from another checkout of its repository (a later CI job, a moved clone): its
    repository path becomes this one, and a worktree inside the old checkout is made again here."""
    root = str(workspace.location.root)
    if record.repo_path is None or record.repo_path == root:
        return record
    fields: dict[str, object] = {"repo_path": root}
    if record.worktree_path and Path(record.worktree_path).is_relative_to(record.repo_path):
        fields["worktree_path"] = None  # _worktree re-creates it from the run's branch
    workspace.store.update_run(record.id, **fields)
    return workspace.store.get_run(record.id)


def _worktree(workspace: Workspace, record: RunRecord, runtime: Mapping[str, Any]) -> Path:
    """The run's worktree: as recorded, reopened on its branch, or made now (a run created by a process
    that died before it made its worktree)."""
    if record.worktree_path and Path(record.worktree_path).is_dir():
        return Path(record.worktree_path)
    wanted = record.branch or runtime.get(WANTED_BRANCH)
    location = workspace.location
    # a kill inside `git worktree add` leaves the branch's ref lock (and the admin directory's): ours, stale
    from alphred.git.repair import clear_stale_locks

    clear_stale_locks(location, GitWorktrees(location).worktree_path(record.id), str(wanted or ""))
    if record.branch:
        path = GitWorktrees(location).reopen(record.id, record.branch).path
        workspace.store.update_run(record.id, worktree_path=str(path))
        return path
    if not wanted or not record.base_sha:
        raise StoreError(f"run {record.id} has no branch to continue on")
    return make_worktree(workspace, record.id, str(wanted), record.base_sha)
