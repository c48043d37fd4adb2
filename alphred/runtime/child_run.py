"""Sub-workflows (SPEC §13): a ``type: workflow`` phase's attempt runs its child workflow as a run of its own.

The child run is a row of ``workflow_runs`` with ``parent_run_id`` and ``parent_step``
(``<phase>#<visit>.<attempt>``, unique per parent): it is created, with its inputs rendered from the parent's
``with:`` and its initial engine state, in ONE transaction before any of its phases starts (the intent),
and found again by the next attempt of the same visit (after an interruption, a kill, a take-over), so its
finished phases are never redone. A child that failed or was cancelled is left as it is; the attempt that
follows a failed attempt makes a new child.

The child runs on the parent's branch and worktree (its phases commit there as usual), inside the parent's
process and event loop: a nested ``Runner`` (made by the parent's, ``ChildHost.make_runner``) under the same
lease owner, without signal handlers of its own. The parent's stop (Ctrl+C, cancel, timeout, a lost lease)
stops the child the same way and waits for it to settle; a pause (recorded on both by the store) pauses the
child at its next phase boundary, which ends the parent's attempt interrupted (``ChildStopped``): ``resume``
of the parent continues the child where it stopped. The child's limits are capped by what the parent has
left (steps, tokens, cost, time to the parent's deadline); its usage is the attempt's usage and its steps the
attempt's ``child_steps``, so both count against the parent's limits.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from alphred.engine import (
    AWAITING_APPROVAL,
    TERMINAL_RUN_STATUSES,
    ApprovalGiven,
    Event,
    RecordStep,
    Resume,
    RunStarted,
    RunState,
    RunStatus,
    StepOutcome,
    initial_state,
    state_from_json,
    state_to_json,
    template_context,
)
from alphred.engine.reasons import TIMEOUT as TIMED_OUT
from alphred.errors import ProviderError
from alphred.guards.templates import render_template
from alphred.providers.base import EventType, ProviderEvent, result_event
from alphred.redact import Redactor
from alphred.runtime.attempt_context import PhaseContext
from alphred.runtime.crash import crash_point
from alphred.runtime.deadline import now, passed, run_deadline
from alphred.runtime.observer import RunObserver
from alphred.runtime.options import RunOptions
from alphred.runtime.supervisor import CANCEL, INTERRUPT, TIMEOUT
from alphred.runtime.takeover import settle
from alphred.store import RunRecord, SqlRunStore, StepRecord
from alphred.store.owners import lease_free, lease_ttl
from alphred.workflow import Limits, Phase, Workflow
from alphred.workflow.model import APPROVAL_DECISIONS

CHILD_RUN_FAILED = "CHILD_RUN_FAILED"
CHILD_RUN_BUSY = "CHILD_RUN_BUSY"
CHILD_STEPS = "child_steps"
"""The key of a workflow phase's usage event that carries its child run's step count (the parent's steps too)."""


class ChildStopped(Exception):
    """The child run stopped without ending (paused, waiting for approval, CI or a usage limit): the parent's
    attempt ends interrupted and the parent pauses; its ``resume`` continues the child."""

    def __init__(self, run_id: int, status: str, reason: str | None) -> None:
        super().__init__(f"sub-workflow run {run_id} is {status}" + (f" ({reason})" if reason else ""))
        self.run_id = run_id
        self.reason = reason


class NestedRunner(Protocol):
    """What a workflow phase needs of the runner that drives its child (``runner.Runner``)."""

    async def run(self, state: RunState, first: list[Event]) -> RunState:
        """Drive the child until it ends or waits; its last state."""
        ...

    def request_stop(self, why: str) -> None:
        """Stop the child as the parent stops (``supervisor`` reasons)."""


@dataclass
class ChildHost:
    """What the parent's runner lends its workflow phases: how to make a nested runner for a child, the
    parent's lease owner, options and observer, and why the parent stops (None: it goes on)."""

    make_runner: Callable[[Workflow, int, RunOptions, RunObserver], NestedRunner]
    owner: str
    options: RunOptions
    observer: RunObserver
    stop_reason: Callable[[], str | None]
    stop_parent: Callable[[str], None]  # the parent's ``Supervisor.request_stop``


def child_step(phase: str, visit: int, attempt: int) -> str:
    """``parent_step`` of the child run a workflow phase's attempt starts."""
    return f"{phase}#{visit}.{attempt}"


def _step_parts(step: str | None) -> tuple[str, int, int] | None:
    if not step or "#" not in step:
        return None
    phase, _, rest = step.rpartition("#")
    visit, _, attempt = rest.partition(".")
    return (phase, int(visit), int(attempt)) if visit.isdigit() and attempt.isdigit() else None


async def child_events(
    ctx: PhaseContext, state: RunState, phase: Phase, attempt: int, visit: int
) -> AsyncIterator[ProviderEvent]:
    """The attempt's events: the child run it starts (or continues), then its result or its failure."""
    host = ctx.children
    child = phase.child
    if host is None or child is None:
        raise ProviderError(f"workflow phase {phase.key} cannot run its child here", kind="invalid_request")
    values = ctx.template_values(template_context(state, ctx.workflow, phase.key))
    inputs = {name: render_template(phase.templates[f"with.{name}"], values) for name in phase.with_inputs}
    record, created = await asyncio.to_thread(_find_or_create, ctx, host, state, phase, (visit, attempt), inputs)
    deadline = await asyncio.to_thread(run_deadline, ctx.store, ctx.run_id, ctx.workflow.limits.timeout)
    time_left = _time_left(deadline, record)
    workflow = replace(child, limits=capped_limits(child.limits, ctx.workflow.limits, state, time_left))
    yield ProviderEvent(
        EventType.SYSTEM,
        f"{'started' if created else 'continues'} sub-workflow run {record.id} ({child.key}) on this branch",
        metadata={"child_run_id": record.id},
    )
    if record.status not in TERMINAL_RUN_STATUSES:
        crash_point("child_run_created")
        record = await _drive(ctx, host, workflow, record)
    final = await asyncio.to_thread(_final_state, ctx.store, workflow, record)
    steps = final.state.steps if final.state is not None else record.steps
    usage = {"tokens": record.tokens, "cost_usd": record.cost_usd, CHILD_STEPS: steps}
    yield ProviderEvent(EventType.USAGE, "", metadata=usage)
    if record.status is RunStatus.COMPLETED:
        if ctx.branch is None:  # the run's head is the child's: a later take-over resets to it, not before it
            head = record.head_sha
            ctx.pending.append(lambda tx: tx.update_run(ctx.run_id, head_sha=head))
        text, decision, report = _final_report(final)
        said = f"sub-workflow run {record.id} ({child.key}) completed"
        yield result_event(text or said, decision=decision, report=report, child_run_id=record.id)
        return
    if record.status is RunStatus.CANCELLED and await asyncio.to_thread(_parent_cancelled, ctx.store, ctx.run_id):
        host.stop_parent(CANCEL)  # the child saw the cancel first: the parent is cancelled too, not failed
        raise ChildStopped(record.id, record.status.value, record.reason)
    if record.status is RunStatus.FAILED and record.reason == TIMED_OUT and passed(deadline):
        host.stop_parent(TIMEOUT)  # the child saw the parent's deadline first: the parent times out, not fails
        raise ChildStopped(record.id, record.status.value, record.reason)
    if record.status in (RunStatus.FAILED, RunStatus.CANCELLED):
        where = _failed_phase(final)
        why = record.reason or record.status.value
        raise ProviderError(
            f"sub-workflow run {record.id} ({child.key}) {record.status.value}: {why}{where}",
            kind="child_failed",
            code=CHILD_RUN_FAILED,
        )
    raise ChildStopped(record.id, record.status.value, record.reason)


def capped_limits(own: Limits, parent: Limits, state: RunState, time_left: float | None) -> Limits:
    """The child's limits, none above what the parent has left (steps, tokens, cost; its ``timeout`` at most
    ``time_left``, from the child's start to the parent's deadline): its steps are the parent's too
    (``child_steps`` of the phase's outcome), so none may be left for it."""
    steps = max(0, min(own.max_steps, parent.max_steps - state.steps))
    tokens = own.max_tokens
    if parent.max_tokens is not None:
        left = max(1, parent.max_tokens - state.tokens)
        tokens = left if tokens is None else min(tokens, left)
    cost = own.max_cost_usd
    if parent.max_cost_usd is not None:
        left_cost = max(0.0, parent.max_cost_usd - state.cost_usd)
        cost = left_cost if cost is None else min(cost, left_cost)
    timeout = own.timeout
    if time_left is not None:
        timeout = time_left if timeout is None else min(timeout, time_left)
    return replace(own, max_steps=steps, max_tokens=tokens, max_cost_usd=cost, timeout=timeout)


def _time_left(deadline: datetime | None, record: RunRecord) -> float | None:
    """The seconds from the child's start (now, for a child not started yet) to the parent's ``deadline``
    (``limits.timeout`` from the parent's stored start, SPEC §8); None: the parent has none."""
    if deadline is None:
        return None
    return max(0.0, (deadline - (record.started_at or now())).total_seconds())


def _find_or_create(
    ctx: PhaseContext,
    host: ChildHost,
    state: RunState,
    phase: Phase,
    numbers: tuple[int, int],
    inputs: Mapping[str, str],
) -> tuple[RunRecord, bool]:
    """Blocking: the child of this visit to continue, or a new one (made in one transaction); (it, made now).
    The new child's stored inputs are ``inputs`` with the child's declared defaults filled in."""
    visit, attempt = numbers
    store = ctx.store
    assert phase.child is not None
    initial = initial_state(phase.child, inputs)
    head = ctx.worktrees.head_sha(ctx.worktree)
    with store.transaction() as tx:
        found = _child_of_visit(tx.child_runs(ctx.run_id), phase.key, visit)
        if found is not None and not _replaced(found, tx.list_steps(ctx.run_id), phase.key):
            return found, False
        parent = tx.get_run(ctx.run_id)
        tree_id, _version = tx.compile(phase.child)
        run_id = tx.create_run(
            tree_id,
            phase.child,
            dict(initial.inputs),
            branch=parent.branch,
            base_sha=head,
            base_ref=parent.branch,
            head_sha=head,
            worktree_path=None,  # the parent's: recorded there only, so that no cleanup of the child removes it
            repo_path=parent.repo_path,
            parent_run_id=ctx.run_id,
            parent_step=child_step(phase.key, visit, attempt),
            lease_owner=host.owner,
            lease_expires_at=datetime.now(UTC) + timedelta(seconds=lease_ttl()),
        )
        runtime = {**host.options.stored(), "keep_worktree": True, "pull_request": None, "parent": ctx.run_id}
        tx.update_run(run_id, engine_state={"engine": state_to_json(initial), "runtime": runtime})
    return store.get_run(run_id), True


def _child_of_visit(children: list[RunRecord], phase: str, visit: int) -> RunRecord | None:
    """The newest child started by an attempt of ``phase``'s ``visit``."""
    best: tuple[int, RunRecord] | None = None
    for child in children:
        parts = _step_parts(child.parent_step)
        if parts is not None and parts[:2] == (phase, visit) and (best is None or parts[2] > best[0]):
            best = (parts[2], child)
    return best[1] if best is not None else None


def _replaced(child: RunRecord, steps: list[StepRecord], phase: str) -> bool:
    """True when a new child replaces ``child``: it failed or was cancelled, and the parent recorded the
    attempt that ran it as failed (a kill before that record reports the same failure again)."""
    if child.status not in (RunStatus.FAILED, RunStatus.CANCELLED):
        return False
    parts = _step_parts(child.parent_step)
    attempt = parts[2] if parts is not None else 0
    failed = StepOutcome.FAILED.value
    return any(s.phase == phase and s.attempt == attempt and s.outcome.value == failed for s in steps)


async def _drive(ctx: PhaseContext, host: ChildHost, workflow: Workflow, record: RunRecord) -> RunRecord:
    """Claim the child (from a dead holder at once), settle what a dead process left, drive it on."""
    store = ctx.store
    state, first = await asyncio.to_thread(_prepare, ctx, host, workflow, record)
    observer = ChildObserver(host.observer, record.id, workflow.key)
    options = replace(host.options, keep_worktree=True, pull_request=None, inputs=dict(record.inputs))
    runner = host.make_runner(workflow, record.id, options, observer)
    task = asyncio.ensure_future(runner.run(state, first))
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:  # the parent stops: the child stops the same way, settles, then we go
        runner.request_stop(host.stop_reason() or INTERRUPT)
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.shield(task)
        raise
    return await asyncio.to_thread(store.get_run, record.id)


def _prepare(ctx: PhaseContext, host: ChildHost, workflow: Workflow, record: RunRecord) -> tuple[RunState, list[Event]]:
    """Blocking: the child's lease (from a dead holder at once), its state, and the events that go on."""
    store = ctx.store
    holder = record.lease_owner
    dead = holder is not None and holder != host.owner and lease_free(holder, record.lease_expires_at)
    steal = holder if dead else None
    if not store.acquire_lease(record.id, host.owner, lease_ttl(), steal_from=steal):
        raise ProviderError(
            f"sub-workflow run {record.id} is held by another live process ({holder})",
            kind="transport",
            code=CHILD_RUN_BUSY,
        )
    record = store.get_run(record.id)
    snapshot = store.run_snapshot(record.id)
    if snapshot.engine is None:
        raise ProviderError(f"sub-workflow run {record.id} has no engine state", kind="internal")
    state = state_from_json(workflow, snapshot.engine)
    if record.pause_requested and not _parent_pausing(store, ctx.run_id):
        store.update_run(record.id, pause_requested=False)  # continuing is the answer to an old pause request
    if record.status is RunStatus.PENDING:
        return state, [RunStarted()]
    first: list[Event] = settle(store, host_location(ctx), record, state, ctx.worktree, holder, Redactor(ctx.environ))
    return state, [*first, _recorded_answer(store, record, state) or Resume()]


def _recorded_answer(store: SqlRunStore, record: RunRecord, state: RunState) -> ApprovalGiven | None:
    """The answer ``alphred approve|reject PARENT`` recorded for the approval the child waits on (its
    ``report`` of the waiting attempt: the intent, found again after a kill), or None."""
    if record.status is not RunStatus.PAUSED or record.reason != AWAITING_APPROVAL or state.current is None:
        return None
    found = store.latest_artifact(record.id, state.current, "report")
    data = found.content_json if found is not None else None
    if found is None or found.attempt != state.phase(state.current).attempt or not isinstance(data, dict):
        return None
    decision, comment = data.get("decision"), data.get("comment")
    if decision not in APPROVAL_DECISIONS:
        return None
    return ApprovalGiven(state.current, str(decision), comment if isinstance(comment, str) else None)


def _parent_pausing(store: SqlRunStore, run_id: int) -> bool:
    return store.run_requests(run_id)[0]


def _parent_cancelled(store: SqlRunStore, run_id: int) -> bool:
    return store.run_requests(run_id)[1]


def host_location(ctx: PhaseContext) -> Any:
    """The repository the run works in (its worktrees')."""
    return ctx.worktrees.location


@dataclass(frozen=True)
class _Final:
    """How the child ended: its last state and its steps."""

    state: RunState | None
    steps: list[StepRecord]


def _final_state(store: SqlRunStore, workflow: Workflow, record: RunRecord) -> _Final:
    snapshot = store.run_snapshot(record.id)
    state = state_from_json(workflow, snapshot.engine) if snapshot.engine is not None else None
    return _Final(state, store.list_steps(record.id))


def _final_report(final: _Final) -> tuple[str, str | None, Any]:
    """The child's final report and decision: its last ``output:``-typed phase's report when it has one,
    else its last completed phase's report; the decision of that step (else the last decision made)."""
    state = final.state
    done = [s for s in final.steps if s.outcome.value == StepOutcome.COMPLETED.value]
    if state is None or not done:
        return "", None, None
    workflow = state.workflow
    typed = [s for s in done if workflow.has_phase(s.phase) and workflow.phase(s.phase).output is not None]
    chosen = (typed or done)[-1]
    report = state.phase(chosen.phase).report
    made = [state.phase(s.phase).decision for s in reversed(done) if state.phase(s.phase).decision]
    decision = state.phase(chosen.phase).decision or next(iter(made), None)
    if isinstance(report, dict):
        return "", decision, {key: value for key, value in report.items() if key != "decision"} or None
    return str(report or ""), decision, None


def _failed_phase(final: _Final) -> str:
    failed = [s for s in final.steps if s.outcome.value == StepOutcome.FAILED.value]
    if not failed:
        return ""
    last = failed[-1]
    return f" (phase {last.phase}, attempt {last.attempt}: {last.reason or 'failed'})"


class ChildObserver:
    """Tells the parent's observer what its child does, one line per child phase, marked with the child."""

    def __init__(self, parent: RunObserver, run_id: int, key: str) -> None:
        self.parent = parent
        self.mark = f"↳ {key} (run {run_id})"

    @property
    def live(self) -> bool:
        """The parent redraws the live line (its heartbeat ticks it)."""
        return False

    @property
    def watches_events(self) -> bool:
        """The child's events are not shown (``provider_event``)."""
        return False

    def note(self, text: str, style: str = "", branch: str | None = None) -> None:
        """A sentence about the child, marked."""
        self.parent.note(f"{self.mark}: {text}", style)

    def phase_started(self, effect: Any, kind: str, state: RunState) -> None:
        """A child phase starts."""
        self.parent.note(f"{self.mark}: ▶ {effect.phase} ({kind}, attempt {effect.attempt})")

    def persisted(self, effect: Any, stats: Any) -> None:
        """A child step ended."""
        if isinstance(effect, RecordStep):
            done = effect.outcome is StepOutcome.COMPLETED
            self.parent.note(f"{self.mark}: {effect.phase} {effect.outcome.value}", "green" if done else "")

    def provider_event(self, phase: str, attempt: int, sequence: int, event: ProviderEvent) -> None:
        """The child's events are stored with the child run (``alphred logs CHILD``)."""

    def run_finished(self, effect: Any, pr_url: str | None) -> None:
        """The child ended."""
        self.parent.note(f"{self.mark}: {effect.status}" + (f" ({effect.reason})" if effect.reason else ""))

    def tick(self) -> None:
        """Nothing: the parent's ticker redraws."""

    def flush(self) -> None:
        """The parent's lines are written as the parent's drive ends."""
