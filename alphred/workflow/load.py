"""YAML text -> validated, frozen ``Workflow`` (SPEC §2). Every problem of a file is reported at once."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from alphred.errors import Diagnostic, GuardSyntaxError, TemplateError, WorkflowInvalidError
from alphred.guards import Expr, parse_guard
from alphred.guards.shell import shell_problems
from alphred.guards.templates import Template, parse_template
from alphred.workflow import fields as f
from alphred.workflow.check_block import read_checks
from alphred.workflow.files import (
    MAX_PROMPT_BYTES,
    MAX_WORKFLOW_BYTES,
    FileRefusedError,
    allowed_roots,
    inside,
    read_regular_text,
)
from alphred.workflow.keys import (
    COMMON_PHASE_KEYS,
    DEFAULTABLE_KEYS,
    INPUT_KEYS,
    LIMIT_KEYS,
    PULL_REQUEST_KEYS,
    SCRIPT_ENTRY_KEYS,
    TOP_KEYS,
    TRANSITION_KEYS,
    allowed_phase_keys,
)
from alphred.workflow.model import (
    APPROVAL_DECISIONS,
    DEFAULT_DECISIONS,
    DEFAULT_IDLE_TIMEOUT,
    DEFAULT_MAX_PARALLEL,
    DEFAULT_MAX_STEPS,
    DEFAULT_MAX_VISITS,
    JOIN_MODES,
    RESERVED_TARGETS,
    InputSpec,
    Limits,
    Phase,
    PhaseType,
    PullRequestSpec,
    SourcePos,
    Transition,
    Workflow,
)
from alphred.workflow.openai_keys import read_openai_key
from alphred.workflow.validate import check_graph
from alphred.workflow.yaml_source import (
    Collector,
    NodeIndex,
    YamlRefusedError,
    compose,
    did_you_mean,
    is_null,
    is_plain_single_line,
    mapping_items,
    offset_pos,
    pos,
    scalar_value,
)

WORKFLOW_KEY = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
PHASE_KEY = re.compile(r"^[a-z_][a-z0-9_]{0,63}$")
INPUT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")


def load_workflow(path: str | Path, text: str | None = None, files: Mapping[str, str] | None = None) -> Workflow:
    """Load and validate a workflow file; raises WorkflowInvalidError listing every error.

    ``text`` replaces the file's content and ``files`` the prompt files on disk (a stored workflow).
    """
    workflow, diagnostics = check_workflow(path, text, files)
    if workflow is None:
        raise WorkflowInvalidError(diagnostics)
    return workflow


def check_workflow(
    path: str | Path, text: str | None = None, files: Mapping[str, str] | None = None
) -> tuple[Workflow | None, list[Diagnostic]]:
    """Validate a workflow file: (workflow or None when any error, every diagnostic in file order)."""
    out = Collector(str(path))
    if text is None:
        try:
            text = read_regular_text(Path(path), MAX_WORKFLOW_BYTES)
        except FileNotFoundError:
            out.error(SourcePos(1, 1), "file not found")
            return None, out.sorted()
        except FileRefusedError as exc:
            out.error(SourcePos(1, 1), f"cannot read file: it {exc}")
            return None, out.sorted()
        except OSError as exc:
            out.error(SourcePos(1, 1), f"cannot read file: {exc.strerror or exc}")
            return None, out.sorted()
    try:
        root = compose(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = SourcePos(mark.line + 1, mark.column + 1) if mark else SourcePos(1, 1)
        kind = "YAML not allowed" if isinstance(exc, YamlRefusedError) else "YAML syntax error"
        out.error(where, f"{kind}: {exc.problem or exc.context}")
        return None, out.sorted()
    except yaml.YAMLError as exc:
        out.error(SourcePos(1, 1), f"YAML error: {exc}")
        return None, out.sorted()
    if root is None or not isinstance(root, yaml.MappingNode):
        out.error(root if root is not None else SourcePos(1, 1), "a workflow file must be a YAML mapping")
        return None, out.sorted()
    builder = _Builder(out, Path(path).parent, text, files)
    workflow = builder.build(root, str(path))
    if workflow is not None:
        check_graph(workflow, builder.nodes, out)
    diagnostics = out.sorted()
    return (None if out.has_errors else workflow), diagnostics


class _Builder:
    def __init__(self, out: Collector, base_dir: Path, text: str, files: Mapping[str, str] | None) -> None:
        self.out = out
        self.base_dir = base_dir
        self.nodes = NodeIndex()
        self.text = text
        self.stored_files = files
        self.files: dict[str, str] = {}
        self.hash = hashlib.sha256(text.encode("utf-8"))

    def build(self, root: yaml.MappingNode, source: str) -> Workflow | None:
        out = self.out
        top = self._known_keys(root, TOP_KEYS, "workflow")
        for required in ("alphred", "key", "phases"):
            if required not in top:
                out.error(root, f"missing required field '{required}'")
        if "alphred" in top:
            version = scalar_value(top["alphred"]) if isinstance(top["alphred"], yaml.ScalarNode) else None
            if version != 1 or isinstance(version, bool):
                out.error(top["alphred"], f"unsupported format version {version!r}: this Alphred reads 'alphred: 1'")
        key = f.read_str(top["key"], "key", out) if "key" in top else None
        if key is not None and not WORKFLOW_KEY.match(key):
            out.error(top["key"], f"workflow key '{key}' must match [a-z0-9][a-z0-9_-]{{0,63}}")
        name = f.read_str(top["name"], "name", out) if "name" in top else None
        description = f.read_str(top["description"], "description", out) if "description" in top else None
        inputs = self._inputs(top["inputs"]) if "inputs" in top else ()
        defaults = self._defaults(top["defaults"]) if "defaults" in top else {}
        limits = self._limits(top["limits"]) if "limits" in top else Limits()
        phases = self._phases(top["phases"], defaults) if "phases" in top else []
        start = None
        if "start" in top:
            self.nodes.start = top["start"]
            start = f.read_str(top["start"], "start", out)
        elif phases:
            start = phases[0].key
        pull_request, title = self._pull_request(top["pull_request"]) if "pull_request" in top else (None, None)
        if key is None or start is None or not phases:
            if "phases" in top and not phases and not out.has_errors:
                out.error(top["phases"], "a workflow needs at least one phase")
            return None
        return Workflow(
            key=key,
            phases=tuple(phases),
            start=start,
            name=name,
            description=description,
            inputs=inputs,
            limits=limits,
            pull_request=pull_request,
            pull_request_title=title,
            source_path=source,
            content_hash=self.hash.hexdigest(),
            source_text=self.text,
            source_files=dict(self.files),
        )

    # -- sections ---------------------------------------------------------------------------------------

    def _known_keys(self, node: yaml.Node, allowed: tuple[str, ...], what: str) -> dict[str, yaml.Node]:
        if not isinstance(node, yaml.MappingNode):
            self.out.error(node, f"{what} must be a mapping")
            return {}
        found: dict[str, yaml.Node] = {}
        for key, key_node, value_node in mapping_items(node, self.out):
            if key not in allowed:
                self.out.error(key_node, f"unknown key '{key}' in {what}{did_you_mean(key, allowed)}")
                continue
            found[key] = value_node
        return found

    def _inputs(self, node: yaml.Node) -> tuple[InputSpec, ...]:
        if not isinstance(node, yaml.MappingNode):
            self.out.error(node, "'inputs' must be a mapping of input names")
            return ()
        specs: list[InputSpec] = []
        for name, key_node, value_node in mapping_items(node, self.out):
            if not INPUT_NAME.match(name):
                self.out.error(key_node, f"input name '{name}' must match [A-Za-z_][A-Za-z0-9_]*")
                continue
            if is_null(value_node):
                specs.append(InputSpec(name))
                continue
            fields = self._known_keys(value_node, INPUT_KEYS, f"input '{name}'")
            required = f.read_bool(fields["required"], "required", self.out) if "required" in fields else False
            default = None
            if "default" in fields:
                raw = f.plain_data(fields["default"])
                if isinstance(raw, dict | list):
                    self.out.error(fields["default"], f"default of input '{name}' must be a scalar")
                else:
                    default = "" if raw is None else (str(raw).lower() if isinstance(raw, bool) else str(raw))
                if required:
                    self.out.error(fields["default"], f"input '{name}' has a default, so it cannot be required")
            desc = f.read_str(fields["description"], "description", self.out) if "description" in fields else None
            specs.append(InputSpec(name, bool(required), default, desc))
        return tuple(specs)

    def _defaults(self, node: yaml.Node) -> dict[str, yaml.Node]:
        return self._known_keys(node, DEFAULTABLE_KEYS, "defaults")

    def _limits(self, node: yaml.Node) -> Limits:
        fields = self._known_keys(node, LIMIT_KEYS, "limits")
        steps = f.read_int(fields["max_steps"], "max_steps", self.out, 1) if "max_steps" in fields else None
        tokens = f.read_int(fields["max_tokens"], "max_tokens", self.out, 1) if "max_tokens" in fields else None
        cost = f.read_number(fields["max_cost_usd"], "max_cost_usd", self.out) if "max_cost_usd" in fields else None
        par = f.read_int(fields["max_parallel"], "max_parallel", self.out, 1) if "max_parallel" in fields else None
        return Limits(steps or DEFAULT_MAX_STEPS, tokens, cost, par or DEFAULT_MAX_PARALLEL)

    def _pull_request(self, node: yaml.Node) -> tuple[PullRequestSpec | None, Template | None]:
        fields = self._known_keys(node, PULL_REQUEST_KEYS, "pull_request")
        out = self.out
        title = f.read_str(fields["title"], "title", out) if "title" in fields else None
        title_template = self._template(fields["title"], title, ("$pull_request", "title")) if title else None
        body_from = None
        if "body_from" in fields:
            self.nodes.body_from = fields["body_from"]
            body_from = f.read_str(fields["body_from"], "body_from", out)
        draft = f.read_bool(fields["draft"], "draft", out) if "draft" in fields else False
        base = f.read_str(fields["base"], "base", out) if "base" in fields else None
        provider = f.read_str(fields["provider"], "provider", out) if "provider" in fields else None
        if provider is not None and provider not in ("github", "azure"):
            out.error(fields["provider"], f"pull_request provider must be github or azure, not '{provider}'")
        return PullRequestSpec(title, body_from, bool(draft), base, provider), title_template

    def _phases(self, node: yaml.Node, defaults: dict[str, yaml.Node]) -> list[Phase]:
        if not isinstance(node, yaml.MappingNode):
            self.out.error(node, "'phases' must be a mapping of phase keys to phases")
            return []
        phases: list[Phase] = []
        for index, (key, key_node, value_node) in enumerate(mapping_items(node, self.out)):
            if key.startswith("$"):
                self.out.error(key_node, f"'{key}' is a reserved target and cannot be a phase key")
                continue
            if not PHASE_KEY.match(key):
                suggestion = re.sub(r"[^a-z0-9_]", "_", key.lower())
                self.out.error(key_node, f"phase key '{key}' must match [a-z_][a-z0-9_]* (try '{suggestion}')")
                continue
            self.nodes.phases[key] = key_node
            phase = self._phase(key, index, key_node, value_node, defaults)
            if phase is not None:
                phases.append(phase)
        return phases

    def _phase(
        self, key: str, index: int, key_node: yaml.Node, node: yaml.Node, defaults: dict[str, yaml.Node]
    ) -> Phase | None:
        out = self.out
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
            out.error(
                raw["type"][1],
                f"unknown phase type '{type_name}'{did_you_mean(str(type_name), list(PhaseType))}",
            )
            return None
        merged: dict[str, yaml.Node] = {}
        for name, value_node in defaults.items():
            if name in allowed_phase_keys(ptype, _provider_name(raw, defaults)):
                merged[name] = value_node
        provider = _provider_name(raw, defaults)
        allowed = allowed_phase_keys(ptype, provider)
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
                what = f"{ptype.value} phase" if ptype is not PhaseType.AGENT else f"agent phase ({provider})"
                out.error(name_node, f"unknown key '{name}' in {what} '{key}'{hint}")
                continue
            merged[name] = value_node
        return self._phase_fields(key, index, ptype, provider, key_node, merged)

    def _phase_fields(
        self,
        key: str,
        index: int,
        ptype: PhaseType,
        provider: str | None,
        key_node: yaml.Node,
        fields: dict[str, yaml.Node],
    ) -> Phase | None:
        out = self.out
        templates: dict[str, Template] = {}
        prompt = prompt_file = run = message = model = None
        decisions: tuple[str, ...] = ()
        allow_failure = False
        options: dict[str, Any] = {}
        if ptype is PhaseType.AGENT:
            if provider is None:
                out.error(key_node, f"agent phase '{key}' needs a provider (set 'provider:' or defaults.provider)")
            model = f.read_str(fields["model"], "model", out) if "model" in fields else None
            if "prompt" in fields and "prompt_file" in fields:
                out.error(fields["prompt_file"], f"phase '{key}' has both 'prompt' and 'prompt_file': keep one")
            if "prompt" in fields:
                prompt = f.read_str(fields["prompt"], "prompt", out)
                if prompt is not None:
                    templates["prompt"] = self._template(fields["prompt"], prompt, (key, "prompt"))
            elif "prompt_file" in fields:
                prompt_file = f.read_str(fields["prompt_file"], "prompt_file", out)
                prompt = self._read_prompt_file(fields["prompt_file"], prompt_file) if prompt_file else None
                if prompt is not None:
                    templates["prompt"] = self._template(fields["prompt_file"], prompt, (key, "prompt"))
            decisions = DEFAULT_DECISIONS
            if "decisions" in fields:
                decisions = self._decisions(fields["decisions"])
            options = self._provider_options(key, provider, fields)
            if provider == "openai" and model is None and "model" not in fields:
                out.error(key_node, f"openai phase '{key}' needs a 'model' (the name the server knows the model by)")
        elif ptype is PhaseType.COMMAND:
            if "run" not in fields:
                out.error(key_node, f"command phase '{key}' needs 'run'")
            else:
                run = f.read_str(fields["run"], "run", out)
                if run is not None:
                    templates["run"] = self._template(fields["run"], run, (key, "run"))
            if "allow_failure" in fields:
                allow_failure = bool(f.read_bool(fields["allow_failure"], "allow_failure", out))
        else:
            decisions = APPROVAL_DECISIONS
            if "message" in fields:
                message = f.read_str(fields["message"], "message", out)
                if message is not None:
                    templates["message"] = self._template(fields["message"], message, (key, "message"))
        max_retries = f.read_int(fields["max_retries"], "max_retries", out, 0) if "max_retries" in fields else 0
        max_visits = (
            f.read_int(fields["max_visits"], "max_visits", out, 1) if "max_visits" in fields else DEFAULT_MAX_VISITS
        )
        timeout = f.read_duration(fields["timeout"], "timeout", out) if "timeout" in fields else None
        idle = f.read_duration(fields["idle_timeout"], "idle_timeout", out) if "idle_timeout" in fields else None
        context = self._context(fields["context"]) if "context" in fields else None
        transitions = self._transitions(key, fields["transitions"]) if "transitions" in fields else ()
        checks = read_checks(fields["checks"], key, ptype, out, self._template) if "checks" in fields else ()
        join = f.read_str(fields["join"], "join", out) if "join" in fields else None
        if join is not None and join not in JOIN_MODES:
            out.error(fields["join"], f"join must be 'all' or 'any', not '{join}'{did_you_mean(join, JOIN_MODES)}")
        on_conflict = f.read_str(fields["on_conflict"], "on_conflict", out) if "on_conflict" in fields else None
        if on_conflict is not None:
            self.nodes.templates[("$on_conflict", key)] = fields["on_conflict"]
        return Phase(
            key=key,
            type=ptype,
            sequence_index=index,
            transitions=transitions,
            provider=provider if ptype is PhaseType.AGENT else None,
            model=model,
            prompt=prompt,
            prompt_file=prompt_file,
            run=run,
            allow_failure=allow_failure,
            message=message,
            decisions=decisions,
            max_retries=max_retries or 0,
            max_visits=max_visits or DEFAULT_MAX_VISITS,
            timeout=timeout,
            idle_timeout=idle or DEFAULT_IDLE_TIMEOUT,
            context=context,
            options=options,
            templates=templates,
            checks=checks,
            pos=pos(key_node),
            join=join if join in JOIN_MODES else None,
            on_conflict=on_conflict,
        )

    # -- pieces -----------------------------------------------------------------------------------------

    def _decisions(self, node: yaml.Node) -> tuple[str, ...]:
        items = f.read_str_list(node, "decisions", self.out)
        if items is None:
            return DEFAULT_DECISIONS
        if not items:
            self.out.error(node, "'decisions' must list at least one decision")
            return DEFAULT_DECISIONS
        seen: list[str] = []
        for text, item in items:
            if text in seen:
                self.out.error(item, f"duplicate decision '{text}'")
            elif not re.match(r"^[A-Za-z0-9_.-]+$", text):
                self.out.error(item, f"decision '{text}' may hold only letters, digits, '_', '-' and '.'")
            else:
                seen.append(text)
        return tuple(seen) or DEFAULT_DECISIONS

    def _context(self, node: yaml.Node) -> tuple[str, ...] | None:
        if isinstance(node, yaml.ScalarNode):
            value = scalar_value(node)
            if value is False:
                return ()
            if value is True or value is None:
                return None
        items = f.read_str_list(node, "context", self.out)
        if items is None:
            return None
        for text, item in items:
            self.nodes.templates[("$context", text)] = item
        return tuple(text for text, _ in items)

    def _provider_options(self, key: str, provider: str | None, fields: dict[str, yaml.Node]) -> dict[str, Any]:
        from alphred.workflow.keys import PROVIDER_KEYS

        options: dict[str, Any] = {}
        for name in PROVIDER_KEYS.get(provider or "", ("options",)):
            if name not in fields:
                continue
            node = fields[name]
            if provider == "openai":
                options[name] = read_openai_key(name, node, self.out)
            elif name == "script":
                options[name] = self._script(key, node)
            elif name == "max_turns":
                options[name] = f.read_int(node, name, self.out, 1)
            elif name in ("allowed_tools", "disallowed_tools"):
                items = f.read_str_list(node, name, self.out)
                options[name] = [text for text, _ in items or []]
            elif name == "options":
                if not isinstance(node, yaml.MappingNode):
                    self.out.error(node, "'options' must be a mapping")
                else:
                    options[name] = f.plain_data(node)
            else:
                options[name] = f.read_str(node, name, self.out)
        return options

    def _script(self, key: str, node: yaml.Node) -> list[dict[str, Any]]:
        out = self.out
        if not isinstance(node, yaml.SequenceNode) or not node.value:
            out.error(node, f"'script' of phase '{key}' must be a non-empty list of entries")
            return []
        entries: list[dict[str, Any]] = []
        for item in node.value:
            fields = self._known_keys(item, SCRIPT_ENTRY_KEYS, "script entry")
            entry: dict[str, Any] = {}
            for name, value_node in fields.items():
                if name in ("decision", "fail"):
                    entry[name] = f.read_str(value_node, name, out)
                elif name == "report":
                    data = f.plain_data(value_node)
                    if not isinstance(data, str | dict):
                        out.error(value_node, "'report' must be a string or a mapping")
                    entry[name] = data
                elif name == "files":
                    data = f.plain_data(value_node)
                    if not isinstance(data, dict) or not all(
                        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
                    ):
                        out.error(value_node, "'files' must map relative paths to text content")
                        continue
                    for rel in data:
                        if rel.startswith("/") or ".." in Path(rel).parts:
                            out.error(value_node, f"file path '{rel}' must stay inside the worktree")
                    entry[name] = data
                elif name == "tokens":
                    entry[name] = f.read_int(value_node, name, out, 0)
                elif name == "sleep":
                    value = f.plain_data(value_node)
                    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 86400:
                        out.error(value_node, "'sleep' must be a number of seconds from 0 to 86400")
                    entry[name] = value
            entries.append(entry)
        return entries

    def _transitions(self, key: str, node: yaml.Node) -> tuple[Transition, ...]:
        out = self.out
        if not isinstance(node, yaml.SequenceNode):
            out.error(node, f"'transitions' of phase '{key}' must be a list")
            return ()
        result: list[Transition] = []
        used: dict[int, yaml.Node] = {}
        for index, item in enumerate(node.value):
            fields = self._known_keys(item, TRANSITION_KEYS, "transition")
            if not fields and not isinstance(item, yaml.MappingNode):
                continue
            if "to" not in fields:
                out.error(item, "transition needs 'to'")
                continue
            fan_out = self._fan_out(key, fields["to"])
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
                    guard = self._guard(fields["when"], when)
                    self.nodes.when[(key, priority)] = fields["when"]
            cap = f.read_int(fields["max"], "max", out, 1) if "max" in fields else None
            if target is None:
                continue
            self.nodes.transitions[(key, priority)] = item
            self.nodes.templates[("$to", f"{key}#{priority}")] = fields["to"]
            for i, branch in enumerate(fields["to"].value if fan_out else ()):
                self.nodes.templates[("$to", f"{key}#{priority}#{i}")] = branch
            result.append(Transition(target, priority, when, guard, cap, pos(item), fan_out))
        result.sort(key=lambda t: t.priority)
        return tuple(result)

    def _fan_out(self, key: str, node: yaml.Node) -> tuple[str, ...]:
        """The branches of a ``to: [a, b, ...]`` fan-out (SPEC §8); () when ``to`` is not a list."""
        if not isinstance(node, yaml.SequenceNode):
            return ()
        items = f.read_str_list(node, "to", self.out) or []
        names = [text for text, _ in items]
        if len(names) < 2:
            self.out.error(node, f"a fan-out of '{key}' needs at least two phases (for one, write 'to: PHASE')")
            return ()
        for index, (text, item) in enumerate(items):
            if text in RESERVED_TARGETS:
                self.out.error(item, f"a fan-out cannot go to '{text}': list phases only")
            elif text in names[:index]:
                self.out.error(item, f"phase '{text}' is listed twice in the fan-out of '{key}'")
        ok = len(set(names)) == len(names) and not set(names) & set(RESERVED_TARGETS)
        return tuple(names) if ok else ()

    def _guard(self, node: yaml.Node, text: str) -> Expr | None:
        try:
            return parse_guard(text)
        except GuardSyntaxError as exc:
            where = pos(node)
            if is_plain_single_line(node):
                quote = 1 if getattr(node, "style", None) in ("'", '"') else 0
                where = SourcePos(where.line, where.column + quote + exc.column - 1)
            self.out.error(where, str(exc))
            return None

    def _template(self, node: yaml.Node, text: str, owner: tuple[str, str]) -> Template:
        self.nodes.templates[owner] = node
        try:
            template = parse_template(text)
        except TemplateError as exc:
            self.out.error(node, f"{exc} in {owner[1]} of '{owner[0]}'")
            return parse_template("")
        if owner[1] == "run" or owner[1].startswith("check '"):  # a shell command: values must reach it as data
            for offset, problem in shell_problems(template):
                self.out.error(offset_pos(node, text, offset, self.text), f"{problem} in {owner[1]} of '{owner[0]}'")
        return template

    def _read_prompt_file(self, node: yaml.Node, rel: str) -> str | None:
        path = (self.base_dir / rel).resolve()
        if self.stored_files is not None:
            if rel not in self.stored_files:
                self.out.error(node, f"prompt_file '{rel}' is missing from the stored workflow")
                return None
            text = self.stored_files[rel]
            self.files[rel] = text
            self.hash.update(b"\0prompt_file\0" + rel.encode() + b"\0" + text.encode("utf-8"))
            return text
        try:
            if not inside(path, allowed_roots(self.base_dir)):
                raise FileRefusedError("lies outside the workflow's directory and its repository")
            text = read_regular_text(path, MAX_PROMPT_BYTES)
        except FileNotFoundError:
            self.out.error(node, f"prompt_file '{rel}' not found (looked for {path})")
            return None
        except FileRefusedError as exc:
            self.out.error(node, f"prompt_file '{rel}' {exc}")
            return None
        except OSError as exc:
            self.out.error(node, f"cannot read prompt_file '{rel}': {exc.strerror or exc}")
            return None
        self.files[rel] = text
        self.hash.update(b"\0prompt_file\0" + rel.encode() + b"\0" + text.encode("utf-8"))
        return text


def _provider_name(raw: dict[str, tuple[yaml.Node, yaml.Node]], defaults: dict[str, yaml.Node]) -> str | None:
    node = raw["provider"][1] if "provider" in raw else defaults.get("provider")
    if node is None or not isinstance(node, yaml.ScalarNode) or is_null(node):
        return None
    value = scalar_value(node)
    return value if isinstance(value, str) else None


__all__ = ["COMMON_PHASE_KEYS", "RESERVED_TARGETS", "check_workflow", "load_workflow"]
