"""How the runner records what the engine decided: each transition persisted in a worker thread, with the
next attempt's preparation in the same hop, or, for an attempt's outcome when nothing can come between its end
and its transition, by the attempt's own worker (``joined``: one hop per unchanged phase, issue 29).

``Recording`` is the part of ``runner.Runner`` that does it; the runner's loop calls ``_persist`` and
``_joined`` and its attempts ``_join``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from alphred.engine import (
    AddPhase,
    CiWaiting,
    Effect,
    Event,
    MergeDone,
    PhaseCompleted,
    PhaseFailed,
    RecordPullRequest,
    RecordRouting,
    RecordStep,
    RunState,
    RunStatus,
    SetPhaseStatus,
    SetRunStatus,
    StartPhase,
    UpstreamReport,
    transition,
)
from alphred.engine.state import evolve
from alphred.errors import LeaseLostError
from alphred.runtime.attempt_context import AttemptStats, PhaseContext, Posted
from alphred.runtime.crash import crash_point
from alphred.runtime.joined import EndJoin, Joined
from alphred.runtime.persist import PauseFirst, Persister, Write
from alphred.runtime.phase import load_attempt_modules, read_preparation, seal_preparation
from alphred.runtime.run_thread import hop
from alphred.runtime.supervisor import LOST, Supervisor
from alphred.workflow import Phase, PhaseType, Workflow

if TYPE_CHECKING:
    from alphred.git.tamper import WorktreeSeal
    from alphred.runtime.attempts import Active, Attempts
    from alphred.runtime.branches import BranchScheduler
    from alphred.runtime.observer import RunObserver

ONLY_WRITTEN = (SetRunStatus, SetPhaseStatus, RecordStep, RecordRouting, AddPhase, RecordPullRequest)
"""Effects that are persisted and not carried out (``Runner._drive`` skips them)."""


def advance(state: RunState, event: Event) -> tuple[RunState, tuple[Effect, ...], bool]:
    """The engine's transition of ``state`` by ``event`` and whether it changed anything (the deep comparison
    only when needed), the new state without its step history: its steps are persisted (``RecordStep``), so the
    runner keeps none and no copy grows with the run."""
    new, effects = transition(state, event)
    changed = bool(effects) or (new is not state and new != state)
    if new.history:
        new = evolve(new, history=())
    return new, effects, changed


def ended_git(event: Event, stats: AttemptStats, seal: WorktreeSeal, hooks: bool) -> tuple[str, WorktreeSeal] | None:
    """The commit and the seal an attempt's end left in the run's worktree, when its end found them
    (``outcome.complete_attempt`` reached the commit: the seal's check had found nothing moved, and the head is
    the commit made or, none made, the commit the attempt started from); None otherwise (git is read again),
    and when the commit ran the repository's hooks (``hooks``: code that is not Alphred's ran after the check).

    Only for the next attempt prepared in the same worker thread right after (``_record_outcome``): nothing runs
    in between but Alphred's own commit and the store's transaction (the attempt's processes are gone, no
    parallel branch is under way), so reading the head and checking the seal again would find the same. A change
    made there anyway is found by the next attempt's own end (against this seal), not taken as its start."""
    if not isinstance(event, PhaseCompleted) or event.tree is None:
        return None
    commit = stats.details.get("commit")
    if commit is not None and hooks:
        return None
    head = commit or stats.details.get("start_sha")
    return (head, seal) if isinstance(head, str) and head else None


class Recording:
    """The runner's persistence of transitions (mixed into ``runner.Runner``, which sets these attributes)."""

    ctx: PhaseContext
    workflow: Workflow
    persister: Persister
    supervisor: Supervisor
    observer: RunObserver
    attempts: Attempts
    branches: BranchScheduler
    _held: list[Write]
    _joinable: bool

    def _pause_unread(self, event: Event, posted: Posted | None) -> bool:
        """True for the outcome of an attempt whose end did not see a pause request: its transition reads the
        run's pause flag (``Persister.persist``), so a pause asked just before the end counts."""
        if self.supervisor.pause or posted is None or posted.stats is None or not posted.stats.pause_unread:
            return False
        return isinstance(event, (PhaseCompleted, PhaseFailed, CiWaiting)) and posted.events[-1] is event

    async def _persist(
        self, event: Event, state: RunState, effects: tuple[Effect, ...], posted: Posted | None, watch_pause: bool
    ) -> bool:
        """Persist one transition (in a thread), then report it; False (nothing written) when ``watch_pause``
        found the run's pause flag set (``PauseFirst``)."""
        supervisor = self.supervisor
        clear_pause = state.status is RunStatus.PAUSED and supervisor.pause
        measured = self._measured(effects, posted)
        pending = self._take_pending()
        persist = functools.partial(self.persister.persist, state, effects, pending, clear_pause, measured, watch_pause)
        try:
            await hop(self.ctx.run_thread, self._persist_and_prepare, persist, self._to_prepare(event, effects))
        except LeaseLostError:
            supervisor.stop = LOST
            raise
        except PauseFirst:
            supervisor.pause = True
            self._held = pending + self._held  # written with the outcome's transition, when it is fed again
            return False
        if clear_pause:
            supervisor.pause = False
        self._reported(effects, measured)
        return True

    def _reported(self, effects: tuple[Effect, ...], measured: dict[tuple[str, int], AttemptStats]) -> None:
        """Tell the observer what a transition persisted."""
        for effect in effects:
            stats = None
            if isinstance(effect, RecordStep):
                stats = measured.get((effect.phase, effect.attempt)) or AttemptStats()
            self.observer.persisted(effect, stats)
        if any(isinstance(e, RecordStep) for e in effects):
            crash_point("between_phases")

    def _joined(self, joined: Joined) -> bool:
        """What the loop does after its own persist, for an outcome the attempt's worker recorded (``joined``);
        False when nothing was written because the pause flag was set (as ``_persist``)."""
        if joined.error is not None:
            if isinstance(joined.error, LeaseLostError):
                self.supervisor.stop = LOST
            raise joined.error
        if joined.new is None:
            self.supervisor.pause = True
            self._held = joined.held + self._held  # written with the outcome's transition, when it is fed again
            return False
        self._reported(joined.effects, joined.measured)
        return True

    def _record_outcome(
        self, state: RunState, key: tuple[str, int], stats: AttemptStats, event: Event, seal: WorktreeSeal
    ) -> Joined:
        """In the attempt's worker thread (``joined.EndJoin``): the outcome's transition and its persist, as the
        loop's ``_drive`` and ``_persist`` do them (the pause flag read by the transaction's first statement);
        the next attempt is prepared from what the end found of git (``ended_git``)."""
        new, effects, changed = advance(state, event)
        if not changed:
            return Joined(event, new)
        measured = self._measured(effects, Posted((event,), key, stats))
        pending = self._take_pending()
        persist = functools.partial(self.persister.persist, new, effects, pending, False, measured, True)
        ended = ended_git(event, stats, seal, self.workflow.git_hooks)
        try:
            self._persist_and_prepare(persist, self._to_prepare(event, effects), ended)
        except PauseFirst:
            return Joined(event, None, held=pending)
        except Exception as exc:  # raised on the loop, as after its own persist
            return Joined(event, None, error=exc)
        return Joined(event, new, effects, measured)

    def _to_prepare(self, event: Event, effects: tuple[Effect, ...]) -> tuple[Phase, int] | None:
        """The attempt on the run branch that ``effects`` start, to prepare with their transaction: only when
        nothing is carried out before it (every effect before it is only written, and no merged branch's
        worktree is removed after the commit), so that git's seal is what the attempt starts from."""
        if isinstance(event, MergeDone):
            return None
        for effect in effects:
            if isinstance(effect, StartPhase) and effect.branch is None:
                phase = self.workflow.phase(effect.phase)
                return None if phase.type is PhaseType.APPROVAL else (phase, effect.attempt)
            if not isinstance(effect, ONLY_WRITTEN):
                return None
        return None

    def _persist_and_prepare(
        self,
        persist: Callable[..., None],
        start: tuple[Phase, int] | None,
        ended: tuple[str, WorktreeSeal] | None = None,
    ) -> None:
        """``persist`` (in a worker thread); with ``start``, the attempt it starts is prepared in the same thread
        hop: its reads inside the transaction, then git's seal (``phase.prepare_attempt`` otherwise), or
        ``ended``'s (``ended_git``)."""
        ctx = self.ctx
        ctx.prepared.clear()  # an attempt prepared but never started (a stop came first) is not kept
        if start is None:
            persist()
            return
        phase, attempt = start
        read: list[tuple[int, int, dict[str, UpstreamReport]]] = []
        persist(within=lambda tx: read.append(read_preparation(ctx, phase, attempt, tx)))
        try:
            load_attempt_modules(phase)
            ctx.prepared[(phase.key, attempt)] = seal_preparation(ctx, read[0], ended)
        except Exception:  # git could not say: the attempt prepares itself and fails there, as it would
            return

    def _measured(self, effects: tuple[Effect, ...], posted: Posted | None) -> dict[tuple[str, int], AttemptStats]:
        """The measurements of the attempts whose steps ``effects`` record: carried by the post being fed,
        else (an attempt the engine stops meanwhile) of the attempt under way or posted and not taken yet."""
        found: dict[tuple[str, int], AttemptStats] = {}
        for effect in effects:
            if isinstance(effect, RecordStep):
                key = (effect.phase, effect.attempt)
                stats = posted.stats_of(key) if posted is not None else None
                stats = stats or self.attempts.stats_of(key) or self.branches.posted_stats(key)
                if stats is not None:
                    found[key] = stats
        return found

    def _take_pending(self) -> list[Write]:
        pending, self.ctx.pending, self._held = self._held + self.ctx.pending, [], []
        return pending + self.branches.take_pending()

    def _join(
        self,
        state: RunState,
        effect: StartPhase,
        phase: Phase,
        active: Active,
        stats: AttemptStats,
        ctx: PhaseContext,
        resolving: tuple[str, ...] | None,
    ) -> EndJoin | None:
        """The claim that lets the attempt's worker record its outcome's transition (``joined``), when nothing can
        come between its end and that transition: the run branch, its start the last effect of its transition,
        nothing fed, held or under way in a parallel branch; an agent or command phase without checks."""
        if not self._joinable or ctx is not self.ctx or effect.branch is not None or resolving is not None:
            return None
        if phase.type not in (PhaseType.AGENT, PhaseType.COMMAND) or phase.checks:
            return None
        supervisor = self.supervisor

        def stopped() -> bool:
            return supervisor.stop is not None or supervisor.pause or active.stopped or bool(self.branches.in_flight)

        return EndJoin(stopped, functools.partial(self._record_outcome, state, (effect.phase, effect.attempt), stats))
