"""Delivery is part of the run: a run with a pull request completes only once its PR is open (SPEC §5)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alphred.engine import (
    RecordStep,
    RunFinished,
    RunState,
    RunStatus,
    SetRunStatus,
    template_context,
)
from alphred.engine.events import Effect
from alphred.errors import DeliveryError
from alphred.guards.templates import render_template
from alphred.spec import Workflow
from alphred.store import SqlRunStore

from .redact import Redactor
from .status import status_object, step_entry, with_state

DELIVERY_FAILED = "delivery_failed"


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


def completes(effects: tuple[Effect, ...]) -> bool:
    """True when this batch of effects completes the run."""
    return any(isinstance(e, SetRunStatus) and e.status is RunStatus.COMPLETED for e in effects)


def deliver(
    store: SqlRunStore,
    workflow: Workflow,
    run_id: int,
    plan: PullRequestPlan,
    state: RunState,
    effects: tuple[Effect, ...],
    redactor: Redactor,
    env: Mapping[str, str],
) -> str:
    """Push the run's branch and open (or find) its pull request; return the URL. Raises DeliveryError."""
    from alphred.scm import DeliveryRequest, build_pr_body, default_pr_title, deliver_pull_request

    record = store.get_run(run_id)
    status = with_state(status_object(record, store.list_steps(run_id)), state)
    status["steps"].extend(step_entry(e) for e in effects if isinstance(e, RecordStep))
    status["status"] = RunStatus.COMPLETED.value
    spec = workflow.pull_request
    report = None
    if spec is not None and spec.body_from:
        artifact = store.latest_artifact(run_id, spec.body_from, "report")
        report = artifact.content_text if artifact is not None else None
    if workflow.pull_request_title is not None:
        last = next((e.phase for e in reversed(effects) if isinstance(e, RecordStep)), workflow.start)
        title = render_template(workflow.pull_request_title, template_context(state, workflow, last)).strip()
    else:
        title = default_pr_title(status, workflow.name)
    if not record.branch:
        raise DeliveryError("no_commits", f"run {run_id} has no branch to deliver", branch="?")
    result = deliver_pull_request(
        DeliveryRequest(
            repo_root=Path(record.repo_path or "."),
            branch=record.branch,
            base=plan.base,
            title=redactor.redact(title or default_pr_title(status, workflow.name)),
            body=redactor.redact(build_pr_body(status, report)),
            remote=plan.remote,
            draft=plan.draft,
            provider=plan.provider,
            env=env,
        )
    )
    return result.url


def as_failed(state: RunState, effects: tuple[Effect, ...]) -> tuple[RunState, tuple[Effect, ...]]:
    """The same transition, but ending the run ``failed`` with reason ``delivery_failed``."""
    changed: list[Effect] = []
    for effect in effects:
        if isinstance(effect, SetRunStatus) and effect.status is RunStatus.COMPLETED:
            changed.append(SetRunStatus(RunStatus.FAILED, DELIVERY_FAILED))
        elif isinstance(effect, RunFinished):
            changed.append(RunFinished(RunStatus.FAILED, DELIVERY_FAILED))
        else:
            changed.append(effect)
    return dataclasses.replace(state, status=RunStatus.FAILED, reason=DELIVERY_FAILED), tuple(changed)
