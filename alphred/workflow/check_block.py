"""The ``checks:`` block of an agent or command phase (SPEC §9): YAML nodes -> validated ``Check`` entries."""

from __future__ import annotations

import re
from collections.abc import Callable

import yaml

from alphred.guards.templates import Template
from alphred.workflow import fields as f
from alphred.workflow.globs import glob_problem
from alphred.workflow.keys import CHECK_KEYS, CHECK_KINDS, REPORT_CHECK_KEYS
from alphred.workflow.model import DEFAULT_CHECK_TIMEOUT, Check, CheckKind, PhaseType
from alphred.workflow.yaml_source import Collector, did_you_mean, mapping_items, pos

CHECK_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,63}$")
TemplateReader = Callable[[yaml.Node, str, tuple[str, str]], Template]


def read_checks(
    node: yaml.Node, phase: str, ptype: PhaseType, out: Collector, template: TemplateReader
) -> tuple[Check, ...]:
    """Every valid check of ``phase``'s ``checks:`` list; each problem is reported at its node."""
    if not isinstance(node, yaml.SequenceNode):
        out.error(node, f"'checks' of phase '{phase}' must be a list of checks")
        return ()
    if not node.value:
        out.error(node, f"'checks' of phase '{phase}' must list at least one check (or be left out)")
        return ()
    checks: list[Check] = []
    names: dict[str, yaml.Node] = {}
    for index, item in enumerate(node.value, start=1):
        check = _read_check(item, index, phase, ptype, out, template)
        if check is None:
            continue
        if check.name in names:
            first = pos(names[check.name]).line
            out.error(
                _name_node(item), f"duplicate check name '{check.name}' in phase '{phase}' (also at line {first})"
            )
            continue
        names[check.name] = _name_node(item)
        checks.append(check)
    return tuple(checks)


def _name_node(item: yaml.Node) -> yaml.Node:
    if isinstance(item, yaml.MappingNode):
        for key_node, value_node in item.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == "name" and isinstance(value_node, yaml.Node):
                return value_node
    return item


def _read_check(
    item: yaml.Node, index: int, phase: str, ptype: PhaseType, out: Collector, template: TemplateReader
) -> Check | None:
    if not isinstance(item, yaml.MappingNode):
        out.error(item, f"a check must be a mapping with one of {', '.join(CHECK_KINDS)}")
        return None
    found: dict[str, yaml.Node] = {}
    for key, key_node, value_node in mapping_items(item, out):
        if key not in CHECK_KEYS:
            out.error(key_node, f"unknown key '{key}' in a check{did_you_mean(key, CHECK_KEYS)}")
            continue
        found[key] = value_node
    kinds = [k for k in CHECK_KINDS if k in found]
    if not kinds:
        out.error(item, f"a check needs one of {', '.join(CHECK_KINDS)}")
        return None
    if len(kinds) > 1:
        out.error(item, f"a check has exactly one kind, this one has {' and '.join(kinds)}: make them separate entries")
        return None
    kind = CheckKind(kinds[0])
    name = f"check{index}"
    if "name" in found:
        given = f.read_str(found["name"], "name", out)
        if given is None:
            return None
        if not CHECK_NAME.match(given):
            out.error(found["name"], f"check name '{given}' must match [a-z_][a-z0-9_]* (it is a guard path)")
            return None
        name = given
    timeout = DEFAULT_CHECK_TIMEOUT
    if "timeout" in found:
        if kind is not CheckKind.RUN:
            out.error(found["timeout"], f"'timeout' applies to run checks only, not to a {kind.value} check")
        else:
            timeout = f.read_duration(found["timeout"], "timeout", out) or DEFAULT_CHECK_TIMEOUT
    value = found[kind.value]
    where = pos(item)
    if kind is CheckKind.RUN:
        command = f.read_str(value, "run", out)
        if command is None:
            return None
        if not command.strip():
            out.error(value, "a run check needs a command")
            return None
        parsed = template(value, command, (phase, f"check '{name}'"))
        return Check(name, kind, run=command, template=parsed, timeout=timeout, pos=where)
    if kind is CheckKind.REPORT:
        if ptype is PhaseType.COMMAND:
            out.error(value, f"a report check needs an agent phase: command phase '{phase}' has no structured report")
            return None
        required = _required_keys(value, out)
        return Check(name, kind, required=required, pos=where) if required else None
    globs = _globs(value, kind.value, out)
    return Check(name, kind, paths=globs, pos=where) if globs else None


def _globs(node: yaml.Node, what: str, out: Collector) -> tuple[str, ...]:
    items = f.read_str_list(node, what, out)
    if items is None:
        return ()
    if not items:
        out.error(node, f"'{what}' must list at least one path glob")
        return ()
    good: list[str] = []
    for text, item in items:
        problem = glob_problem(text)
        if problem:
            out.error(item, problem)
        else:
            good.append(text)
    return tuple(good) if len(good) == len(items) else ()


def _required_keys(node: yaml.Node, out: Collector) -> tuple[str, ...]:
    if not isinstance(node, yaml.MappingNode):
        out.error(node, "a report check is written report: {required: [key, ...]}")
        return ()
    fields: dict[str, yaml.Node] = {}
    for key, key_node, value_node in mapping_items(node, out):
        if key not in REPORT_CHECK_KEYS:
            out.error(key_node, f"unknown key '{key}' in a report check{did_you_mean(key, REPORT_CHECK_KEYS)}")
            continue
        fields[key] = value_node
    if "required" not in fields:
        out.error(node, "a report check needs 'required': the keys the structured report must have")
        return ()
    items = f.read_str_list(fields["required"], "required", out)
    if items is None:
        return ()
    if not items:
        out.error(fields["required"], "'required' must list at least one key")
        return ()
    return tuple(dict.fromkeys(text for text, _ in items))
