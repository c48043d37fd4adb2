"""Delivery is part of the run: a run with a pull request completes only once its PR is open (SPEC §5)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from alphred.engine import DeliveryDone, DeliveryFailed, RunState
from alphred.errors import DeliveryError
from alphred.lazy import deferred_dataclass
from alphred.redact import Redactor
from alphred.runtime.crash import crash_point
from alphred.store import RunRecord, SqlRunStore
from alphred.workflow import Phase, PhaseType, Workflow

if TYPE_CHECKING:
    from alphred.scm import DeliveryRequest


@deferred_dataclass(frozen=True)
class PullRequestPlan:
    """How this run's pull request is opened; decided (and preflighted) before the run starts."""

    remote: str
    base: str
    draft: bool
    provider: str | None
    at_end: bool = True  # False: only ``type: pull_request`` phases open it; the run ends without delivering
    required: bool = False  # ``pull_request.required``: nothing to deliver fails the run instead

    def stored(self) -> dict[str, Any]:
        """JSON form, kept with the run so that resume/approve/retry deliver the same way."""
        return dataclasses.asdict(self)

    @classmethod
    def from_stored(cls, data: Mapping[str, Any] | None) -> PullRequestPlan | None:
        """Inverse of ``stored``; None when the run opens no pull request."""
        if not data:
            return None
        at_end, required = bool(data.get("at_end", True)), bool(data.get("required"))
        remote, base, draft = str(data["remote"]), str(data["base"]), bool(data.get("draft"))
        return cls(remote, base, draft, data.get("provider"), at_end, required)


def plan_pull_request(
    workflow: Workflow,
    repo_root: Path,
    environ: Mapping[str, str],
    *,
    pr: bool | None,
    remote: str | None,
    draft: bool,
    run_base_ref: str | None,
    dry_run: bool,
) -> PullRequestPlan | None:
    """Decide whether the run opens a PR (``pull_request:``, ``--pr`` or a ``type: pull_request`` phase;
    ``--no-pr`` wins) and preflight it. ``at_end`` says whether the run delivers when it completes."""
    spec = workflow.pull_request
    in_phases = any(phase.type in (PhaseType.PULL_REQUEST, PhaseType.CI) for phase in workflow.phases)
    at_end = spec is not None or bool(pr)
    if pr is False or dry_run or not (at_end or in_phases):
        return None  # (before importing alphred.scm: a run without a pull request never loads it)
    from alphred.scm import preflight_pull_request, pull_request_base

    target = preflight_pull_request(
        repo_root, environ, remote=remote or "origin", provider=spec.provider if spec else None
    )
    base = pull_request_base(spec.base if spec else None, run_base_ref, target.remote)
    draft = draft or bool(spec and spec.draft)
    return PullRequestPlan(target.remote, base, draft, target.provider, at_end, bool(spec and spec.required))


class PullRequestText(Protocol):
    """Writes the title and body of a run's pull request (``alphred.views.pull_request.pull_request_text``);
    with ``phase``, those of the ``type: pull_request`` phase (its own ``title`` and ``body_from``)."""

    def __call__(
        self, store: SqlRunStore, workflow: Workflow, record: RunRecord, state: RunState, phase: Phase | None = None
    ) -> tuple[str, str]: ...


def deliver_step(
    store: SqlRunStore,
    workflow: Workflow,
    run_id: int,
    plan: PullRequestPlan,
    state: RunState,
    step: str,
    redactor: Redactor,
    environ: Mapping[str, str],
    describe: PullRequestText,
) -> tuple[DeliveryDone | DeliveryFailed, str]:
    """Carry out one delivery step (``push`` or ``open``) of a completed run; the event that reports it and
    what to say about it ('' for nothing).

    Each step is safe to repeat: a push of the same commits changes nothing, and ``open`` reports the
    branch's open pull request before it would create one.
    """
    from alphred.scm import has_commits, open_for, push_for

    try:
        request = delivery_request(store, workflow, run_id, plan, state, redactor, environ, describe)
        crash_point(f"deliver_{step}")
        if step == "push":
            if not plan.required and not has_commits(request):  # SPEC §16: completes without a pull request
                return DeliveryDone(step, nothing=True), f"nothing to deliver: {request.branch} has no new commit"
            push_for(request)
            return DeliveryDone(step), ""
        url = open_for(request).url
        crash_point("pull_request_opened")
        return DeliveryDone(step, url), f"pull request: {url}"
    except DeliveryError as exc:
        return DeliveryFailed(step, exc.kind), f"Error [{exc.code}]: {exc}"


def delivery_request(
    store: SqlRunStore,
    workflow: Workflow,
    run_id: int,
    plan: PullRequestPlan,
    state: RunState,
    redactor: Redactor,
    environ: Mapping[str, str],
    describe: PullRequestText,
) -> DeliveryRequest:
    """What ``push``/``open`` need: the run's branch, its pull request's redacted title and body, the plan."""
    from alphred.scm import DeliveryRequest

    record = store.get_run(run_id)
    title, body = describe(store, workflow, record, state)
    if not record.branch:
        raise DeliveryError("no_commits", f"run {run_id} has no branch to deliver", branch="?")
    return DeliveryRequest(
        repo_root=Path(record.repo_path or "."),
        branch=record.branch,
        base=plan.base,
        title=redactor.redact(title),
        body=redactor.redact(body),
        remote=plan.remote,
        draft=plan.draft,
        provider=plan.provider,
        env=environ,
    )
