"""What the web view reads, through the store's methods: run lists, status objects, events, artifacts, graphs.

Everything here is blocking SQL: call it from a sync Starlette endpoint or ``run_in_threadpool``, never
on the event loop. The store is opened on first use (``alphred ui`` may start before the first run).
A run page reads a window of its steps (the newest ``STEPS_PAGE``, or the page before a step number), the
newest ``MAX_ARTIFACTS`` reports and diffs and the newest ``EVENT_TAIL`` events: its cost does not grow
with the run.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from alphred.errors import UnknownRunError, UsageError
from alphred.store import ArtifactRecord, EventRecord, RunFileRecord, RunRecord, SqlRunStore, StepRecord
from alphred.views.status import iso_utc, listed_runs, run_status, status_object, step_entry
from alphred.workflow.layout import Graph, GraphEdge, GraphNode, arrange, workflow_graph

if TYPE_CHECKING:
    from alphred.workflow import Workflow

PAGE_SIZE = 50
EVENTS_PAGE = 1000
EVENT_TAIL = 300
STEPS_PAGE = 200
MAX_ARTIFACTS = 100  # reports and diffs shown per kind, the newest kept
NOT_REPORTS = ("diff", "context_manifest", "outcome")  # a commit's intent (``outcome``) repeats its report
RUN_STATUSES = ("pending", "running", "paused", "completed", "failed", "cancelled")


def event_object(event: EventRecord) -> dict[str, Any]:
    """A stored provider event as its ``--events jsonl`` object, plus its monotonically growing ``id``."""
    return {
        "id": event.id,
        "type": event.event_type,
        "run_id": event.run_id,
        "phase": event.node_key,
        "attempt": event.attempt,
        "sequence": event.sequence,
        "timestamp": iso_utc(event.timestamp),
        "content": event.content,
        "metadata": dict(event.metadata) if event.metadata else None,
    }


@dataclass(frozen=True)
class StepRow:
    """One step of the run: its number (1 = the run's first), its status-object entry and its record."""

    number: int
    entry: dict[str, Any]
    record: StepRecord


@dataclass
class RunView:
    """What the run page (or one live update of it) shows.

    ``status`` is the status object without ``steps``; ``steps`` the window of steps read (``step_total``
    in all); ``reports`` and ``diffs`` are None when not read (a live update whose client has them).
    """

    record: RunRecord
    status: dict[str, Any]
    graph: Graph
    step_total: int
    steps: list[StepRow]
    reports: list[ArtifactRecord] | None = None
    diffs: list[ArtifactRecord] | None = None
    older_reports: int = 0  # how many reports (and diffs) are older than those read
    older_diffs: int = 0
    events: list[dict[str, Any]] | None = None
    earlier_events: bool = False
    files: list[RunFileRecord] = field(default_factory=list)  # the run's artifacts (SPEC §17)
    children: list[RunRecord] = field(default_factory=list)  # the runs of its workflow phases (SPEC §13)
    # the sub-workflow run whose approval the run's approve/reject answers (``child_awaiting_approval``)
    waiting_child: RunRecord | None = None
    # each phase of a for_each item -> its branch's (outcome, state word) (SPEC §13; ``UiData.item_branches``)
    items: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def newest_steps(self) -> bool:
        """True when the window ends at the run's latest step (the page follows new ones)."""
        return not self.steps or self.steps[-1].number >= self.step_total

    @property
    def newest_artifact(self) -> int:
        """The id of the newest report or diff read (0 when none)."""
        return max((a.id for a in (self.reports or []) + (self.diffs or [])), default=0)


class UiData:
    """Read access to one database for the web view (thread-safe; one store for the server's life)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._store: SqlRunStore | None = None
        self._lock = threading.Lock()
        self._workflows: dict[int, Workflow | None] = {}
        self._graphs: dict[int, Graph] = {}
        self.polls = 0  # how many times the live streams asked the database (tests read it)

    def store(self) -> SqlRunStore | None:
        """The store, opened on first use; None while the database does not exist yet."""
        if self._store is None:
            with self._lock:
                if self._store is None:
                    self._store = SqlRunStore.open_existing(self.url)
        return self._store

    def close(self) -> None:
        """Release the database connections."""
        if self._store is not None:
            self._store.close()
            self._store = None

    def _record(self, run_id: int) -> tuple[SqlRunStore, RunRecord]:
        store = self.store()
        record = None if store is None else store.find_run(run_id)
        if store is None or record is None:
            raise UnknownRunError(run_id)
        return store, record

    # -- runs -------------------------------------------------------------------------------------------

    def runs(
        self, status: str | None = None, before: int | None = None, limit: int = PAGE_SIZE
    ) -> tuple[list[dict[str, Any]], int | None]:
        """One page of status objects (no ``steps``), newest first, and the ``before`` of the next page."""
        store = self.store()
        if store is None:
            return [], None
        statuses = [status] if status else None
        records = store.list_runs(limit + 1, statuses=statuses, before=before)
        more = len(records) > limit
        records = records[:limit]
        listed = listed_runs(store, records, {r.id: self.branches(store, r) for r in records})
        return listed, (records[-1].id if more and records else None)

    def exists(self, run_id: int) -> bool:
        """Whether the run exists (one small read)."""
        store = self.store()
        return store is not None and store.find_run(run_id) is not None

    def run(self, run_id: int) -> dict[str, Any]:
        """The run's status object (with ``steps``); UnknownRunError when there is none."""
        store, record = self._record(run_id)
        return run_status(store, record)

    def status(self, run_id: int) -> dict[str, Any]:
        """The run's status object without ``steps`` (what the live stream sends on a change)."""
        store, record = self._record(run_id)
        return status_object(record, None, self.branches(store, record))

    def step_count(self, run_id: int) -> int:
        """How many steps the run has."""
        store, _record = self._record(run_id)
        return store.count_steps(run_id)

    def view(self, run_id: int, *, before: int | None = None, events: bool = True, artifacts: bool = True) -> RunView:
        """The run page's data: the newest ``STEPS_PAGE`` steps, or those before step number ``before``; the
        events and artifacts when asked for."""
        store, record = self._record(run_id)
        total = store.count_steps(run_id)
        end = total if before is None else min(max(before - 1, 0), total)
        start = max(end - STEPS_PAGE, 0)
        branches = self.branches(store, record)
        records = store.list_steps(run_id, start, end - start) if end > start else []
        rows = [
            StepRow(start + i + 1, step_entry(step, branches.get(step.phase)), step) for i, step in enumerate(records)
        ]
        reports = store.latest_reports(run_id) if artifacts else None  # each phase's latest (SPEC §12)
        view = RunView(record, status_object(record, None, branches, reports), self.graph(record), total, rows)
        view.files = store.run_files(run_id, "artifacts") if artifacts else []
        view.children = store.child_runs(run_id)
        if view.children:
            from alphred.views.status import child_awaiting_approval

            view.waiting_child = child_awaiting_approval(store, record)
        view.items = self.item_branches(store, record)
        if artifacts:
            view.reports = store.recent_artifacts(run_id, MAX_ARTIFACTS, exclude=NOT_REPORTS)
            view.diffs = store.recent_artifacts(run_id, MAX_ARTIFACTS, kind="diff")
            if len(view.reports) == MAX_ARTIFACTS:
                view.older_reports = store.count_artifacts(run_id, exclude=NOT_REPORTS) - MAX_ARTIFACTS
            if len(view.diffs) == MAX_ARTIFACTS:
                view.older_diffs = store.count_artifacts(run_id, kind="diff") - MAX_ARTIFACTS
        if events:
            tail = self.event_tail(run_id, EVENT_TAIL + 1)
            view.events, view.earlier_events = tail[-EVENT_TAIL:], len(tail) > EVENT_TAIL
        return view

    def newest_artifact(self, run_id: int) -> int:
        """The id of the run's newest report or diff (0 when none): tells a live page whether to re-read them."""
        store = self.store()
        if store is None:
            return 0
        found = store.recent_artifacts(run_id, 1, exclude=("context_manifest", "outcome"))
        return found[-1].id if found else 0

    def steps_since(self, run_id: int, known: int, limit: int = EVENTS_PAGE) -> tuple[int, list[dict[str, Any]]]:
        """The run's step count and the status-object entries of steps ``known + 1`` on (at most ``limit``)."""
        store, record = self._record(run_id)
        total = store.count_steps(run_id)
        if total <= known:
            return total, []
        branches = self.branches(store, record)
        return total, [step_entry(s, branches.get(s.phase)) for s in store.list_steps(run_id, known, limit)]

    def artifact(self, run_id: int, path: str) -> tuple[RunFileRecord, Iterator[bytes]]:
        """One artifact of a run and its content, piece by piece; UnknownRunError/UsageError when missing."""
        from alphred.operations.artifacts import artifact_pieces

        store, _record = self._record(run_id)
        for record in store.run_files(run_id, "artifacts"):
            if record.path == path:
                return record, artifact_pieces(store, record)
        raise UsageError(f"run {run_id} has no artifact '{path}'")

    # -- events -----------------------------------------------------------------------------------------

    def events(self, run_id: int, after: int = 0, limit: int = EVENTS_PAGE) -> list[dict[str, Any]]:
        """The run's events with ``id > after``, oldest first (at most ``limit``)."""
        store = self.store()
        if store is None:
            return []
        return [event_object(e) for e in store.events(run_id, None, after, limit)]

    def event_tail(self, run_id: int, limit: int) -> list[dict[str, Any]]:
        """The run's newest ``limit`` events, oldest first (one indexed read, whatever the run's size)."""
        store = self.store()
        if store is None:
            return []
        return [event_object(e) for e in store.latest_events(run_id, limit)]

    def poll(self, run_id: int, after: int) -> tuple[list[dict[str, Any]], tuple[Any, ...] | None]:
        """One look for the live stream: new events and a fingerprint of the run's state."""
        self.polls += 1
        store = self.store()
        if store is None:
            return [], None
        events = self.events(run_id, after, EVENTS_PAGE)
        record = store.find_run(run_id)
        if record is None:
            return events, None
        nodes = tuple((n.node_key, n.status.value, n.attempt, n.visits) for n in record.nodes)
        fingerprint = (record.status.value, record.reason, record.steps, record.tokens, record.pr_url, nodes)
        return events, fingerprint

    def runs_fingerprint(self) -> tuple[Any, ...]:
        """Changes whenever a run is created or changes state (for the runs list's live updates)."""
        self.polls += 1
        store = self.store()
        if store is None:
            return ()
        return tuple((r.id, r.status.value, r.tokens, r.steps) for r in store.list_runs(PAGE_SIZE))

    # -- workflows and their graphs -------------------------------------------------------------------

    def workflow(self, store: SqlRunStore, record: RunRecord) -> Workflow | None:
        """The run's workflow, loaded from the source stored with its tree (cached: a tree never changes)."""
        if record.tree_id not in self._workflows:
            from alphred.views.branch_status import run_workflows

            self._workflows[record.tree_id] = run_workflows(store, [record]).get(record.tree_id)
        return self._workflows[record.tree_id]

    def branches(self, store: SqlRunStore, record: RunRecord) -> dict[str, str]:
        """The git branch of each phase inside a branch of a fan-out (the status object's ``branch``)."""
        workflow = self.workflow(store, record)
        if workflow is None or not workflow.parallel:
            return {}
        from alphred.views.branch_status import phase_branches

        return phase_branches(workflow, record.branch)

    def item_branches(self, store: SqlRunStore, record: RunRecord) -> dict[str, tuple[str, str]]:
        """Each phase of a for_each item (SPEC §13) -> how its branch ended or stands: ``(outcome, state)``,
        the outcome in a phase status's words (``branch_outcome``), the state as ``alphred status`` says it
        (``merged``, ``queued``...). Read from the run's engine state and steps, as ``status`` does; {} for a
        run without a for_each (nothing read)."""
        workflow = self.workflow(store, record)
        if workflow is None or not workflow.parallel:
            return {}
        from alphred.views.branch_status import branch_outcome, branch_views, is_for_each, stored_state
        from alphred.workflow.fan_outs import fan_outs

        if not any(is_for_each(workflow, group) for group in fan_outs(workflow)):
            return {}
        state = stored_state(store, record.id, workflow)
        steps = store.list_steps(record.id)
        started = {n.node_key for n in record.nodes if n.attempt > 0}
        found: dict[str, tuple[str, str]] = {}
        for view in branch_views(workflow, record.branch, steps, state, None, record.status.value):
            outcome = branch_outcome(view, started=not started.isdisjoint(view.phases))
            found.update((phase, (outcome, view.state)) for phase in view.phases)
        return found

    def graph(self, record: RunRecord) -> Graph:
        """The run's workflow graph, placed (cached per tree); from the stored transitions when the
        workflow's source no longer loads."""
        found = self._graphs.get(record.tree_id)
        if found is None:
            store = self.store()
            assert store is not None
            workflow = self.workflow(store, record)
            found = workflow_graph(workflow) if workflow is not None else self._stored_graph(store, record.tree_id)
            self._graphs[record.tree_id] = found
        return found

    @staticmethod
    def _stored_graph(store: SqlRunStore, tree_id: int) -> Graph:
        tree = store.tree_topology(tree_id)
        nodes = [GraphNode(key, kind, detail="" if kind == "agent" else kind) for key, kind in tree.phases]
        edges: list[GraphEdge] = []
        for edge in tree.edges:
            label = edge.guard or ""
            if edge.max_traversals is not None:
                label = f"{label}, max {edge.max_traversals}" if label else f"max {edge.max_traversals}"
            target = edge.target or ("$end" if edge.target_kind == "end" else "$fail")
            edges.append(GraphEdge(edge.source, target, label))
        start = tree.start or (tree.phases[0][0] if tree.phases else "")
        return arrange(start, nodes, edges)
