"""The ``phases:`` mapping (SPEC §2): each phase's type, its keys (with ``defaults`` merged in), its fields.

An agent phase's provider-specific keys are the ones its provider declares in the injected catalogue
(``provider_keys``). The keys every type shares are read here; what a type alone reads (an agent's prompt,
provider keys and phase check, a command's ``run``...) is ``phase_kinds``.
"""

from __future__ import annotations

import re

import yaml

from alphred.guards import guard_paths
from alphred.workflow import fields as f
from alphred.workflow.check_block import read_checks
from alphred.workflow.containment import is_mode_string, read_env, read_sandbox
from alphred.workflow.keys import allowed_phase_keys
from alphred.workflow.model import (
    CHILD_IDLE_TIMEOUT,
    DEFAULT_CI_TIMEOUT,
    DEFAULT_IDLE_TIMEOUT,
    DEFAULT_MAX_VISITS,
    JOIN_MODES,
    Phase,
    PhaseType,
)
from alphred.workflow.output import read_output, with_decision
from alphred.workflow.phase_kinds import Work, read_kind
from alphred.workflow.provider_keys import FREE_FORM, keys_of
from alphred.workflow.reading import Reading
from alphred.workflow.transitions import read_transitions
from alphred.workflow.yaml_source import did_you_mean, is_null, mapping_items, pos, scalar_value

PHASE_KEY = re.compile(r"^[a-z_][a-z0-9_]{0,63}$")


def read_phases(reading: Reading, node: yaml.Node, defaults: dict[str, yaml.Node]) -> list[Phase]:
    """Every phase that could be built, in file order; each problem is reported at its node."""
    out = reading.out
    if not isinstance(node, yaml.MappingNode):
        out.error(node, "'phases' must be a mapping of phase keys to phases")
        return []
    phases: list[Phase] = []
    for index, (key, key_node, value_node) in enumerate(mapping_items(node, out)):
        if key.startswith("$"):
            out.error(key_node, f"'{key}' is a reserved target and cannot be a phase key")
            continue
        if not PHASE_KEY.match(key):
            suggestion = re.sub(r"[^a-z0-9_]", "_", key.lower())
            out.error(key_node, f"phase key '{key}' must match [a-z_][a-z0-9_]* (try '{suggestion}')")
            continue
        reading.nodes.phases[key] = key_node
        phase = _phase(reading, key, index, key_node, value_node, defaults)
        if phase is not None:
            phases.append(phase)
    return phases


def _phase(
    reading: Reading, key: str, index: int, key_node: yaml.Node, node: yaml.Node, defaults: dict[str, yaml.Node]
) -> Phase | None:
    out = reading.out
    if not isinstance(node, yaml.MappingNode):
        out.error(node, f"phase '{key}' must be a mapping")
        return None
    raw = {k: (kn, vn) for k, kn, vn in mapping_items(node, out)}
    type_name = f.read_str(raw["type"][1], "type", out) if "type" in raw else "agent"
    if type_name is None:
        return None
    try:
        ptype = PhaseType(type_name)
    except ValueError:
        out.error(raw["type"][1], f"unknown phase type '{type_name}'{did_you_mean(str(type_name), list(PhaseType))}")
        return None
    provider = _provider_name(raw, defaults)
    keys = keys_of(reading.providers, provider) if ptype is PhaseType.AGENT else FREE_FORM
    allowed = allowed_phase_keys(ptype, keys)
    merged = {name: value_node for name, value_node in defaults.items() if name in allowed}
    for name, (name_node, value_node) in raw.items():
        if name == "type":
            continue
        if name not in allowed:
            hint = did_you_mean(name, allowed)
            if name == "run" and ptype is PhaseType.AGENT:
                hint = " (a shell command phase needs 'type: command')"
            elif name == "decisions" and ptype is PhaseType.APPROVAL:
                hint = " (approval decisions are fixed: approved, rejected)"
            elif name == "checks" and ptype is PhaseType.APPROVAL:
                hint = " (checks verify agent and command phases; an approval phase has no work to check)"
            elif ptype is PhaseType.WORKFLOW and not hint:
                hint = " (a workflow phase runs its child workflow: it takes only uses, with and the common keys)"
            what = f"{ptype.value} phase" if ptype is not PhaseType.AGENT else f"agent phase ({provider})"
            out.error(name_node, f"unknown key '{name}' in {what} '{key}'{hint}")
            continue
        merged[name] = value_node
    work = Work()
    work.defaulted = frozenset(name for name in merged if name not in raw)
    return _phase_fields(reading, key, index, ptype, provider, key_node, merged, work)


def _phase_fields(
    reading: Reading,
    key: str,
    index: int,
    ptype: PhaseType,
    provider: str | None,
    key_node: yaml.Node,
    fields: dict[str, yaml.Node],
    work: Work,
) -> Phase:
    out = reading.out
    read_kind(reading, key, ptype, provider, key_node, fields, work)
    max_retries = f.read_int(fields["max_retries"], "max_retries", out, 0) if "max_retries" in fields else 0
    max_visits = (
        f.read_int(fields["max_visits"], "max_visits", out, 1) if "max_visits" in fields else DEFAULT_MAX_VISITS
    )
    timeout = f.read_duration(fields["timeout"], "timeout", out) if "timeout" in fields else None
    if ptype is PhaseType.CI and timeout is None:
        timeout = DEFAULT_CI_TIMEOUT  # how long it waits for the checks, all polls together
    idle = f.read_duration(fields["idle_timeout"], "idle_timeout", out) if "idle_timeout" in fields else None
    if ptype is PhaseType.WORKFLOW:
        idle = CHILD_IDLE_TIMEOUT  # its child's phases have their own idle timeouts
    context, max_reports = _context(reading, fields["context"]) if "context" in fields else (None, None)
    transitions = read_transitions(reading, key, fields["transitions"]) if "transitions" in fields else ()
    checks = read_checks(fields["checks"], key, ptype, out, reading.template) if "checks" in fields else ()
    join = f.read_str(fields["join"], "join", out) if "join" in fields else None
    if join is not None and join not in JOIN_MODES:
        out.error(
            fields["join"], f"join must be 'all', 'any' or 'all_done', not '{join}'{did_you_mean(join, JOIN_MODES)}"
        )
    on_conflict = f.read_str(fields["on_conflict"], "on_conflict", out) if "on_conflict" in fields else None
    sandbox = fields.get("sandbox")
    policy = read_sandbox(sandbox, out) if sandbox is not None and not is_mode_string(sandbox) else None
    env = read_env(fields["env"], out) if "env" in fields else ()
    output = read_output(fields["output"], key, out) if "output" in fields else None
    if output is not None and ptype is PhaseType.AGENT:
        routes = any(t.guard is not None and ("decision",) in guard_paths(t.guard) for t in transitions)
        output = with_decision(output, work.decisions, routes or "decisions" in fields)
    if on_conflict is not None:
        reading.nodes.templates[("$on_conflict", key)] = fields["on_conflict"]
    return Phase(
        key=key,
        type=ptype,
        sequence_index=index,
        transitions=transitions,
        provider=provider if ptype is PhaseType.AGENT else None,
        model=work.model,
        prompt=work.prompt,
        prompt_file=work.prompt_file,
        run=work.run,
        allow_failure=work.allow_failure,
        shell=work.shell,
        message=work.message,
        decisions=work.decisions,
        max_retries=max_retries or 0,
        max_visits=max_visits or DEFAULT_MAX_VISITS,
        timeout=timeout,
        idle_timeout=idle or DEFAULT_IDLE_TIMEOUT,
        context=context,
        max_reports=max_reports,
        options=work.options,
        templates=work.templates,
        checks=checks,
        pos=pos(key_node),
        join=join if join in JOIN_MODES else None,
        on_conflict=on_conflict,
        sandbox=policy,
        fallback=work.fallback,
        uses=work.uses,
        child=work.child,
        with_inputs=work.with_inputs,
        env=env,
        tools=work.tools,
        mcp=work.mcp,
        output=output,
    )


CONTEXT_KEYS = ("from", "max_reports")
MAX_CONTEXT_REPORTS = 32


def _context(reading: Reading, node: yaml.Node) -> tuple[tuple[str, ...] | None, int | None]:
    """(the phases whose reports it receives: None for its direct predecessors; how many at most: None for
    the default). ``context`` is false, true, a list of phases, or ``{from: [...], max_reports: N}``."""
    if isinstance(node, yaml.ScalarNode):
        value = scalar_value(node)
        if value is False:
            return (), None
        if value is True or value is None:
            return None, None
    if isinstance(node, yaml.MappingNode):
        fields = reading.known_keys(node, CONTEXT_KEYS, "context")
        chosen = _context(reading, fields["from"])[0] if "from" in fields else None
        count = None
        if "max_reports" in fields:
            count = f.read_int(fields["max_reports"], "max_reports", reading.out, 1)
            if count is not None and count > MAX_CONTEXT_REPORTS:
                reading.out.error(fields["max_reports"], f"'max_reports' must be at most {MAX_CONTEXT_REPORTS}")
                count = MAX_CONTEXT_REPORTS
        return chosen, count
    items = f.read_str_list(node, "context", reading.out)
    if items is None:
        return None, None
    for text, item in items:
        reading.nodes.templates[("$context", text)] = item
    return tuple(text for text, _ in items), None


def _provider_name(raw: dict[str, tuple[yaml.Node, yaml.Node]], defaults: dict[str, yaml.Node]) -> str | None:
    node = raw["provider"][1] if "provider" in raw else defaults.get("provider")
    if node is None or not isinstance(node, yaml.ScalarNode) or is_null(node):
        return None
    value = scalar_value(node)
    return value if isinstance(value, str) else None
