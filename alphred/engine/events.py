"""Events the runtime feeds the machine and effects the machine asks the runtime to carry out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from alphred.engine.state import Report, StepOutcome
from alphred.engine.status import NodeStatus, RunStatus

# --- events -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunStarted:
    """The runtime begins a pending run."""


@dataclass(frozen=True)
class PhaseCompleted:
    """An attempt finished with a result (a command's non-zero exit under ``allow_failure`` included)."""

    phase: str
    attempt: int
    decision: str | None = None
    report: Report = None
    exit_code: int | None = None
    tokens: int = 0
    cost_usd: float = 0.0
    checks: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # name -> {passed, exit_code}


@dataclass(frozen=True)
class PhaseFailed:
    """An attempt failed; ``reason`` names why (``timeout``, ``auth``, ``exit_code``...)."""

    phase: str
    attempt: int
    reason: str
    retryable: bool = True
    error_code: str | None = None
    tokens: int = 0
    cost_usd: float = 0.0


@dataclass(frozen=True)
class PhaseInterrupted:
    """An attempt was cut short (Ctrl+C, kill, lease takeover); it will run again as a new attempt."""

    phase: str
    attempt: int


@dataclass(frozen=True)
class ApprovalRequested:
    """The runtime started an approval phase that needs a human answer (no auto-approve)."""

    phase: str
    attempt: int


@dataclass(frozen=True)
class ApprovalGiven:
    """A human answered the approval phase the run waits on (``approved`` or ``rejected``)."""

    phase: str
    decision: str
    comment: str | None = None


@dataclass(frozen=True)
class PauseRequested:
    """Someone asked the run to pause once the running phase has finished and been routed."""


@dataclass(frozen=True)
class Resume:
    """A paused run continues (not one waiting for approval)."""


@dataclass(frozen=True)
class CancelRequested:
    """Someone cancelled the run."""


@dataclass(frozen=True)
class RetryRun:
    """An operator retries a failed run."""


Event: TypeAlias = (
    RunStarted
    | PhaseCompleted
    | PhaseFailed
    | PhaseInterrupted
    | ApprovalRequested
    | ApprovalGiven
    | PauseRequested
    | Resume
    | CancelRequested
    | RetryRun
)

# --- effects ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetRunStatus:
    """Persist the run's new status and reason."""

    status: RunStatus
    reason: str | None = None


@dataclass(frozen=True)
class SetPhaseStatus:
    """Persist a phase's new status; ``attempt`` is the phase's attempt counter after the move."""

    phase: str
    status: NodeStatus
    attempt: int


@dataclass(frozen=True)
class RecordStep:
    """Persist one finished execution (one ``steps`` entry, one diagnostics row)."""

    phase: str
    attempt: int
    outcome: StepOutcome
    decision: str | None = None
    next: str | None = None
    reason: str | None = None
    error_code: str | None = None


@dataclass(frozen=True)
class RecordRouting:
    """Persist a routing decision; ``target`` is a phase key, ``$end``, ``$fail`` or ``no_route``."""

    source: str
    attempt: int
    decision: str | None
    target: str
    priority: int | None
    reason: str | None = None


@dataclass(frozen=True)
class StartPhase:
    """Execute ``attempt`` of ``phase``; ``visit`` numbers the visit it belongs to (1-based)."""

    phase: str
    attempt: int
    visit: int


@dataclass(frozen=True)
class AwaitApproval:
    """The run now waits for ``alphred approve`` / ``alphred reject`` on this approval attempt."""

    phase: str
    attempt: int


@dataclass(frozen=True)
class RunFinished:
    """The run reached a terminal status (deliver, clean up, report)."""

    status: RunStatus
    reason: str | None = None


Effect: TypeAlias = (
    SetRunStatus | SetPhaseStatus | RecordStep | RecordRouting | StartPhase | AwaitApproval | RunFinished
)
