"""``type: ci`` (SPEC §16): one look at the pull request's checks per attempt execution.

A look that finds checks still running ends the execution with ``CiWaiting``: the run is stored ``paused``
(reason ``waiting_for_ci``) with the time of its next look (``workflow_runs.wake_at``) and gives up its lease,
so no process is held while it waits; ``resume``, the foreground ``run`` and the workers look again once
that time has come (the same attempt: a look is not a step). A look that finds them finished, or a wait past
the phase's ``timeout``, completes the phase with the report ``{state, failed: [{name, url, log_tail}]}``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alphred.engine import RunState
from alphred.errors import DeliveryError, ProviderError, ScmNotReadyError
from alphred.providers.base import EventType, ProviderEvent, result_event
from alphred.runtime.attempt_context import PhaseContext
from alphred.workflow import DEFAULT_CI_POLL, DEFAULT_CI_TIMEOUT, Phase, PhaseType

CI_WAIT = "ci_wait"
"""Metadata key of a ``result`` event that says the checks are still running: seconds until the next look."""
NO_CHECKS_GRACE = 60.0  # how long "no checks reported" counts as "not started yet" before it counts as passed
CI_UNREADABLE = "CI_UNREADABLE"  # the checks could not be read (gh/az failed): the attempt fails, retryable
MAX_FAILED = 20  # failed checks listed in the report


async def ci_events(ctx: PhaseContext, state: RunState, phase: Phase) -> AsyncIterator[ProviderEvent]:
    """One look: the checks' summary, then a result that either waits (``CI_WAIT``) or reports."""
    report, said, wait = await asyncio.to_thread(look_once, ctx, phase, state)
    yield ProviderEvent(EventType.SYSTEM, said)
    if wait is not None:
        yield ProviderEvent(EventType.RESULT, said, metadata={"routingDecision": None, CI_WAIT: wait})
    else:
        yield result_event(said, report=report)


def pull_request_of(state: RunState, pr_url: str | None) -> tuple[str | None, str | None]:
    """(head branch, URL) of the run's pull request ``pr_url`` (the one its last ``type: pull_request`` phase
    reported): the checks to wait for are that pull request's, whose head branch is not the run's when an
    ``existing:`` or ``branch:`` phase reported it (SPEC §16, §17). (None, None): the run has none yet."""
    if not pr_url:
        return None, None
    for key in state.workflow.phase_keys:
        report = state.phase(key).report
        if state.workflow.phase(key).type is PhaseType.PULL_REQUEST and isinstance(report, dict):
            head = report.get("head")
            if report.get("url") == pr_url and isinstance(head, str) and head:
                return head, pr_url
    return None, pr_url


def look_once(ctx: PhaseContext, phase: Phase, state: RunState) -> tuple[dict[str, Any] | None, str, float | None]:
    """Blocking: the report (None while waiting), a line for the logs and live line, seconds to the next look."""
    from alphred.scm import choose_provider, remote_url
    from alphred.scm.checks import MAX_LOGS, failed_log_tail, look_at_checks

    record = ctx.store.get_run(ctx.run_id)
    plan = ctx.pull_request
    if plan is None:
        return {"state": "passed", "failed": []}, "no pull request (--no-pr or --dry-run): no checks to wait for", None
    root = Path(record.repo_path or ".")
    url = remote_url(root, plan.remote, ctx.environ)
    head, selector = pull_request_of(state, record.pr_url)
    branch = head or record.branch or ""
    try:
        if url is None:
            raise DeliveryError("no_remote", f"the repository has no remote named '{plan.remote}'", branch=branch)
        provider = choose_provider(plan.provider, url)
        required = bool(phase.options.get("required_only", True))
        look = look_at_checks(provider, root, url, ctx.environ, branch, required_only=required, pull=selector)
    except (DeliveryError, ScmNotReadyError) as exc:
        raise ProviderError(ctx.redactor.redact(str(exc)), kind="transport", code=CI_UNREADABLE) from None
    waited = _waited(record, phase.key)
    timeout = phase.timeout or DEFAULT_CI_TIMEOUT
    poll = float(phase.options.get("poll") or DEFAULT_CI_POLL)
    summary = look.summary()
    if look.pending and not (not look.checks and waited >= NO_CHECKS_GRACE) and waited < timeout:
        return None, f"waiting for CI on {branch}: {summary}; next look in {poll:g}s", poll
    failed = []
    for index, check in enumerate(look.failed[:MAX_FAILED]):
        tail = failed_log_tail(root, url, ctx.environ, check) if index < MAX_LOGS and provider != "azure" else ""
        failed.append({"name": check.name, "url": check.url, "log_tail": ctx.redactor.redact(tail)})
    ended = "timeout" if look.pending and look.checks and waited >= timeout else "failed" if failed else "passed"
    if look.pending and not look.checks and waited < timeout:
        summary = f"no checks reported within {NO_CHECKS_GRACE:g}s"
    return {"state": ended, "failed": failed}, f"CI {ended} on {branch}: {summary}", None


def _waited(record: Any, phase_key: str) -> float:
    """Seconds since the phase's current execution started (the wait began), 0 when unknown."""
    node = next((n for n in record.nodes if n.node_key == phase_key), None)
    started = getattr(node, "started_at", None)
    if started is None:
        return 0.0
    if started.tzinfo is None:
        started = started.replace(tzinfo=UTC)
    return max(0.0, float((datetime.now(UTC) - started).total_seconds()))
