"""One phase attempt: render, gather context, run the provider or command, watch time, commit, report."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shlex
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import bindparam, select

from alphred.engine import (
    CHECKS_FAILED,
    PhaseCompleted,
    PhaseFailed,
    RunState,
    TokenCounter,
    UpstreamReport,
    build_context,
    decision_problem,
    template_context,
)
from alphred.errors import IDLE_TIMEOUT, TIMEOUT, AlphredError, ProviderError
from alphred.git import CommitResult, GitWorktrees, phase_commit_message
from alphred.git.merges import LaneGit
from alphred.guards.templates import render_template
from alphred.providers import EventType, ProviderEvent, ProviderOptions, ProviderRegistry
from alphred.providers.contract import checked, checked_stream
from alphred.spec import Phase, PhaseType, Workflow
from alphred.store import SqlRunStore, StoreTransaction
from alphred.store.runs import RUNS

from .checks import CheckRun, ChecksResult, run_checks
from .command import run_command, template_command
from .crash import crash_point
from .dryrun import dry_run_checks, dry_run_command
from .orphans import MARKER
from .redact import Redactor
from .sink import FLUSH_EVERY_SECONDS, EventSink

RESCHEDULE_SECONDS = 0.05


@dataclass
class AttemptStats:
    """What the runtime measured of one attempt (for the diagnostics row)."""

    started: float = field(default_factory=time.monotonic)
    events: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
    message: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    output_tail: str = ""  # the end of a failed command's output, for the progress view (not stored here)
    pause_requested: bool | None = None  # the run's pause flag as the attempt ended (None: not read)

    @property
    def duration_ms(self) -> int:
        """Milliseconds since the attempt started."""
        return int((time.monotonic() - self.started) * 1000)


@dataclass
class PhaseContext:
    """Everything a phase attempt needs from the run."""

    store: SqlRunStore
    run_id: int
    workflow: Workflow
    worktree: Path
    worktrees: GitWorktrees
    registry: ProviderRegistry
    redactor: Redactor
    env: dict[str, str]
    on_event: Callable[[str, int, int, ProviderEvent], None] | None = None
    dry_run_commands: bool = False  # --dry-run: command phases print what they would run instead of running it
    # Writes an attempt leaves for the runner: done in the transaction that persists the attempt's outcome
    # (one transaction per phase instead of one per artifact, and artifacts exist only with their outcome).
    pending: list[Callable[[StoreTransaction], object]] = field(default_factory=list)
    # Set when the run is interrupted: providers stop their agent (their ``ProviderOptions.cancel``).
    cancel: asyncio.Event = field(default_factory=asyncio.Event)
    lane: str | None = None  # the parallel branch (its head phase) whose worktree this is; None: the run's own


class _Outcome:
    def __init__(self) -> None:
        self.result: ProviderEvent | None = None
        self.counter = TokenCounter()


async def run_attempt(
    ctx: PhaseContext,
    state: RunState,
    phase: Phase,
    attempt: int,
    visit: int,
    stats: AttemptStats,
    notes: tuple[str, ...] = (),
    resolving: tuple[str, ...] | None = None,
) -> PhaseCompleted | PhaseFailed:
    """Execute one attempt and turn what happened into the engine event that reports it.

    ``notes`` are extra context envelopes (a summary of the previous attempt's failure on a retry);
    ``resolving`` the conflicted paths when the attempt resolves a join's merge (SPEC §8): its completion
    commits the merge instead of a phase commit.
    """

    def prepare() -> tuple[int, int, str, dict[str, UpstreamReport]]:
        with ctx.store.reading() as tx:  # one read transaction for what the attempt needs to know
            node_id = tx.node_id(ctx.run_id, phase.key)  # known to the store once read: a phase's id never changes
            first = tx.next_event_sequence(node_id, attempt)
            reports = _upstream_reports(ctx, phase, tx) if phase.type is PhaseType.AGENT else {}
        return node_id, first, ctx.worktrees.head_sha(ctx.worktree), reports

    node_id, first, start_sha, reports = await asyncio.to_thread(prepare)  # blocking work off the event loop

    def forward(sequence: int, event: ProviderEvent) -> None:
        if ctx.on_event is not None:
            ctx.on_event(phase.key, attempt, sequence, event)

    stats.details["start_sha"] = start_sha
    sink = EventSink(ctx.store, ctx.run_id, node_id, attempt, ctx.redactor, first, forward)
    outcome = _Outcome()
    flusher = asyncio.create_task(_flush_periodically(sink))
    try:
        events = _events_for(ctx, state, phase, attempt, notes, reports)
        failure = await _consume(events, phase, sink, outcome)
        flusher.cancel()  # the last events are written as the attempt ends (``_ended``)
        return await _end(ctx, state, phase, attempt, visit, stats, sink, outcome, failure, resolving)
    finally:
        flusher.cancel()
        if sink.pending:  # the attempt raised or was cancelled before ``_ended`` wrote its last events
            await asyncio.shield(asyncio.to_thread(sink.flush))


async def _end(
    ctx: PhaseContext,
    state: RunState,
    phase: Phase,
    attempt: int,
    visit: int,
    stats: AttemptStats,
    sink: EventSink,
    outcome: _Outcome,
    failure: ProviderError | None,
    resolving: tuple[str, ...] | None,
) -> PhaseCompleted | PhaseFailed:
    """Turn the attempt's result into its outcome: its checks, then (in one worker thread) ``_ended``."""
    stats.events = sink.count
    stats.tokens = outcome.counter.total
    stats.cost_usd = outcome.counter.cost_usd
    if failure is not None:
        stats.message = ctx.redactor.redact(failure.message)
        stats.details["error"] = {"kind": failure.kind, "code": failure.code, "retry_after": failure.retry_after}
        failed = PhaseFailed(
            phase.key, attempt, failure.kind, failure.retryable, failure.code, stats.tokens, stats.cost_usd
        )
        return await asyncio.to_thread(_ended, ctx, sink, stats, lambda: failed)
    assert outcome.result is not None
    verdict = _read_result(ctx, phase, outcome.result)
    if verdict.exit_code is not None:
        stats.details["exit_code"] = verdict.exit_code
    if outcome.result.metadata.get("dry_run"):
        stats.details["dry_run"] = True
    checked = None
    if verdict.problem is None and phase.checks:
        checked = await _check(ctx, state, phase, verdict, stats, sink)

    def complete() -> PhaseCompleted | PhaseFailed:
        return _completed(ctx, phase, attempt, visit, verdict, stats, checked, resolving)

    return await asyncio.to_thread(_ended, ctx, sink, stats, complete)


def _ended(
    ctx: PhaseContext,
    sink: EventSink,
    stats: AttemptStats,
    complete: Callable[[], PhaseCompleted | PhaseFailed],
) -> PhaseCompleted | PhaseFailed:
    """The end of an attempt, in one worker thread: its last events and the run's pause flag in one
    transaction, then ``complete`` (the report, the commit)."""
    stats.pause_requested = sink.flush_with(lambda tx: _pause_requested(tx, ctx.run_id))
    return complete()


_PAUSE_REQUESTED = select(RUNS.c.pause_requested).where(RUNS.c.id == bindparam("_run_id"))


def _pause_requested(tx: StoreTransaction, run_id: int) -> bool:
    """Whether ``alphred pause`` asked the run to pause (read as an attempt ends: the heartbeat may not have looked)."""
    return bool(tx.connection.execute(_PAUSE_REQUESTED, {"_run_id": run_id}).scalar())


async def _check(
    ctx: PhaseContext, state: RunState, phase: Phase, verdict: _Verdict, stats: AttemptStats, sink: EventSink
) -> ChecksResult | None:
    """Run the phase's checks (SPEC §9) into the attempt's event stream; None when they are skipped.

    A ``--dry-run`` stand-in agent did no work, so there is nothing to check: its phase's checks are skipped.
    Under ``--dry-run`` (scope ``all``) a command phase's checks are said, not run, and pass, as its command
    (``runtime/dryrun.py``).
    """
    if ctx.dry_run_commands and phase.type is PhaseType.COMMAND:  # the command was not run: neither are its checks
        try:
            return dry_run_checks(phase.checks, template_context(state, ctx.workflow, phase.key), sink.add)
        finally:
            await asyncio.to_thread(sink.flush)
            stats.events = sink.count
    if (
        phase.type is PhaseType.AGENT
        and phase.provider
        and getattr(ctx.registry.resolve(phase.provider), "stub", False)
    ):
        sink.add(
            ProviderEvent(EventType.SYSTEM, f"dry run: the {len(phase.checks)} check(s) of {phase.key} are skipped")
        )
        await asyncio.to_thread(sink.flush)
        stats.events = sink.count
        return None
    wake = asyncio.Event()

    def emit(event: ProviderEvent) -> None:
        """Store a check's event soon (``logs --follow`` shows a slow check as it starts), off the loop."""
        sink.add(event)
        wake.set()

    run = CheckRun(
        worktree=ctx.worktree,
        start_sha=str(stats.details["start_sha"]),
        values=template_context(state, ctx.workflow, phase.key),
        report=verdict.report,
        env=ctx.env,
        redactor=ctx.redactor,
        emit=emit,
    )
    flusher = asyncio.create_task(_flush_when_woken(sink, wake))
    try:
        return await run_checks(phase.checks, run)
    finally:
        flusher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await flusher
        await asyncio.shield(asyncio.to_thread(sink.flush))
        stats.events = sink.count


async def _flush_when_woken(sink: EventSink, wake: asyncio.Event) -> None:
    """Write buffered events in a thread each time ``wake`` is set."""
    while True:
        await wake.wait()
        wake.clear()
        await asyncio.to_thread(sink.flush)


async def _flush_periodically(sink: EventSink) -> None:
    """Write buffered events at least every FLUSH_EVERY_SECONDS, even while the provider is silent."""
    while True:
        await asyncio.sleep(FLUSH_EVERY_SECONDS)
        await asyncio.to_thread(sink.flush)


def _events_for(
    ctx: PhaseContext,
    state: RunState,
    phase: Phase,
    attempt: int,
    notes: tuple[str, ...],
    reports: dict[str, UpstreamReport],
) -> AsyncIterator[ProviderEvent]:
    values = template_context(state, ctx.workflow, phase.key)
    if phase.type is PhaseType.COMMAND:
        command, variables = template_command(phase.templates["run"], values)
        shown = render_template(phase.templates["run"], values, quote=shlex.quote)  # for the logs, never run
        if ctx.dry_run_commands:  # say what would run, with the values in place, and run nothing
            return dry_run_command(shown, ctx.worktree)
        return checked_stream(
            "command",
            run_command(command, ctx.worktree, timeout=None, env={**ctx.env, **variables}, display=shown),
        )
    assert phase.provider is not None
    provider = checked(ctx.registry.resolve(phase.provider))
    prompt = render_template(phase.templates["prompt"], values) if "prompt" in phase.templates else ""
    bundle = build_context(ctx.workflow, phase.key, reports)
    manifest = bundle.manifest
    ctx.pending.append(lambda tx: tx.add_artifact(ctx.run_id, phase.key, attempt, "context_manifest", data=manifest))
    options = ProviderOptions(
        working_directory=ctx.worktree,
        phase=phase.key,
        attempt=attempt,
        system_prompt=phase.options.get("system_prompt"),
        context=bundle.envelopes + notes,
        timeout=phase.timeout,
        model=phase.model,
        decisions=phase.decisions,
        settings=phase.options,
        cancel=ctx.cancel,
        environment={MARKER: ctx.env[MARKER]} if MARKER in ctx.env else {},
    )
    return provider.run(prompt, options)


def _upstream_reports(ctx: PhaseContext, phase: Phase, tx: StoreTransaction) -> dict[str, UpstreamReport]:
    keys = phase.context if phase.context is not None else ctx.workflow.predecessors(phase.key)
    reports: dict[str, UpstreamReport] = {}
    for key in keys:
        artifact = tx.latest_artifact(ctx.run_id, key, "report")
        if artifact is not None and artifact.content_text is not None:
            reports[key] = UpstreamReport(key, artifact.attempt, artifact.content_text)
    return reports


async def _consume(
    events: AsyncIterator[ProviderEvent], phase: Phase, sink: EventSink, outcome: _Outcome
) -> ProviderError | None:
    """Drain the (contract-checked) stream under the phase's timeout and idle timeout; None when it ended
    with a result.

    One ``asyncio.timeout_at`` watches both limits: its deadline is the earlier of the phase's end and the last
    event plus ``idle_timeout``, moved forward as events arrive (at most every RESCHEDULE_SECONDS).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + phase.timeout if phase.timeout else None
    iterator = aiter(events)

    def next_deadline() -> float:
        idle_end = loop.time() + phase.idle_timeout
        return idle_end if deadline is None else min(deadline, idle_end)

    try:
        async with asyncio.timeout_at(next_deadline()) as watch:
            moved = loop.time()
            async for event in iterator:
                sink.add(event)
                if event.type is EventType.USAGE or (event.type is EventType.RESULT and "usage" in event.metadata):
                    outcome.counter.feed(event.metadata)
                if event.type is EventType.RESULT:
                    outcome.result = event
                now = loop.time()
                if now - moved >= RESCHEDULE_SECONDS:
                    watch.reschedule(next_deadline())
                    moved = now
    except TimeoutError:
        timed_out = deadline is not None and loop.time() >= deadline - 0.001
        reason, code = ("timeout", TIMEOUT) if timed_out else ("idle_timeout", IDLE_TIMEOUT)
        limit = phase.timeout if timed_out else phase.idle_timeout
        what = "ran past its timeout" if timed_out else "produced no event for its idle_timeout"
        return ProviderError(f"phase {phase.key} {what} ({limit:g}s)", kind=reason, code=code)
    except ProviderError as exc:
        return exc
    except AlphredError as exc:
        return ProviderError(str(exc), kind="invalid_request", code=exc.code, retryable=False)
    finally:
        closer = getattr(iterator, "aclose", None)
        if closer is not None:
            await closer()
    return None  # the contract check (checked_stream) guarantees a result here


@dataclass(frozen=True)
class _Verdict:
    """What the attempt's ``result`` says: decision, report, exit code, and why it fails (if it does)."""

    decision: str | None
    exit_code: int | None
    text: str
    structured: dict[str, Any] | None
    problem: str | None

    @property
    def report(self) -> Any:
        """The report the engine and guards see: the structured object when there is one, else the text."""
        return self.structured if self.structured is not None else self.text


def _read_result(ctx: PhaseContext, phase: Phase, result: ProviderEvent) -> _Verdict:
    metadata = dict(result.metadata)
    exit_code = metadata.get("exit_code") if phase.type is PhaseType.COMMAND else None
    raw_decision = metadata.get("routingDecision") if phase.type is PhaseType.AGENT else None
    decision = raw_decision if isinstance(raw_decision, str) else None
    structured = ctx.redactor.redact_data(metadata["report"]) if isinstance(metadata.get("report"), dict) else None
    text = _json(structured) if structured is not None else ctx.redactor.redact(result.content)
    problem = None
    if phase.type is PhaseType.COMMAND and exit_code != 0 and not phase.allow_failure:
        problem = f"command exited with {exit_code}"
    elif phase.type is PhaseType.AGENT:
        problem = decision_problem(phase, decision)
    code = exit_code if isinstance(exit_code, int) and not isinstance(exit_code, bool) else None
    return _Verdict(decision, code, text, structured, problem)


def _completed(
    ctx: PhaseContext,
    phase: Phase,
    attempt: int,
    visit: int,
    verdict: _Verdict,
    stats: AttemptStats,
    checked: ChecksResult | None = None,
    resolving: tuple[str, ...] | None = None,
) -> PhaseCompleted | PhaseFailed:
    """Store the attempt's report, commit its changes, and report the outcome to the engine.

    A report becomes kind ``report`` (what downstream phases receive as context) only when the attempt
    succeeds; the output of a failing attempt is kept as kind ``output``. Failed checks fail the attempt
    (``checks_failed``, retryable) before anything is committed; what is left in the worktree stays for the retry.
    """
    text, structured, problem = verdict.text, verdict.structured, verdict.problem
    if checked is not None:
        stats.details["checks"] = [outcome.stored() for outcome in checked.outcomes]
        if checked.restored:
            stats.details["restored"] = list(checked.restored)
        if not checked.passed:
            problem = ctx.redactor.redact(checked.summary())
    kind = "output" if problem else "report"
    ctx.pending.append(lambda tx: tx.add_artifact(ctx.run_id, phase.key, attempt, kind, text=text, data=structured))
    if checked is not None and not checked.passed:
        stats.message = problem
        stats.output_tail = "\n".join(o.output.rstrip("\n") for o in checked.outcomes if not o.passed and o.output)
        return PhaseFailed(phase.key, attempt, CHECKS_FAILED, True, "CHECKS_FAILED", stats.tokens, stats.cost_usd)
    if problem and phase.type is PhaseType.COMMAND:
        stats.message = problem
        stats.output_tail = text
        return PhaseFailed(phase.key, attempt, "exit_code", True, "COMMAND_FAILED", stats.tokens, stats.cost_usd)
    completed = PhaseCompleted(
        phase.key,
        attempt,
        decision=verdict.decision,
        report=verdict.report,
        exit_code=verdict.exit_code,
        tokens=stats.tokens,
        cost_usd=stats.cost_usd,
        checks=checked.guard_values() if checked is not None else {},
    )
    if problem:
        return completed
    message = phase_commit_message(ctx.workflow.key, phase.key, visit, run_id=ctx.run_id, attempt=attempt)
    intent = outcome_intent(completed, visit)

    def record_intent() -> None:
        """The outcome is written before the commit: a take-over finds it and redoes nothing."""
        ctx.pending.append(lambda tx: tx.add_artifact(ctx.run_id, phase.key, attempt, OUTCOME, data=intent))
        with ctx.store.transaction() as tx:
            for write in ctx.pending:
                write(tx)
        ctx.pending.clear()
        crash_point("before_commit")

    if resolving is not None:
        return _commit_merge(ctx, completed, resolving, stats, record_intent)
    since = stats.details.get("start_sha")
    commit = ctx.worktrees.commit_phase(ctx.worktree, message, since=since, before_commit=record_intent)
    crash_point("after_commit")
    if commit is not None:
        ctx.pending.append(record_commit(ctx, phase.key, attempt, commit))
        stats.details["commit"] = commit.sha
    return completed


MERGE_UNRESOLVED = "merge_unresolved"
"""Failure reason of a resolver attempt that left an unmerged path or a conflict marker (retryable)."""


def _commit_merge(
    ctx: PhaseContext,
    completed: PhaseCompleted,
    conflicts: tuple[str, ...],
    stats: AttemptStats,
    record_intent: Callable[[], None],
) -> PhaseCompleted | PhaseFailed:
    """The resolver completed: stage everything and commit the merge, unless something is left unresolved."""
    sha, remaining = LaneGit(ctx.worktrees).finish_merge(ctx.worktree, conflicts, before_commit=record_intent)
    if sha is None:
        stats.message = "conflicts remain in " + ", ".join(remaining)
        stats.details["unresolved"] = list(remaining)
        key, attempt = completed.phase, completed.attempt
        return PhaseFailed(key, attempt, MERGE_UNRESOLVED, True, "MERGE_UNRESOLVED", stats.tokens, stats.cost_usd)
    crash_point("after_commit")
    stats.details["commit"] = sha
    ctx.pending.append(lambda tx: tx.update_run(ctx.run_id, head_sha=sha))
    return completed


OUTCOME = "outcome"
"""Artifact kind of an attempt's outcome, written before its commit (the commit's intent)."""


def outcome_intent(event: PhaseCompleted, visit: int) -> dict[str, Any]:
    """The JSON form of a completed attempt's outcome, kept as its ``outcome`` artifact."""
    return {
        "decision": event.decision, "report": event.report, "exit_code": event.exit_code,
        "tokens": event.tokens, "cost_usd": event.cost_usd, "checks": dict(event.checks), "visit": visit,
    }  # fmt: skip


def outcome_event(phase: str, attempt: int, data: dict[str, Any]) -> PhaseCompleted:
    """The engine event of an outcome stored by ``outcome_intent``."""
    return PhaseCompleted(
        phase, attempt, decision=data.get("decision"), report=data.get("report"), exit_code=data.get("exit_code"),
        tokens=int(data.get("tokens") or 0), cost_usd=float(data.get("cost_usd") or 0.0),
        checks=dict(data.get("checks") or {}),
    )  # fmt: skip


def record_commit(
    ctx: PhaseContext, phase: str, attempt: int, commit: CommitResult
) -> Callable[[StoreTransaction], None]:
    """The write that records a phase's commit: its diff (redacted) as an artifact, the run's head (on the run
    branch; a parallel branch's head is its worktree's)."""
    diff, sha = ctx.redactor.redact(commit.diff), commit.sha

    lane = ctx.lane

    def write(tx: StoreTransaction) -> None:
        tx.add_artifact(ctx.run_id, phase, attempt, "diff", text=diff, data={"lane": lane} if lane else None)
        if lane is None:  # a parallel branch's commits reach the run branch through its join's merge
            tx.update_run(ctx.run_id, head_sha=sha)

    return write


def _json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=2)
