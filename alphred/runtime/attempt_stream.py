"""An attempt's event stream: which stream its phase kind produces (a provider, a command, a pull request, a
ci wait, a child run), and draining it into the event sink under the phase's timeout and idle timeout.

Split from ``runtime/phase.py`` (the attempt's life: prepare, run, end, check, commit), which calls
``events_for`` and ``consume``; the periodic and woken flushes of the sink are here with the draining.
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import AsyncIterator
from pathlib import Path

from alphred.engine import RunState, TokenCounter, UpstreamReport, build_context, template_context
from alphred.engine.state import evolve
from alphred.errors import IDLE_TIMEOUT, TIMEOUT, AlphredError, InvalidRequestError, ProviderError
from alphred.guards.templates import render_template
from alphred.providers import EventType, ProviderEvent, ProviderOptions
from alphred.providers.contract import ContractMonitor, unchecked
from alphred.runtime.attempt_context import PhaseContext
from alphred.runtime.attempt_deadlines import Deadlines
from alphred.runtime.environment import ATTEMPT_MARKER, mcp_environment
from alphred.runtime.orphans import MARKER
from alphred.runtime.room import AttemptRoom
from alphred.runtime.sink import FLUSH_EVERY_EVENTS, FLUSH_EVERY_SECONDS, EventSink
from alphred.workflow import Phase, PhaseType

RESCHEDULE_SECONDS = 0.05


class StreamOutcome:
    """What draining a stream found: its result event, its tokens, a child run's steps."""

    def __init__(self) -> None:
        self.result: ProviderEvent | None = None
        self.counter = TokenCounter()
        self.child_steps = 0  # a workflow phase's: the steps its child run took (SPEC §13)


async def flush_when_woken(sink: EventSink, wake: asyncio.Event) -> None:
    """Write buffered events in a thread each time ``wake`` is set."""
    while True:
        await wake.wait()
        wake.clear()
        await asyncio.to_thread(sink.flush)


class PeriodicFlush:
    """Writes the buffered events of each attempt under way at least every FLUSH_EVERY_SECONDS of its run, even
    while its provider is silent: one per run's context (``periodic_flush``) with one timer, armed while an
    attempt is watched, and a task only when an attempt is due (issue 29: it was a timer armed and cancelled per
    attempt). An attempt shorter than the interval is never flushed: its events go with its outcome."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._sinks: dict[EventSink, float] = {}  # the attempts' sinks under way -> when each was first due
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def armed(self) -> bool:
        """Whether a flush is due (its timer armed) or under way."""
        return self._timer is not None or self._task is not None

    def watch(self, sink: EventSink) -> None:
        """Flush ``sink`` every FLUSH_EVERY_SECONDS from now on, until ``unwatch``."""
        due = self._sinks[sink] = self.loop.time() + FLUSH_EVERY_SECONDS
        if self._timer is None and self._task is None:
            self._timer = self.loop.call_at(due, self._fire)

    def unwatch(self, sink: EventSink) -> None:
        """Stop flushing ``sink`` (a flush under way in its thread finishes; the sink's lock keeps the batches in
        order); once no sink is watched the timer runs out and is not armed again."""
        self._sinks.pop(sink, None)

    def _fire(self) -> None:
        self._timer = None
        now = self.loop.time()
        due = [sink for sink, when in self._sinks.items() if when <= now]
        if due:
            self._task = self.loop.create_task(self._flush(due))
        elif self._sinks:  # every attempt under way started less than an interval ago: look again when one is due
            self._timer = self.loop.call_at(min(self._sinks.values()), self._fire)

    async def _flush(self, due: list[EventSink]) -> None:
        try:
            for sink in due:
                await asyncio.to_thread(sink.flush)
                if sink in self._sinks:
                    self._sinks[sink] = self.loop.time() + FLUSH_EVERY_SECONDS
        finally:
            self._task = None
            if self._sinks and not self.loop.is_closed():
                self._timer = self.loop.call_at(min(self._sinks.values()), self._fire)


def periodic_flush(ctx: PhaseContext) -> PeriodicFlush:
    """The run context's ``PeriodicFlush`` on the running loop (made on first use, again on another loop)."""
    flusher = ctx.flusher
    if not isinstance(flusher, PeriodicFlush) or flusher.loop is not asyncio.get_running_loop():
        flusher = ctx.flusher = PeriodicFlush()
    return flusher


def events_for(
    ctx: PhaseContext,
    state: RunState,
    phase: Phase,
    numbers: tuple[int, int],
    notes: tuple[str, ...],
    reports: dict[str, UpstreamReport],
    room: AttemptRoom,
) -> tuple[AsyncIterator[ProviderEvent], str | None]:
    """The attempt's event stream and the name ``consume`` checks its contract under (SPEC §4; None: a child
    run's stream or a dry run's, which keep it by construction)."""
    attempt, visit = numbers
    # Each kind of phase loads its module when it runs (issue 29: a run's start imports none it does not use).
    if phase.type is PhaseType.PULL_REQUEST:
        from alphred.runtime.pr_phase import pull_request_events

        return pull_request_events(ctx, state, phase), "pull_request"
    if phase.type is PhaseType.CI:
        from alphred.runtime.ci_phase import ci_events

        return ci_events(ctx, state, phase), "ci"
    if phase.type is PhaseType.WORKFLOW:  # SPEC §13: a child run on this branch (ends in a result or raises)
        from alphred.runtime.child_run import child_events

        return child_events(ctx, state, phase, attempt, visit), None
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
            return dry_run_command(shown, ctx.worktree), None
        environ = {**room.environ, **variables}
        path = None
        if phase.output is not None:
            seen, path = room.output_file()  # SPEC §12: the command writes its report there
            environ[OUTPUT_ENV] = seen
        stream = run_command(
            command, ctx.worktree, environ=environ, display=shown, confine=room.confine, shell=phase.shell
        )
        return (stream if path is None else with_output_file(stream, path)), "command"
    assert phase.provider is not None
    provider = unchecked(ctx.registry.resolve(phase.provider))  # its contract is checked by ``consume``
    prompt = render_template(phase.templates["prompt"], values) if "prompt" in phase.templates else ""
    bundle = build_context(ctx.workflow, phase.key, reports)
    manifest = bundle.manifest
    ctx.pending.append(lambda tx: tx.add_artifact(ctx.run_id, phase.key, attempt, "context_manifest", data=manifest))
    options = evolve(
        phase_options(phase),
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
    return provider.run(prompt, options), provider.name


_PHASE_OPTIONS: dict[int, tuple[Phase, ProviderOptions]] = {}  # id(phase) -> (phase, what it alone sets)


def phase_options(phase: Phase) -> ProviderOptions:
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


async def consume(
    stream: tuple[AsyncIterator[ProviderEvent], str | None],
    phase: Phase,
    sink: EventSink,
    outcome: StreamOutcome,
    deadlines: Deadlines,
) -> ProviderError | None:
    """Drain the stream (``events_for``) under its contract and the phase's timeout and idle timeout; None when
    it ended with a result.

    The contract (SPEC §4, ``ContractMonitor``) is checked here, event by event, under the stream's name: no
    generator layer between the provider and the sink (``checked_stream``'s, issue 29); an exception the stream
    raises that is not Alphred's is classified as it would be there (``PROVIDER_CRASH``).

    One deadline (``deadlines``: the run's, on one timer for every attempt, as ``asyncio.timeout_at`` would)
    watches both limits: the earlier of the phase's end and the last event plus ``idle_timeout``, moved forward as
    events arrive (at most every RESCHEDULE_SECONDS).
    """
    events, contract = stream
    monitor = ContractMonitor(contract) if contract is not None else None
    loop = asyncio.get_running_loop()
    # a ci phase's timeout bounds its whole wait (all looks together, ``ci_phase``), not one look
    deadline = loop.time() + phase.timeout if phase.timeout and phase.type is not PhaseType.CI else None
    iterator = aiter(events)

    def next_deadline() -> float:
        idle_end = loop.time() + phase.idle_timeout
        return idle_end if deadline is None else min(deadline, idle_end)

    try:
        with deadlines.watch(next_deadline()) as watch:
            moved = loop.time()
            while True:
                try:
                    event = await anext(iterator)
                except StopAsyncIteration:
                    break
                except AlphredError:
                    raise
                except Exception as exc:
                    if monitor is None:
                        raise
                    raise monitor.crashed(exc) from exc
                if monitor is not None:
                    monitor.observe(event)
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
                    if monitor is not None:
                        await monitor.expect_end(iterator)
                        break
                now = loop.time()
                if now - moved >= RESCHEDULE_SECONDS:
                    watch.reschedule(next_deadline())
                    moved = now
            if monitor is not None:
                monitor.finish()
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
    return None  # the contract (the monitor, or a child run's own) guarantees a result here
