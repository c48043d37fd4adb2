"""Events the runtime feeds the machine and effects the machine asks the runtime to carry out.

Every class is named where the runtime and the machine load, yet a run meets only a few of them (a merge, a
delivery, a CI wait, a timeout are rare): each is a ``deferred_dataclass``, whose methods are made when its
first instance is (issue 29: ~3 M instructions a class, off the run's start).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any, TypeAlias

from alphred.engine.state import Report, StepOutcome
from alphred.engine.statuses import NodeStatus, RunStatus
from alphred.lazy import deferred_dataclass

# --- events -------------------------------------------------------------------------------------------


@deferred_dataclass(frozen=True)
class RunStarted:
    """The runtime begins a pending run."""


@deferred_dataclass(frozen=True)
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
    tree: str | None = None  # the git tree the attempt left (stall detection, SPEC §15); None: unknown
    child_steps: int = 0  # the steps of the sub-workflow run the attempt ran (SPEC §13): the run's steps too


@deferred_dataclass(frozen=True)
class PhaseFailed:
    """An attempt failed; ``reason`` names why (``timeout``, ``auth``, ``exit_code``...)."""

    phase: str
    attempt: int
    reason: str
    retryable: bool = True
    error_code: str | None = None
    tokens: int = 0
    cost_usd: float = 0.0
    wake_at: float | None = None  # a usage limit (SPEC §15): when it resets, in seconds since the epoch
    wait_seconds: float = 0.0  # how long the run would wait for it (``wake_at`` minus the time it was seen)
    child_steps: int = 0  # the steps of the sub-workflow run the attempt ran (SPEC §13): the run's steps too


@deferred_dataclass(frozen=True)
class PhaseInterrupted:
    """An attempt was cut short (Ctrl+C, kill, lease takeover); it will run again as a new attempt."""

    phase: str
    attempt: int


@deferred_dataclass(frozen=True)
class ApprovalRequested:
    """The runtime started an approval phase that needs a human answer (no auto-approve)."""

    phase: str
    attempt: int


@deferred_dataclass(frozen=True)
class ApprovalGiven:
    """A human answered the approval phase the run waits on (``approved`` or ``rejected``)."""

    phase: str
    decision: str
    comment: str | None = None


@deferred_dataclass(frozen=True)
class PauseRequested:
    """Someone asked the run to pause once the running phase has finished and been routed."""


@deferred_dataclass(frozen=True)
class Resume:
    """A paused run continues (not one waiting for approval)."""


@deferred_dataclass(frozen=True)
class CancelRequested:
    """Someone cancelled the run."""


@deferred_dataclass(frozen=True)
class TimedOut:
    """The run is past its ``limits.timeout`` (the runtime measured it from the run's stored start)."""


@deferred_dataclass(frozen=True)
class RetryRun:
    """An operator retries a failed run."""


@deferred_dataclass(frozen=True)
class CiWaiting:
    """A ``type: ci`` attempt looked at the checks and some are still running: wait (SPEC §16)."""

    phase: str
    attempt: int
    summary: str = ""


@deferred_dataclass(frozen=True)
class DeliveryDone:
    """A delivery step (``push``, ``open``) succeeded; ``open`` carries the pull request's URL."""

    step: str
    url: str | None = None
    nothing: bool = False  # ``push`` found no commit to deliver: the run completes without a pull request


@deferred_dataclass(frozen=True)
class DeliveryFailed:
    """A delivery step failed (the run fails ``delivery_failed``; ``retry`` resumes at that step)."""

    step: str
    kind: str


@deferred_dataclass(frozen=True)
class MergeDone:
    """The runtime merged branch ``branch`` (its head phase) into the run branch for ``join``."""

    join: str
    branch: str


@deferred_dataclass(frozen=True)
class MergeConflicted:
    """Merging ``branch`` for ``join`` conflicted on ``conflicts``; the merge is left in progress.

    ``ref`` is the git branch being merged (the resolver's ``merge.branch``).
    """

    join: str
    branch: str
    conflicts: tuple[str, ...]
    ref: str | None = None


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
    | TimedOut
    | RetryRun
    | DeliveryDone
    | DeliveryFailed
    | CiWaiting
    | MergeDone
    | MergeConflicted
)

# --- effects ------------------------------------------------------------------------------------------


@deferred_dataclass(frozen=True)
class SetRunStatus:
    """Persist the run's new status and reason."""

    status: RunStatus
    reason: str | None = None


@deferred_dataclass(frozen=True)
class SetPhaseStatus:
    """Persist a phase's new status; ``attempt`` is the phase's attempt counter after the move.

    ``values`` are the phase's stored counters after the move (visits, decision, exit code, tokens, cost),
    so that persisting the effect needs nothing else.
    """

    phase: str
    status: NodeStatus
    attempt: int
    values: Mapping[str, Any] = field(default_factory=dict, compare=False)


@deferred_dataclass(frozen=True)
class RecordStep:
    """Persist one finished execution (one ``steps`` entry, one diagnostics row)."""

    phase: str
    attempt: int
    outcome: StepOutcome
    decision: str | None = None
    next: str | None = None
    reason: str | None = None
    error_code: str | None = None
    branch: str | None = None  # the branch (its head phase) the execution ran in; None: the run branch
    provider: str | None = field(default=None, compare=False)  # the provider that ran it (SPEC §15)


@deferred_dataclass(frozen=True)
class RecordRouting:
    """Persist a routing decision; ``target`` is a phase key, ``$end``, ``$fail`` or ``no_route``."""

    source: str
    attempt: int
    decision: str | None
    target: str
    priority: int | None
    reason: str | None = None
    branch: str | None = None  # the branch (its head phase) the routing happened in; None: the run branch
    fan_out: tuple[str, ...] = ()  # every branch a fan-out started (``target`` is then the first)
    # how routing chose (``routing.Explanation``): stored with the decision for ``status --explain``
    explanation: tuple[dict[str, Any], ...] = field(default=(), compare=False)


@deferred_dataclass(frozen=True)
class StartPhase:
    """Execute ``attempt`` of ``phase``; ``visit`` numbers the visit it belongs to (1-based)."""

    phase: str
    attempt: int
    visit: int
    branch: str | None = None  # the branch (its head phase) the attempt runs in; None: the run branch


@deferred_dataclass(frozen=True)
class AwaitApproval:
    """The run now waits for ``alphred approve`` / ``alphred reject`` on this approval attempt."""

    phase: str
    attempt: int


@deferred_dataclass(frozen=True)
class AwaitCi:
    """The run now waits, paused, for the pull request's checks (``summary``: what the last look found)."""

    phase: str
    attempt: int
    summary: str = ""


@deferred_dataclass(frozen=True)
class RunFinished:
    """The run reached a terminal status (deliver, clean up, report)."""

    status: RunStatus
    reason: str | None = None


@deferred_dataclass(frozen=True)
class Deliver:
    """Carry out delivery step ``step`` (``push`` the branch, ``open`` or find its pull request).

    Persisted (as the state's ``delivery``) before it runs: a crash resumes delivery at this step only.
    """

    step: str


@deferred_dataclass(frozen=True)
class RecordPullRequest:
    """Persist the run's pull request URL."""

    url: str


@deferred_dataclass(frozen=True)
class StopPhase:
    """Stop the running ``attempt`` of ``phase`` (another branch failed, or ``join: any`` was reached)."""

    phase: str
    attempt: int
    branch: str | None = None  # the branch (its head phase) the attempt runs in


@deferred_dataclass(frozen=True)
class MergeBranch:
    """Merge branch ``branch`` (its head phase) into the run branch before ``join`` runs (SPEC §8).

    Answered by ``MergeDone`` or ``MergeConflicted``; after a crash it is asked again, so the runtime
    reports ``MergeDone`` for a branch it has already merged.
    """

    join: str
    branch: str


@deferred_dataclass(frozen=True)
class AddPhase:
    """Persist a new phase of the run: ``phase`` (``<phase>-<index>``) runs phase ``base`` for one item of a
    for_each (SPEC §13); the runtime adds its row once, before any status move of it."""

    phase: str
    base: str


Effect: TypeAlias = (
    SetRunStatus
    | AddPhase
    | SetPhaseStatus
    | RecordStep
    | RecordRouting
    | StartPhase
    | AwaitApproval
    | AwaitCi
    | RunFinished
    | Deliver
    | RecordPullRequest
    | StopPhase
    | MergeBranch
)
