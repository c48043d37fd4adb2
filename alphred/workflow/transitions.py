"""A phase's ``transitions:`` list (SPEC §2, §8): targets, guards, priorities, edge caps and fan-outs."""

from __future__ import annotations

import yaml

from alphred.workflow import fields as f
from alphred.workflow.keys import TRANSITION_KEYS
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
        fan_out = _fan_out(reading, key, fields["to"])
        if isinstance(fields["to"], yaml.SequenceNode) and not fan_out:
            continue
        target = fan_out[0] if fan_out else f.read_str(fields["to"], "to", out)
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
        for i, branch in enumerate(fields["to"].value if fan_out else ()):
            nodes.templates[("$to", f"{key}#{priority}#{i}")] = branch
        result.append(Transition(target, priority, when, guard, cap, pos(item), fan_out))
    result.sort(key=lambda t: t.priority)
    return tuple(result)


def _fan_out(reading: Reading, key: str, node: yaml.Node) -> tuple[str, ...]:
    """The branches of a ``to: [a, b, ...]`` fan-out (SPEC §8); () when ``to`` is not a list."""
    if not isinstance(node, yaml.SequenceNode):
        return ()
    out = reading.out
    items = f.read_str_list(node, "to", out) or []
    names = [text for text, _ in items]
    if len(names) < 2:
        out.error(node, f"a fan-out of '{key}' needs at least two phases (for one, write 'to: PHASE')")
        return ()
    for index, (text, item) in enumerate(items):
        if text in RESERVED_TARGETS:
            out.error(item, f"a fan-out cannot go to '{text}': list phases only")
        elif text in names[:index]:
            out.error(item, f"phase '{text}' is listed twice in the fan-out of '{key}'")
    ok = len(set(names)) == len(names) and not set(names) & set(RESERVED_TARGETS)
    return tuple(names) if ok else ()
