"""Graph-level checks of a built workflow: targets, paths, decisions, reachability, exhaustiveness."""

from __future__ import annotations

import itertools

import yaml

from alphred.guards import compared_strings, evaluate_guard, guard_paths
from alphred.workflow.fan_outs import check_parallel, resolvers
from alphred.workflow.model import RESERVED_TARGETS, Phase, PhaseType, SourcePos, Transition, Workflow
from alphred.workflow.typed_paths import comparison_problems, declared_type, item_type, typed_problem, untyped_owner
from alphred.workflow.yaml_source import Collector, NodeIndex, did_you_mean

PHASE_FIELDS = ("decision", "report", "exit_code", "visits", "status")
RUN_FIELDS = ("tokens", "cost_usd", "steps")
MERGE_FIELDS = ("branch", "conflicts", "status")
BRANCHES_FIELDS = ("completed", "failed", "skipped", "results")
ROOTS = (
    "decision", "report", "exit_code", "attempt", "visits", "stalled_visits", "inputs", "phases", "run", "checks",
    "merge", "branches", "artifacts", "memory",
)  # fmt: skip
MAX_INSTANCE_KEY = 64  # run_nodes.node_key: a for_each instance key <phase>-<index> must fit
PLACE_FIELDS = ("dir",)  # artifacts.dir, memory.dir (SPEC §17)
CHECK_FIELDS = ("passed", "exit_code")
EXIT_CODES = (0, 1, 2, 124, 127, 130, 255)


def check_graph(workflow: Workflow, nodes: NodeIndex, out: Collector, strict: bool = False) -> None:
    """Report every graph-level problem of ``workflow`` into ``out``.

    ``strict`` (``validate --strict``) adds a warning for each path into the report of a phase without
    ``output:`` (it reads null when the field is missing; SPEC §12).
    """
    keys = workflow.phase_keys
    if workflow.start not in keys:
        where = nodes.start if nodes.start is not None else SourcePos(1, 1)
        out.error(where, f"start phase '{workflow.start}' is not a phase{did_you_mean(workflow.start, keys)}")
    if workflow.pull_request and workflow.pull_request.body_from:
        body_from = workflow.pull_request.body_from
        if body_from not in keys and nodes.body_from is not None:
            out.error(nodes.body_from, f"body_from names unknown phase '{body_from}'{did_you_mean(body_from, keys)}")
    if workflow.pull_request_when is not None and nodes.pull_request_when is not None:
        for path in guard_paths(workflow.pull_request_when):
            problem = path_problem(workflow, path)
            if problem:
                out.error(nodes.pull_request_when, f"{problem} in pull_request when")
    for phase in workflow.phases:
        wanted = phase.options.get("body_from") if phase.type is PhaseType.PULL_REQUEST else None
        node = nodes.templates.get(("$body_from", phase.key))
        if isinstance(wanted, str) and wanted not in keys and node is not None:
            out.error(node, f"body_from names unknown phase '{wanted}'{did_you_mean(wanted, keys)}")
        _check_targets(phase, keys, nodes, out)
        _check_edge_caps(workflow, phase, nodes, out)
        _check_context(phase, keys, nodes, out)
        _check_guards(workflow, phase, nodes, out, strict)
        _check_templates(workflow, phase, nodes, out, strict)
        _check_dynamic(workflow, phase, nodes, out)
    if workflow.pull_request_title is not None:
        node = nodes.templates.get(("$pull_request", "title"))
        for placeholder in workflow.pull_request_title.paths:
            problem = path_problem(workflow, placeholder.path)
            if problem and node is not None:
                out.error(node, f"{problem} in pull_request title")
    if workflow.start in keys:
        _check_reachable(workflow, nodes, out)
        check_parallel(workflow, nodes, out)
    for phase in workflow.phases:
        _check_exhaustive(phase, nodes, out)


def path_problem(
    workflow: Workflow, path: tuple[str, ...], guarded: Phase | None = None, templated: Phase | None = None
) -> str | None:
    """Why a guard/template path is unknown, or None when it is one of SPEC §3's paths.

    ``guarded`` is the phase whose transition guard reads the path (``checks.*`` exist only there);
    ``templated`` the phase whose template reads it. A path into a typed report is checked against its
    ``output:`` schema (SPEC §12). A for_each item's ``as`` name (SPEC §13) exists only inside its branch.
    """
    dotted = ".".join(path)
    root = path[0]
    if root == "report":
        return typed_problem(workflow, path, guarded or templated, guarded is not None)
    reader = guarded or templated
    alias = workflow.item_alias(reader.key) if reader is not None else None
    if alias is not None and root == alias:
        item = item_type(workflow, path, reader)
        return item[1] if item is not None else None
    if alias is not None and root == f"{alias}_index":
        return None if len(path) == 1 else f"unknown path '{dotted}' ('{root}' has no fields)"
    if root == "branches":
        if len(path) < 2 or path[1] not in BRANCHES_FIELDS:
            hint = did_you_mean(path[1], BRANCHES_FIELDS) if len(path) > 1 else ""
            return f"unknown path '{dotted}': branches has {', '.join(BRANCHES_FIELDS)}{hint}"
        return None
    if root == "checks":
        return _checks_path_problem(path, guarded)
    if root in ("decision", "exit_code", "attempt", "visits", "stalled_visits"):
        return None if len(path) == 1 else f"unknown path '{dotted}' ('{root}' has no fields)"
    if root == "inputs":
        names = [i.name for i in workflow.inputs]
        if len(path) != 2:
            return f"unknown path '{dotted}' (use inputs.<name>)"
        if path[1] not in names:
            return f"unknown path '{dotted}': no input '{path[1]}' is declared{did_you_mean(path[1], names)}"
        return None
    if root == "phases":
        if len(path) < 3:
            return f"unknown path '{dotted}' (use phases.<key>.<{'|'.join(PHASE_FIELDS)}>)"
        if path[1] not in workflow.phase_keys:
            return f"unknown path '{dotted}': no phase '{path[1]}'{did_you_mean(path[1], workflow.phase_keys)}"
        if path[2] not in PHASE_FIELDS:
            return (
                f"unknown path '{dotted}': phases have {', '.join(PHASE_FIELDS)}{did_you_mean(path[2], PHASE_FIELDS)}"
            )
        if path[2] != "report" and len(path) > 3:
            return f"unknown path '{dotted}' ('{path[2]}' has no fields)"
        return typed_problem(workflow, path, None, True)
    if root == "merge":
        if len(path) != 2 or path[1] not in MERGE_FIELDS:
            hint = did_you_mean(path[1], MERGE_FIELDS) if len(path) > 1 else ""
            return f"unknown path '{dotted}': merge has {', '.join(MERGE_FIELDS)}{hint}"
        return None
    if root in ("artifacts", "memory"):
        if root == "memory" and workflow.memory is None:
            return f"unknown path '{dotted}': the workflow declares no 'memory:'"
        if len(path) != 2 or path[1] not in PLACE_FIELDS:
            return f"unknown path '{dotted}' (use {root}.dir)"
        return None
    if root == "run":
        if len(path) != 2 or path[1] not in RUN_FIELDS:
            hint = did_you_mean(path[1], RUN_FIELDS) if len(path) > 1 else ""
            return f"unknown path '{dotted}': run has {', '.join(RUN_FIELDS)}{hint}"
        return None
    return f"unknown path '{dotted}'{did_you_mean(root, ROOTS)}"


def _checks_path_problem(path: tuple[str, ...], guarded: Phase | None) -> str | None:
    dotted = ".".join(path)
    if guarded is None:
        return f"unknown path '{dotted}': checks.<name> is readable in guards only (of the phase that has the checks)"
    names = tuple(c.name for c in guarded.checks)
    if len(path) != 3 or path[2] not in CHECK_FIELDS:
        return f"unknown path '{dotted}' (use checks.<name>.passed or checks.<name>.exit_code)"
    if path[1] not in names:
        declared = ", ".join(names) or "none"
        return (
            f"unknown path '{dotted}': phase '{guarded.key}' has no check '{path[1]}' (checks: {declared})"
            f"{did_you_mean(path[1], names)}"
        )
    return None


def _check_targets(phase: Phase, keys: tuple[str, ...], nodes: NodeIndex, out: Collector) -> None:
    for t in phase.transitions:
        for index, target in enumerate(t.targets):
            if target in keys or target in RESERVED_TARGETS:
                continue
            node = nodes.templates.get(("$to", f"{phase.key}#{t.priority}#{index}"))
            node = node or nodes.templates.get(("$to", f"{phase.key}#{t.priority}"))
            hint = did_you_mean(target, (*keys, *RESERVED_TARGETS))
            message = f"transition of '{phase.key}' goes to unknown phase '{target}'{hint}"
            if target.startswith("$"):
                message = f"unknown reserved target '{target}' (use $end or $fail)"
            out.error(node if node is not None else t.pos, message)


def _check_edge_caps(workflow: Workflow, phase: Phase, nodes: NodeIndex, out: Collector) -> None:
    """Warn about an edge ``max`` the target's ``max_visits`` would cut short (the run fails on the visit cap
    before the edge is used up, so route-on-exhaustion never happens)."""
    for t in phase.transitions:
        if t.max is None:
            continue
        for target in t.targets:
            if target not in workflow.phase_keys or t.max <= workflow.phase(target).max_visits:
                continue
            visits = workflow.phase(target).max_visits
            node = nodes.templates.get(("$max", f"{phase.key}#{t.priority}"))
            out.warning(
                node if node is not None else t.pos,
                f"transition of '{phase.key}' to '{target}' has max {t.max}, more than max_visits {visits} of "
                f"'{target}': the run fails on the visit cap (max_visits) before the edge is used up; lower max "
                f"or raise max_visits",
            )


def _check_context(phase: Phase, keys: tuple[str, ...], nodes: NodeIndex, out: Collector) -> None:
    for key in phase.context or ():
        if key not in keys:
            node = nodes.templates.get(("$context", key))
            out.error(
                node or phase.pos,
                f"context of '{phase.key}' names unknown phase '{key}'{did_you_mean(key, keys)}",
            )


def _check_guards(workflow: Workflow, phase: Phase, nodes: NodeIndex, out: Collector, strict: bool) -> None:
    for t in phase.transitions:
        if t.guard is None:
            continue
        where: yaml.Node | SourcePos = nodes.when.get((phase.key, t.priority)) or t.pos
        for path in guard_paths(t.guard):
            problem = path_problem(workflow, path, phase)
            if problem:
                out.error(where, f"{problem} in guard of '{phase.key}'")
            elif strict:
                _warn_untyped(workflow, path, phase, True, out, (where, f"guard of '{phase.key}'"))
        for problem in comparison_problems(workflow, t.guard, phase):
            out.error(where, f"{problem} in guard of '{phase.key}'")
        for used in compared_strings(t.guard, ("decision",)):
            if phase.type is PhaseType.COMMAND:
                out.error(where, f"command phase '{phase.key}' has no decision (route on exit_code instead)")
                break
            if used not in phase.decisions:
                out.error(where, _undeclared(used, phase))
        others = {p[1] for p in guard_paths(t.guard) if len(p) == 3 and p[0] == "phases" and p[2] == "decision"}
        for other in workflow.phases:
            if other.key not in others:
                continue
            for used in compared_strings(t.guard, ("phases", other.key, "decision")):
                if used not in other.decisions:
                    out.error(where, _undeclared(used, other))


def _undeclared(used: str, phase: Phase) -> str:
    declared = ", ".join(phase.decisions) or "none"
    return (
        f"decision '{used}' is not declared by phase '{phase.key}' (decisions: {declared})"
        f"{did_you_mean(used, phase.decisions)}"
    )


def _check_templates(workflow: Workflow, phase: Phase, nodes: NodeIndex, out: Collector, strict: bool) -> None:
    for field, template in phase.templates.items():
        node = nodes.templates.get((phase.key, field))
        for placeholder in template.paths:
            problem = path_problem(workflow, placeholder.path, templated=phase)
            if problem:
                out.error(node or phase.pos, f"{problem} in {field} of '{phase.key}'")
            elif strict:
                where = (node or phase.pos, f"{field} of '{phase.key}'")
                _warn_untyped(workflow, placeholder.path, phase, False, out, where)
    for check in phase.checks:
        node = nodes.templates.get((phase.key, f"check '{check.name}'"))
        for placeholder in check.template.paths if check.template is not None else ():
            problem = path_problem(workflow, placeholder.path, templated=phase)
            if problem:
                out.error(node or check.pos, f"{problem} in check '{check.name}' of '{phase.key}'")


def _check_dynamic(workflow: Workflow, phase: Phase, nodes: NodeIndex, out: Collector) -> None:
    """SPEC §13: a for_each path must exist and its ``as`` shadow no reserved path; a guarded branch's
    ``when`` reads known paths."""
    for t in phase.transitions:
        for index, guard in enumerate(t.branch_guards):
            if guard is None:
                continue
            where = nodes.templates.get(("$branch_when", f"{phase.key}#{t.priority}#{index}")) or t.pos
            for path in guard_paths(guard):
                problem = path_problem(workflow, path, phase)
                if problem:
                    out.error(where, f"{problem} in guard of branch '{t.fan_out[index]}' of '{phase.key}'")
        if t.for_each is None or t.alias is None:
            continue
        where = nodes.templates.get(("$for_each", f"{phase.key}#{t.priority}")) or t.pos
        problem = path_problem(workflow, t.for_each, phase)
        if problem:
            out.error(where, f"{problem} in for_each of '{phase.key}'")
        declared = declared_type(workflow, t.for_each, phase)
        if declared is not None and declared.types and "array" not in declared.types:
            dotted = ".".join(t.for_each)
            out.error(where, f"for_each of '{phase.key}' reads '{dotted}', which is {declared.shown}, not a list")
        if t.alias in ROOTS:
            alias_node = nodes.templates.get(("$as", f"{phase.key}#{t.alias}")) or t.pos
            out.error(
                alias_node, f"'as: {t.alias}' shadows the reserved path '{t.alias}' (use another name, e.g. task)"
            )
        _check_instance_keys(workflow, phase, t, where, out)


def _check_instance_keys(
    workflow: Workflow, phase: Phase, t: Transition, where: yaml.Node | SourcePos, out: Collector
) -> None:
    """Each phase of a for_each branch runs as ``<phase>-<index>``, a key stored in 64 characters: the
    longest index (``limits.max_items`` - 1) must fit after every phase key of the branch."""
    group = next((g for g in workflow.fan_outs if (g.source, g.priority) == (phase.key, t.priority)), None)
    if group is None:
        return
    suffix = len(f"-{workflow.limits.max_items - 1}")
    for key in sorted(set().union(*group.regions.values())):
        if len(key) + suffix > MAX_INSTANCE_KEY:
            out.error(
                where,
                f"phase '{key}' of the for_each of '{phase.key}' runs as '{key}-<index>', longer than "
                f"{MAX_INSTANCE_KEY} characters with {workflow.limits.max_items} items: shorten its key",
            )


def _warn_untyped(
    workflow: Workflow,
    path: tuple[str, ...],
    reader: Phase,
    guard: bool,
    out: Collector,
    where: tuple[yaml.Node | SourcePos, str],
) -> None:
    owner = untyped_owner(workflow, path, reader, guard)
    if owner is not None:
        out.warning(
            where[0],
            f"'{'.'.join(path)}' in {where[1]} reads the report of '{owner.key}', which has no 'output:' "
            "(a missing field is null); declare its output schema to have the path checked",
        )


def _check_reachable(workflow: Workflow, nodes: NodeIndex, out: Collector) -> None:
    seen = {workflow.start}
    todo = [workflow.start]
    while todo:
        phase = workflow.phase(todo.pop())
        for t in phase.transitions:
            for target in t.targets:
                if target in workflow.phase_keys and target not in seen:
                    seen.add(target)
                    todo.append(target)
    used_as_resolver = resolvers(workflow)
    for phase in workflow.phases:
        if phase.key not in seen and phase.key not in used_as_resolver:
            node = nodes.phases.get(phase.key)
            out.warning(node or phase.pos, f"phase '{phase.key}' is unreachable from '{workflow.start}'")


def _check_exhaustive(phase: Phase, nodes: NodeIndex, out: Collector) -> None:
    """Warn when some outcome of the phase may match no transition (the run then ends with no_route)."""
    if not phase.transitions or any(t.guard is None and t.max is None for t in phase.transitions):
        return
    node = nodes.phases.get(phase.key) or phase.pos
    guarded = [t for t in phase.transitions if t.guard is not None and t.max is None]
    if not guarded:
        out.warning(
            node,
            f"every transition of '{phase.key}' has 'max'; once they are used up the run would complete with no_route",
        )
        return
    reads = {p for t in guarded if t.guard is not None for p in guard_paths(t.guard)}
    decisions: tuple[str | None, ...] = phase.decisions if phase.type is not PhaseType.COMMAND else (None,)
    codes: tuple[int | None, ...] = (None,)
    if phase.type is PhaseType.COMMAND:
        codes = EXIT_CODES if phase.allow_failure else (0,)
    if not reads <= {("decision",), ("exit_code",)}:
        out.warning(
            node,
            f"transitions of '{phase.key}' may match nothing (no transition without 'when' or 'max'); "
            "the run would then complete with no_route",
        )
        return
    for decision, code in itertools.product(decisions, codes):
        context = {"decision": decision, "exit_code": code}
        if not any(t.guard is not None and evaluate_guard(t.guard, context) for t in guarded):
            outcome = f"decision '{decision}'" if decision is not None else f"exit code {code}"
            out.warning(
                node,
                f"no transition of '{phase.key}' matches {outcome}; the run would then complete with no_route",
            )
            return
