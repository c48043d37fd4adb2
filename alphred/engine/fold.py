"""One transition being folded (``Fold``: the evolving state and its effects, in order) and the moves that
every kind of transition shares: finishing the run, starting and entering a phase, the hard caps, skipping
the targets routing did not choose.

``machine`` (the run branch) and ``fan_out`` (parallel branches) build their transitions from these.
"""

from __future__ import annotations

from typing import Any

from alphred.engine.events import (
    Deliver,
    Effect,
    RecordStep,
    RunFinished,
    SetPhaseStatus,
    SetRunStatus,
    StartPhase,
)
from alphred.engine.reasons import BUDGET_EXHAUSTED, DELIVERY_STEPS, MAX_STEPS, MAX_VISITS, NOT_WANTED, PAUSED
from alphred.engine.routing import ordered_transitions, run_context
from alphred.engine.state import PhaseState, RunState, Step, change_fields, evolve
from alphred.engine.statuses import NodeStatus, RunStatus
from alphred.guards import evaluate_guard
from alphred.workflow.model import RESERVED_TARGETS, Phase

Result = tuple[RunState, tuple[Effect, ...]]

_N = NodeStatus
_R = RunStatus


class Fold:
    """Accumulates one transition: the evolving state and the effects, in order.

    The state a fold starts from (or is given, ``fold.state = ...``) is never changed: its caller keeps it. The
    fold copies it on its first change, with its phases mapping and each phase it changes, and changes its own
    copies in place after that (issue 29: a phase's transition copied the run state's ~25 fields about ten times).
    Nothing outside the fold holds its copies until ``result``; a value read from ``fold.state`` is read before
    the change that follows it (the moves below compute their changes first)."""

    def __init__(self, state: RunState) -> None:
        self.state = state
        self.effects: list[Effect] = []
        self._copy: RunState | None = None  # the run state this fold made (``state`` unless one was handed to it)
        self._phases: dict[str, PhaseState] | None = None  # the phases mapping of ``_copy`` this fold made
        self._own_phases: set[str] = set()  # the phases in ``_phases`` this fold made

    def result(self) -> Result:
        """The folded state and its effects."""
        return self.state, tuple(self.effects)

    def _own(self, changes: dict[str, Any]) -> RunState:
        """The fold's copy of the run state, with ``changes``."""
        state = self.state
        if state is self._copy:
            change_fields(state, changes)
            if "phases" in changes:
                self._phases = None
        else:
            state = self.state = self._copy = evolve(state, **changes)
            self._phases = None  # a new copy shares the mapping of the state it was made from
        return state

    def update(self, **changes: Any) -> None:
        """Replace fields of the run state."""
        self._own(changes)

    def change_phase(self, key: str, **changes: Any) -> None:
        """Replace fields of phase ``key`` (``RunState.with_phase``, on the fold's copies)."""
        state = self._own({})
        phases = self._phases
        if phases is None or state.phases is not phases:
            phases = self._phases = state.__dict__["phases"] = dict(state.phases)
            self._own_phases = set()
        if key in self._own_phases:
            change_fields(phases[key], changes)
        else:
            phases[key] = evolve(phases[key], **changes)
            self._own_phases.add(key)

    def run_status(self, status: RunStatus, reason: str | None) -> None:
        """Move the run to ``status`` (with ``reason``)."""
        self.update(status=status, reason=reason)
        self.effects.append(SetRunStatus(status, reason))

    def phase_status(self, key: str, status: NodeStatus, **changes: Any) -> None:
        """Move phase ``key`` to ``status`` (and change its counters); the effect carries what is persisted."""
        self.change_phase(key, status=status, **changes)
        ps = self.state.phase(key)
        values = {
            "visits": ps.visits, "decision": ps.decision, "exit_code": ps.exit_code,
            "tokens": ps.tokens, "cost_usd": ps.cost_usd,
        }  # fmt: skip
        self.effects.append(SetPhaseStatus(key, status, ps.attempt, values))

    def record_step(self, step: Step) -> None:
        """Add ``step`` to the history and ask for its diagnostics row (with the provider that ran it)."""
        if step.provider is None:
            step = evolve(step, provider=provider_of(self.state, step.phase))
        self.update(history=(*self.state.history, step))
        outcome, decision, reason = step.outcome, step.decision, step.reason
        self.effects.append(
            RecordStep(
                step.phase, step.attempt, outcome, decision, step.next, reason, step.error_code, step.branch,
                step.provider,
            )
        )  # fmt: skip

    def add_usage(self, key: str, tokens: int, cost_usd: float, child_steps: int = 0) -> None:
        """Count an attempt's tokens and cost for its phase and the run, and the steps of the sub-workflow run
        it ran (SPEC §13) for the run."""
        if not (tokens or cost_usd or child_steps):  # nothing to count (a command, the scripted provider)
            return
        ps = self.state.phase(key)
        self.change_phase(key, tokens=ps.tokens + tokens, cost_usd=ps.cost_usd + cost_usd)
        state = self.state
        self.update(tokens=state.tokens + tokens, cost_usd=state.cost_usd + cost_usd, steps=state.steps + child_steps)

    def count_edge(self, source: str, priority: int) -> None:
        """Count one traversal of the transition ``(source, priority)``."""
        edge = (source, priority)
        self.update(edges={**self.state.edges, edge: self.state.edges.get(edge, 0) + 1})

    def finish(self, status: RunStatus, reason: str | None) -> None:
        """End the run with ``status``; a completed run with a pull request delivers first."""
        state = self.state
        if status is _R.COMPLETED and state.deliver and state.pr_url is None and state.delivery_note is None:
            when = state.workflow.pull_request_when
            if when is not None and not evaluate_guard(when, run_context(state, state.workflow)):
                self.update(delivery_note=NOT_WANTED)  # SPEC §16: the end-of-run pull request is conditional
            else:
                self.update(current=None, pause_requested=False, delivery=DELIVERY_STEPS[0], finish_reason=reason)
                self.effects.append(Deliver(DELIVERY_STEPS[0]))  # completes once delivered
                return
        self.run_status(status, reason)
        self.update(current=None, pause_requested=False)
        self.effects.append(RunFinished(status, reason))


def provider_of(state: RunState, key: str) -> str | None:
    """The provider that runs ``key``'s attempts now (its own, or the fallback it moved to); None: no agent."""
    providers = state.workflow.phase(key).providers()
    return providers[min(state.phase(key).provider, len(providers) - 1)] if providers else None


FAIL_OVER_REASONS = frozenset({"usage_limit", "auth"})
"""Failures after which the next attempt moves to the phase's next provider at once (SPEC §15)."""
OUTAGE_REASONS = frozenset({"transport", "internal", "rate_limit", "timeout"})
"""Failures that move to the next provider once the phase's retries are spent (a provider outage)."""


def has_fallback(state: RunState, key: str) -> bool:
    """True while ``key`` has a ``fallback`` provider it has not moved to yet (SPEC §15)."""
    return state.phase(key).provider < len(state.workflow.phase(key).fallback)


def next_provider(fold: Fold, key: str, reason: str, exhausted: bool) -> bool:
    """Move ``key`` to its next fallback provider, with a fresh count of retries (SPEC §15): after a usage
    limit or an auth failure, or an outage that outlived the retries (``exhausted``). False: no fallback left,
    or a failure that no other provider mends. The index is engine state: it is stored with the transition that
    records the failed step, so a take-over goes on with the same provider. Its caller starts the attempt."""
    if not has_fallback(fold.state, key):
        return False
    if reason not in FAIL_OVER_REASONS and not (exhausted and reason in OUTAGE_REASONS):
        return False
    fold.change_phase(key, provider=fold.state.phase(key).provider + 1, consecutive_failures=0)
    return True


def fail_over(fold: Fold, key: str, reason: str, exhausted: bool) -> bool:
    """``next_provider`` for a phase on the run branch, then start its next attempt there."""
    if not next_provider(fold, key, reason, exhausted):
        return False
    fold.update(current=None, queued=key, queued_new_visit=False)
    start(fold, key, new_visit=False)
    return True


def cap_reason(state: RunState, key: str, new_visit: bool) -> str | None:
    """Why a hard cap forbids starting ``key`` now (``max_steps``, ``max_visits``, the budget), or None."""
    limits = state.workflow.limits
    if state.steps + 1 > limits.max_steps:
        return MAX_STEPS
    if new_visit and state.phase(key).entries + 1 > state.workflow.phase(key).max_visits:
        return MAX_VISITS
    if limits.max_tokens is not None and state.tokens >= limits.max_tokens:
        return BUDGET_EXHAUSTED
    if limits.max_cost_usd is not None and state.cost_usd >= limits.max_cost_usd:
        return BUDGET_EXHAUSTED
    return None


def claim_attempt(fold: Fold, key: str, new_visit: bool, **changes: Any) -> tuple[int, int]:
    """Move ``key`` to ``running`` as its next attempt and count the step (with ``changes`` of the run state, in
    the same copy of it); return (attempt, visit)."""
    ps = fold.state.phase(key)
    attempt = ps.attempt + 1
    entries = ps.entries + 1 if new_visit else ps.entries
    failures = 0 if new_visit else ps.consecutive_failures
    fold.phase_status(key, _N.RUNNING, attempt=attempt, entries=entries, consecutive_failures=failures)
    fold.update(steps=fold.state.steps + 1, **changes)
    return attempt, entries


def start(fold: Fold, key: str, new_visit: bool) -> None:
    """Start a new attempt of ``key`` (pending or failed) on the run branch, unless a hard cap forbids it."""
    reason = cap_reason(fold.state, key, new_visit)
    if reason is not None:
        fold.update(queued=key, queued_new_visit=new_visit)
        fold.finish(_R.FAILED, reason)
        return
    attempt, visit = claim_attempt(fold, key, new_visit, current=key, queued=None, queued_new_visit=False)
    fold.effects.append(StartPhase(key, attempt, visit))


def enter(fold: Fold, key: str, source: str) -> None:
    """Route into ``key`` as a new visit: re-queue it, then start it (or queue it when pausing)."""
    if fold.state.phase(key).status in (_N.COMPLETED, _N.SKIPPED):
        fold.phase_status(key, _N.PENDING, entered_from=source)
    else:
        fold.change_phase(key, entered_from=source)
    if fold.state.pause_requested:
        fold.update(queued=key, queued_new_visit=True, pause_requested=False)
        fold.run_status(_R.PAUSED, PAUSED)
        return
    start(fold, key, new_visit=True)


def skip_unchosen(fold: Fold, phase: Phase, chosen: str) -> None:
    """Mark the other targets of ``phase`` that are pending and never started as skipped."""
    for candidate in ordered_transitions(phase):
        target = candidate.target
        if target in RESERVED_TARGETS or target in (chosen, phase.key):
            continue
        ps = fold.state.phase(target)
        if ps.status is _N.PENDING and ps.attempt == 0:
            fold.phase_status(target, _N.SKIPPED)
