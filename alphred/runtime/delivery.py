"""Delivery is part of the run: a run with a pull request completes only once its PR is open (SPEC §5)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from alphred.engine import DeliveryDone, DeliveryFailed, RunState, RunStatus, template_context
from alphred.errors import DeliveryError
from alphred.guards.templates import render_template
from alphred.redact import Redactor
from alphred.runtime.crash import crash_point
from alphred.store import RunRecord, SqlRunStore
from alphred.views.status import status_object, with_state
from alphred.workflow import Workflow

if TYPE_CHECKING:
    from alphred.scm import DeliveryRequest


@dataclass(frozen=True)
class PullRequestPlan:
    """How this run's pull request is opened; decided (and preflighted) before the run starts."""

    remote: str
    base: str
    draft: bool
    provider: str | None

    def stored(self) -> dict[str, Any]:
        """JSON form, kept with the run so that resume/approve/retry deliver the same way."""
        return dataclasses.asdict(self)

    @classmethod
    def from_stored(cls, data: Mapping[str, Any] | None) -> PullRequestPlan | None:
        """Inverse of ``stored``; None when the run opens no pull request."""
        if not data:
            return None
        return cls(str(data["remote"]), str(data["base"]), bool(data.get("draft")), data.get("provider"))


def plan_pull_request(
    workflow: Workflow,
    repo_root: Path,
    env: Mapping[str, str],
    *,
    pr: bool | None,
    remote: str | None,
    draft: bool,
    run_base_ref: str | None,
    dry_run: bool,
) -> PullRequestPlan | None:
    """Decide whether the run opens a PR (``pull_request:`` or ``--pr``; ``--no-pr`` wins) and preflight it."""
    from alphred.scm import preflight_pull_request, pull_request_base

    spec = workflow.pull_request
    if pr is False or dry_run or (spec is None and not pr):
        return None
    target = preflight_pull_request(repo_root, env, remote=remote or "origin", provider=spec.provider if spec else None)
    base = pull_request_base(spec.base if spec else None, run_base_ref, target.remote)
    return PullRequestPlan(target.remote, base, draft or bool(spec and spec.draft), target.provider)


def deliver_step(
    store: SqlRunStore,
    workflow: Workflow,
    run_id: int,
    plan: PullRequestPlan,
    state: RunState,
    step: str,
    redactor: Redactor,
    env: Mapping[str, str],
) -> tuple[DeliveryDone | DeliveryFailed, str]:
    """Carry out one delivery step (``push`` or ``open``) of a completed run; the event that reports it and
    what to say about it ('' for nothing).

    Each step is safe to repeat: a push of the same commits changes nothing, and ``open`` reports the
    branch's open pull request before it would create one.
    """
    from alphred.scm import open_for, push_for

    try:
        request = _request(store, workflow, run_id, plan, state, redactor, env)
        crash_point(f"deliver_{step}")
        if step == "push":
            push_for(request)
            return DeliveryDone(step), ""
        url = open_for(request).url
        crash_point("pull_request_opened")
        return DeliveryDone(step, url), f"pull request: {url}"
    except DeliveryError as exc:
        return DeliveryFailed(step, exc.kind), f"Error [{exc.code}]: {exc}"


def _request(
    store: SqlRunStore,
    workflow: Workflow,
    run_id: int,
    plan: PullRequestPlan,
    state: RunState,
    redactor: Redactor,
    env: Mapping[str, str],
) -> DeliveryRequest:
    from alphred.scm import DeliveryRequest, build_pr_body, default_pr_title
    from alphred.views.branch_status import phase_branches

    record = store.get_run(run_id)
    steps = store.list_steps(run_id)
    status = with_state(status_object(record, steps, phase_branches(workflow, record.branch)), state)
    status["status"] = RunStatus.COMPLETED.value
    spec = workflow.pull_request
    report = None
    if spec is not None and spec.body_from:
        artifact = store.latest_artifact(run_id, spec.body_from, "report")
        report = artifact.content_text if artifact is not None else None
    if workflow.pull_request_title is not None:
        last = steps[-1].phase if steps else workflow.start
        title = render_template(workflow.pull_request_title, template_context(state, workflow, last)).strip()
    else:
        title = default_pr_title(status, workflow.name)
    if not record.branch:
        raise DeliveryError("no_commits", f"run {run_id} has no branch to deliver", branch="?")
    return DeliveryRequest(
        repo_root=Path(record.repo_path or "."),
        branch=record.branch,
        base=plan.base,
        title=redactor.redact(title or default_pr_title(status, workflow.name)),
        body=redactor.redact(build_pr_body(status, report, branches=_branches(store, record, workflow, state))),
        remote=plan.remote,
        draft=plan.draft,
        provider=plan.provider,
        env=env,
    )


def _branches(store: SqlRunStore, record: RunRecord, workflow: Workflow, state: RunState) -> list[dict[str, Any]]:
    """The branches of the run's fan-outs and their merges, for the PR body (none without fan-outs)."""
    from alphred.views.branch_status import run_branch_views

    return [view.as_dict() for view in run_branch_views(store, record, workflow, state)]
