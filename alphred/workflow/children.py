"""Sub-workflows (SPEC §13): a ``type: workflow`` phase's ``uses:`` and ``with:``; its child file is loaded,
checked (its diagnostics at the child's own FILE:LINE:COL) and stored with the parent.

``uses: PATH`` is relative to the file that says it and must stay inside that file's directory or the
repository holding it (as ``prompt_file``: an absolute path is refused); ``uses: template:NAME`` names a
workflow bundled with Alphred (``alphred/templates/NAME.yaml``). A cycle (A uses B uses A) and nesting
deeper than ``MAX_WORKFLOW_DEPTH`` are refused with the chain of files. The child's text and its own files
(prompt files, its children) are kept in the parent's ``source_files`` under ``uses:<uses>``, so a stored
run (``resume``) needs no file and a changed child makes a new version of the parent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from alphred.errors import Diagnostic
from alphred.workflow import fields as f
from alphred.workflow.files import allowed_roots, inside
from alphred.workflow.model import MAX_WORKFLOW_DEPTH, TEMPLATE_PREFIX, Workflow
from alphred.workflow.reading import Reading, path_problem
from alphred.workflow.yaml_source import did_you_mean, mapping_items, scalar_value

TEMPLATE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"
USES_PREFIX = "uses:"
"""Key prefix in ``source_files``: ``uses:<uses>`` is a child's text, ``uses:<uses>\\0<name>`` its own files."""


def bundled_templates() -> list[str]:
    """The names of the workflows bundled with Alphred (``template:NAME``)."""
    return sorted(path.stem for path in TEMPLATES_DIR.glob("*.yaml"))


def identity_of(path: str | Path) -> str:
    """How a workflow file is named in the chain of files being read (its resolved path)."""
    text = str(path)
    return text if text.startswith(TEMPLATE_PREFIX) else str(Path(text).resolve())


def read_uses(reading: Reading, key: str, key_node: yaml.Node, fields: dict[str, yaml.Node]) -> dict[str, Any]:
    """Read a workflow phase's ``uses:`` and ``with:``; the Phase fields they give (``uses``, ``child``,
    ``with_inputs`` and the ``with.<name>`` templates)."""
    out = reading.out
    found: dict[str, Any] = {"templates": {}, "with_inputs": ()}
    given = _with(reading, key, fields["with"], found) if "with" in fields else {}
    if "uses" not in fields:
        out.error(key_node, f"workflow phase '{key}' needs 'uses' (a workflow file relative to it, or template:NAME)")
        return found
    uses = f.read_str(fields["uses"], "uses", out)
    if uses is None:
        return found
    found["uses"] = uses
    child = _load(reading, key, fields["uses"], uses)
    found["child"] = child
    if child is not None:
        _check_inputs(reading, key, fields["uses"], uses, child, given)
    return found


def _with(reading: Reading, key: str, node: yaml.Node, found: dict[str, Any]) -> dict[str, yaml.Node]:
    """``with: {input: value-or-template}``: each value a scalar; a string is a template of the parent."""
    out = reading.out
    if not isinstance(node, yaml.MappingNode):
        out.error(node, f"'with' of phase '{key}' must map the child's inputs to values")
        return {}
    given: dict[str, yaml.Node] = {}
    for name, name_node, value_node in mapping_items(node, out):
        if not isinstance(value_node, yaml.ScalarNode):
            out.error(value_node, f"input '{name}' in 'with' of phase '{key}' must be a scalar or a template string")
            continue
        value = scalar_value(value_node)
        text = "" if value is None else (str(value).lower() if isinstance(value, bool) else str(value))
        found["templates"][f"with.{name}"] = reading.template(value_node, text, (key, f"with.{name}"))
        given[name] = name_node
    found["with_inputs"] = tuple(given)
    return given


def _load(reading: Reading, key: str, node: yaml.Node, uses: str) -> Workflow | None:
    out = reading.out
    located = _locate(reading, uses)
    if isinstance(located, str):
        out.error(node, f"'uses' of phase '{key}': {located}")
        return None
    path, text, files = located
    identity = identity_of(uses if uses.startswith(TEMPLATE_PREFIX) else path)
    shown = " -> ".join(_shown(name) for name in (*reading.chain, identity))
    if identity in reading.chain:
        out.error(node, f"phase '{key}' uses {uses}, which makes a cycle of workflows: {shown}")
        return None
    if len(reading.chain) > MAX_WORKFLOW_DEPTH:
        out.error(node, f"phase '{key}' uses {uses}: sub-workflows nest at most {MAX_WORKFLOW_DEPTH} deep ({shown})")
        return None
    assert reading.check_child is not None, "the loader says how a child file is checked"
    checked: tuple[Workflow | None, list[Diagnostic]] = reading.check_child(
        path, text, files, providers=reading.providers, chain=(*reading.chain, identity)
    )
    child, diagnostics = checked
    out.diagnostics.extend(diagnostics)  # each at the child file's own FILE:LINE:COL
    if child is None:
        errors = sum(1 for d in diagnostics if d.severity == "error")
        out.error(node, f"phase '{key}' uses {uses}, which has {errors} error(s) (listed at its file)")
        return None
    reading.files[USES_PREFIX + uses] = child.source_text
    for name, content in child.source_files.items():
        reading.files[f"{USES_PREFIX}{uses}\0{name}"] = content
    reading.hash.update(b"\0uses\0" + uses.encode("utf-8") + b"\0" + child.content_hash.encode("ascii"))
    return child


def _locate(reading: Reading, uses: str) -> tuple[Path, str | None, Mapping[str, str] | None] | str:
    """(the child's path, its stored text and files or None to read them from disk), or why it cannot be."""
    problem = path_problem(uses)
    if problem is not None:
        return f"{uses!r} is not a usable path: it {problem}"
    if uses.startswith(TEMPLATE_PREFIX):
        name = uses[len(TEMPLATE_PREFIX) :]
        path = TEMPLATES_DIR / f"{name}.yaml"
        if not TEMPLATE_NAME.match(name) or (reading.stored_files is None and not path.is_file()):
            known = bundled_templates()
            return f"unknown template '{name}'{did_you_mean(name, known)} (bundled: {', '.join(known)})"
    else:
        if Path(uses).is_absolute():
            return f"'{uses}' must be a path relative to this workflow file, not an absolute path"
        path = reading.base_dir / uses
        if reading.stored_files is None:
            if not path.exists():
                return f"workflow file '{uses}' not found (looked at {path.absolute()})"
            if not inside(path, allowed_roots(reading.base_dir)):
                return f"'{uses}' lies outside the workflow's directory and its repository"
    if reading.stored_files is None:
        return path, None, None
    stored = reading.stored_files
    if USES_PREFIX + uses not in stored:
        return f"'{uses}' is missing from the stored workflow"
    head = f"{USES_PREFIX}{uses}\0"
    own = {name[len(head) :]: text for name, text in stored.items() if name.startswith(head)}
    return path, stored[USES_PREFIX + uses], own


def _shown(identity: str) -> str:
    return identity if identity.startswith(TEMPLATE_PREFIX) else Path(identity).name


def _check_inputs(
    reading: Reading, key: str, node: yaml.Node, uses: str, child: Workflow, given: dict[str, yaml.Node]
) -> None:
    """Each ``with:`` input must be declared by the child; each required input of the child must be given."""
    out = reading.out
    declared = [spec.name for spec in child.inputs]
    for name, name_node in given.items():
        if name not in declared:
            listed = ", ".join(declared) or "none"
            out.error(
                name_node,
                f"phase '{key}' gives input '{name}', which {uses} does not declare (its inputs: {listed})"
                f"{did_you_mean(name, declared)}",
            )
    for spec in child.inputs:
        if spec.required and spec.name not in given:
            out.error(node, f"phase '{key}' must give {uses}'s required input '{spec.name}' in 'with:'")


__all__ = ["TEMPLATES_DIR", "USES_PREFIX", "bundled_templates", "identity_of", "read_uses"]
