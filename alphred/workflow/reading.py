"""The state of reading one workflow file: its diagnostics, the YAML nodes later checks point at, the
templates and guards parsed with located errors, and the prompt files read into the content hash."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from alphred.digest import sha256
from alphred.errors import GuardSyntaxError, TemplateError
from alphred.guards import Expr, parse_guard
from alphred.guards.shell import command_words, shell_problems
from alphred.guards.templates import Template, parse_template
from alphred.workflow.containment import refused_prompt_file
from alphred.workflow.files import MAX_PROMPT_BYTES, FileRefusedError, allowed_roots, inside, read_regular_text
from alphred.workflow.model import SourcePos
from alphred.workflow.provider_keys import ProviderCatalogue
from alphred.workflow.yaml_source import Collector, NodeIndex, is_plain_single_line, known_keys, offset_pos, pos


class Reading:
    """One file being read: ``text`` from ``base_dir`` (prompt files from ``stored`` when given)."""

    def __init__(
        self, out: Collector, base_dir: Path, text: str, stored: Mapping[str, str] | None, providers: ProviderCatalogue
    ) -> None:
        self.out = out
        self.base_dir = base_dir
        self.text = text
        self.stored_files = stored
        self.providers = providers
        self.nodes = NodeIndex()
        self.files: dict[str, str] = {}  # prompt files read, by the path the workflow names them with
        self.hash = sha256(text.encode("utf-8"))
        # sub-workflows (SPEC §13): the files being read above this one (cycle and depth checks), and how a
        # child file is checked (``load.check_workflow``, injected: the loader reads its phases through here)
        self.chain: tuple[str, ...] = ()
        self.check_child: Callable[..., Any] | None = None

    def known_keys(self, node: yaml.Node, allowed: Sequence[str], what: str) -> dict[str, yaml.Node]:
        """The value nodes of mapping ``node`` by key; other keys and a non-mapping are reported."""
        return known_keys(node, allowed, what, self.out)

    def guard(self, node: yaml.Node, text: str) -> Expr | None:
        """The parsed guard ``text`` of ``node``; a syntax error is reported at its column in the file."""
        try:
            return parse_guard(text)
        except GuardSyntaxError as exc:
            where = pos(node)
            if is_plain_single_line(node):
                quote = 1 if getattr(node, "style", None) in ("'", '"') else 0
                where = SourcePos(where.line, where.column + quote + exc.column - 1)
            self.out.error(where, str(exc))
            return None

    def template(self, node: yaml.Node, text: str, owner: tuple[str, str]) -> Template:
        """The parsed template ``text`` of ``owner`` (phase, field); shell commands are checked for safety."""
        self.nodes.templates[owner] = node
        try:
            template = parse_template(text)
        except TemplateError as exc:
            self.out.error(node, f"{exc} in {owner[1]} of '{owner[0]}'")
            return parse_template("")
        if owner[1] == "run" or owner[1].startswith("check '"):  # a shell command: values must reach it as data
            for offset, problem in shell_problems(template):
                self.out.error(offset_pos(node, text, offset, self.text), f"{problem} in {owner[1]} of '{owner[0]}'")
            for offset, problem in command_words(template):
                self.out.warning(offset_pos(node, text, offset, self.text), f"{problem} in {owner[1]} of '{owner[0]}'")
        return template

    def prompt_file(self, node: yaml.Node, rel: str) -> str | None:
        """The text of prompt file ``rel`` (added to the content hash), or None after reporting why not."""
        problem = path_problem(rel)
        if problem is not None:
            self.out.error(node, f"prompt_file {rel!r} is not a usable path: it {problem}")
            return None
        refused = refused_prompt_file(rel) or refused_prompt_file(str(self.base_dir / rel))
        if refused is None and (self.base_dir / rel).exists():
            refused = refused_prompt_file(str((self.base_dir / rel).resolve()))
        if refused is not None:
            self.out.error(node, f"prompt_file '{rel}' {refused}")
            return None
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


def path_problem(rel: str) -> str | None:
    """Why ``rel`` cannot name a file (a NUL byte, an unpaired surrogate), or None."""
    if "\x00" in rel:
        return "contains a NUL byte"
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return "contains an unpaired surrogate (not valid UTF-8)"
    return None
