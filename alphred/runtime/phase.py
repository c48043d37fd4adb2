"""One phase attempt: render, gather context, run the provider or command, watch time, commit, report."""

from __future__ import annotations

import asyncio
import contextlib
import shlex
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from alphred.engine import (
    CiWaiting,
    PhaseCompleted,
    PhaseFailed,
    RunState,
    TokenCounter,
    UpstreamReport,
    build_context,
    template_context,
)
from alphred.engine.state import evolve
from alphred.errors import (
    IDLE_TIMEOUT,
    TIMEOUT,
    AlphredError,
    InvalidRequestError,
    ProviderError,
    UsageLimitError,
    WorktreeTamperedError,
)
from alphred.git.tamper import WorktreeSeal
from alphred.guards.templates import render_template
from alphred.providers import EventType, ProviderEvent, ProviderOptions
from alphred.providers.contract import checked, checked_stream
from alphred.runtime.attempt_context import AttemptStats, PhaseContext, Prepared
from alphred.runtime.environment import ATTEMPT_MARKER, mcp_environment
from alphred.runtime.orphans import MARKER
from alphred.runtime.room import AttemptRoom
from alphred.runtime.sink import FLUSH_EVERY_EVENTS, FLUSH_EVERY_SECONDS, EventSink
from alphred.store import StoreTransaction
from alphred.workflow import Phase, PhaseType

if TYPE_CHECKING:
    from alphred.runtime.checks import ChecksResult
    from alphred.runtime.outcome import Verdict

__all__ = ["AttemptStats", "PhaseContext", "run_attempt"]

RESCHEDULE_SECONDS = 0.05


class _Outcome:
    def __init__(self) -> None:
        self.result: ProviderEvent | None = None
        self.counter = TokenCounter()
        self.child_steps = 0  # a workflow phase's: the steps its child run took (SPEC §13)


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
        prepared = await asyncio.to_thread(prepare_attempt, ctx, phase, attempt)  # blocking work off the loop
    node_id, first, reports, seal = prepared.node_id, prepared.first, prepared.reports, prepared.seal

    def forward(sequence: int, event: ProviderEvent) -> None:
        if ctx.on_event is not None:
            ctx.on_event(phase.key, attempt, sequence, event)

    stats.details["start_sha"] = prepared.start_sha
    sink = EventSink(ctx.store, ctx.run_id, node_id, attempt, ctx.redactor, first, forward)
    outcome = _Outcome()
    room = AttemptRoom(ctx, phase, attempt)  # its environment and sandbox (SPEC §14)
    flusher = _PeriodicFlush(sink)
    try:
        await room.open()
        events = _events_for(ctx, state, phase, (attempt, visit), notes, reports, room)
        failure = await _consume(events, phase, sink, outcome)
        flusher.cancel()  # the last events are written as the attempt ends (``_ended``)
        await room.clear()  # no process of the attempt outlives it (a command's ``setsid`` children too)
        end = (attempt, visit)
        ended = await _end(ctx, state, phase, end, stats, sink, outcome, failure, (resolving, then), seal, room)
        return _with_child_steps(ended, stats.child_steps)
    finally:
        flusher.cancel()
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
    """Import, in the worker thread that prepares a command phase's attempt, the modules ``_events_for`` imports
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
    outcome: _Outcome,
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
        return await asyncio.to_thread(_ended, ctx, sink, stats, lambda: failed, seal, (phase.key, attempt), False)
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
        return await asyncio.to_thread(_ended, ctx, sink, stats, lambda: waiting, seal, (phase.key, attempt))
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

        return await asyncio.to_thread(read_and_end)
    verdict = await asyncio.to_thread(verdict_of)
    checked = None
    if verdict.problem is None and not verdict.violations:
        checked = await _check(ctx, state, phase, verdict, stats, sink, room)

    def complete() -> PhaseCompleted | PhaseFailed:
        return complete_attempt(ctx, phase, attempt, visit, verdict, stats, checked, resolving)

    return await asyncio.to_thread(_ended, ctx, sink, stats, complete, seal, (phase.key, attempt))


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


class _PeriodicFlush:
    """Writes buffered events at least every FLUSH_EVERY_SECONDS, even while the provider is silent: a timer,
    and a task only when it fires (an attempt shorter than the interval costs no task)."""

    def __init__(self, sink: EventSink) -> None:
        self._sink = sink
        self._loop = asyncio.get_running_loop()
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = self._loop.call_later(FLUSH_EVERY_SECONDS, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._task = self._loop.create_task(self._flush())

    async def _flush(self) -> None:
        await asyncio.to_thread(self._sink.flush)
        self._timer = self._loop.call_later(FLUSH_EVERY_SECONDS, self._fire)

    def cancel(self) -> None:
        """Stop (a flush under way in its thread finishes; the sink's lock keeps the batches in order)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._task is not None:
            self._task.cancel()


def _events_for(
    ctx: PhaseContext,
    state: RunState,
    phase: Phase,
    numbers: tuple[int, int],
    notes: tuple[str, ...],
    reports: dict[str, UpstreamReport],
    room: AttemptRoom,
) -> AsyncIterator[ProviderEvent]:
    attempt, visit = numbers
    # Each kind of phase loads its module when it runs (issue 29: a run's start imports none it does not use).
    if phase.type is PhaseType.PULL_REQUEST:
        from alphred.runtime.pr_phase import pull_request_events

        return checked_stream("pull_request", pull_request_events(ctx, state, phase))
    if phase.type is PhaseType.CI:
        from alphred.runtime.ci_phase import ci_events

        return checked_stream("ci", ci_events(ctx, state, phase))
    if phase.type is PhaseType.WORKFLOW:  # SPEC §13: a child run on this branch (ends in a result or raises)
        from alphred.runtime.child_run import child_events

        return child_events(ctx, state, phase, attempt, visit)
    # A template without a placeholder reads no value: the context (every phase's fields) is built only for one
    # that has (issue 29: ``run: "true"`` or a fixed prompt costs no context per attempt).
    values = ctx.template_values(template_context(state, ctx.workflow, phase.key)) if phase.has_placeholder else {}
    if phase.type is PhaseType.COMMAND:
        from alphred.runtime.command_phase import run_command, template_command
        from alphred.runtime.dry_commands import dry_run_command
        from alphred.runtime.typed_output import OUTPUT_ENV, with_output_file

        command, variables = template_command(phase.templates["run"], values)
        shown = render_template(phase.templates["run"], values, quote=shlex.quote)  # for the logs, never run
        if ctx.dry_run_commands:  # say what would run, with the values in place, and run nothing
            return dry_run_command(shown, ctx.worktree)
        environ = {**room.environ, **variables}
        path = None
        if phase.output is not None:
            seen, path = room.output_file()  # SPEC §12: the command writes its report there
            environ[OUTPUT_ENV] = seen
        stream = run_command(
            command, ctx.worktree, environ=environ, display=shown, confine=room.confine, shell=phase.shell
        )
        return checked_stream("command", stream if path is None else with_output_file(stream, path))
    assert phase.provider is not None
    provider = checked(ctx.registry.resolve(phase.provider))
    prompt = render_template(phase.templates["prompt"], values) if "prompt" in phase.templates else ""
    bundle = build_context(ctx.workflow, phase.key, reports)
    manifest = bundle.manifest
    ctx.pending.append(lambda tx: tx.add_artifact(ctx.run_id, phase.key, attempt, "context_manifest", data=manifest))
    options = evolve(
        _phase_options(phase),
        working_directory=ctx.worktree,
        attempt=attempt,
        visit=visit,
        context=bundle.envelopes + notes,
        cancel=ctx.cancel,
        environment={key: room.environ[key] for key in (MARKER, ATTEMPT_MARKER) if key in room.environ},
        base_environment=room.environ,
        confine=room.confine,
        mcp_env=mcp_environment(phase, ctx.environ, ctx.redactor),
    )
    return provider.run(prompt, options)


_PHASE_OPTIONS: dict[int, tuple[Phase, ProviderOptions]] = {}  # id(phase) -> (phase, what it alone sets)


def _phase_options(phase: Phase) -> ProviderOptions:
    """The ``ProviderOptions`` fields a phase object sets (its key, prompt settings, limits, policies), built once
    per phase object; an attempt's own fields (its number, context, environment...) are set on a copy
    (``evolve``: a frozen dataclass with no ``__post_init__``, copied without its 20-field ``__init__``; issue 29).
    The phase is kept with it, so its ``id`` is not reused while the entry stands (a fallback's phase object is
    made per attempt: the table is emptied past 256 entries)."""
    found = _PHASE_OPTIONS.get(id(phase))
    if found is not None and found[0] is phase:
        return found[1]
    options = ProviderOptions(
        working_directory=Path(),
        phase=phase.key,
        attempt=0,
        system_prompt=phase.options.get("system_prompt"),
        timeout=phase.timeout,
        model=phase.model,
        decisions=phase.decisions,
        settings=phase.options,
        sandbox=phase.sandbox,
        tools=phase.tools,
        mcp=phase.mcp,
        output=phase.output,
    )
    if len(_PHASE_OPTIONS) >= 256:
        _PHASE_OPTIONS.clear()
    _PHASE_OPTIONS[id(phase)] = (phase, options)
    return options


def _upstream_reports(ctx: PhaseContext, phase: Phase, tx: StoreTransaction) -> dict[str, UpstreamReport]:
    keys = phase.context if phase.context is not None else ctx.workflow.predecessors(phase.key)
    texts = tx.report_texts(ctx.run_id, keys)  # the one this transaction just wrote costs no statement
    return {key: UpstreamReport(key, attempt, text) for key, (attempt, text) in texts.items()}


async def _consume(
    events: AsyncIterator[ProviderEvent], phase: Phase, sink: EventSink, outcome: _Outcome
) -> ProviderError | None:
    """Drain the (contract-checked) stream under the phase's timeout and idle timeout; None when it ended
    with a result.

    One ``asyncio.timeout_at`` watches both limits: its deadline is the earlier of the phase's end and the last
    event plus ``idle_timeout``, moved forward as events arrive (at most every RESCHEDULE_SECONDS).
    """
    loop = asyncio.get_running_loop()
    # a ci phase's timeout bounds its whole wait (all looks together, ``ci_phase``), not one look
    deadline = loop.time() + phase.timeout if phase.timeout and phase.type is not PhaseType.CI else None
    iterator = aiter(events)

    def next_deadline() -> float:
        idle_end = loop.time() + phase.idle_timeout
        return idle_end if deadline is None else min(deadline, idle_end)

    try:
        async with asyncio.timeout_at(next_deadline()) as watch:
            moved = loop.time()
            async for event in iterator:
                sink.add(event)
                if sink.backlog >= FLUSH_EVERY_EVENTS:  # back-pressure: the stream waits for the database
                    await asyncio.to_thread(sink.flush)
                if event.type is EventType.USAGE or (event.type is EventType.RESULT and "usage" in event.metadata):
                    outcome.counter.feed(event.metadata)
                    if phase.type is PhaseType.WORKFLOW:  # its child's steps are the run's too (SPEC §13)
                        from alphred.runtime.child_run import CHILD_STEPS  # loaded with the child's stream

                        outcome.child_steps = int(event.metadata.get(CHILD_STEPS) or 0)
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
        return InvalidRequestError(str(exc), code=exc.code)
    finally:
        closer = getattr(iterator, "aclose", None)
        if closer is not None:
            await closer()
    return None  # the contract check (checked_stream) guarantees a result here
