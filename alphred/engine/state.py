"""The run state the machine folds events into (frozen dataclasses) and its JSON form."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

from alphred.engine.statuses import NodeStatus, RunStatus
from alphred.lazy import deferred_dataclass

if TYPE_CHECKING:  # the model is only named here: the stored statuses import this module cheaply
    from alphred.workflow.model import Workflow

Report: TypeAlias = str | dict[str, Any] | None
STATE_FORMAT = 1


_Frozen = TypeVar("_Frozen")


def evolve(obj: _Frozen, /, **changes: Any) -> _Frozen:
    """``dataclasses.replace`` for the engine's frozen state classes (no ``__post_init__``, every field an
    ``__init__`` field), without running ``__init__`` again: the copy shares the unchanged values (immutable,
    like the original's) and takes ``changes``. A transition copies the run state about twenty times; this
    is several times cheaper than ``replace``, which rebuilds every field through keyword arguments.

    The original holds every field (its ``__init__`` set them all): a change that is not a field grows the copy,
    which is how a wrong name is told (issue 29: a size, not a set comparison, per copy)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    change_fields(new, changes)
    return new


def change_fields(obj: object, changes: Mapping[str, Any]) -> None:
    """Set fields of ``obj`` in place: a copy ``evolve`` (or the engine's ``Fold``) made and nothing else holds yet.
    A name that is not a field grows it, which is how a wrong name is told; it is then taken out again (``obj`` is
    left as it was) and TypeError raised."""
    values = obj.__dict__
    size = len(values)
    values.update(changes)
    if len(values) != size:
        unknown = sorted(changes.keys() - getattr(obj, "__dataclass_fields__", {}).keys())
        for name in unknown:
            del values[name]
        raise TypeError(f"{type(obj).__name__} has no field(s) {unknown}")


class StepOutcome(StrEnum):
    """How one phase execution (one ``steps`` entry) ended."""

    COMPLETED = "completed"
    FAILED = "failed"
    INTERRUPTED = "interrupted"
    CANCELLED = "cancelled"


@deferred_dataclass(frozen=True)
class PhaseState:
    """One phase of a run: its status and counters.

    ``attempt`` counts executions started, ``visits`` completed executions, ``entries`` the times the
    phase was entered as a new visit (start or routed into); ``consecutive_failures`` is per visit.
    ``entered_from`` is the phase whose routing entered the current visit (None for the start phase).
    """

    status: NodeStatus = NodeStatus.PENDING
    attempt: int = 0
    visits: int = 0
    entries: int = 0
    consecutive_failures: int = 0
    decision: str | None = None
    report: Report = None
    exit_code: int | None = None
    tokens: int = 0
    cost_usd: float = 0.0
    entered_from: str | None = None
    checks: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # last completion's checks (§9)
    tree: str | None = None  # the git tree the last completed visit left (SPEC §15)
    stalls: int = 0  # consecutive completed visits whose tree and report equal the visit before (SPEC §15)
    provider: int = 0  # which provider runs the next attempt: 0 its own, n its n-th fallback (SPEC §15)


@deferred_dataclass(frozen=True)  # made on first use: not at a run's start (issue 29)
class Step:
    """One finished phase execution in the run's history (SPEC §6 ``steps``)."""

    phase: str
    attempt: int
    outcome: StepOutcome
    decision: str | None = None
    next: str | None = None
    reason: str | None = None
    error_code: str | None = None
    branch: str | None = None  # the branch (its head phase) the execution ran in; None: the run branch
    provider: str | None = None  # the provider that ran it (an agent phase; SPEC §15)


@deferred_dataclass(frozen=True)  # made on first use: not at a run's start (issue 29)
class Lane:
    """One branch of the active fan-out (SPEC §8), named by its first phase ``head``.

    ``current`` is the phase whose attempt runs in the lane; ``queued`` the phase waiting to start (a free
    ``max_parallel`` slot, a resume) and ``queued_new_visit`` whether that start enters a new visit;
    ``arrived`` is set once the lane routed to the join, from phase ``last``. A for_each item's lane
    (SPEC §13) carries its ``index`` and ``item`` (its phases are ``<phase>-<index>``); ``failed`` marks a
    lane that ended without reaching its ``join: all_done``, ``skipped`` a guarded branch whose guard was
    false (it never starts).
    """

    head: str
    current: str | None = None
    queued: str | None = None
    queued_new_visit: bool = False
    arrived: bool = False
    last: str | None = None
    index: int | None = None
    item: Any = None
    failed: bool = False
    skipped: bool = False

    @property
    def ended(self) -> bool:
        """True once the lane has nothing more to run: arrived at the join, failed (``all_done``) or skipped."""
        return self.arrived or self.failed or self.skipped


@deferred_dataclass(frozen=True)  # made on first use: not at a run's start (issue 29)
class MergeState:
    """The join's merges in progress: ``pending`` branch heads still to merge (fan-out order; the first is
    being merged), ``ref``/``conflicts`` the git branch and conflicted paths of a merge the resolver works on,
    ``status`` ``clean`` or ``resolved`` (once any merge needed the resolver), ``source`` the phase that
    routed into the join."""

    join: str
    pending: tuple[str, ...]
    source: str | None = None
    ref: str | None = None
    conflicts: tuple[str, ...] = ()
    status: str = "clean"


@deferred_dataclass(frozen=True)
class RunState:
    """Everything the engine knows about one run; ``workflow`` is not serialised.

    ``current`` is the phase whose attempt is running. ``queued`` is the phase to start next when the
    run is resumed or retried (``queued_new_visit``: whether that start enters a new visit).
    ``edges`` counts how often each transition, keyed by ``(source, priority)``, was taken.
    ``deliver``: the run ends by pushing its branch and opening a pull request; ``delivery`` is the delivery
    step in progress (or the one that failed), ``pr_url`` the pull request once open, ``finish_reason`` the
    reason the run completes with once delivered.
    """

    workflow: Workflow = field(repr=False)
    status: RunStatus = RunStatus.PENDING
    reason: str | None = None
    inputs: Mapping[str, str] = field(default_factory=dict)
    phases: Mapping[str, PhaseState] = field(default_factory=dict)
    edges: Mapping[tuple[str, int], int] = field(default_factory=dict)
    steps: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
    current: str | None = None
    queued: str | None = None
    queued_new_visit: bool = False
    pause_requested: bool = False
    history: tuple[Step, ...] = ()
    deliver: bool = False
    delivery: str | None = None
    pr_url: str | None = None
    finish_reason: str | None = None
    delivery_note: str | None = None  # why a run with a pull request completed without one (``NOT_WANTED``...)
    lanes: tuple[Lane, ...] = ()
    merge: MergeState | None = None
    interrupting: bool = False
    wake_at: float | None = None  # paused by a usage limit: when it resets (seconds since the epoch, SPEC §15)
    waited: float = 0.0  # seconds of usage-limit waits so far (bounded by limits.max_wait)
    branches: Mapping[str, Any] | None = None  # ``branches.*`` of the last join (SPEC §13), from its merge on

    def phase(self, key: str) -> PhaseState:
        """Return the state of phase ``key`` (KeyError when the workflow has no such phase)."""
        return self.phases[key]

    def with_phase(self, key: str, **changes: Any) -> RunState:
        """Return a copy with phase ``key`` updated by ``changes``."""
        phases = dict(self.phases)
        phases[key] = evolve(phases[key], **changes)
        return evolve(self, phases=phases)


def failed_over(steps: Iterable[Mapping[str, Any]]) -> bool:
    """True when some phase's steps ran on more than one provider (a ``fallback`` took over, SPEC §15)."""
    seen: dict[Any, Any] = {}
    for s in steps:
        if s.get("provider") is not None and seen.setdefault(s.get("phase"), s["provider"]) != s["provider"]:
            return True
    return False


def initial_state(workflow: Workflow, inputs: Mapping[str, str], *, deliver: bool = False) -> RunState:
    """Return the state of a new, pending run; declared input defaults fill what ``inputs`` lacks.

    With ``deliver`` the run completes only once its branch is pushed and its pull request open.
    """
    merged = {spec.name: spec.default for spec in workflow.inputs if spec.default is not None}
    merged.update(inputs)
    return RunState(
        workflow=workflow,
        inputs=merged,
        phases={key: PhaseState() for key in workflow.phase_keys},
        deliver=deliver,
    )


def state_to_json(state: RunState) -> dict[str, Any]:
    """Return ``state`` as a JSON-ready dict (the workflow itself is not included)."""
    return {
        "format": STATE_FORMAT,
        "workflow": state.workflow.key,
        "status": state.status.value,
        "reason": state.reason,
        "inputs": dict(state.inputs),
        "phases": {key: _phase_to_json(ps) for key, ps in state.phases.items()},
        "edges": [[source, priority, count] for (source, priority), count in state.edges.items()],
        "steps": state.steps,
        "tokens": state.tokens,
        "cost_usd": state.cost_usd,
        "current": state.current,
        "queued": state.queued,
        "queued_new_visit": state.queued_new_visit,
        "pause_requested": state.pause_requested,
        "history": [_step_to_json(step) for step in state.history],
        "deliver": state.deliver,
        "delivery": state.delivery,
        "pr_url": state.pr_url,
        "finish_reason": state.finish_reason,
        "delivery_note": state.delivery_note,
        "lanes": [_lane_to_json(lane) for lane in state.lanes],
        "merge": None if state.merge is None else _merge_to_json(state.merge),
        "interrupting": state.interrupting,
        "wake_at": state.wake_at,
        "waited": state.waited,
        "branches": None if state.branches is None else dict(state.branches),
    }


def _lane_to_json(lane: Lane) -> dict[str, Any]:
    data: dict[str, Any] = {
        "head": lane.head, "current": lane.current, "queued": lane.queued,
        "queued_new_visit": lane.queued_new_visit, "arrived": lane.arrived, "last": lane.last,
    }  # fmt: skip
    if lane.index is not None:  # a for_each item: the item is stored with the lane, never read again
        data.update(index=lane.index, item=lane.item)
    if lane.failed or lane.skipped:
        data.update(failed=lane.failed, skipped=lane.skipped)
    return data


def _merge_to_json(merge: MergeState) -> dict[str, Any]:
    return {
        "join": merge.join, "pending": list(merge.pending), "source": merge.source, "ref": merge.ref,
        "conflicts": list(merge.conflicts), "status": merge.status,
    }  # fmt: skip


def _lane_from_json(data: Mapping[str, Any], known: set[str]) -> Lane:
    index = data.get("index")
    lane = Lane(
        head=str(data["head"]), current=data["current"], queued=data["queued"],
        queued_new_visit=bool(data["queued_new_visit"]), arrived=bool(data["arrived"]), last=data["last"],
        index=None if index is None else int(index), item=data.get("item"),
        failed=bool(data.get("failed", False)), skipped=bool(data.get("skipped", False)),
    )  # fmt: skip
    for name in (lane.head, lane.current, lane.queued, lane.last):
        if name is not None and name not in known:
            raise ValueError(f"run state lane names phase {name!r}, which is not in the workflow")
    return lane


def _merge_from_json(data: Mapping[str, Any] | None, known: set[str]) -> MergeState | None:
    if data is None:
        return None
    merge = MergeState(
        join=str(data["join"]), pending=tuple(str(p) for p in data["pending"]), source=data["source"],
        ref=data["ref"], conflicts=tuple(str(c) for c in data["conflicts"]), status=str(data["status"]),
    )  # fmt: skip
    if not {merge.join, *merge.pending} <= known:
        raise ValueError("run state merge names phases that are not in the workflow")
    return merge


def state_from_json(workflow: Workflow, data: Mapping[str, Any]) -> RunState:
    """Rebuild a state saved by ``state_to_json`` (ValueError when ``data`` does not fit ``workflow``)."""
    try:
        return _state_from_json(workflow, data)
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"malformed run state: {exc!r}") from exc


def _state_from_json(workflow: Workflow, data: Mapping[str, Any]) -> RunState:
    if data.get("format") != STATE_FORMAT:
        raise ValueError(f"unsupported run state format {data.get('format')!r}")
    saved = data["phases"]
    unknown = sorted(key for key in saved if not workflow.has_phase(key))
    if unknown:
        raise ValueError(f"run state names phases the workflow does not have: {', '.join(unknown)}")
    instances = [key for key in saved if key not in workflow.phase_keys]  # for_each items' phases (SPEC §13)
    known = {*workflow.phase_keys, *instances}
    for name in ("current", "queued"):
        if data[name] is not None and data[name] not in known:
            raise ValueError(f"run state {name} phase {data[name]!r} is not in the workflow")
    phases = {key: _phase_from_json(saved[key]) if key in saved else PhaseState() for key in workflow.phase_keys}
    phases.update((key, _phase_from_json(saved[key])) for key in instances)
    return RunState(
        workflow=workflow,
        status=RunStatus(data["status"]),
        reason=data["reason"],
        inputs={str(k): str(v) for k, v in data["inputs"].items()},
        phases=phases,
        edges={(str(source), int(priority)): int(count) for source, priority, count in data["edges"]},
        steps=int(data["steps"]),
        tokens=int(data["tokens"]),
        cost_usd=_number(data["cost_usd"]),
        current=data["current"],
        queued=data["queued"],
        queued_new_visit=bool(data["queued_new_visit"]),
        pause_requested=bool(data["pause_requested"]),
        history=tuple(_step_from_json(item) for item in data["history"]),
        deliver=bool(data.get("deliver", False)),
        delivery=data.get("delivery"),
        pr_url=data.get("pr_url"),
        finish_reason=data.get("finish_reason"),
        delivery_note=data.get("delivery_note"),
        lanes=tuple(_lane_from_json(lane, known) for lane in data.get("lanes", ())),
        merge=_merge_from_json(data.get("merge"), known),
        interrupting=bool(data.get("interrupting", False)),
        wake_at=None if data.get("wake_at") is None else _number(data["wake_at"]),
        waited=_number(data.get("waited", 0.0)),
        branches=data.get("branches"),
    )


def _number(value: Any) -> float:
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"run state holds a non-finite number {value!r}")
    return number


def _phase_to_json(ps: PhaseState) -> dict[str, Any]:
    return {
        "status": ps.status.value,
        "attempt": ps.attempt,
        "visits": ps.visits,
        "entries": ps.entries,
        "consecutive_failures": ps.consecutive_failures,
        "decision": ps.decision,
        "report": ps.report,
        "exit_code": ps.exit_code,
        "tokens": ps.tokens,
        "cost_usd": ps.cost_usd,
        "entered_from": ps.entered_from,
        "checks": {name: dict(outcome) for name, outcome in ps.checks.items()},
        "tree": ps.tree,
        "stalls": ps.stalls,
        "provider": ps.provider,
    }


def _phase_from_json(data: Mapping[str, Any]) -> PhaseState:
    report = data["report"]
    if report is not None and not isinstance(report, str | dict):
        raise ValueError(f"phase report must be a string, an object or null, got {type(report).__name__}")
    return PhaseState(
        status=NodeStatus(data["status"]),
        attempt=int(data["attempt"]),
        visits=int(data["visits"]),
        entries=int(data["entries"]),
        consecutive_failures=int(data["consecutive_failures"]),
        decision=data["decision"],
        report=report,
        exit_code=None if data["exit_code"] is None else int(data["exit_code"]),
        tokens=int(data["tokens"]),
        cost_usd=_number(data["cost_usd"]),
        entered_from=data["entered_from"],
        checks=_checks_from_json(data.get("checks") or {}),
        tree=None if data.get("tree") is None else str(data["tree"]),
        stalls=int(data.get("stalls", 0)),
        provider=int(data.get("provider", 0)),
    )


def _checks_from_json(data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    checks: dict[str, dict[str, Any]] = {}
    for name, outcome in data.items():
        code = outcome.get("exit_code")
        checks[str(name)] = {"passed": bool(outcome["passed"]), "exit_code": None if code is None else int(code)}
    return checks


def _step_to_json(step: Step) -> dict[str, Any]:
    return {
        "phase": step.phase,
        "attempt": step.attempt,
        "outcome": step.outcome.value,
        "decision": step.decision,
        "next": step.next,
        "reason": step.reason,
        "error_code": step.error_code,
        "lane": step.branch,  # the stored key keeps the engine's older word
        "provider": step.provider,
    }


def _step_from_json(data: Mapping[str, Any]) -> Step:
    return Step(
        phase=str(data["phase"]),
        attempt=int(data["attempt"]),
        outcome=StepOutcome(data["outcome"]),
        decision=data["decision"],
        next=data["next"],
        reason=data["reason"],
        error_code=data.get("error_code"),
        branch=data.get("lane"),
        provider=data.get("provider"),
    )
