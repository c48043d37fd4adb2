"""``type: pull_request`` (SPEC §16): push the run branch and open its pull request, or update the open one.

The attempt is its own intent record: it is stored running before anything is pushed, and every step is safe
to repeat (a push of the same commits changes nothing; the branch's open pull request is looked up before
one is created), so an attempt killed at any instant and run again leaves exactly one pull request.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from alphred.engine import RunState
from alphred.errors import DeliveryError, ProviderError
from alphred.providers.base import EventType, ProviderEvent, result_event
from alphred.runtime.attempt_context import PhaseContext
from alphred.runtime.crash import crash_point
from alphred.workflow import Phase

DELIVERY_FAILED = "DELIVERY_FAILED"


async def pull_request_events(ctx: PhaseContext, state: RunState, phase: Phase) -> AsyncIterator[ProviderEvent]:
    """The attempt's events: what it does, then its result with the report ``{url, number, head}``."""
    report, said = await asyncio.to_thread(open_or_update_phase, ctx, state, phase)
    for line in said:
        yield ProviderEvent(EventType.SYSTEM, line)
    yield result_event(said[-1], report=report)


def open_or_update_phase(ctx: PhaseContext, state: RunState, phase: Phase) -> tuple[dict[str, Any], list[str]]:
    """Blocking: push, open or update; the report and the lines that say what happened."""
    from alphred.scm import DeliveryRequest, PullRequestExtras, has_commits, open_or_update

    record = ctx.store.get_run(ctx.run_id)
    branch = record.branch or ""
    plan = ctx.pull_request
    if plan is None or ctx.describe is None:
        said = "no pull request is opened (--no-pr or --dry-run): the phase reports none"
        return {"url": None, "number": None, "head": branch}, [said]
    title, body = ctx.describe(ctx.store, ctx.workflow, record, state, phase)
    options = phase.options
    request = DeliveryRequest(
        repo_root=Path(record.repo_path or "."),
        branch=branch,
        base=str(options.get("base") or plan.base),
        title=ctx.redactor.redact(title),
        body=ctx.redactor.redact(body),
        remote=plan.remote,
        draft=bool(options.get("draft", plan.draft)),
        provider=plan.provider,
        env=ctx.environ,
    )
    extras = PullRequestExtras(tuple(options.get("labels") or ()), tuple(options.get("reviewers") or ()))
    try:
        if not has_commits(request):
            said = f"nothing to deliver: {branch} has no commit on top of {request.base}; no pull request is opened"
            return {"url": None, "number": None, "head": branch}, [said]
        crash_point("pull_request_phase")
        opened = open_or_update(request, extras)
    except DeliveryError as exc:
        kind = "invalid_request" if exc.kind in ("no_remote", "auth") else "transport"
        raise ProviderError(ctx.redactor.redact(exc.message), kind=kind, code=DELIVERY_FAILED) from None
    crash_point("pull_request_phase_opened")
    verb = "opened" if opened.created else "updated"
    return opened.report(), [f"pushed {branch}", f"pull request {verb}: {opened.url}"]
