"""Persist one engine transition: its effects and the state snapshot, in ONE transaction fenced by the lease.

Each effect carries the values it persists; this module only maps effects onto store calls. What the
runtime measured of an attempt reaches the diagnostics row of its ``RecordStep`` with the transition
(``measured``), carried there by the events that report the attempt. It runs in a worker thread (never on
the event loop): see ``Runner._persist``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from alphred.engine import (
    AddPhase,
    Effect,
    NodeStatus,
    RecordPullRequest,
    RecordRouting,
    RecordStep,
    RunState,
    RunStatus,
    SetPhaseStatus,
    SetRunStatus,
)
from alphred.errors import LeaseLostError
from alphred.lazy import deferred_dataclass
from alphred.runtime.attempt_context import AttemptStats
from alphred.runtime.crash import crash_point
from alphred.store import SqlRunStore, StoreTransaction

if TYPE_CHECKING:
    from alphred.store import StateText

Write = Callable[[StoreTransaction], object]


@deferred_dataclass
class Persister:
    """Writes transitions of one run for one lease owner."""

    store: SqlRunStore
    run_id: int
    owner: str
    ttl: float
    runtime: Mapping[str, Any]  # the stored runtime options (what a later resume must honour)
    _edge_ids: dict[tuple[str, int], int] | None = None
    _state: StateText | None = None  # the state's stored text, made from the parts unchanged since the last write

    def persist(
        self,
        state: RunState,
        effects: tuple[Effect, ...],
        pending: list[Write],
        clear_pause: bool = False,
        measured: Mapping[tuple[str, int], AttemptStats] | None = None,
        watch_pause: bool = False,
        within: Write | None = None,
    ) -> None:
        """Write ``effects``, the writes an attempt left (``pending``) and the snapshot of ``state``;
        ``measured`` holds the measurements of the attempts whose steps ``effects`` record.

        The first statement renews the lease, writes the snapshot and reads the run's pause flag back
        (``renew_run``). With ``watch_pause`` (the transition of an attempt's outcome) a pause another process
        asked for makes it raise ``PauseFirst`` before anything else is written: the whole transaction rolls
        back and the runner feeds ``PauseRequested`` before the outcome again. ``within`` is called last, inside
        the transaction (the next attempt's preparation reads there: one transaction, not two).
        """
        stored = self._state
        if stored is None:
            stored = self._state = self.store.state_text(self.runtime)
        fields: dict[str, Any] = {
            "engine_state": stored.value(state),  # without the history: the steps are rows already
            "tokens": state.tokens,
            "cost_usd": state.cost_usd,
            "steps": state.steps,
        }
        later: dict[str, Any] = {}  # set after the effects (a pending write may set them too)
        if state.wake_at is not None:  # paused by a usage limit (SPEC §15): when it goes on
            later["wake_at"] = datetime.fromtimestamp(state.wake_at, UTC)
        elif any(isinstance(e, SetRunStatus) and e.status is RunStatus.RUNNING for e in effects):
            later["wake_at"] = None  # going on: no wait is pending (a CI wait sets its own, SPEC §16)
        if clear_pause:
            later["pause_requested"] = False
        with self.store.transaction() as tx:
            flags = tx.renew_run(self.run_id, self.owner, self.ttl, **fields)
            if flags is None:
                raise LeaseLostError(self.run_id)
            if watch_pause and flags[0]:
                raise PauseFirst()
            with tx.deferred_artifacts():  # the attempt's artifacts in one statement
                for write in pending:
                    write(tx)
            index, seen = 0, measured or {}
            while index < len(effects):  # an effect that persisted the one after it too skips it
                after = effects[index + 1] if index + 1 < len(effects) else None
                index += 2 if self._one(tx, effects[index], seen, after) else 1
            if later:
                tx.update_run(self.run_id, **later)
            if within is not None:
                within(tx)

    def write(self, pending: list[Write]) -> None:
        """Carry out ``pending`` writes in a transaction of their own (an outcome's intent)."""
        if pending:
            with self.store.transaction() as tx, tx.deferred_artifacts():
                for write in pending:
                    write(tx)

    def _one(
        self,
        tx: StoreTransaction,
        effect: Effect,
        measured: Mapping[tuple[str, int], AttemptStats],
        after: Effect | None = None,
    ) -> bool:
        """Persist ``effect``; True when it persisted ``after`` (the effect that follows it) too."""
        if isinstance(effect, SetRunStatus):
            tx.set_run_status(self.run_id, effect.status.value, effect.reason)
            # a completed run's memory becomes the next run's, in the transaction of its completion
            if effect.status is RunStatus.COMPLETED and tx.save_memory(self.run_id):
                crash_point("saving_memory")  # saved, not committed: a kill here saves nothing
        elif isinstance(effect, AddPhase):
            tx.add_node(self.run_id, effect.phase, effect.base)
        elif isinstance(effect, SetPhaseStatus):
            values = {"attempt": effect.attempt, **effect.values}
            via = None
            if (  # a loop enters a completed phase again: pending, then running, in one statement
                effect.status is NodeStatus.PENDING
                and isinstance(after, SetPhaseStatus)
                and after.phase == effect.phase
                and after.status is NodeStatus.RUNNING
            ):
                via, effect = effect.status.value, after
                values.update(attempt=effect.attempt, **effect.values)
            if effect.status is NodeStatus.RUNNING:  # the phase's own lease, with its move
                if tx.start_node(self.run_id, effect.phase, self.owner, self.ttl, via=via, **values) is None:
                    raise LeaseLostError(self.run_id)
            else:
                tx.move_node(self.run_id, effect.phase, effect.status.value, **values)
            return via is not None
        elif isinstance(effect, RecordStep):
            stats = measured.get((effect.phase, effect.attempt))  # None: an attempt settled on take-over
            details = dict(stats.details) if stats else {}
            if stats and stats.message:
                details["message"] = stats.message
            if effect.provider is not None:
                details["provider"] = effect.provider  # which provider ran it (SPEC §15)
            tx.add_diagnostic(
                self.run_id,
                effect.phase,
                effect.attempt,
                effect.outcome.value,
                reason=effect.reason,
                error_code=effect.error_code,
                duration_ms=stats.duration_ms if stats else None,
                tokens=stats.tokens if stats else 0,
                cost_usd=stats.cost_usd if stats else 0.0,
                event_count=stats.events if stats else None,
                details=details or None,
            )
        elif isinstance(effect, RecordRouting):
            if self._edge_ids is None:
                self._edge_ids = tx.edge_ids(tx.get_run(self.run_id).tree_id)
            edge = self._edge_ids.get((effect.source, effect.priority)) if effect.priority is not None else None
            for target in effect.fan_out or (effect.target,):  # a fan-out: one decision per branch it starts
                tx.add_routing_decision(
                    self.run_id,
                    effect.source,
                    effect.attempt,
                    target,
                    decision=effect.decision,
                    priority=effect.priority,
                    edge_id=edge,
                    reason=effect.reason,
                    explanation=effect.explanation,
                )
        elif isinstance(effect, RecordPullRequest):
            tx.update_run(self.run_id, pr_url=effect.url)
        return False


class PauseFirst(Exception):
    """The run's pause flag was set while the attempt whose outcome was being persisted ran (``persist``)."""
