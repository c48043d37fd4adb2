"""The words of a run's pull request: its title (the workflow's ``pull_request.title`` or a default) and its
body (the status object as Markdown, the report named by ``body_from``, the branches of its fan-outs).

Written just before the run completes (its last transition is not stored yet), so phases, tokens and cost
come from the engine's state rather than from the rows.
"""

from __future__ import annotations

from typing import Any

from alphred.engine import RunState, RunStatus, template_context
from alphred.guards.templates import render_template
from alphred.store import RunRecord, SqlRunStore, StepRecord
from alphred.views.branch_status import phase_branches, run_branch_views
from alphred.views.status import status_object, with_state
from alphred.workflow import Phase, Workflow


def pull_request_text(
    store: SqlRunStore, workflow: Workflow, record: RunRecord, state: RunState, phase: Phase | None = None
) -> tuple[str, str]:
    """The title and body of the pull request of the run ``record`` (not redacted yet). Blocking (SQL).

    Without ``phase``: the pull request the completed run delivers (``pull_request:``). With a ``type:
    pull_request`` phase: the one it opens or updates mid-run (its ``title`` and ``body_from``; the run is
    shown running).
    """
    from alphred.scm import build_pr_body, default_pr_title  # here: a run that opens no pull request needs none

    steps = store.list_steps(record.id)
    status = with_state(status_object(record, steps, phase_branches(workflow, record.branch)), state)
    status["status"] = RunStatus.COMPLETED.value if phase is None else RunStatus.RUNNING.value
    spec = workflow.pull_request
    body_from = spec.body_from if spec is not None and phase is None else None
    title_template = workflow.pull_request_title
    if phase is not None:
        body_from = phase.options.get("body_from")
        title_template = phase.templates.get("title")
    report = None
    if body_from:
        artifact = store.latest_artifact(record.id, body_from, "report")
        report = artifact.content_text if artifact is not None else None
    if title_template is not None:
        last = phase.key if phase is not None else (steps[-1].phase if steps else workflow.start)
        title = render_template(title_template, template_context(state, workflow, last)).strip()
    else:
        title = default_pr_title(status, workflow.name)
    costs = [_cost_row(workflow, step) for step in steps]
    body = build_pr_body(status, report, branches=_branches(store, record, workflow, state), costs=costs)
    return title or default_pr_title(status, workflow.name), body


def _cost_row(workflow: Workflow, step: StepRecord) -> dict[str, Any]:
    """One row of the PR body's cost table: the step's phase, attempt, who ran it, tokens, cost, time."""
    phase = workflow.phase(step.phase) if step.phase in workflow.phase_keys else None
    provider = phase.provider if phase is not None and phase.provider else (phase.type.value if phase else None)
    return {
        "phase": step.phase,
        "attempt": step.attempt,
        "provider": provider,
        "model": phase.model if phase is not None else None,
        "tokens": step.tokens,
        "cost_usd": step.cost_usd,
        "duration_ms": step.duration_ms,
    }


def _branches(store: SqlRunStore, record: RunRecord, workflow: Workflow, state: RunState) -> list[dict[str, Any]]:
    """The branches of the run's fan-outs and their merges, for the PR body (none without fan-outs)."""
    return [view.as_dict() for view in run_branch_views(store, record, workflow, state)]
