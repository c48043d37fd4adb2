"""Parallel branches as people and tools see them (SPEC §8 Output).

``phase_branches`` gives the git branch each phase of a branch works on (the status object's ``branch``);
``branch_views`` says how each branch of every fan-out stands — running, queued, arrived, merging (with its
conflicts), merged (with the merge commit), cancelled or failed — from the stored engine state, the run's
steps and the merge commits on the run branch (``merge_commits``). ``alphred status``, the PR body and the
GitHub step summary show them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from alphred.git.merges import lane_branch, merge_message
from alphred.workflow.fan_outs import fan_outs
from alphred.workflow.model import FanOut, base_key, instance_key

if TYPE_CHECKING:
    from alphred.engine import RunState
    from alphred.store import RunRecord, SqlRunStore
    from alphred.workflow import Workflow

# What a branch is doing, in the words ``alphred status`` and the Markdown summaries use.
PENDING, RUNNING, QUEUED, ARRIVED = "pending", "running", "queued", "arrived"
WAITING, MERGING, CONFLICTED, MERGED = "waiting to merge", "merging", "conflicted", "merged"
CANCELLED, FAILED, NOT_MERGED, SKIPPED = "cancelled", "failed", "not merged", "skipped"

# How a branch ended (or stands) in the words of a phase's status: the web view's items table (SPEC §13).
# A branch that reached its join completed, merged or not; one that routed to ``$fail`` after a completed
# phase failed.
OUTCOMES = {
    PENDING: "pending", RUNNING: "running", QUEUED: "running", ARRIVED: "completed", WAITING: "completed",
    MERGING: "completed", CONFLICTED: "completed", MERGED: "completed", NOT_MERGED: "completed",
    CANCELLED: "cancelled", FAILED: "failed", SKIPPED: "skipped",
}  # fmt: skip


@dataclass(frozen=True)
class BranchView:
    """One branch of a fan-out: its head phase, git branch, phases (file order) and how it stands.

    ``phase`` is the phase running or queued in it (or the last one that ran); ``conflicts`` the paths a
    merge in progress conflicts on; ``merges`` the full SHAs of its merge commits on the run branch.
    """

    fan_out: str
    join: str | None
    join_mode: str | None
    head: str
    branch: str
    phases: tuple[str, ...]
    state: str
    phase: str | None = None
    conflicts: tuple[str, ...] = ()
    merges: tuple[str, ...] = ()
    resolver: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (what the Markdown builders of ``alphred.scm.body`` read)."""
        return {
            "fan_out": self.fan_out, "join": self.join, "join_mode": self.join_mode, "head": self.head,
            "branch": self.branch, "phases": list(self.phases), "state": self.state, "phase": self.phase,
            "conflicts": list(self.conflicts), "merges": list(self.merges), "resolver": self.resolver,
        }  # fmt: skip


def branch_outcome(view: BranchView, started: bool = True) -> str:
    """The outcome of a branch: completed, failed, skipped, cancelled, running or pending (``OUTCOMES``); a
    queued branch none of whose phases has ``started`` yet (a ``max_parallel`` slot) is pending."""
    if view.state == QUEUED and not started:
        return "pending"
    return OUTCOMES.get(view.state, view.state)


def phase_heads(workflow: Workflow) -> dict[str, str]:
    """The branch head (first phase) of every phase inside a branch of a fan-out."""
    found: dict[str, str] = {}
    for group in fan_outs(workflow):
        items = range(workflow.limits.max_items) if is_for_each(workflow, group) else ()
        for head in group.branches:
            for key in group.regions[head]:
                found.setdefault(key, head)
                for index in items:  # a for_each item's phases work on the item's branch (SPEC §13)
                    found.setdefault(instance_key(key, index), instance_key(head, index))
    return found


def phase_branches(workflow: Workflow, run_branch: str | None) -> dict[str, str]:
    """The git branch of every phase inside a branch of a fan-out (phases on the run branch are absent)."""
    if not run_branch:
        return {}
    return {key: lane_branch(run_branch, head) for key, head in phase_heads(workflow).items()}


def _field(step: Any, name: str) -> Any:
    return step.get(name) if isinstance(step, Mapping) else getattr(step, name, None)


def _value(value: Any) -> Any:
    return getattr(value, "value", value)  # an enum (StepRecord.outcome) or its value (a status entry)


def branch_views(
    workflow: Workflow,
    run_branch: str | None,
    steps: Sequence[Any],
    state: RunState | None = None,
    merges: Mapping[str, Sequence[str]] | None = None,
    run_status: str | None = None,
) -> list[BranchView]:
    """How every branch of every fan-out of ``workflow`` stands (empty without fan-outs).

    ``steps`` are the run's steps (stored records or status-object entries), ``state`` the stored engine
    state (its lanes and merge in progress), ``merges`` the merge commits per branch head
    (``merge_commits``), ``run_status`` the run's status (an ended run's unmerged branch is ``not merged``).
    """
    views: list[BranchView] = []
    for group in fan_outs(workflow):
        join = workflow.phase(group.join) if group.join is not None else None
        for head, region in group_branches(workflow, group, steps, state):
            phases = tuple(sorted(region, key=lambda k: workflow.phase(k).sequence_index))
            state_word, phase, conflicts = _standing(group, head, region, steps, state, merges or {}, run_status)
            views.append(
                BranchView(
                    fan_out=group.source,
                    join=group.join,
                    join_mode=None if join is None else str(_value(join.join)),
                    head=head,
                    branch=lane_branch(run_branch, head) if run_branch else head,
                    phases=phases,
                    state=state_word,
                    phase=phase,
                    conflicts=conflicts,
                    merges=tuple((merges or {}).get(head, ())),
                    resolver=None if join is None else join.on_conflict,
                )
            )
    return views


def is_for_each(workflow: Workflow, group: FanOut) -> bool:
    """True when ``group`` is a for_each (SPEC §13): its branches are its items, known at run time."""
    return any(
        t.priority == group.priority and t.for_each is not None for t in workflow.phase(group.source).transitions
    )


def group_branches(
    workflow: Workflow, group: FanOut, steps: Sequence[Any], state: RunState | None
) -> list[tuple[str, frozenset[str]]]:
    """The branches of ``group`` with their phases: a static fan-out's listed ones; a for_each's items of its
    latest visit (``<phase>-<index>``, from the engine's lanes and the steps after the fan-out)."""
    if not is_for_each(workflow, group):
        return [(head, group.regions[head]) for head in group.branches]
    (target,) = group.branches
    region = group.regions[target]
    indices: set[int] = set()
    if state is not None:
        indices |= {lane.index for lane in state.lanes if lane.index is not None}
    start = _last_fan_out(group, steps)
    if start is not None:
        fanned = str(_field(steps[start], "next") or "")
        indices |= {int(h.rpartition("-")[2]) for h in fanned.split(",") if base_key(h) == target and h != target}
        for step in steps[start + 1 :]:
            key = str(_field(step, "phase"))
            if base_key(key) != key and base_key(key) in region:
                indices.add(int(key.rpartition("-")[2]))
    return [(instance_key(target, i), frozenset(instance_key(k, i) for k in region)) for i in sorted(indices)]


def _standing(
    group: FanOut,
    head: str,
    region: frozenset[str],
    steps: Sequence[Any],
    state: RunState | None,
    merges: Mapping[str, Sequence[str]],
    run_status: str | None,
) -> tuple[str, str | None, tuple[str, ...]]:
    """``(state word, phase, conflicts)`` of branch ``head`` of ``group``."""
    if state is not None:
        lane = next((lane for lane in state.lanes if lane.head == head), None)
        if lane is not None and lane.skipped:
            return SKIPPED, None, ()
        if lane is not None and state.status.value != "failed":  # a failed run keeps its lanes for a retry
            if lane.failed:
                return FAILED, None, ()
            if lane.current is not None:
                return RUNNING, lane.current, ()
            if lane.queued is not None:
                return QUEUED, lane.queued, ()
            if lane.arrived:
                return ARRIVED, lane.last, ()
            return PENDING, None, ()
        merge = state.merge
        if merge is not None and merge.join == group.join and head in merge.pending:
            if merge.pending[0] != head:
                return WAITING, None, ()
            return (CONFLICTED, None, merge.conflicts) if merge.conflicts else (MERGING, None, ())
    if state is not None and state.branches is not None and head in (state.branches.get("skipped") or ()):
        return SKIPPED, None, ()
    start = _last_fan_out(group, steps)
    later = list(steps[start + 1 :]) if start is not None else []
    mine = [s for s in later if _field(s, "phase") in region]
    last = mine[-1] if mine else None
    last_phase = None if last is None else _field(last, "phase")
    if merges.get(head):
        return MERGED, last_phase, ()
    if start is None:
        return PENDING, None, ()
    joined = any(_field(s, "phase") == group.join for s in later)  # the join ran: the merges are done
    if state is not None and state.merge is not None and state.merge.join == group.join:
        joined = True  # the fan-out is over: what is not pending is merged or cancelled
    if last is None:
        ended = run_status in ("completed", "failed", "cancelled")
        return (CANCELLED if joined or ended else PENDING), None, ()
    outcome = str(_value(_field(last, "outcome")))
    if outcome == "cancelled":
        return CANCELLED, last_phase, ()
    if outcome == "failed" or _field(last, "next") == "$fail":
        return FAILED, last_phase, ()
    if outcome == "completed" and _field(last, "next") == group.join:
        if joined:
            return MERGED, last_phase, ()
        return (NOT_MERGED if run_status in ("failed", "cancelled") else ARRIVED), last_phase, ()
    if run_status in ("completed", "failed", "cancelled"):
        return NOT_MERGED, last_phase, ()
    # no engine state to ask: the phase it routed to runs now, an interrupted one waits to run again
    return QUEUED if outcome == "interrupted" else RUNNING, _field(last, "next") or last_phase, ()


def _last_fan_out(group: FanOut, steps: Sequence[Any]) -> int | None:
    """Index of the latest step that took ``group``: its ``next`` lists the branches (the engine's history)
    or names the first (a stored routing decision); a branch head is entered by nothing else."""
    taken = {",".join(group.branches), *group.branches}
    items = tuple(f"{head}-" for head in group.branches)  # a for_each's items (SPEC §13), or its join at once
    for index in range(len(steps) - 1, -1, -1):
        if _field(steps[index], "phase") != group.source:
            continue
        following = str(_field(steps[index], "next") or "")
        started = set(following.split(","))  # a guarded fan-out lists only the branches it started (SPEC §13)
        if following in taken or started <= set(group.branches) or following.startswith(items):
            return index
        if following and following == group.join:  # nothing started: an empty list, every branch skipped
            return index
    return None


def merge_commits(
    repo_root: str | Path | None, run_branch: str | None, base: str | None, tree_key: str, heads: Iterable[str]
) -> dict[str, tuple[str, ...]]:
    """The merge commits of the join on the run branch, per branch head (oldest first); {} when git cannot
    tell (no repository, no branch)."""
    heads = tuple(heads)
    if not repo_root or not run_branch or not heads or not Path(repo_root).is_dir():
        return {}
    from alphred.errors import GitError
    from alphred.git.command import git_environment, run_git

    span = f"{base}..refs/heads/{run_branch}" if base else f"refs/heads/{run_branch}"
    args = ("log", "--first-parent", "--merges", "--reverse", "--format=%H%x09%s", span, "--")
    try:
        result = run_git(args, Path(repo_root), git_environment(), check=False)
    except GitError:
        return {}
    if result.returncode != 0:
        return {}
    subjects = {merge_message(tree_key, head): head for head in heads}
    found: dict[str, list[str]] = {}
    for line in result.stdout.decode("utf-8", "replace").splitlines():
        sha, _, subject = line.partition("\t")
        head = subjects.get(subject.strip())
        if head is not None:
            found.setdefault(head, []).append(sha)
    return {head: tuple(shas) for head, shas in found.items()}


def run_workflows(store: SqlRunStore, records: Iterable[RunRecord]) -> dict[int, Workflow]:
    """The workflow of each run's tree (one read and one parse per tree); runs whose source cannot be
    loaded again are absent."""
    from alphred.providers import default_registry
    from alphred.workflow import load_workflow

    tree_ids = {r.tree_id for r in records}
    if not tree_ids:
        return {}
    workflows: dict[int, Workflow] = {}
    providers = default_registry()
    for tree_id, source in store.workflow_sources(tree_ids).items():
        if source.text is None:
            continue
        try:
            workflows[tree_id] = load_workflow(
                source.source_path or "workflow.yaml", source.text, source.files, providers=providers
            )
        except Exception:  # an old tree that no longer loads only loses its branch names
            continue
    return workflows


def stored_state(store: SqlRunStore, run_id: int, workflow: Workflow) -> RunState | None:
    """The engine state stored with the run (None when there is none or it does not fit ``workflow``)."""
    from alphred.engine import state_from_json

    engine = store.run_snapshot(run_id).engine
    if not engine:
        return None
    try:
        return state_from_json(workflow, engine)
    except ValueError:
        return None


def run_branch_views(
    store: SqlRunStore,
    record: RunRecord,
    workflow: Workflow | None = None,
    state: RunState | None = None,
    steps: Sequence[Any] | None = None,
) -> list[BranchView]:
    """``branch_views`` of a stored run: its workflow, engine state, steps and merge commits read as needed
    (empty, and nothing read from git, when the workflow has no fan-out)."""
    if workflow is None:
        workflow = run_workflows(store, [record]).get(record.tree_id)
        if workflow is None:
            return []
    groups = fan_outs(workflow)
    if not groups:
        return []
    if state is None:
        state = stored_state(store, record.id, workflow)
    if steps is None:
        steps = store.list_steps(record.id)
    heads = [head for group in groups for head, _ in group_branches(workflow, group, steps, state)]
    merges = merge_commits(record.repo_path, record.branch, record.base_sha, record.tree_key, heads)
    return branch_views(
        workflow,
        record.branch,
        steps,
        state,
        merges,
        record.status.value,
    )
