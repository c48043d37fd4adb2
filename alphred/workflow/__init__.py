"""Workflow files: YAML text -> validated, frozen ``Workflow`` model (pure; no I/O beyond reading files)."""

from alphred.workflow.fields import parse_duration
from alphred.workflow.load import check_workflow, load_workflow
from alphred.workflow.model import (
    DEFAULT_CI_POLL,
    DEFAULT_CI_TIMEOUT,
    END,
    FAIL,
    InputSpec,
    Limits,
    McpServer,
    Phase,
    PhaseType,
    PullRequestSpec,
    SandboxPolicy,
    SourcePos,
    ToolPolicy,
    Transition,
    Workflow,
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
