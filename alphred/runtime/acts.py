"""Small blocking steps the runner carries out in a worker thread: heartbeat, auto-approval, failures."""

from __future__ import annotations

from collections.abc import Sequence

from alphred.engine import PhaseFailed, RunState, template_context
from alphred.errors import GIT_LOCKED_KIND, AlphredError, GitLockedError, RuntimeFailure
from alphred.guards.templates import render_template
from alphred.redact import process_redactor
from alphred.runtime.attempt_context import AttemptStats
from alphred.store import SqlRunStore
from alphred.workflow import Workflow

AUTO_APPROVED = "approved automatically (--approve-all)"


def heartbeat(
    store: SqlRunStore, run_id: int, owner: str, ttl: float, phases: Sequence[str]
) -> tuple[bool, bool] | None:
    """Renew the run's (and the running phases') leases; the ``(pause, cancel)`` requests, None if lost."""
    with store.transaction() as tx:
        if not tx.renew_lease(run_id, owner, ttl):
            return None
        for phase in phases:
            tx.renew_lease(run_id, owner, ttl, node_key=phase)
        record = tx.get_run(run_id)
    return record.pause_requested, record.cancel_requested


def auto_approve(store: SqlRunStore, run_id: int, phase: str, attempt: int, stats: AttemptStats) -> None:
    """Record the automatic approval (``--approve-all``) of an approval phase's attempt."""
    stats.details["approved_by"] = "--approve-all"
    data = {"decision": "approved", "comment": AUTO_APPROVED, "approved_by": "--approve-all"}
    store.add_artifact(run_id, phase, attempt, "report", text=AUTO_APPROVED, data=data)


def approval_note(workflow: Workflow, state: RunState, phase_key: str, run_id: int) -> str:
    """The progress line of a run that now waits for ``approve``/``reject``."""
    phase = workflow.phase(phase_key)
    message = ""
    if "message" in phase.templates:
        text = render_template(phase.templates["message"], template_context(state, workflow, phase_key))
        message = f": {process_redactor().redact(text)}"
    return f"phase {phase_key} waits for approval{message} (alphred approve {run_id} / alphred reject {run_id})"


def failed_by_runtime(phase: str, attempt: int, exc: Exception, stats: AttemptStats) -> PhaseFailed:
    """The outcome of an attempt the runtime itself failed (git, the store...): recorded, never lost.

    Git lock contention is retryable; anything else is an ``internal`` failure that ends the run.
    """
    stats.message = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, GitLockedError):
        return PhaseFailed(phase, attempt, GIT_LOCKED_KIND, True, exc.code)
    code = exc.code if isinstance(exc, AlphredError) else RuntimeFailure.code
    return PhaseFailed(phase, attempt, "internal", False, code)
