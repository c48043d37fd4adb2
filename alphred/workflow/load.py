"""YAML text -> validated, frozen ``Workflow`` (SPEC §2). Every problem of a file is reported at once.

The top of the file is read here (format version, key, inputs, defaults, limits, pull_request); phases in
``phases``, transitions in ``transitions``, graph-level checks in ``validate``. Provider-specific keys are
checked against the catalogue the caller injects (the CLI passes the provider registry).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from alphred.errors import Diagnostic, WorkflowInvalidError
from alphred.guards import Expr
from alphred.guards.templates import Template
from alphred.workflow import fields as f
from alphred.workflow.children import identity_of
from alphred.workflow.containment import read_git
from alphred.workflow.files import MAX_WORKFLOW_BYTES, FileRefusedError, read_regular_text
from alphred.workflow.keys import COMMON_DEFAULTABLE_KEYS, INPUT_KEYS, LIMIT_KEYS, PULL_REQUEST_KEYS, TOP_KEYS
from alphred.workflow.model import (
    DEFAULT_MAX_ARTIFACT_BYTES,
    DEFAULT_MAX_ITEMS,
    DEFAULT_MAX_PARALLEL,
    DEFAULT_MAX_STALLS,
    DEFAULT_MAX_STEPS,
    DEFAULT_MAX_WAIT,
    Limits,
    SourcePos,
    Workflow,
)
from alphred.workflow.phases import read_phases
from alphred.workflow.provider_keys import ProviderCatalogue, declared_keys, declares
from alphred.workflow.reading import Reading
from alphred.workflow.validate import check_graph
from alphred.workflow.yaml_source import (
    Collector,
    YamlRefusedError,
    compose,
    did_you_mean,
    is_null,
    mapping_items,
    scalar_value,
)

if TYPE_CHECKING:
    from alphred.workflow.options import InputSpec, PullRequestSpec

WORKFLOW_KEY = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
MEMORY_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
INPUT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")


def load_workflow(
    path: str | Path,
    text: str | None = None,
    files: Mapping[str, str] | None = None,
    *,
    providers: ProviderCatalogue,
) -> Workflow:
    """Load and validate a workflow file; raises WorkflowInvalidError listing every error.

    ``text`` replaces the file's content and ``files`` the prompt files on disk (a stored workflow);
    ``providers`` says which keys each provider's phases may hold (the provider registry).
    """
    workflow, diagnostics = check_workflow(path, text, files, providers=providers)
    if workflow is None:
        raise WorkflowInvalidError(diagnostics)
    return workflow


def check_workflow(
    path: str | Path,
    text: str | None = None,
    files: Mapping[str, str] | None = None,
    *,
    providers: ProviderCatalogue,
    strict: bool = False,
    chain: tuple[str, ...] = (),
) -> tuple[Workflow | None, list[Diagnostic]]:
    """Validate a workflow file: (workflow or None when any error, every diagnostic in file order).

    ``strict`` (``validate --strict``) adds the warnings only strict checking asks for (``check_graph``);
    ``chain``: the files that use this one as a sub-workflow, outermost first (SPEC §13; empty for a top file)."""
    out = Collector(str(path))
    if text is None:
        try:
            text = read_regular_text(Path(path), MAX_WORKFLOW_BYTES)
        except FileNotFoundError:
            out.error(SourcePos(1, 1), f"file not found (looked at {Path(path).absolute()})")
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
    reading = Reading(out, Path(path).parent, text, files, providers)
    reading.chain = chain or (identity_of(path),)
    reading.check_child = check_workflow
    workflow = _build(reading, root, str(path))
    if workflow is not None:
        check_graph(workflow, reading.nodes, out, strict)
    diagnostics = sorted(out.diagnostics, key=lambda d: (d.file != out.file, d.file, d.line, d.column))
    return (None if out.has_errors else workflow), diagnostics


def _build(reading: Reading, root: yaml.MappingNode, source: str) -> Workflow | None:
    out = reading.out
    top = reading.known_keys(root, TOP_KEYS, "workflow")
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
    inputs = _inputs(reading, top["inputs"]) if "inputs" in top else ()
    defaults = _defaults(reading, top["defaults"]) if "defaults" in top else {}
    limits = _limits(reading, top["limits"]) if "limits" in top else Limits()
    phases = read_phases(reading, top["phases"], defaults) if "phases" in top else []
    start = None
    if "start" in top:
        reading.nodes.start = top["start"]
        start = f.read_str(top["start"], "start", out)
    elif phases:
        start = phases[0].key
    pull_request, title, when = (None, None, None)
    if "pull_request" in top:
        pull_request, title, when = _pull_request(reading, top["pull_request"])
    hooks = read_git(top["git"], out) if "git" in top else False
    memory = _memory(top["memory"], out) if "memory" in top else None
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
        pull_request_when=when,
        source_path=source,
        content_hash=str(reading.hash.hexdigest()),
        source_text=reading.text,
        source_files=dict(reading.files),
        git_hooks=hooks,
        memory=memory,
    )


def _memory(node: yaml.Node, out: Collector) -> str | None:
    """``memory: NAME`` (SPEC §17): a name of letters, digits, ``.``, ``_`` and ``-``."""
    name = f.read_str(node, "memory", out)
    if name is not None and not MEMORY_NAME.fullmatch(name):
        out.error(node, f"memory name '{name}' must match [A-Za-z0-9][A-Za-z0-9._-]{{0,99}}")
        return None
    return name


def _inputs(reading: Reading, node: yaml.Node) -> tuple[InputSpec, ...]:
    from alphred.workflow.options import InputSpec  # here: a file without ``inputs:`` never needs it

    out = reading.out
    if not isinstance(node, yaml.MappingNode):
        out.error(node, "'inputs' must be a mapping of input names")
        return ()
    specs: list[InputSpec] = []
    for name, key_node, value_node in mapping_items(node, out):
        if not INPUT_NAME.match(name):
            out.error(key_node, f"input name '{name}' must match [A-Za-z_][A-Za-z0-9_]*")
            continue
        if is_null(value_node):
            specs.append(InputSpec(name))
            continue
        fields = reading.known_keys(value_node, INPUT_KEYS, f"input '{name}'")
        required = f.read_bool(fields["required"], "required", out) if "required" in fields else False
        default = None
        if "default" in fields:
            raw = f.plain_data(fields["default"])
            if isinstance(raw, dict | list):
                out.error(fields["default"], f"default of input '{name}' must be a scalar")
            else:
                default = "" if raw is None else (str(raw).lower() if isinstance(raw, bool) else str(raw))
            if required:
                out.error(fields["default"], f"input '{name}' has a default, so it cannot be required")
        desc = f.read_str(fields["description"], "description", out) if "description" in fields else None
        specs.append(InputSpec(name, bool(required), default, desc))
    return tuple(specs)


def _defaults(reading: Reading, node: yaml.Node) -> dict[str, yaml.Node]:
    """``defaults:``: any phase field not specific to one phase, and any key some provider declares."""
    out = reading.out
    if not isinstance(node, yaml.MappingNode):
        out.error(node, "defaults must be a mapping")
        return {}
    found: dict[str, yaml.Node] = {}
    for key, key_node, value_node in mapping_items(node, out):
        if key in COMMON_DEFAULTABLE_KEYS or declares(reading.providers, key):
            found[key] = value_node
            continue
        allowed = (*COMMON_DEFAULTABLE_KEYS, *declared_keys(reading.providers))
        out.error(key_node, f"unknown key '{key}' in defaults{did_you_mean(key, allowed)}")
    return found


def _limits(reading: Reading, node: yaml.Node) -> Limits:
    out = reading.out
    fields = reading.known_keys(node, LIMIT_KEYS, "limits")
    steps = f.read_int(fields["max_steps"], "max_steps", out, 1) if "max_steps" in fields else None
    tokens = f.read_int(fields["max_tokens"], "max_tokens", out, 1) if "max_tokens" in fields else None
    cost = f.read_number(fields["max_cost_usd"], "max_cost_usd", out) if "max_cost_usd" in fields else None
    par = f.read_int(fields["max_parallel"], "max_parallel", out, 1) if "max_parallel" in fields else None
    wait = f.read_duration(fields["max_wait"], "max_wait", out) if "max_wait" in fields else None
    stalls = f.read_int(fields["max_stalls"], "max_stalls", out, 1) if "max_stalls" in fields else None
    timeout = f.read_duration(fields["timeout"], "timeout", out) if "timeout" in fields else None
    artifact_bytes = None
    if "max_artifact_bytes" in fields:
        artifact_bytes = f.read_int(fields["max_artifact_bytes"], "max_artifact_bytes", out, 1)
    artifact_bytes = artifact_bytes or DEFAULT_MAX_ARTIFACT_BYTES
    items = f.read_int(fields["max_items"], "max_items", out, 1) if "max_items" in fields else None
    return Limits(
        steps or DEFAULT_MAX_STEPS,
        tokens,
        cost,
        par or DEFAULT_MAX_PARALLEL,
        max_wait=DEFAULT_MAX_WAIT if wait is None else wait,
        max_stalls=stalls or DEFAULT_MAX_STALLS,
        max_artifact_bytes=artifact_bytes,
        max_items=items or DEFAULT_MAX_ITEMS,
        timeout=timeout,
    )


def _pull_request(reading: Reading, node: yaml.Node) -> tuple[PullRequestSpec | None, Template | None, Expr | None]:
    from alphred.workflow.options import PullRequestSpec  # here: a file without ``pull_request:`` never needs it

    out = reading.out
    fields = reading.known_keys(node, PULL_REQUEST_KEYS, "pull_request")
    title = f.read_str(fields["title"], "title", out) if "title" in fields else None
    title_template = reading.template(fields["title"], title, ("$pull_request", "title")) if title else None
    body_from = None
    if "body_from" in fields:
        reading.nodes.body_from = fields["body_from"]
        body_from = f.read_str(fields["body_from"], "body_from", out)
    draft = f.read_bool(fields["draft"], "draft", out) if "draft" in fields else False
    base = f.read_str(fields["base"], "base", out) if "base" in fields else None
    provider = f.read_str(fields["provider"], "provider", out) if "provider" in fields else None
    if provider is not None and provider not in ("github", "azure"):
        out.error(fields["provider"], f"pull_request provider must be github or azure, not '{provider}'")
    when = f.read_str(fields["when"], "when", out) if "when" in fields else None
    if when is not None:
        reading.nodes.pull_request_when = fields["when"]
    guard = reading.guard(fields["when"], when) if when is not None else None
    required = f.read_bool(fields["required"], "required", out) if "required" in fields else False
    spec = PullRequestSpec(title, body_from, bool(draft), base, provider, when, bool(required))
    return spec, title_template, guard


__all__ = ["check_workflow", "load_workflow"]
