"""What the web view reads, through the store's methods: run lists, status objects, events, artifacts, graphs.

Everything here is blocking SQL: call it from a sync Starlette endpoint or ``run_in_threadpool``, never
on the event loop. The store is opened on first use (``alphred ui`` may start before the first run).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from alphred.errors import UnknownRunError
from alphred.store import ArtifactRecord, EventRecord, RunRecord, SqlRunStore
from alphred.ui.graph_svg import END, FAIL, Edge, Topology
from alphred.views.status import branches_by_run, iso_utc, run_status, status_object

PAGE_SIZE = 50
EVENTS_PAGE = 1000
EVENT_TAIL = 300
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


@dataclass
class RunView:
    """Everything the run page shows."""

    record: RunRecord
    status: dict[str, Any]
    topology: Topology
    artifacts: list[ArtifactRecord]
    events: list[dict[str, Any]]
    earlier_events: bool
    steps_detail: list[dict[str, Any]] = field(default_factory=list)


class UiData:
    """Read access to one database for the web view (thread-safe; one store for the server's life)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._store: SqlRunStore | None = None
        self._lock = threading.Lock()
        self._topologies: dict[int, Topology] = {}
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
        branches = branches_by_run(store, records)
        return [status_object(r, None, branches[r.id]) for r in records], (records[-1].id if more and records else None)

    def exists(self, run_id: int) -> bool:
        """Whether the run exists (one small read)."""
        store = self.store()
        return store is not None and store.find_run(run_id) is not None

    def run(self, run_id: int) -> dict[str, Any]:
        """The run's status object (with ``steps``); UnknownRunError when there is none."""
        store = self.store()
        record = None if store is None else store.find_run(run_id)
        if store is None or record is None:
            raise UnknownRunError(run_id)
        return run_status(store, record)

    def view(self, run_id: int) -> RunView:
        """The run page's data: status, graph topology, artifacts and the newest events."""
        store = self.store()
        record = None if store is None else store.find_run(run_id)
        if store is None or record is None:
            raise UnknownRunError(run_id)
        steps = store.list_steps(run_id)
        status = status_object(record, steps, branches_by_run(store, [record])[record.id])
        tail = self.event_tail(run_id, EVENT_TAIL + 1)
        detail = [
            {"reason": s.reason, "error_code": s.error_code, "duration_ms": s.duration_ms, "tokens": s.tokens}
            for s in steps
        ]
        return RunView(
            record=record,
            status=status,
            topology=self.topology(record.tree_id),
            artifacts=[a for a in store.artifacts(run_id) if a.kind != "context_manifest"],
            events=tail[-EVENT_TAIL:],
            earlier_events=len(tail) > EVENT_TAIL,
            steps_detail=detail,
        )

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

    # -- workflow topology ------------------------------------------------------------------------------

    def topology(self, tree_id: int) -> Topology:
        """The compiled workflow's phases and transitions (cached: a tree version never changes)."""
        found = self._topologies.get(tree_id)
        if found is None:
            found = self._topologies[tree_id] = self._read_topology(tree_id)
        return found

    def _read_topology(self, tree_id: int) -> Topology:
        store = self.store()
        assert store is not None
        tree = store.tree_topology(tree_id)
        edges = []
        for edge in tree.edges:
            label = edge.guard or ""
            if edge.max_traversals is not None:
                label = f"{label}, max {edge.max_traversals}" if label else f"max {edge.max_traversals}"
            edges.append(Edge(edge.source, edge.target or (END if edge.target_kind == "end" else FAIL), label))
        phases = tree.phases
        return Topology(phases=phases, start=tree.start or (phases[0][0] if phases else ""), edges=tuple(edges))
