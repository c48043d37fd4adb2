"""The optional blocks of a workflow file and of its phases, as frozen model types: ``inputs:``, ``pull_request:``,
a phase's ``sandbox:``, ``tools:``, ``mcp:`` and ``fallback:`` (SPEC §11, §14, §15).

They are part of the model (``alphred.workflow.model`` and ``alphred.workflow`` still give them) but live here so
that a file which uses none of these blocks never creates their classes: loaded where a file has one, or where a
provider or the runtime reads one (issue 29: each frozen dataclass costs ~3-5 M instructions to create).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from alphred.lazy import deferred_dataclass
from alphred.workflow.model import MCP_PREFIX


@deferred_dataclass(frozen=True)
class InputSpec:
    """A declared run parameter."""

    name: str
    required: bool = False
    default: str | None = None
    description: str | None = None


@deferred_dataclass(frozen=True)
class PullRequestSpec:
    """The ``pull_request:`` block: what to open when the run completes."""

    title: str | None = None
    body_from: str | None = None
    draft: bool = False
    base: str | None = None
    provider: str | None = None  # "github" | "azure"; None: chosen from the remote URL
    when: str | None = None  # a guard over the final state: the end-of-run PR is opened only when it holds
    required: bool = False  # a run with nothing to deliver fails instead of completing without a PR


@deferred_dataclass(frozen=True)
class SandboxPolicy:
    """A phase's ``sandbox:`` (SPEC §14): its processes run confined; ``network`` lets them reach the network."""

    network: bool = False


@deferred_dataclass(frozen=True)
class ToolPolicy:
    """A phase's ``tools:`` (SPEC §14): ``allow`` (None: no allow-list) and ``deny``, tool names or patterns;
    an MCP tool is named ``mcp__<server>__<tool>``."""

    allow: tuple[str, ...] | None = None
    deny: tuple[str, ...] = ()

    def permits(self, name: str) -> bool:
        """Whether a tool of this exact name may be used (patterns such as ``Bash(pytest:*)`` match the
        calls their provider checks, not the bare name; ``mcp__server`` stands for all of its tools)."""
        if any(_names(entry, name) for entry in self.deny):
            return False
        return self.allow is None or any(_names(entry, name) for entry in self.allow)


def _names(entry: str, name: str) -> bool:
    if entry == name:
        return True
    return entry.startswith(MCP_PREFIX) and entry.count("__") == 1 and name.startswith(entry + "__")


@deferred_dataclass(frozen=True)
class McpServer:
    """One entry of a phase's ``mcp:`` (SPEC §14): a stdio server (``command``, ``args``, ``cwd`` inside the
    worktree) or a streamable-HTTP one (``url``, ``headers``); ``env`` names the variables (secrets) given to
    this server only, resolved at run time; a header value may use ``${NAME}`` of one of them."""

    name: str
    command: str | None = None
    args: tuple[str, ...] = ()
    env: tuple[str, ...] = ()
    cwd: str | None = None
    url: str | None = None
    headers: tuple[tuple[str, str], ...] = ()

    @property
    def transport(self) -> str:
        """``stdio`` or ``http``."""
        return "http" if self.url is not None else "stdio"

    def describe(self) -> str:
        """One line: what runs (or where it is), and the variables it gets (names only)."""
        what = self.url if self.url is not None else " ".join([self.command or "", *self.args])
        env = f" (env: {', '.join(self.env)})" if self.env else ""
        return f"{self.name}: {self.transport} {what}{env}"


@deferred_dataclass(frozen=True)
class Fallback:
    """One provider of an agent phase's ``fallback:`` list (SPEC §15): its model and its own provider keys,
    with the phase's keys that this provider knows (the others are dropped for it)."""

    provider: str
    model: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
