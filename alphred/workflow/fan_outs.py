"""Parallel branches (SPEC §8): the fan-outs of a workflow, their branches and joins, and their checks.

``fan_outs`` gives the structure (``FanOut``, derived by the model: the engine and the runtime use it too);
``check_parallel`` reports every
§8 rule a workflow breaks, each at its line: disjoint branches, every path from a branch ending at the same
join or at ``$fail`` (no ``$end``, no terminal phase inside a branch), no fan-out inside a branch, a join
entered only from its fan-out's branches, and an ``on_conflict`` phase with no transitions that nothing
but a join uses.
"""

from __future__ import annotations

import yaml

from alphred.workflow.model import RESERVED_TARGETS, FanOut, PhaseType, SourcePos, Transition, Workflow
from alphred.workflow.yaml_source import Collector, NodeIndex, did_you_mean


def fan_outs(workflow: Workflow) -> tuple[FanOut, ...]:
    """Every fan-out of ``workflow`` in file order (computed once per workflow object)."""
    return workflow.fan_outs


def resolvers(workflow: Workflow) -> frozenset[str]:
    """Phases named by some join's ``on_conflict``."""
    return frozenset(p.on_conflict for p in workflow.phases if p.on_conflict is not None)


def check_parallel(workflow: Workflow, nodes: NodeIndex, out: Collector) -> None:
    """Report every §8 rule ``workflow`` breaks into ``out``."""
    groups = fan_outs(workflow)
    for group in groups:
        _check_fan_out(workflow, group, nodes, out)
    _check_entries(workflow, groups, nodes, out)
    _check_joins(workflow, groups, nodes, out)
    _check_resolvers(workflow, nodes, out)


def _where(nodes: NodeIndex, *keys: tuple[str, str], fallback: yaml.Node | SourcePos) -> yaml.Node | SourcePos:
    for key in keys:
        node = nodes.templates.get(key)
        if node is not None:
            return node
    return fallback


def _to_node(nodes: NodeIndex, phase: str, t: Transition) -> yaml.Node | SourcePos:
    return _where(nodes, ("$to", f"{phase}#{t.priority}"), fallback=t.pos)


def _branch_node(nodes: NodeIndex, phase: str, t: Transition, index: int) -> yaml.Node | SourcePos:
    return _where(nodes, ("$to", f"{phase}#{t.priority}#{index}"), fallback=_to_node(nodes, phase, t))


def _check_fan_out(workflow: Workflow, group: FanOut, nodes: NodeIndex, out: Collector) -> None:
    source = workflow.phase(group.source)
    t = next(t for t in source.transitions if t.priority == group.priority)
    what = f"the fan-out of '{group.source}'"
    if not group.joins:
        out.error(_to_node(nodes, group.source, t), f"the branches of {what} never reach a phase marked 'join:'")
    elif len(group.joins) > 1:
        found = ", ".join(group.joins)
        out.error(_to_node(nodes, group.source, t), f"every branch of {what} must end at the same join (found {found})")
    for phase_key, priority in group.ends:
        inner = next(x for x in workflow.phase(phase_key).transitions if x.priority == priority)
        out.error(
            _to_node(nodes, phase_key, inner),
            f"'$end' inside a branch of {what}: a branch ends at its join or at $fail",
        )
    seen: dict[str, str] = {}
    for head in group.branches:
        for key in sorted(group.regions[head], key=workflow.phase_keys.index):
            phase = workflow.phase(key)
            where = nodes.phases.get(key) or phase.pos
            if key in seen:
                out.error(
                    where,
                    f"phase '{key}' is reachable from two branches of {what} ('{seen[key]}' and '{head}'); "
                    "branches must be disjoint",
                )
                continue
            seen[key] = head
            if phase.type is PhaseType.APPROVAL:
                out.error(
                    where, f"approval phase '{key}' inside branch '{head}' of {what}: approvals run on the run branch"
                )
            if phase.type in (PhaseType.PULL_REQUEST, PhaseType.CI):
                out.error(
                    where,
                    f"{phase.type.value} phase '{key}' inside branch '{head}' of {what}: "
                    "the pull request is the run branch's, so this phase runs on the run branch",
                )
            if phase.type is PhaseType.WORKFLOW:
                out.error(
                    where,
                    f"workflow phase '{key}' inside branch '{head}' of {what}: a sub-workflow runs on the run branch",
                )
            if not phase.transitions:
                out.error(
                    where,
                    f"phase '{key}' in branch '{head}' of {what} has no transitions: "
                    "every path from a branch must end at the join or at $fail",
                )
            for inner in phase.transitions:
                if inner.fan_out:
                    out.error(
                        _to_node(nodes, key, inner),
                        f"fan-out inside branch '{head}' of {what}: format 1 does not nest fan-outs",
                    )


def _check_entries(workflow: Workflow, groups: tuple[FanOut, ...], nodes: NodeIndex, out: Collector) -> None:
    """A branch's phases are entered only by its fan-out (the head) or from inside the branch."""
    owner: dict[str, tuple[FanOut, str]] = {}
    for group in groups:
        for head in group.branches:
            for key in group.regions[head]:
                owner.setdefault(key, (group, head))
    if workflow.start in owner:
        group, head = owner[workflow.start]
        where = nodes.start if nodes.start is not None else SourcePos(1, 1)
        out.error(where, f"start phase '{workflow.start}' is in branch '{head}' of the fan-out of '{group.source}'")
    for phase in workflow.phases:
        for t in phase.transitions:
            for index, target in enumerate(t.targets):
                if target not in owner:
                    continue
                group, head = owner[target]
                if any(phase.key in region for region in group.regions.values()):
                    continue  # inside the fan-out: a phase of another branch is a disjointness error
                if phase.key == group.source and t.priority == group.priority and target == head:
                    continue
                out.error(
                    _branch_node(nodes, phase.key, t, index),
                    f"phase '{target}' belongs to branch '{head}' of the fan-out of '{group.source}' "
                    f"and cannot be entered from '{phase.key}'",
                )


def _check_joins(workflow: Workflow, groups: tuple[FanOut, ...], nodes: NodeIndex, out: Collector) -> None:
    for phase in workflow.phases:
        if phase.join is None:
            continue
        where = nodes.phases.get(phase.key) or phase.pos
        mine = [g for g in groups if phase.key in g.joins]
        if not mine:
            out.error(where, f"join phase '{phase.key}' is not reached by the branches of any fan-out")
            continue
        if len(mine) > 1:
            sources = ", ".join(f"'{g.source}'" for g in mine)
            out.error(where, f"join phase '{phase.key}' joins several fan-outs ({sources}); give each its own join")
        inside = {key for g in mine for region in g.regions.values() for key in region}
        for other in workflow.phases:
            for t in other.transitions:
                if phase.key in t.targets and other.key not in inside:
                    out.error(
                        _to_node(nodes, other.key, t),
                        f"join phase '{phase.key}' is entered only from the branches of its fan-out, "
                        f"not from '{other.key}'",
                    )
        if workflow.start == phase.key:
            out.error(nodes.start or where, f"start phase '{phase.key}' cannot be a join")


def _check_resolvers(workflow: Workflow, nodes: NodeIndex, out: Collector) -> None:
    keys = workflow.phase_keys
    checked: set[str] = set()
    for phase in workflow.phases:
        if phase.on_conflict is None:
            continue
        where = _where(nodes, ("$on_conflict", phase.key), fallback=phase.pos)
        name = phase.on_conflict
        if phase.join is None:
            out.error(where, f"on_conflict is only allowed on a join phase ('{phase.key}' has no 'join:')")
        if name in RESERVED_TARGETS or name not in keys:
            out.error(where, f"on_conflict of '{phase.key}' names unknown phase '{name}'{did_you_mean(name, keys)}")
            continue
        resolver = workflow.phase(name)
        resolver_where = nodes.phases.get(name) or resolver.pos
        if name == phase.key:
            out.error(where, f"join phase '{phase.key}' cannot resolve its own conflicts")
        if name in checked:
            continue
        checked.add(name)
        if resolver.transitions:
            out.error(resolver_where, f"on_conflict phase '{name}' must have no transitions (it only resolves)")
        if resolver.join is not None:
            out.error(resolver_where, f"on_conflict phase '{name}' cannot be a join")
        if workflow.start == name:
            out.error(nodes.start or resolver_where, f"on_conflict phase '{name}' cannot be the start phase")
    used = resolvers(workflow)
    for phase in workflow.phases:
        for t in phase.transitions:
            for index, target in enumerate(t.targets):
                if target in used:
                    out.error(
                        _branch_node(nodes, phase.key, t, index),
                        f"phase '{target}' is an on_conflict resolver and is reachable only as one "
                        f"(not from '{phase.key}')",
                    )


__all__ = ["FanOut", "check_parallel", "fan_outs", "resolvers"]
