"""Guard and template contexts (SPEC §3) and transition selection (SPEC §2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alphred.engine.state import RunState
from alphred.guards import evaluate_guard
from alphred.guards.explain import read_paths
from alphred.workflow.model import Phase, Transition, Workflow, base_key

NO_ROUTE = "no_route"

Explanation = tuple[dict[str, Any], ...]
"""How a routing went, transition by transition (JSON-ready, stored with the routing decision)::

    {"priority": 0, "to": "fix", "when": "report.risk == \"high\"", "result": "no match",
     "reads": [{"path": "report.risk", "value": "null", "note": "no such key; did you mean risks?"}]}

``result`` is ``matched``, ``no match`` or ``exhausted`` (its ``max`` used up; ``taken`` says how often).
Only the transitions routing looked at are listed: those before the chosen one, and the chosen one.
"""


def guard_context(state: RunState, workflow: Workflow, phase_key: str) -> dict[str, Any]:
    """Return the guard context for routing out of ``phase_key`` (the phase just finished)."""
    ps = state.phase(phase_key)
    context = run_context(state, workflow, phase_key)
    context.update(
        decision=ps.decision,
        report=ps.report,
        exit_code=ps.exit_code,
        attempt=ps.attempt,
        visits=ps.visits,
        stalled_visits=ps.stalls,  # consecutive visits that left the tree and report as the one before (§15)
        merge=_merge_context(state, workflow, phase_key),
        checks={name: dict(outcome) for name, outcome in ps.checks.items()},
    )
    return context


def template_context(state: RunState, workflow: Workflow, phase_key: str) -> dict[str, Any]:
    """Return the context for rendering ``phase_key``'s templates before it starts.

    ``decision``, ``report`` and ``exit_code`` are those of the phase that routed into it (null for the
    start phase); ``attempt`` and ``visits`` are the phase's own.
    """
    ps = state.phase(phase_key)
    source = state.phase(ps.entered_from) if ps.entered_from is not None else None
    context = run_context(state, workflow, phase_key)
    context.update(
        decision=source.decision if source else None,
        report=source.report if source else None,
        exit_code=source.exit_code if source else None,
        attempt=ps.attempt,
        visits=ps.visits,
        stalled_visits=ps.stalls,
        merge=_merge_context(state, workflow, phase_key),
    )
    return context


def run_context(state: RunState, workflow: Workflow, phase_key: str | None = None) -> dict[str, Any]:
    """The paths every guard may read: ``inputs``, ``phases.<key>.*``, ``run.*``, ``branches.*`` (``pull_request.when``
    reads only these: the final state); with ``phase_key``, a for_each item's ``<as>``/``<as>_index`` too."""
    phases: dict[str, Any] = {}
    for key in workflow.phase_keys:
        ps = state.phase(key)
        phases[key] = {
            "decision": ps.decision,
            "report": ps.report,
            "exit_code": ps.exit_code,
            "visits": ps.visits,
            "status": ps.status.value,
        }
    context: dict[str, Any] = {
        "inputs": dict(state.inputs),
        "phases": phases,
        "run": {"tokens": state.tokens, "cost_usd": state.cost_usd, "steps": state.steps},
        "branches": None if state.branches is None else dict(state.branches),
    }
    if phase_key is not None:
        context.update(item_context(state, workflow, phase_key))
    return context


def item_context(state: RunState, workflow: Workflow, phase_key: str) -> dict[str, Any]:
    """``<as>`` and ``<as>_index`` for a phase of a for_each item's branch (SPEC §13); else nothing.

    The item is the one stored with the branch's lane when the for_each was taken (never read again).
    """
    if base_key(phase_key) == phase_key:
        return {}
    alias = workflow.item_alias(phase_key)
    index = int(phase_key.rpartition("-")[2])
    lane = next((lane for lane in state.lanes if lane.index == index), None)
    if alias is None or lane is None:
        return {}
    return {alias: lane.item, f"{alias}_index": index}


def _merge_context(state: RunState, workflow: Workflow, phase_key: str) -> dict[str, Any] | None:
    """``merge.*`` for the join (``status``) and for its resolver (``branch``, ``conflicts``); else None."""
    merge = state.merge
    if merge is None:
        return None
    if phase_key == merge.join:
        return {"status": merge.status}
    if merge.conflicts and workflow.phase(merge.join).on_conflict == phase_key:
        return {"branch": merge.ref, "conflicts": list(merge.conflicts)}
    return None


def ordered_transitions(phase: Phase) -> tuple[Transition, ...]:
    """Return ``phase``'s transitions in evaluation (priority) order."""
    return phase.by_priority


def edge_exhausted(transition: Transition, source: str, edges: Mapping[tuple[str, int], int]) -> bool:
    """True when ``transition`` has a ``max`` and has been taken that many times already."""
    if transition.max is None:
        return False
    return edges.get((source, transition.priority), 0) >= transition.max


def choose_transition(state: RunState, workflow: Workflow, key: str) -> tuple[Transition | None, Explanation]:
    """The transition routing takes out of ``key`` (None: no route) and the explanation of that choice,
    computed from the same context, so that what is stored is exactly what routing saw."""
    phase = workflow.phase(key)
    context = guard_context(state, workflow, key)
    chosen = select_transition(phase, context, state.edges)
    return chosen, explain_routing(phase, context, state.edges, chosen)


def explain_routing(
    phase: Phase, context: Mapping[str, Any], edges: Mapping[tuple[str, int], int], chosen: Transition | None
) -> Explanation:
    """Each transition routing looked at (priority order, up to ``chosen``), with what its guard read;
    empty when the first transition is an unlimited ``auto`` (nothing to explain)."""
    ordered = ordered_transitions(phase)
    if chosen is not None and ordered[0] is chosen and chosen.guard is None and chosen.max is None:
        return ()
    explained: list[dict[str, Any]] = []
    for transition in ordered:
        entry: dict[str, Any] = {
            "priority": transition.priority,
            "to": ",".join(transition.targets),
            "when": transition.when,
        }
        if edge_exhausted(transition, phase.key, edges):
            entry["result"] = "exhausted"
            entry["taken"] = edges.get((phase.key, transition.priority), 0)
        else:
            entry["result"] = "matched" if transition is chosen else "no match"
        if transition.guard is not None:
            entry["reads"] = [
                {"path": r.path, "value": r.value, "note": r.note} for r in read_paths(transition.guard, context)
            ]
        explained.append(entry)
        if transition is chosen:
            break
    return tuple(explained)


def select_transition(
    phase: Phase, context: Mapping[str, Any], edges: Mapping[tuple[str, int], int], source: str | None = None
) -> Transition | None:
    """Return the first transition (priority order) that is not exhausted and whose guard holds.

    ``source`` is the key the edges are counted under (a for_each item's ``<phase>-<index>``; default the
    phase's own key).
    """
    for transition in ordered_transitions(phase):
        if edge_exhausted(transition, source or phase.key, edges):
            continue
        if transition.guard is None or evaluate_guard(transition.guard, context):
            return transition
    return None
