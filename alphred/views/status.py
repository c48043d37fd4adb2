"""The run status object of SPEC §6 (``--json``, ``alphred status --json``, ``alphred runs --json``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from alphred.store import RunRecord, StepRecord

if TYPE_CHECKING:
    from alphred.engine import RecordStep, RunState
    from alphred.store import SqlRunStore


def iso_utc(value: datetime | None) -> str | None:
    """A stored time as ISO 8601 in UTC with a ``Z`` (naive values are UTC), or None."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.isoformat().replace("+00:00", "Z")


_time = iso_utc


def status_object(
    run: RunRecord,
    steps: list[StepRecord] | None = None,
    branches: Mapping[str, str] | None = None,
    reports: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Build the JSON status object of a run; ``steps`` is omitted when None (``runs --json``).

    ``branches`` maps each phase inside a branch of a fan-out to its git branch (``branches_by_run``); every
    phase and step carries ``branch``, null on the run branch (SPEC §8). With ``reports`` (the store's
    ``latest_reports``: ``status --json``) every phase carries ``report``, its latest report (SPEC §12).
    """
    branches = branches or {}
    phases = [
        {
            "key": node.node_key,
            "status": node.status.value,
            "attempt": node.attempt,
            "visits": node.visits,
            "decision": node.decision,
            "exit_code": node.exit_code,
            "tokens": node.tokens,
            "branch": branches.get(node.node_key),
        }
        for node in sorted(run.nodes, key=lambda n: n.sequence_index)
    ]
    if reports is not None:
        for phase in phases:
            phase["report"] = reports.get(str(phase["key"]))
    obj: dict[str, Any] = {
        "run_id": run.id,
        "workflow": {"key": run.tree_key, "version": run.tree_version},
        "status": run.status.value,
        "reason": run.reason,
        "inputs": dict(run.inputs),
        "branch": run.branch,
        "base": run.base_sha,
        "head": run.head_sha,
        "worktree": run.worktree_path,
        "pr_url": run.pr_url,
        "tokens": run.tokens,
        "cost_usd": run.cost_usd,
        "started_at": _time(run.started_at),
        "completed_at": _time(run.completed_at),
        "wake_at": _time(run.wake_at),  # paused by a usage limit: when it goes on (SPEC §15); else null
        "parent_run_id": run.parent_run_id,  # a sub-workflow's run (SPEC §13): its parent run and step
        "parent_step": run.parent_step,
        "phases": phases,
    }
    if steps is not None:
        obj["steps"] = [step_entry(step, branches.get(step.phase)) for step in steps]
    return obj


def listed_runs(
    store: SqlRunStore, records: list[RunRecord], branches: Mapping[int, Mapping[str, str]]
) -> list[dict[str, Any]]:
    """The status objects of a list of runs (``runs --json``, the web view's ``/api/runs``): no ``steps``;
    each with ``child_run_ids``, the ids of its sub-workflow runs (SPEC §13), oldest first."""
    children = store.child_run_ids(r.id for r in records) if records else {}
    return [status_object(r, None, branches.get(r.id)) | {"child_run_ids": children.get(r.id, [])} for r in records]


def branches_by_run(store: SqlRunStore, records: list[RunRecord]) -> dict[int, dict[str, str]]:
    """For each run of ``records``: its phases inside branches of a fan-out and their git branches."""
    parallel = store.trees_with_fan_outs(r.tree_id for r in records)  # only these need their workflow loaded
    if not parallel:
        return {r.id: {} for r in records}
    from alphred.views.branch_status import phase_branches, run_workflows

    workflows = run_workflows(store, [r for r in records if r.tree_id in parallel])
    return {r.id: phase_branches(workflows[r.tree_id], r.branch) if r.tree_id in workflows else {} for r in records}


def run_status(store: SqlRunStore, run: RunRecord, *, with_steps: bool = True) -> dict[str, Any]:
    """The status object of ``run`` as ``status --json`` prints it: steps (unless not ``with_steps``), the
    ``branch`` of every phase and step, and its sub-workflows' runs (``children``)."""
    steps = store.list_steps(run.id) if with_steps else None
    obj = status_object(run, steps, branches_by_run(store, [run])[run.id], store.latest_reports(run.id))
    # SPEC §13: the runs of its workflow phases, each as its own status object, oldest first
    obj["children"] = [run_status(store, child, with_steps=with_steps) for child in store.child_runs(run.id)]
    return obj


def step_entry(step: StepRecord | RecordStep, branch: str | None = None) -> dict[str, Any]:
    """One ``steps`` entry of the status object, from a stored step or one about to be stored."""
    return {
        "phase": step.phase,
        "attempt": step.attempt,
        "outcome": step.outcome.value,
        "decision": step.decision,
        "next": step.next,
        "checks": [
            {"name": c.get("name"), "passed": c.get("passed"), "exit_code": c.get("exit_code")}
            for c in getattr(step, "checks", ())
        ],
        "branch": branch,
        "provider": getattr(step, "provider", None),  # the provider that ran it (SPEC §15); null: no agent
    }


def with_state(status: dict[str, Any], state: RunState) -> dict[str, Any]:
    """``status`` with its phases, tokens and cost taken from the engine's ``state`` (newer than the rows:
    the PR body is written before the transition that completes the run is stored)."""
    for entry in status.get("phases", []):
        phase = state.phases.get(entry["key"])
        if phase is not None:
            entry.update(
                status=phase.status.value,
                attempt=phase.attempt,
                visits=phase.visits,
                decision=phase.decision,
                exit_code=phase.exit_code,
                tokens=phase.tokens,
            )
    status["tokens"], status["cost_usd"] = state.tokens, state.cost_usd
    return status


WAITING_FOR_APPROVAL = "waiting for approval"


def child_awaiting_approval(store: SqlRunStore, record: RunRecord) -> RunRecord | None:
    """SPEC §13: the deepest unfinished sub-workflow run of ``record`` that waits for approval (``alphred
    approve|reject RECORD`` answers it), unless ``record`` itself waits for one; None otherwise."""
    if record.status.value not in ("paused", "running") or _awaits_approval(record):
        return None
    for child in store.child_runs(record.id):
        if _awaits_approval(child):
            return child
        deeper = child_awaiting_approval(store, child)
        if deeper is not None:
            return deeper
    return None


def _awaits_approval(record: RunRecord) -> bool:
    return record.status.value == "paused" and record.reason == "awaiting_approval"


def shown_phase_status(run_status: str | None, run_reason: str | None, phase_status: str) -> str:
    """A phase's status as people read it: the running phase of a run paused for approval is
    ``waiting for approval`` (its stored status stays ``running``)."""
    if run_status == "paused" and run_reason == "awaiting_approval" and phase_status == "running":
        return WAITING_FOR_APPROVAL
    return phase_status


EXIT_CODES = {"completed": 0, "failed": 1, "cancelled": 3, "paused": 4, "pending": 4, "running": 1}


def exit_code_for(status: str, reason: str | None) -> int:
    """The exit code of SPEC §6 for a run that ended (or paused) with ``status``."""
    if status == "paused" and reason == "interrupted":
        return 130
    return EXIT_CODES.get(status, 1)
