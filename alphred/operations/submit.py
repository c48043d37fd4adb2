"""``alphred submit`` and ``--detach``: runs and requests left to the workers (SPEC §10)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from alphred.engine import WAITING_FOR_CI
from alphred.operations.clones import identity
from alphred.operations.continuing import answer_events, waiting_child
from alphred.operations.start import insert_run
from alphred.operations.workspace import Workspace, find_run, restore_run
from alphred.runtime.options import RunOptions
from alphred.store import RunRecord, RunStatus, SqlRunStore
from alphred.workflow import PhaseType, Workflow

DETACHABLE = ("resume", "retry", "approve", "reject")


def requirements(workflow: Workflow, labels: Iterable[str], dry_run: bool = False) -> list[str]:
    """What a worker must offer to take a run: the providers of its agent phases and the ``labels``."""
    providers = set() if dry_run else {p.provider for p in workflow.phases if p.type is PhaseType.AGENT and p.provider}
    return sorted({*providers, *(label.strip() for label in labels if label.strip())})


def submit_run(
    workspace: Workspace,
    workflow: Workflow,
    options: RunOptions,
    *,
    priority: int,
    labels: Iterable[str],
    name: str | None,
) -> int:
    """Store the run ``pending`` with no owner, queued for the workers, and wake them; return its id."""
    mine = identity(workspace.location.root)
    fields = {
        "queued": True,
        "priority": priority,
        "requires": requirements(workflow, labels, bool(options.dry_run)),
        "repo_name": name,
        "repo_url": mine.url,
        "repo_root": mine.root,
    }
    run_id, _branch, _base, _state = insert_run(
        workspace, workflow, options, fields, after=lambda tx: tx.notify_workers()
    )
    return run_id


def request_detached(store: SqlRunStore, run_id: int, action: str, comment: str | None = None) -> RunRecord:
    """Record ``approve``/``reject``/``resume``/``retry`` for a worker to carry out; RunStateError when the
    run's state does not allow it now. The request holds for the run as it is (its step count)."""
    record = find_run(store, run_id)
    state = restore_run(store, record).state
    answer_events(store, record, state, action, comment, waiting_child(store, record, action))  # as in the foreground
    request = {"action": action, "comment": comment, "steps": record.steps}
    with store.transaction() as tx:
        tx.update_run(run_id, request=request, queued=True)
        tx.notify_workers()
    return store.get_run(run_id)


def requested_action(record: RunRecord) -> tuple[str, str | None] | None:
    """The action a worker takes on a claimed run: its detached request while still current, else resume
    for a run that may simply go on; None for a stale request on a run that must wait."""
    request: Mapping[str, Any] = record.request or {}
    action = request.get("action")
    if action in DETACHABLE and request.get("steps") == record.steps:
        return str(action), request.get("comment")
    if record.status in (RunStatus.PENDING, RunStatus.RUNNING):
        return "resume", None
    if record.status is RunStatus.PAUSED and record.reason in ("interrupted", WAITING_FOR_CI, "usage_limit"):
        return "resume", None  # a usage limit's run is claimed only once its wake_at has passed (SPEC §15)
    return None
