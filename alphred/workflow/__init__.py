"""Workflow files: YAML text -> validated, frozen ``Workflow`` model (pure; no I/O beyond reading files).

The types of the optional blocks (``InputSpec``, ``PullRequestSpec``, ``SandboxPolicy``, ``ToolPolicy``,
``McpServer``) are loaded when first asked for (``options.py``; issue 29).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from alphred.lazy import forwarded
from alphred.workflow.fields import parse_duration
from alphred.workflow.load import check_workflow, load_workflow
from alphred.workflow.model import (
    DEFAULT_CI_POLL,
    DEFAULT_CI_TIMEOUT,
    END,
    FAIL,
    Limits,
    Phase,
    PhaseType,
    SourcePos,
    Transition,
    Workflow,
)

if TYPE_CHECKING:
    from alphred.workflow.options import InputSpec, McpServer, PullRequestSpec, SandboxPolicy, ToolPolicy

_OPTIONS = dict.fromkeys(
    ("InputSpec", "McpServer", "PullRequestSpec", "SandboxPolicy", "ToolPolicy"), "alphred.workflow.options"
)

__all__ = [
    "DEFAULT_CI_POLL",
    "DEFAULT_CI_TIMEOUT",
    "END",
    "FAIL",
    "InputSpec",
    "Limits",
    "McpServer",
    "Phase",
    "PhaseType",
    "PullRequestSpec",
    "SandboxPolicy",
    "SourcePos",
    "ToolPolicy",
    "Transition",
    "Workflow",
    "check_workflow",
    "load_workflow",
    "parse_duration",
]


def __getattr__(name: str) -> Any:
    """The optional blocks' types of ``options.py``, loaded when first asked for."""
    return forwarded(globals(), name, _OPTIONS)
