"""One phase attempt: render, gather context, run the provider or command, watch time, commit, report."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from alphred.engine import (
    CiWaiting,
    PhaseCompleted,
    PhaseFailed,
    RunState,
    UpstreamReport,
    template_context,
)
from alphred.errors import (
    ProviderError,
    UsageLimitError,
    WorktreeTamperedError,
)
from alphred.git.tamper import WorktreeSeal
from alphred.providers import EventType, ProviderEvent
from alphred.runtime.attempt_context import AttemptStats, PhaseContext, Prepared
from alphred.runtime.attempt_deadlines import attempt_deadlines
from alphred.runtime.attempt_stream import StreamOutcome, consume, events_for, flush_when_woken, periodic_flush
from alphred.runtime.room import AttemptRoom
from alphred.runtime.run_thread import hop
from alphred.runtime.sink import EventSink
from alphred.store import StoreTransaction
from alphred.workflow import Phase, PhaseType

if TYPE_CHECKING:
    from alphred.runtime.checks import ChecksResult
    from alphred.runtime.outcome import Verdict

__all__ = ["AttemptStats", "PhaseContext", "run_attempt"]


async def run_attempt(
    ctx: PhaseContext,
    state: RunState,
    phase: Phase,
    attempt: int,
    visit: int,
    stats: AttemptStats,
    notes: tuple[str, ...] = (),
    resolving: tuple[str, ...] | None = None,
    then: Callable[[PhaseCompleted | PhaseFailed, WorktreeSeal], object] | None = None,
) -> PhaseCompleted | PhaseFailed | CiWaiting:
    """Execute one attempt and turn what happened into the engine event that reports it.

    ``notes`` are extra context envelopes (a summary of the previous attempt's failure on a retry);
    ``resolving`` the conflicted paths when the attempt resolves a join's merge (SPEC §8): its completion
    commits the merge instead of a phase commit. ``then`` is called with the outcome of a phase without checks
    and the seal its end checked, in the worker thread that ends the attempt (``runtime.joined``: it may record
    the outcome's transition).
    """

    phase = phase.with_provider(state.phase(phase.key).provider)  # a fallback took over (SPEC §15)

    prepared = ctx.prepared.pop((phase.key, attempt), None)  # by the transition that started it, or now:
    if prepared is None:
        prepared = await hop(ctx.run_thread, prepare_attempt, ctx, phase, attempt)  # blocking work off the loop
    node_id, first, reports, seal = prepared.node_id, prepared.first, prepared.reports, prepared.seal

    on_event = ctx.on_event

    def forward(sequence: int, event: ProviderEvent) -> None:
        if on_event is not None:
            on_event(phase.key, attempt, sequence, event)

    stats.details["start_sha"] = prepared.start_sha
    sink = EventSink(ctx.store, ctx.run_id, node_id, attempt, ctx.redactor, first, forward if on_event else None)
    outcome = StreamOutcome()
    room = AttemptRoom(ctx, phase, attempt)  # its environment and sandbox (SPEC §14)
    flusher = periodic_flush(ctx)
    flusher.watch(sink)
    try:
        await room.open()
        events = events_for(ctx, state, phase, (attempt, visit), notes, reports, room)
        failure = await consume(events, phase, sink, outcome, attempt_deadlines(ctx))
        flusher.unwatch(sink)  # the last events are written as the attempt ends (``_ended``)
        await room.clear()  # no process of the attempt outlives it (a command's ``setsid`` children too)
        end = (attempt, visit)
        ended = await _end(ctx, state, phase, end, stats, sink, outcome, failure, (resolving, then), seal, room)
        return _with_child_steps(ended, stats.child_steps)
    finally:
        flusher.unwatch(sink)
        if not room.settled:  # a scripted phase has nothing to close: no task for it
            await asyncio.shield(room.close())
        if sink.pending:  # the attempt raised or was cancelled before ``_ended`` wrote its last events
            await asyncio.shield(asyncio.to_thread(sink.flush))


def read_preparation(
    ctx: PhaseContext, phase: Phase, attempt: int, tx: StoreTransaction
) -> tuple[int, int, dict[str, UpstreamReport]]:
    """What an attempt needs to know from the store, read in ``tx``: its phase's row id (known to the store once
    read: it never changes), the sequence of its first event, its upstream reports (agent phases)."""
    node_id = tx.node_id(ctx.run_id, phase.key)
    first = tx.next_event_sequence(node_id, attempt)
    reports = _upstream_reports(ctx, phase, tx) if phase.type is PhaseType.AGENT else {}
    return node_id, first, reports


def seal_preparation(
    ctx: PhaseContext, read: tuple[int, int, dict[str, UpstreamReport]], ended: tuple[str, WorktreeSeal] | None = None
) -> Prepared:
    """``read`` (``read_preparation``) with what git says (blocking): the commit the attempt starts from and the
    git state it must leave as it is (SPEC §14). ``ended``: that commit and seal as the end of the attempt
    before it just found them, in this thread with nothing run since (``Recording._record_outcome``): not read
    again."""
    node_id, first, reports = read
    if ended is not None:
        head, seal = ended
        return Prepared(node_id, first, reports, head, seal)
    seal = ctx.worktrees.seal(ctx.worktree)
    return Prepared(node_id, first, reports, ctx.worktrees.head_sha(ctx.worktree), seal)


def prepare_attempt(ctx: PhaseContext, phase: Phase, attempt: int) -> Prepared:
    """An attempt's preparation in one read transaction of its own (in a worker thread), for an attempt the
    transition that started it did not prepare (``Runner._persist``)."""
    with ctx.store.reading() as tx:
        read = read_preparation(ctx, phase, attempt, tx)
    load_attempt_modules(phase)
    return seal_preparation(ctx, read)


def load_attempt_modules(phase: Phase) -> None:
    """Import, in the worker thread that prepares a command phase's attempt, the modules ``events_for`` imports
    on the event loop as it starts: the run's first command does not block the loop while they load (issue 29);
    once loaded, each import here is a lookup."""
    if phase.type is PhaseType.COMMAND:
        import alphred.runtime.command_phase
        import alphred.runtime.dry_commands
        import alphred.runtime.typed_output  # noqa: F401


async def _end(
    ctx: PhaseContext,
    state: RunState,
    phase: Phase,
    numbers: tuple[int, int],
    stats: AttemptStats,
    sink: EventSink,
    outcome: StreamOutcome,
    failure: ProviderError | None,
    finish: tuple[tuple[str, ...] | None, Callable[[PhaseCompleted | PhaseFailed, WorktreeSeal], object] | None],
    seal: WorktreeSeal,
    room: AttemptRoom,
) -> PhaseCompleted | PhaseFailed | CiWaiting:
    """Turn the attempt's result into its outcome: its checks, then (in one worker thread) ``_ended``.

    Git is checked for tampering (``seal``) before the checks run git and again before the commit (a ``run``
    check runs code the agent may have written). ``finish``: the paths a merge resolves, and what is called with
    the outcome in the worker that ends an attempt without checks (``run_attempt``'s ``then``).
    """
    attempt, visit = numbers
    resolving, then = finish
    stats.events = sink.count
    stats.tokens = outcome.counter.total
    stats.cost_usd = outcome.counter.cost_usd
    stats.child_steps = outcome.child_steps
    if failure is None and phase.checks and bool(await asyncio.to_thread(seal.broken)):
        failure = WorktreeTamperedError("the attempt tampered with git")  # ``_ended`` says what and restores it
    if failure is not None:
        stats.message = ctx.redactor.redact(failure.message)
        stats.details["error"] = {"kind": failure.kind, "code": failure.code, "retry_after": failure.retry_after}
        failed = PhaseFailed(
            phase.key, attempt, failure.kind, failure.retryable, failure.code, stats.tokens, stats.cost_usd
        )
        if isinstance(failure, UsageLimitError):  # the run waits for the reset (SPEC §15): not a retry
            now = ctx.clock.now()
            wake_at = failure.wake_at(now)
            stats.details["error"]["wake_at"] = wake_at
            failed = replace(failed, wake_at=wake_at, wait_seconds=wake_at - now)
        return await hop(ctx.run_thread, _ended, ctx, sink, stats, lambda: failed, seal, (phase.key, attempt), False)
    assert outcome.result is not None
    # What an attempt does after its provider returned is imported here, not before the first step (issue 29):
    # the verdict, the checks, a CI phase's wait.
    from alphred.runtime.ci_phase import CI_WAIT
    from alphred.runtime.outcome import complete_attempt, read_result

    wait = outcome.result.metadata.get(CI_WAIT)
    if isinstance(wait, (int, float)):  # SPEC §16: the checks still run; look again at wake_at, holding nothing
        waiting = CiWaiting(phase.key, attempt, ctx.redactor.redact(outcome.result.content))
        due = datetime.now(UTC) + timedelta(seconds=float(wait))
        ctx.pending.append(lambda tx: tx.update_run(ctx.run_id, wake_at=due))
        return await hop(ctx.run_thread, _ended, ctx, sink, stats, lambda: waiting, seal, (phase.key, attempt))
    result = outcome.result

    def verdict_of() -> Verdict:  # in a worker thread: a typed answer is validated
        verdict = read_result(ctx, phase, result)
        if verdict.exit_code is not None:
            stats.details["exit_code"] = verdict.exit_code
        if result.metadata.get("dry_run"):
            stats.details["dry_run"] = True
        return verdict

    if not phase.checks:  # one thread hop for the verdict and the attempt's end

        def read_and_end() -> PhaseCompleted | PhaseFailed | CiWaiting:
            verdict = verdict_of()

            def complete() -> PhaseCompleted | PhaseFailed:
                return complete_attempt(ctx, phase, attempt, visit, verdict, stats, None, resolving)

            ended = _ended(ctx, sink, stats, complete, seal, (phase.key, attempt))
            if then is not None and not isinstance(ended, CiWaiting):
                then(ended, seal)  # its transition may be recorded here too: one thread hop (``runtime.joined``)
            return ended

        return await hop(ctx.run_thread, read_and_end)
    verdict = await hop(ctx.run_thread, verdict_of)
    checked = None
    if verdict.problem is None and not verdict.violations:
        checked = await _check(ctx, state, phase, verdict, stats, sink, room)

    def complete() -> PhaseCompleted | PhaseFailed:
        return complete_attempt(ctx, phase, attempt, visit, verdict, stats, checked, resolving)

    return await hop(ctx.run_thread, _ended, ctx, sink, stats, complete, seal, (phase.key, attempt))


def _with_child_steps(
    event: PhaseCompleted | PhaseFailed | CiWaiting, steps: int
) -> PhaseCompleted | PhaseFailed | CiWaiting:
    """``event`` counting the ``steps`` of the attempt's child run (SPEC §13), however the attempt ended."""
    if steps and isinstance(event, (PhaseCompleted, PhaseFailed)) and event.child_steps != steps:
        return replace(event, child_steps=steps)
    return event


def _ended(
    ctx: PhaseContext,
    sink: EventSink,
    stats: AttemptStats,
    complete: Callable[[], PhaseCompleted | PhaseFailed | CiWaiting],
    seal: WorktreeSeal,
    key: tuple[str, int],
    succeeded: bool = True,
) -> PhaseCompleted | PhaseFailed | CiWaiting:
    """The end of an attempt, in one worker thread: the run's artifacts and memory are stored (SPEC §17), then
    ``complete`` (the report, the commit) — unless it tampered with git:
    then what it changed there is restored and the attempt fails ``WORKTREE_TAMPERED`` (nothing is committed);
    or its files are over the limit (``ARTIFACTS_TOO_LARGE``).

    The attempt's last events join its pending writes: they are written with its outcome, in the transaction
    that records its commit's intent (before the commit) or else in the one that persists the outcome — one
    write transaction for a phase that changes nothing. A kill before that loses them as it loses any event
    still buffered (the attempt is interrupted and run again; see docs/architecture.md, "Crash guarantees").
    """
    rows = sink.take()
    if rows:
        ctx.pending.append(lambda tx: tx.append_events(rows))
    broken = seal.broken()
    if broken:
        return _tampered(ctx, stats, seal, broken, key)
    refused = _store_files(ctx, stats, key)
    if refused is not None and succeeded:  # a failed attempt keeps its own reason
        return refused
    return complete()


def _store_files(ctx: PhaseContext, stats: AttemptStats, key: tuple[str, int]) -> PhaseFailed | None:
    """Keep the run's artifacts and memory with it (SPEC §17), before the attempt's outcome is recorded;
    a PhaseFailed when they cannot be (over ``limits.max_artifact_bytes``: not retried)."""
    if ctx.files is None or ctx.dry_run_commands:
        return None
    try:
        stored = ctx.files.store(ctx.store, ctx.redactor)
    except ProviderError as exc:
        phase, attempt = key
        stats.message = ctx.redactor.redact(exc.message)
        stats.details["error"] = {"kind": exc.kind, "code": exc.code}
        return PhaseFailed(phase, attempt, exc.kind, exc.retryable, exc.code, stats.tokens, stats.cost_usd)
    if stored:
        stats.details["artifacts_stored"] = stored
    return None


def _tampered(
    ctx: PhaseContext, stats: AttemptStats, seal: WorktreeSeal, broken: list[str], key: tuple[str, int]
) -> PhaseFailed:
    """Restore what the attempt changed in git and report the attempt failed (not retried)."""
    left = seal.restore()
    ctx.worktrees.forget(ctx.worktree)  # what was remembered of its index and files no longer holds
    phase, attempt = key
    message = "the attempt tampered with git: it changed " + ", ".join(broken) + " (restored"
    message += f"; could not restore {', '.join(left)})" if left else ")"
    stats.message = message
    stats.details["error"] = {"kind": WorktreeTamperedError.kind, "code": WorktreeTamperedError.code}
    stats.details["tampered"] = broken
    error = WorktreeTamperedError(message)
    return PhaseFailed(phase, attempt, error.kind, error.retryable, error.code, stats.tokens, stats.cost_usd)


async def _check(
    ctx: PhaseContext,
    state: RunState,
    phase: Phase,
    verdict: Verdict,
    stats: AttemptStats,
    sink: EventSink,
    room: AttemptRoom,
) -> ChecksResult | None:
    """Run the phase's checks (SPEC §9) into the attempt's event stream; None when they are skipped.

    A ``--dry-run`` stand-in agent did no work, so there is nothing to check: its phase's checks are skipped.
    Under ``--dry-run`` (scope ``all``) a command phase's checks are said, not run, and pass, as its command
    (``runtime/dry_commands.py``).
    """
    from alphred.runtime.checks import CheckRun, run_checks
    from alphred.runtime.dry_commands import dry_run_checks

    if ctx.dry_run_commands and phase.type is PhaseType.COMMAND:  # the command was not run: neither are its checks
        try:
            return dry_run_checks(
                phase.checks, ctx.template_values(template_context(state, ctx.workflow, phase.key)), sink.add
            )
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
        git=ctx.worktrees.dirs(ctx.worktree),
        start_sha=str(stats.details["start_sha"]),
        values=ctx.template_values(template_context(state, ctx.workflow, phase.key)),
        report=verdict.report,
        environ=room.environ,
        redactor=ctx.redactor,
        emit=emit,
        confine=room.confine,
    )
    flusher = asyncio.create_task(flush_when_woken(sink, wake))
    try:
        return await run_checks(phase.checks, run)
    finally:
        flusher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await flusher
        await asyncio.shield(asyncio.to_thread(sink.flush))
        stats.events = sink.count


def _upstream_reports(ctx: PhaseContext, phase: Phase, tx: StoreTransaction) -> dict[str, UpstreamReport]:
    keys = phase.context if phase.context is not None else ctx.workflow.predecessors(phase.key)
    texts = tx.report_texts(ctx.run_id, keys)  # the one this transaction just wrote costs no statement
    return {key: UpstreamReport(key, attempt, text) for key, (attempt, text) in texts.items()}
