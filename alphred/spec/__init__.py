"""Workflow files: YAML text -> validated, frozen ``Workflow`` model (pure; no I/O beyond reading files)."""

from .fields import parse_duration
from .load import check_workflow, load_workflow
from .model import (
    END,
    FAIL,
    InputSpec,
    Limits,
    Phase,
    PhaseType,
    PullRequestSpec,
    SourcePos,
    Transition,
    Workflow,
)

__all__ = [
    "END",
    "FAIL",
    "InputSpec",
    "Limits",
    "Phase",
    "PhaseType",
    "PullRequestSpec",
    "SourcePos",
    "Transition",
    "Workflow",
    "check_workflow",
    "load_workflow",
    "parse_duration",
]
