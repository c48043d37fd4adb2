"""Drive a run: feed events to the pure engine, persist its effects first, then carry them out.

Every transition's effects and the engine's state snapshot are written in ONE transaction that is fenced
by the run's lease; a phase attempt is claimed (its lease written) in the transaction that moves it to
``running``. A heartbeat renews both leases and watches for ``pause``/``cancel`` requests; Ctrl+C and
SIGTERM interrupt the active attempt out of band.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alphred.engine import (
    TERMINAL_RUN_STATUSES,
    ApprovalRequested,
    AwaitApproval,
    CancelRequested,
    Effect,
    Event,
    NodeStatus,
    PauseRequested,
    PhaseCompleted,
    PhaseFailed,
    PhaseInterrupted,
    RecordRouting,
    RecordStep,
    RunFinished,
    RunState,
    RunStatus,
    SetPhaseStatus,
    SetRunStatus,
    StartPhase,
    state_to_json,
    template_context,
    transition,
)
from alphred.errors import RETRYABLE_KINDS, AlphredError, DeliveryError, LeaseLostError, SettingError
from alphred.git import GitWorktrees, RepoLocation
from alphred.guards.templates import render_template
from alphred.providers import ProviderRegistry
from alphred.settings import seconds_setting
from alphred.spec import PhaseType, Workflow
from alphred.store import SqlRunStore, StoreTransaction
from alphred.store.snapshots import read_requests

from .command import kill_active_groups
from .crash import crash_point
from .delivery import PullRequestPlan, as_failed, completes, deliver
from .jsonl import JsonlEvents
from .lease import LeaseOwner, lease_ttl
from .phase import AttemptStats, PhaseContext, run_attempt
from .progress import Progress
from .redact import Redactor, process_redactor

HEARTBEAT_SECONDS = 0.5


@dataclass
class RunOptions:
    """How a run executes (the flags of ``alphred run`` that reach the runtime); stored with the run."""

    inputs: Mapping[str, str] = field(default_factory=dict)
    base: str | None = None
    branch: str | None = None
    branch_template: str | None = None  # the registered repository's template, below --branch
    keep_worktree: bool = False
    approve_all: bool = False
    dry_run: bool = False
    dry_run_scope: str = "all"  # "all": agents stubbed, commands said not run; "agents": commands still run
    pull_request: PullRequestPlan | None = None
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))

    def stored(self) -> dict[str, Any]:
        """The part that a later ``resume`` must honour."""
        return {
            "keep_worktree": self.keep_worktree,
            "approve_all": self.approve_all,
            "dry_run": self.dry_run,
            "dry_run_scope": self.dry_run_scope,
            "pull_request": self.pull_request.stored() if self.pull_request else None,
        }


@dataclass
class _Failure:
    attempt: int
    kind: str
    message: str
    retry_after: float | None


def backoff_seconds(failures: int, retry_after: float | None, env: Mapping[str, str]) -> float:
    """Exponential backoff with jitter for the ``failures``-th consecutive retryable failure."""
    try:
        base = seconds_setting(env, "ALPHRED_RETRY_BASE_SECONDS", 2.0)
    except SettingError:
        base = 2.0
    delay = min(base * 2 ** max(failures - 1, 0), 60.0) * random.uniform(0.75, 1.25)
    return float(max(delay, retry_after or 0.0))


class Runner:
    """Executes one run to its end, or until it pauses, waits for approval or is interrupted."""

    def __init__(
        self,
        store: SqlRunStore,
        workflow: Workflow,
        run_id: int,
        location: RepoLocation,
        registry: ProviderRegistry,
        *,
        worktree: Path,
        options: RunOptions,
        owner: LeaseOwner,
        progress: Progress | None = None,
        events: JsonlEvents | None = None,
    ) -> None:
        self.store = store
        self.workflow = workflow
        self.run_id = run_id
        self.options = options
        self.owner = str(owner)
        self.ttl = lease_ttl()
        self.progress = progress or Progress(enabled=False)
        self.worktrees = GitWorktrees(location)
        self.worktree = worktree
        self.interrupted = False
        environment = dict(options.env)
        self.ctx = PhaseContext(
            store=store,
            run_id=run_id,
            workflow=workflow,
            worktree=worktree,
            worktrees=self.worktrees,
            registry=registry,
            redactor=Redactor(environment),
            env=environment,
            on_event=events.provider_callback(run_id) if events is not None else None,
            dry_run_commands=options.dry_run and options.dry_run_scope == "all",
        )
        self.events = events
        self._stats: dict[tuple[str, int], AttemptStats] = {}
        self._failures: dict[str, _Failure] = {}
        self._edge_ids: dict[tuple[str, int], int] | None = None
        self._phase: tuple[str, int] | None = None
        self._phase_task: asyncio.Task[Any] | None = None
        self._stop: str | None = None  # "interrupt" | "cancel" | "lost"
        self._pause = False
        self._wake = asyncio.Event()
        self._signals = 0

    # -- the loop ---------------------------------------------------------------------------------------

    def drive(self, state: RunState, first: Sequence[Event]) -> RunState:
        """Feed ``first`` and every event that follows until the run ends or waits; return the last state."""
        return asyncio.run(self._main(state, first))

    async def _main(self, state: RunState, first: Sequence[Event]) -> RunState:
        self._wake = asyncio.Event()
        loop = asyncio.get_running_loop()
        installed = []
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
                loop.add_signal_handler(sig, self._on_signal, sig)
                installed.append(sig)
        background = [asyncio.create_task(self._heartbeat())]
        if self.progress.live:
            background.append(asyncio.create_task(self._ticker()))
        try:
            state = await self._drive(state, first)
            self.flush_pending()
            return state
        finally:
            for task in background:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            for sig in installed:
                loop.remove_signal_handler(sig)
            if self._stop != "lost":
                with contextlib.suppress(AlphredError):
                    self.store.release_lease(self.run_id, self.owner)

    async def _drive(self, state: RunState, first: Sequence[Event]) -> RunState:
        events: deque[Event] = deque(first)
        while events:
            event = events.popleft()
            if self._stop == "lost":
                raise LeaseLostError(self.run_id)
            previous = state
            state, effects = transition(state, event)
            pr_url = None
            plan = self.options.pull_request
            said = ""  # what delivery did, said after the step that led to it
            if plan is not None and completes(effects):
                self.flush_pending()  # the PR body reads the last phase's report
                try:
                    pr_url = deliver(
                        self.store, self.workflow, self.run_id, plan, state, effects, self.ctx.redactor, self.ctx.env
                    )
                    said = f"pull request: {pr_url}"
                except DeliveryError as exc:
                    said = f"Error [{exc.code}]: {exc}"
                    state, effects = as_failed(state, effects)
            self._persist(previous, state, effects, pr_url)
            if said:
                self.progress.note(said, "red" if said.startswith("Error") else "green")
            for effect in effects:
                events.extend(await self._act(state, effect))
            if not events and self._stop == "cancel" and state.status not in TERMINAL_RUN_STATUSES:
                events.append(CancelRequested())
        return state

    # -- persist first ----------------------------------------------------------------------------------

    def _persist(
        self, previous: RunState, state: RunState, effects: tuple[Effect, ...], pr_url: str | None = None
    ) -> None:
        if previous == state and not effects:
            return  # a stale or no-op event: nothing to write
        with self.store.transaction() as tx:
            if not tx.renew_lease(self.run_id, self.owner, self.ttl):
                self._stop = "lost"
                raise LeaseLostError(self.run_id)
            self._write_pending(tx)
            changed = {
                key: {
                    "visits": phase.visits,
                    "decision": phase.decision,
                    "exit_code": phase.exit_code,
                    "tokens": phase.tokens,
                    "cost_usd": phase.cost_usd,
                }
                for key, phase in state.phases.items()
                if previous.phases.get(key) != phase
            }
            written: set[str] = set()
            for effect in effects:
                if isinstance(effect, SetPhaseStatus):
                    written.add(effect.phase)
                self._persist_one(
                    tx, effect, changed.get(effect.phase, {}) if isinstance(effect, SetPhaseStatus) else {}
                )
            for key, fields_of_phase in changed.items():
                if key not in written:  # counters moved without a status move
                    tx.update_node(self.run_id, key, **fields_of_phase)
            snapshot = state_to_json(state)
            snapshot["history"] = []  # the steps are rows already; keeps each write O(1) in the run's length
            fields: dict[str, Any] = {
                "engine_state": {"engine": snapshot, "runtime": self.options.stored()},
                "tokens": state.tokens,
                "cost_usd": state.cost_usd,
                "steps": state.steps,
            }
            if pr_url is not None:
                fields["pr_url"] = pr_url
            if state.status is RunStatus.PAUSED and self._pause:
                fields["pause_requested"] = False
                self._pause = False
            tx.update_run(self.run_id, **fields)
        if self.events is not None:
            for effect in effects:
                self.events.effect(self.run_id, effect)
        if any(isinstance(e, RecordStep) for e in effects):
            crash_point("between_phases")

    def _write_pending(self, tx: StoreTransaction) -> None:
        """Carry out the writes the last attempt left (artifacts, head sha) in this transaction."""
        pending, self.ctx.pending = self.ctx.pending, []
        for write in pending:
            write(tx)

    def flush_pending(self) -> None:
        """Write what the last attempt left, in a transaction of its own (before delivery, at the end)."""
        if self.ctx.pending:
            with self.store.transaction() as tx:
                self._write_pending(tx)

    def _persist_one(self, tx: StoreTransaction, effect: Effect, node_fields: Mapping[str, Any]) -> None:
        if isinstance(effect, SetRunStatus):
            tx.set_run_status(self.run_id, effect.status.value, effect.reason)
        elif isinstance(effect, SetPhaseStatus):
            if effect.status is NodeStatus.RUNNING and not tx.acquire_lease(
                self.run_id, self.owner, self.ttl, node_key=effect.phase
            ):
                self._stop = "lost"
                raise LeaseLostError(self.run_id)
            tx.set_node_status(self.run_id, effect.phase, effect.status.value, attempt=effect.attempt, **node_fields)
        elif isinstance(effect, RecordStep):
            stats = self._stats.pop((effect.phase, effect.attempt), None) or AttemptStats()
            details = dict(stats.details)
            if stats.message:
                details["message"] = stats.message
            tx.add_diagnostic(
                self.run_id,
                effect.phase,
                effect.attempt,
                effect.outcome.value,
                reason=effect.reason,
                error_code=effect.error_code,
                duration_ms=stats.duration_ms,
                tokens=stats.tokens,
                cost_usd=stats.cost_usd,
                event_count=stats.events,
                details=details or None,
            )
            self.progress.step_finished(effect, stats)
        elif isinstance(effect, RecordRouting):
            if self._edge_ids is None:
                self._edge_ids = tx.edge_ids(tx.get_run(self.run_id).tree_id)
            edge = self._edge_ids.get((effect.source, effect.priority)) if effect.priority is not None else None
            tx.add_routing_decision(
                self.run_id,
                effect.source,
                effect.attempt,
                effect.target,
                decision=effect.decision,
                priority=effect.priority,
                edge_id=edge,
                reason=effect.reason,
            )

    # -- then act ---------------------------------------------------------------------------------------

    async def _act(self, state: RunState, effect: Effect) -> list[Event]:
        if isinstance(effect, StartPhase):
            return await self._start_phase(state, effect)
        if isinstance(effect, AwaitApproval):
            phase = self.workflow.phase(effect.phase)
            message = ""
            if "message" in phase.templates:
                values = template_context(state, self.workflow, effect.phase)
                message = f": {process_redactor().redact(render_template(phase.templates['message'], values))}"
            self.progress.note(
                f"phase {effect.phase} waits for approval{message} "
                f"(alphred approve {self.run_id} / alphred reject {self.run_id})"
            )
        elif isinstance(effect, RunFinished):
            self._finish(effect)
        return []

    async def _start_phase(self, state: RunState, effect: StartPhase) -> list[Event]:
        phase = self.workflow.phase(effect.phase)
        stats = AttemptStats()
        self._stats[(effect.phase, effect.attempt)] = stats
        if self._stop == "interrupt":  # an interrupt that arrived while the phase was starting is not lost
            return [PhaseInterrupted(effect.phase, effect.attempt)]
        if self._stop == "cancel":
            return [CancelRequested()]
        notes: tuple[str, ...] = ()
        if phase.type is not PhaseType.APPROVAL:
            retry_notes = await self._before_retry(state, effect)  # "retrying … in Ns" comes before "▶ attempt N"
            if retry_notes is None:
                return self._stopped_events(effect)
            notes = retry_notes
        self.progress.phase_started(effect, phase.type.value, state)
        if phase.type is PhaseType.APPROVAL:
            if self.options.approve_all:
                comment = "approved automatically (--approve-all)"
                stats.details["approved_by"] = "--approve-all"
                self.store.add_artifact(
                    self.run_id, phase.key, effect.attempt, "report", text=comment,
                    data={"decision": "approved", "comment": comment, "approved_by": "--approve-all"},
                )  # fmt: skip
                return [PhaseCompleted(effect.phase, effect.attempt, "approved", {"comment": comment})]
            return [ApprovalRequested(effect.phase, effect.attempt)]
        self._phase = (effect.phase, effect.attempt)
        task = asyncio.ensure_future(run_attempt(self.ctx, state, phase, effect.attempt, effect.visit, stats, notes))
        self._phase_task = task
        try:
            outcome = await task
        except asyncio.CancelledError:
            if self._stop is None:
                raise
            return self._stopped_events(effect)
        except Exception as exc:  # the runtime itself failed this attempt: record it, never lose the run
            stats.message = f"{type(exc).__name__}: {exc}"
            outcome = PhaseFailed(
                effect.phase, effect.attempt, "internal", False, getattr(exc, "code", "RUNTIME_ERROR")
            )
        finally:
            self._phase = None
            self._phase_task = None
        if self._stop is not None:  # an interrupted outcome wins over a late success
            return self._stopped_events(effect)
        if isinstance(outcome, PhaseFailed):
            error = stats.details.get("error", {})
            self._failures[effect.phase] = _Failure(
                effect.attempt, outcome.reason, stats.message or outcome.reason, error.get("retry_after")
            )
        else:
            self._failures.pop(effect.phase, None)
        if not self._pause:  # the heartbeat may not have looked yet: a pause asked just before the end counts
            self._pause = read_requests(self.store, self.run_id)[0]
        pause = self._pause
        return [PauseRequested(), outcome] if pause else [outcome]

    def _stopped_events(self, effect: StartPhase) -> list[Event]:
        if self._stop == "cancel":
            return [CancelRequested()]
        return [PhaseInterrupted(effect.phase, effect.attempt)]

    async def _before_retry(self, state: RunState, effect: StartPhase) -> tuple[str, ...] | None:
        """Back off before retrying a retryable provider failure; the notes for the retry's context."""
        failure = self._failures.get(effect.phase)
        if failure is None or failure.attempt != effect.attempt - 1:
            return ()
        note = (
            f'<previous_attempt phase="{effect.phase}" attempt="{failure.attempt}" reason="{failure.kind}">\n'
            f"{failure.message[:2000]}\n</previous_attempt>"
        )
        if failure.kind in RETRYABLE_KINDS:
            consecutive = max(1, state.phase(effect.phase).consecutive_failures)
            delay = backoff_seconds(consecutive, failure.retry_after, self.options.env)
            self.progress.note(
                f"retrying {effect.phase} in {delay:.1f}s: attempt {failure.attempt} failed ({failure.kind})"
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)
            if self._stop is not None:
                return None
        return (note,)

    def _finish(self, effect: RunFinished) -> None:
        fields: dict[str, object] = {}
        if self.worktree.is_dir():
            fields["head_sha"] = self.worktrees.head_sha(self.worktree)
            if effect.status is RunStatus.COMPLETED and not self.options.keep_worktree:
                self.worktrees.remove(self.worktree)
                fields["worktree_path"] = None
        if fields:
            self.store.update_run(self.run_id, **fields)
        self.progress.run_finished(effect)
        if self.events is not None:
            record = self.store.get_run(self.run_id)
            self.events.run_finished(self.run_id, effect.status.value, effect.reason, pr_url=record.pr_url)

    # -- out of band ------------------------------------------------------------------------------------

    def _on_signal(self, sig: signal.Signals) -> None:
        self._signals += 1
        if self._signals > 1:
            sys.stderr.write("\nsecond interrupt: stopping at once (alphred resume continues the run)\n")
            sys.stderr.flush()
            kill_active_groups()
            os._exit(130)
        name = "Ctrl+C" if sig == signal.SIGINT else sig.name
        self.progress.note(f"{name}: interrupting the active phase (press again to stop at once)")
        self.interrupt()

    def interrupt(self) -> None:
        """Interrupt the run out of band: the active attempt (or the next one to start) ends ``interrupted``."""
        self._request_stop("interrupt")

    def _request_stop(self, why: str) -> None:
        if self._stop is None or why == "lost":
            self._stop = why
            self.interrupted = why == "interrupt"
        self._wake.set()
        if self._phase_task is not None and not self._phase_task.done():
            self._phase_task.cancel()

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            self.progress.tick()

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                with self.store.transaction() as tx:
                    if not tx.renew_lease(self.run_id, self.owner, self.ttl):
                        self._request_stop("lost")
                        continue
                    if self._phase is not None:
                        tx.renew_lease(self.run_id, self.owner, self.ttl, node_key=self._phase[0])
                    record = tx.get_run(self.run_id)
            except AlphredError:
                continue  # a busy database: try again at the next beat; the lease TTL covers it
            if record.cancel_requested:
                self._request_stop("cancel")
            if record.pause_requested:
                self._pause = True


def existing_events_for(state: RunState) -> list[Event]:
    """Events that settle a run found mid-attempt after its process died (the attempt was interrupted)."""
    if state.status is RunStatus.RUNNING and state.current is not None:
        return [PhaseInterrupted(state.current, state.phase(state.current).attempt)]
    return []
