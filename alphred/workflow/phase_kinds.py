"""What each phase type reads (SPEC §2, §13-§16): an agent's prompt, provider keys, ``tools:``, ``mcp:`` and
``fallback:``; a command's ``run``; a pull request's, a ci phase's, a workflow phase's and an approval's fields.
``phases.py`` reads the keys every type shares."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import yaml

from alphred.guards.templates import Template
from alphred.workflow import fields as f
from alphred.workflow.children import read_uses
from alphred.workflow.containment import enforces, is_mode_string, switched_off
from alphred.workflow.keys import SHELLS
from alphred.workflow.model import APPROVAL_DECISIONS, DEFAULT_CI_POLL, DEFAULT_DECISIONS, PhaseType, Workflow
from alphred.workflow.provider_keys import keys_of, names, read_settings
from alphred.workflow.reading import Reading
from alphred.workflow.tooling import ALIASES, check_tooling, read_aliases, read_mcp, read_tools
from alphred.workflow.yaml_source import did_you_mean, mapping_items

if TYPE_CHECKING:
    from alphred.workflow.options import Fallback, McpServer, ToolPolicy

DECISION = re.compile(r"^[A-Za-z0-9_.-]+$")


class Work:
    """The fields that depend on a phase's type (what it does), filled in by ``_agent``/``_command``."""

    def __init__(self) -> None:
        self.templates: dict[str, Template] = {}
        self.prompt: str | None = None
        self.prompt_file: str | None = None
        self.run: str | None = None
        self.message: str | None = None
        self.model: str | None = None
        self.decisions: tuple[str, ...] = ()
        self.allow_failure = False
        self.shell = "sh"
        self.options: dict[str, Any] = {}
        self.fallback: tuple[Fallback, ...] = ()
        self.tools: ToolPolicy | None = None
        self.mcp: tuple[McpServer, ...] = ()
        self.defaulted: frozenset[str] = frozenset()  # the keys taken from ``defaults:``
        self.uses: str | None = None  # a workflow phase's child (SPEC §13)
        self.child: Workflow | None = None
        self.with_inputs: tuple[str, ...] = ()


def read_kind(
    reading: Reading,
    key: str,
    ptype: PhaseType,
    provider: str | None,
    key_node: yaml.Node,
    fields: dict[str, yaml.Node],
    work: Work,
) -> None:
    """Fill ``work`` with the fields of a phase of type ``ptype`` (what it does)."""
    if ptype is PhaseType.AGENT:
        _agent(reading, key, provider, key_node, fields, work)
    elif ptype is PhaseType.COMMAND:
        _command(reading, key, key_node, fields, work)
    elif ptype is PhaseType.PULL_REQUEST:
        _pull_request(reading, key, fields, work)
    elif ptype is PhaseType.CI:
        _ci(reading, fields, work)
    elif ptype is PhaseType.WORKFLOW:
        _workflow(reading, key, key_node, fields, work)
    else:
        work.decisions = APPROVAL_DECISIONS
        if "message" in fields:
            work.message = f.read_str(fields["message"], "message", reading.out)
            if work.message is not None:
                work.templates["message"] = reading.template(fields["message"], work.message, (key, "message"))


def _agent(
    reading: Reading, key: str, provider: str | None, key_node: yaml.Node, fields: dict[str, yaml.Node], work: Work
) -> None:
    out = reading.out
    if provider is None:
        out.error(key_node, f"agent phase '{key}' needs a provider (set 'provider:' or defaults.provider)")
    work.model = f.read_str(fields["model"], "model", out) if "model" in fields else None
    if "prompt" in fields and "prompt_file" in fields:
        out.error(fields["prompt_file"], f"phase '{key}' has both 'prompt' and 'prompt_file': keep one")
    if "prompt" in fields:
        work.prompt = f.read_str(fields["prompt"], "prompt", out)
        if work.prompt is not None:
            work.templates["prompt"] = reading.template(fields["prompt"], work.prompt, (key, "prompt"))
    elif "prompt_file" in fields:
        work.prompt_file = f.read_str(fields["prompt_file"], "prompt_file", out)
        work.prompt = reading.prompt_file(fields["prompt_file"], work.prompt_file) if work.prompt_file else None
        if work.prompt is not None:
            work.templates["prompt"] = reading.template(fields["prompt_file"], work.prompt, (key, "prompt"))
    work.decisions = _decisions(reading, fields["decisions"]) if "decisions" in fields else DEFAULT_DECISIONS
    keys = keys_of(reading.providers, provider)
    sandbox = fields.get("sandbox")
    if sandbox is not None and not is_mode_string(sandbox):  # ours (SPEC §14), not the provider's own mode
        fields = {name: node for name, node in fields.items() if name != "sandbox"}
        if not switched_off(sandbox) and not enforces(keys, "sandbox"):
            out.error(
                sandbox,
                f"provider '{provider}' of phase '{key}' cannot enforce 'sandbox' (its capabilities say so): "
                "use a provider that can, or set 'sandbox: false' on the phase",
            )
    elif sandbox is not None and "sandbox" not in names(keys):
        out.error(sandbox, "'sandbox' must be a mapping ({network: false}), true or false")
    whole = fields  # what the provider's phase check sees: ``mcp:`` and ``tools:`` too
    fields = _tooling(key, provider, keys, fields, work, out)
    settings = {name: node for name, node in fields.items() if name != "fallback"}
    work.options = read_settings(keys, key, key_node, settings, work.decisions, out, whole=whole)
    if "fallback" in fields:
        phase = {name: node for name, node in whole.items() if name not in ("model", "fallback")}
        ours = sandbox if sandbox is not None and not is_mode_string(sandbox) else None
        work.fallback = _fallbacks(reading, key, fields["fallback"], work, (phase, names(keys), ours))


def _fallbacks(
    reading: Reading,
    key: str,
    node: yaml.Node,
    work: Work,
    phase: tuple[dict[str, yaml.Node], tuple[str, ...], yaml.Node | None],
) -> tuple[Fallback, ...]:
    """``fallback: [codex, {provider: openai, model: ..., base_url: ...}]`` (SPEC §15): each entry's own keys
    are its provider's; the phase's provider keys it does not know are dropped for it (said as info).

    ``phase`` is the phase's keys (its own ``model`` and ``fallback`` left out), its provider's key names and
    its ``sandbox:`` (SPEC §14; None without one, or when it is the provider's own mode): each fallback's phase
    check sees the phase's common keys (``mcp:``, ``tools:``, ``output:``), the keys it inherits and its own,
    so that what the fallback cannot do (a codex MCP header) is refused here, not when it runs.
    """
    from alphred.workflow.options import Fallback  # here: a phase without ``fallback:`` never needs it

    out = reading.out
    whole, primary, sandbox = phase
    if not isinstance(node, yaml.SequenceNode) or not node.value:
        out.error(node, "'fallback' must list providers: [codex, {provider: openai, model: gpt-5.5-mini}]")
        return ()
    found: list[Fallback] = []
    for item in node.value:
        entry: dict[str, yaml.Node] = {}
        if isinstance(item, yaml.MappingNode):
            entry = {name: value for name, _, value in mapping_items(item, out)}
            name = f.read_str(entry["provider"], "provider", out) if "provider" in entry else None
            if name is None:
                out.error(item, "a fallback entry needs 'provider'")
                continue
        else:
            name = f.read_str(item, "fallback", out)
            if name is None:
                continue
        if name not in reading.providers:
            out.error(item, f"unknown provider '{name}' in fallback{did_you_mean(name, list(reading.providers))}")
            continue
        keys = keys_of(reading.providers, name)
        known = names(keys)
        for extra in entry:
            if extra not in ("provider", "model", *known):
                out.error(
                    entry[extra], f"unknown key '{extra}' for fallback provider '{name}'{did_you_mean(extra, known)}"
                )
        if sandbox is not None and not switched_off(sandbox) and not enforces(keys, "sandbox"):
            out.error(item, f"fallback provider '{name}' of phase '{key}' cannot enforce the phase's 'sandbox'")
        model = f.read_str(entry["model"], "model", out) if "model" in entry else None
        own = {n: v for n, v in entry.items() if n in (*known, "model")}  # "model": the provider's check reads it
        inherited = {n: v for n, v in work.options.items() if n in known and n not in own}
        dropped = [n for n in work.options if n not in known]
        if dropped:
            out.info(item, f"fallback '{name}' of phase '{key}' does not know {', '.join(dropped)}: dropped for it")
        given = {**({"model": entry["model"]} if "model" in entry else {}), **own}
        seen = {n: v for n, v in whole.items() if n in known or n not in primary}  # the phase as it runs on it
        settings = read_settings(keys, key, item, given, work.decisions, out, whole={**seen, **given})
        found.append(Fallback(name, model, {**inherited, **settings}))
    return tuple(found)


def _tooling(
    key: str, provider: str | None, keys: Any, fields: dict[str, yaml.Node], work: Work, out: Any
) -> dict[str, yaml.Node]:
    """Read ``tools:`` (or the old claude aliases) and ``mcp:``, refuse what the provider cannot enforce;
    the fields left for the provider's own keys."""
    tools = (read_tools(fields["tools"], out), fields["tools"]) if "tools" in fields else None
    aliases = read_aliases(fields, key, out) if any(alias in names(keys) for alias in ALIASES) else None
    if aliases is not None:
        alias_node = next(fields[alias] for alias in ALIASES if alias in fields)
        if tools is not None and "tools" in work.defaulted:  # the phase's own key wins over the default
            tools = (aliases, alias_node)
        elif tools is not None:
            out.error(alias_node, f"phase '{key}' has both 'tools' and '{next(a for a in ALIASES if a in fields)}': "
                      "keep 'tools'")  # fmt: skip
        else:
            tools = (aliases, alias_node)
    mcp = (read_mcp(fields["mcp"], out), fields["mcp"]) if "mcp" in fields else None
    check_tooling(keys, provider, key, tools, mcp, out)
    work.tools = tools[0] if tools is not None else None
    work.mcp = mcp[0] if mcp is not None else ()
    return {name: node for name, node in fields.items() if name not in ("tools", "mcp", *ALIASES)}


def _command(reading: Reading, key: str, key_node: yaml.Node, fields: dict[str, yaml.Node], work: Work) -> None:
    out = reading.out
    if "sandbox" in fields and is_mode_string(fields["sandbox"]):
        out.error(fields["sandbox"], "'sandbox' must be a mapping ({network: false}), true or false")
    if "run" not in fields:
        out.error(key_node, f"command phase '{key}' needs 'run'")
    else:
        work.run = f.read_str(fields["run"], "run", out)
        if work.run is not None:
            work.templates["run"] = reading.template(fields["run"], work.run, (key, "run"))
    if "allow_failure" in fields:
        work.allow_failure = bool(f.read_bool(fields["allow_failure"], "allow_failure", out))
    if "shell" in fields:
        shell = f.read_str(fields["shell"], "shell", out)
        if shell is not None and shell not in SHELLS:
            out.error(fields["shell"], f"'shell' must be sh or bash, not '{shell}'{did_you_mean(shell, SHELLS)}")
        elif shell is not None:
            work.shell = shell


def _pull_request(reading: Reading, key: str, fields: dict[str, yaml.Node], work: Work) -> None:
    """``type: pull_request`` (SPEC §16): title (a template), body_from, draft, base, labels, reviewers."""
    out = reading.out
    if "title" in fields:
        title = f.read_str(fields["title"], "title", out)
        if title is not None:
            work.templates["title"] = reading.template(fields["title"], title, (key, "title"))
    if "body_from" in fields:
        body_from = f.read_str(fields["body_from"], "body_from", out)
        if body_from is not None:
            work.options["body_from"] = body_from
            reading.nodes.templates[("$body_from", key)] = fields["body_from"]
    if "draft" in fields:
        work.options["draft"] = bool(f.read_bool(fields["draft"], "draft", out))
    if "base" in fields:
        work.options["base"] = f.read_str(fields["base"], "base", out)
    for name in ("labels", "reviewers"):
        if name in fields:
            items = f.read_str_list(fields[name], name, out)
            work.options[name] = [text for text, _ in items or ()]
    if "existing" in fields:  # SPEC §17: a pull request that already exists (a number or URL), pushed to
        existing = f.read_str(fields["existing"], "existing", out)
        if existing is not None:
            work.templates["existing"] = reading.template(fields["existing"], existing, (key, "existing"))
    if "branch" in fields:  # SPEC §17: its own branch (cut from the run branch), its own pull request
        branch = f.read_str(fields["branch"], "branch", out)
        if branch is not None:
            work.templates["branch"] = reading.template(fields["branch"], branch, (key, "branch"))
    if "allow_forks" in fields:
        work.options["allow_forks"] = bool(f.read_bool(fields["allow_forks"], "allow_forks", out))


def _workflow(reading: Reading, key: str, key_node: yaml.Node, fields: dict[str, yaml.Node], work: Work) -> None:
    """``type: workflow`` (SPEC §13): the child workflow it runs and the inputs it gives; its decisions are
    every decision the child's phases declare (the child's last one is the phase's)."""
    found = read_uses(reading, key, key_node, fields)
    work.uses = found.get("uses")
    work.child = found.get("child")
    work.with_inputs = found["with_inputs"]
    work.templates.update(found["templates"])
    declared: list[str] = []
    for phase in work.child.phases if work.child is not None else ():
        declared.extend(d for d in phase.decisions if d not in declared)
    work.decisions = tuple(declared) or DEFAULT_DECISIONS


def _ci(reading: Reading, fields: dict[str, yaml.Node], work: Work) -> None:
    """``type: ci`` (SPEC §16): how often it looks at the checks, and whether only required ones count."""
    out = reading.out
    poll = f.read_duration(fields["poll"], "poll", out) if "poll" in fields else None
    work.options["poll"] = poll or DEFAULT_CI_POLL
    required_only = f.read_bool(fields["required_only"], "required_only", out) if "required_only" in fields else True
    work.options["required_only"] = required_only is not False


def _decisions(reading: Reading, node: yaml.Node) -> tuple[str, ...]:
    out = reading.out
    items = f.read_str_list(node, "decisions", out)
    if items is None:
        return DEFAULT_DECISIONS
    if not items:
        out.error(node, "'decisions' must list at least one decision")
        return DEFAULT_DECISIONS
    seen: list[str] = []
    for text, item in items:
        if text in seen:
            out.error(item, f"duplicate decision '{text}'")
        elif not DECISION.match(text):
            out.error(item, f"decision '{text}' may hold only letters, digits, '_', '-' and '.'")
        else:
            seen.append(text)
    return tuple(seen) or DEFAULT_DECISIONS
