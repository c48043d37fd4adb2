"""A phase's ``transitions:`` list (SPEC §2, §8): targets, guards, priorities, edge caps and fan-outs."""

from __future__ import annotations

import re
from dataclasses import field

import yaml

from alphred.guards import Expr, Path
from alphred.lazy import deferred_dataclass
from alphred.workflow import fields as f
from alphred.workflow.keys import BRANCH_KEYS, TRANSITION_KEYS
from alphred.workflow.model import RESERVED_TARGETS, Transition
from alphred.workflow.reading import Reading
from alphred.workflow.yaml_source import pos


def read_transitions(reading: Reading, key: str, node: yaml.Node) -> tuple[Transition, ...]:
    """The transitions of phase ``key`` sorted by priority; each problem is reported at its node."""
    out, nodes = reading.out, reading.nodes
    if not isinstance(node, yaml.SequenceNode):
        out.error(node, f"'transitions' of phase '{key}' must be a list")
        return ()
    result: list[Transition] = []
    used: dict[int, yaml.Node] = {}
    for index, item in enumerate(node.value):
        fields = reading.known_keys(item, TRANSITION_KEYS, "transition")
        if not fields and not isinstance(item, yaml.MappingNode):
            continue
        if "to" not in fields:
            out.error(item, "transition needs 'to'")
            continue
        listed = _fan_out(reading, key, fields["to"])
        if isinstance(fields["to"], yaml.SequenceNode) and not listed.names:
            continue
        fan_out = listed.names
        target = fan_out[0] if fan_out else f.read_str(fields["to"], "to", out)
        for_each, alias = _for_each(reading, key, fields, bool(fan_out))
        if for_each is not None and target is not None:
            fan_out = (target,)  # a dynamic fan-out: one branch per item, all of phase ``target``
        priority = index + 1
        if "priority" in fields:
            priority = f.read_int(fields["priority"], "priority", out, 0) or 0
        prio_node = fields.get("priority", item)
        if priority in used:
            other = pos(used[priority])
            out.error(prio_node, f"duplicate priority {priority} in phase '{key}' (also at line {other.line})")
        used[priority] = prio_node
        when = guard = None
        if "when" in fields:
            when = f.read_str(fields["when"], "when", out)
            if when is not None:
                guard = reading.guard(fields["when"], when)
                nodes.when[(key, priority)] = fields["when"]
        cap = f.read_int(fields["max"], "max", out, 1) if "max" in fields else None
        if "max" in fields:
            nodes.templates[("$max", f"{key}#{priority}")] = fields["max"]
        if target is None:
            continue
        nodes.transitions[(key, priority)] = item
        nodes.templates[("$to", f"{key}#{priority}")] = fields["to"]
        for i, branch in enumerate(listed.nodes):
            nodes.templates[("$to", f"{key}#{priority}#{i}")] = branch
        for i, when_node in listed.when_nodes.items():
            nodes.templates[("$branch_when", f"{key}#{priority}#{i}")] = when_node
        if for_each is not None:
            nodes.templates[("$for_each", f"{key}#{priority}")] = fields["for_each"]
        result.append(
            Transition(
                target,
                priority,
                when,
                guard,
                cap,
                pos(item),
                fan_out,
                listed.guards,
                listed.whens,
                for_each,
                alias,
            )
        )
    result.sort(key=lambda t: t.priority)
    return tuple(result)


@deferred_dataclass
class _Listed:
    """The branches of a ``to: [...]`` list: names, their nodes, and each guarded branch's ``when``."""

    names: tuple[str, ...] = ()
    nodes: tuple[yaml.Node, ...] = ()
    guards: tuple[Expr | None, ...] = ()
    whens: tuple[str | None, ...] = ()
    when_nodes: dict[int, yaml.Node] = field(default_factory=dict)


def _fan_out(reading: Reading, key: str, node: yaml.Node) -> _Listed:
    """The branches of a ``to: [a, {phase: b, when: ...}, ...]`` fan-out (SPEC §8, §13); empty when ``to``
    is not a list."""
    if not isinstance(node, yaml.SequenceNode):
        return _Listed()
    out = reading.out
    items: list[tuple[str, yaml.Node]] = []
    guards: list[Expr | None] = []
    whens: list[str | None] = []
    when_nodes: dict[int, yaml.Node] = {}
    for item in node.value:
        if isinstance(item, yaml.MappingNode):
            fields = reading.known_keys(item, BRANCH_KEYS, "fan-out branch")
            if "phase" not in fields:
                out.error(item, "a guarded branch needs 'phase' (and 'when')")
                continue
            text = f.read_str(fields["phase"], "phase", out)
            when = f.read_str(fields["when"], "when", out) if "when" in fields else None
            if text is None:
                continue
            if when is not None:
                when_nodes[len(items)] = fields["when"]
            items.append((text, fields["phase"]))
            guards.append(reading.guard(fields["when"], when) if when is not None else None)
            whens.append(when)
            continue
        text = f.read_str(item, "to", out)
        if text is not None:
            items.append((text, item))
            guards.append(None)
            whens.append(None)
    names = [text for text, _ in items]
    if len(names) < 2:
        out.error(node, f"a fan-out of '{key}' needs at least two phases (for one, write 'to: PHASE')")
        return _Listed()
    for index, (text, item) in enumerate(items):
        if text in RESERVED_TARGETS:
            out.error(item, f"a fan-out cannot go to '{text}': list phases only")
        elif text in names[:index]:
            out.error(item, f"phase '{text}' is listed twice in the fan-out of '{key}'")
    ok = len(set(names)) == len(names) and not set(names) & set(RESERVED_TARGETS)
    if not ok:
        return _Listed()
    guarded = any(g is not None for g in guards)
    return _Listed(
        tuple(names), tuple(item for _, item in items),
        tuple(guards) if guarded else (), tuple(whens) if guarded else (), when_nodes,
    )  # fmt: skip


def _for_each(
    reading: Reading, key: str, fields: dict[str, yaml.Node], listed: bool
) -> tuple[tuple[str, ...] | None, str | None]:
    """The guard path and ``as`` name of a dynamic fan-out (SPEC §13), or (None, None)."""
    out = reading.out
    if "for_each" not in fields:
        if "as" in fields:
            out.error(fields["as"], f"'as' of a transition of '{key}' needs 'for_each'")
        return None, None
    node = fields["for_each"]
    if listed:
        out.error(node, "for_each goes to one phase: write 'to: PHASE' (each item starts one branch of it)")
        return None, None
    text = f.read_str(node, "for_each", out)
    if text is None:
        return None, None
    expr = reading.guard(node, text)
    if expr is None:
        return None, None
    if not isinstance(expr, Path):
        out.error(node, f"for_each must be a guard path that yields a list (e.g. report.tasks), not '{text}'")
        return None, None
    if "as" not in fields:
        out.error(node, "for_each needs 'as': the name of the item inside each branch (e.g. as: task)")
        return None, None
    alias = f.read_str(fields["as"], "as", out)
    if alias is None:
        return None, None
    if not ALIAS.match(alias):
        out.error(fields["as"], f"'as' must be a name of lower-case letters, digits and '_', not '{alias}'")
        return None, None
    reading.nodes.templates[("$as", f"{key}#{alias}")] = fields["as"]
    return expr.parts, alias


ALIAS = re.compile(r"^[a-z_][a-z0-9_]{0,31}$")
