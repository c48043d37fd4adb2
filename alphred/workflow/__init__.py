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
    Phase,
    PhaseType,
    PullRequestSpec,
    SandboxPolicy,
    SourcePos,
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
    "Phase",
    "PhaseType",
    "PullRequestSpec",
    "SandboxPolicy",
    "SourcePos",
    "Transition",
    "Workflow",
    "check_workflow",
    "load_workflow",
    "parse_duration",
]
