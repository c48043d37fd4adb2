"""Helpers for the engine tests: build a Workflow from a compact dict and drive the machine."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from alphred.engine import Effect, Event, RunState, initial_state, transition
from alphred.guards import parse_guard
from alphred.workflow.model import (
    APPROVAL_DECISIONS,
    DEFAULT_DECISIONS,
    InputSpec,
    Limits,
    Phase,
    PhaseType,
    Transition,
    Workflow,
)

TransitionSpec = str | tuple[str, str | None] | tuple[str, str | None, int | None]


def build_workflow(
    phases: Mapping[str, Mapping[str, Any]],
    *,
    start: str | None = None,
    max_steps: int = 100,
    max_tokens: int | None = None,
    max_cost_usd: float | None = None,
    inputs: Sequence[InputSpec] = (),
) -> Workflow:
    """Build a Workflow: ``{"a": {"to": ["b", ("c", 'decision == "x"', 2)], "type": "command"}}``.

    A transition is ``target``, ``(target, when)`` or ``(target, when, max)``; priorities follow list
    order unless the phase gives ``priorities``. Other phase keys are passed to ``Phase`` unchanged.
    """
    built = []
    for index, (key, spec) in enumerate(phases.items()):
        fields = dict(spec)
        kind = PhaseType(fields.pop("type", "agent"))
        targets: Iterable[TransitionSpec] = fields.pop("to", ())
        priorities: Sequence[int] | None = fields.pop("priorities", None)
        transitions = []
        for position, item in enumerate(targets):
            target, when, cap = _transition_parts(item)
            priority = priorities[position] if priorities is not None else position + 1
            guard = parse_guard(when) if when is not None else None
            transitions.append(Transition(target=target, priority=priority, when=when, guard=guard, max=cap))
        default_decisions = {
            PhaseType.AGENT: DEFAULT_DECISIONS,
            PhaseType.APPROVAL: APPROVAL_DECISIONS,
            PhaseType.COMMAND: (),
        }[kind]
        fields.setdefault("decisions", default_decisions)
        if kind is PhaseType.AGENT:
            fields.setdefault("provider", "scripted")
        if kind is PhaseType.COMMAND:
            fields.setdefault("run", "true")
        built.append(Phase(key=key, type=kind, sequence_index=index, transitions=tuple(transitions), **fields))
    return Workflow(
        key="wf",
        phases=tuple(built),
        start=start if start is not None else built[0].key,
        inputs=tuple(inputs),
        limits=Limits(max_steps=max_steps, max_tokens=max_tokens, max_cost_usd=max_cost_usd),
    )


def _transition_parts(item: TransitionSpec) -> tuple[str, str | None, int | None]:
    if isinstance(item, str):
        return item, None, None
    if len(item) == 2:
        return item[0], item[1], None
    return item[0], item[1], item[2]


class Driver:
    """Feeds events to the machine, keeping the current state and every effect emitted so far."""

    def __init__(self, workflow: Workflow, inputs: Mapping[str, str] | None = None) -> None:
        self.workflow = workflow
        self.state: RunState = initial_state(workflow, inputs or {})
        self.effects: list[Effect] = []

    def send(self, *events: Event) -> tuple[Effect, ...]:
        """Apply ``events`` in order; return the effects of the last one."""
        last: tuple[Effect, ...] = ()
        for event in events:
            self.state, last = transition(self.state, event)
            self.effects.extend(last)
        return last

    def attempt(self, phase: str) -> int:
        """The attempt counter of ``phase`` now."""
        return self.state.phase(phase).attempt
