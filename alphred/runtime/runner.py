"""Drive a run: feed events to the pure engine, persist its effects first, then carry them out."""

from __future__ import annotations

import asyncio
import os
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from alphred.engine import (
    ApprovalRequested,
    AwaitApproval,
    Effect,
    Event,
    PhaseCompleted,
    PhaseFailed,
    RecordRouting,
    RecordStep,
    RunFinished,
    RunStarted,
    RunState,
    RunStatus,
    SetPhaseStatus,
    SetRunStatus,
    StartPhase,
    initial_state,
    state_to_json,
    transition,
)
from alphred.git import (
    GitWorktrees,
    RepoLocation,
    branch_tokens,
    choose_branch_template,
    render_branch_name,
)
from alphred.providers import ProviderEvent, ProviderRegistry
from alphred.spec import PhaseType, Workflow
from alphred.store import SqlRunStore, StoreTransaction

from .phase import AttemptStats, PhaseContext, run_attempt
from .progress import Progress
from .redact import Redactor


@dataclass
class RunOptions:
    """How to start a run (the ``alphred run`` flags that reach the runtime)."""

    inputs: Mapping[str, str]
    base: str | None = None
    branch: str | None = None
    keep_worktree: bool = False
    approve_all: bool = False
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))


class Runner:
    """Executes one run to its end (or until it pauses) through the engine's effects."""

    def __init__(
        self,
        store: SqlRunStore,
        workflow: Workflow,
        run_id: int,
        location: RepoLocation,
        registry: ProviderRegistry,
        *,
        worktree: Path,
        keep_worktree: bool = False,
        approve_all: bool = False,
        env: Mapping[str, str] | None = None,
        progress: Progress | None = None,
        on_event: Callable[[str, int, int, ProviderEvent], None] | None = None,
    ) -> None:
        self.store = store
        self.workflow = workflow
        self.run_id = run_id
        self.keep_worktree = keep_worktree
        self.approve_all = approve_all
        self.progress = progress or Progress(enabled=False)
        self.worktrees = GitWorktrees(location)
        self.worktree = worktree
        self._stats: dict[tuple[str, int], AttemptStats] = {}
        environment = dict(os.environ if env is None else env)
        self.ctx = PhaseContext(
            store=store,
            run_id=run_id,
            workflow=workflow,
            worktree=worktree,
            worktrees=self.worktrees,
            registry=registry,
            redactor=Redactor(environment),
            env=environment,
            on_event=on_event,
        )
        self._edge_ids: dict[tuple[str, int], int] | None = None

    def drive(self, state: RunState, first: Event) -> RunState:
        """Feed ``first`` and every event that follows until the run ends or waits; return the last state."""
        return asyncio.run(self._drive(state, first))

    async def _drive(self, state: RunState, first: Event) -> RunState:
        events: deque[Event] = deque([first])
        while events:
            event = events.popleft()
            previous = state
            state, effects = transition(state, event)
            self._persist(previous, state, effects)
            for effect in effects:
                follow = await self._act(state, effect)
                if follow is not None:
                    events.append(follow)
        return state

    # -- persist first ----------------------------------------------------------------------------------

    def _persist(self, previous: RunState, state: RunState, effects: tuple[Effect, ...]) -> None:
        if previous is state and not effects:
            return  # a stale or no-op event: nothing to write
        with self.store.transaction() as tx:
            for effect in effects:
                self._persist_one(tx, effect)
            for key, phase in state.phases.items():
                if previous.phases.get(key) != phase:
                    tx.update_node(
                        self.run_id,
                        key,
                        visits=phase.visits,
                        decision=phase.decision,
                        exit_code=phase.exit_code,
                        tokens=phase.tokens,
                        cost_usd=phase.cost_usd,
                    )
            tx.update_run(
                self.run_id,
                engine_state=state_to_json(state),
                tokens=state.tokens,
                cost_usd=state.cost_usd,
                steps=state.steps,
            )

    def _persist_one(self, tx: StoreTransaction, effect: Effect) -> None:
        if isinstance(effect, SetRunStatus):
            tx.set_run_status(self.run_id, effect.status.value, effect.reason)
        elif isinstance(effect, SetPhaseStatus):
            tx.set_node_status(self.run_id, effect.phase, effect.status.value, attempt=effect.attempt)
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
                run = tx.get_run(self.run_id)
                self._edge_ids = tx.edge_ids(run.tree_id)
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

    async def _act(self, state: RunState, effect: Effect) -> Event | None:
        if isinstance(effect, StartPhase):
            return await self._start_phase(state, effect)
        if isinstance(effect, AwaitApproval):
            self.progress.note(f"phase {effect.phase} waits for approval: alphred approve {self.run_id}")
        elif isinstance(effect, RunFinished):
            self._finish(effect)
        return None

    async def _start_phase(self, state: RunState, effect: StartPhase) -> Event:
        phase = self.workflow.phase(effect.phase)
        stats = AttemptStats()
        self._stats[(effect.phase, effect.attempt)] = stats
        self.progress.phase_started(effect, phase.type.value, state)
        if phase.type is PhaseType.APPROVAL:
            if self.approve_all:
                stats.details["approved_by"] = "--approve-all"
                return PhaseCompleted(
                    effect.phase, effect.attempt, "approved", {"comment": "approved automatically (--approve-all)"}
                )
            return ApprovalRequested(effect.phase, effect.attempt)
        try:
            return await run_attempt(self.ctx, state, phase, effect.attempt, effect.visit, stats)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the runtime itself failed this attempt: record it, never lose the run
            stats.message = f"{type(exc).__name__}: {exc}"
            return PhaseFailed(effect.phase, effect.attempt, "internal", False, getattr(exc, "code", "RUNTIME_ERROR"))

    def _finish(self, effect: RunFinished) -> None:
        head = self.worktrees.head_sha(self.worktree)
        fields: dict[str, object] = {"head_sha": head}
        if effect.status is RunStatus.COMPLETED and not self.keep_worktree:
            self.worktrees.remove(self.worktree)
            fields["worktree_path"] = None
        self.store.update_run(self.run_id, **fields)
        self.progress.run_finished(effect)


def create_run(
    store: SqlRunStore,
    workflow: Workflow,
    location: RepoLocation,
    options: RunOptions,
) -> tuple[int, Path, RunState]:
    """Compile the workflow, create the run, its branch and worktree; return (run id, worktree, state)."""
    worktrees = GitWorktrees(location)
    base = worktrees.resolve_base(options.base)
    tree_id, _version = store.compile(workflow)
    run_id = store.create_run(
        tree_id,
        workflow,
        dict(options.inputs),
        base_sha=base.sha,
        base_ref=base.ref_name,
        repo_path=str(location.root),
    )
    template = choose_branch_template(options.branch, None, options.env)
    tokens = branch_tokens(tree_key=workflow.key, run_id=run_id, base_sha=base.sha, node_key=workflow.start)
    branch = render_branch_name(template, tokens)
    worktree = worktrees.create(run_id, branch, base.sha)
    state = initial_state(workflow, options.inputs)
    store.update_run(
        run_id,
        branch=worktree.branch,
        worktree_path=str(worktree.path),
        head_sha=base.sha,
        engine_state=state_to_json(state),
    )
    return run_id, worktree.path, state


def start_run(runner: Runner, state: RunState) -> RunState:
    """Run a freshly created run from its start phase."""
    return runner.drive(state, RunStarted())
