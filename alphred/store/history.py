"""What a run leaves behind: provider events, artifacts, routing decisions and attempt diagnostics."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from sqlalchemy import Row, and_, bindparam, func, insert, or_, select

from alphred.store import schema
from alphred.store.assembly import routes_by_attempt, step_record
from alphred.store.columns import canonical_json_text, utcnow
from alphred.store.event_rows import insert_events
from alphred.store.prepared import named
from alphred.store.records import EventRow
from alphred.store.redaction import redacted
from alphred.store.rows import RowReader
from alphred.store.runs import NODES, RunOps

if TYPE_CHECKING:  # the records reading hands out: loaded on first use, off a run's start path (issue 29)
    from sqlalchemy import Insert, Select, Table

    from alphred.store.read_records import ArtifactRecord, EventRecord, RoutingRecord, StepRecord

REPORT = "report"
# The tables of what a run leaves behind, and the statements every phase attempt executes, are built on first
# use (each once, kept): a run's start writes none of them, and building them at import cost ~10 M instructions
# of its start (issue 29). ``EVENTS``, ``ARTIFACTS``, ``ROUTING`` and ``DIAGNOSTICS`` stay readable as names of
# this module (``__getattr__``).
_TABLES = {
    "EVENTS": "RUN_NODE_STREAM_EVENTS",
    "ARTIFACTS": "PHASE_ARTIFACTS",
    "ROUTING": "ROUTING_DECISIONS",
    "DIAGNOSTICS": "RUN_NODE_DIAGNOSTICS",
}


def __getattr__(name: str) -> Table:
    """``EVENTS``, ``ARTIFACTS``, ``ROUTING``, ``DIAGNOSTICS``: the table, built when first asked for."""
    if name not in _TABLES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    table: Table = getattr(schema, _TABLES[name])
    return table


@functools.cache
def _next_sequence() -> Select[Any]:
    events = schema.RUN_NODE_STREAM_EVENTS
    return select(func.coalesce(func.max(events.c.sequence), 0)).where(
        events.c.run_node_id == bindparam("_node_id"), events.c.attempt == bindparam("_attempt")
    )


@functools.cache
def _event_count() -> Select[Any]:
    events = schema.RUN_NODE_STREAM_EVENTS
    return select(func.count()).where(
        events.c.run_node_id == bindparam("_node_id"), events.c.attempt == bindparam("_attempt")
    )


@functools.cache
def _insert(table: str) -> Insert:
    """The INSERT into ``schema``'s table ``table`` (one object per table: prepared once by ``Writes``)."""
    return named(f"insert.{table}", insert(getattr(schema, table)))


@functools.cache
def _latest_artifact() -> Select[Any]:
    """By the phase's row id, which ``ix_phase_artifacts_node_kind_attempt`` serves directly: filtering on
    ``run_id`` through a join made SQLite and PostgreSQL scan every artifact of every run."""
    artifacts = schema.PHASE_ARTIFACTS
    return (
        select(artifacts)
        .where(artifacts.c.run_node_id == bindparam("_node_id"), artifacts.c.kind == bindparam("_kind"))
        .order_by(artifacts.c.attempt.desc(), artifacts.c.id.desc())
        .limit(1)
    )


@functools.cache
def _latest_report() -> Select[Any]:
    """The same, of kind ``report``, only what an attempt's preparation reads of it."""
    artifacts = schema.PHASE_ARTIFACTS
    return (
        select(artifacts.c.attempt, artifacts.c.content_text)
        .where(artifacts.c.run_node_id == bindparam("_node_id"), artifacts.c.kind == REPORT)
        .order_by(artifacts.c.attempt.desc(), artifacts.c.id.desc())
        .limit(1)
    )


def content_sha256(text: str | None, data: Any) -> str:
    """The sha256 of an artifact's content (its text, then its JSON in canonical form)."""
    digest = hashlib.sha256()
    if text is not None:
        digest.update(text.encode())
    if data is not None:
        digest.update(b"\0" + canonical_json_text(data).encode())
    return digest.hexdigest()


@functools.cache
def _event() -> RowReader[EventRecord]:
    """The reader of events (their record is loaded on first use, off a run's start path: issue 29)."""
    from alphred.store.read_records import EventRecord

    return RowReader(EventRecord, rename={"run_id": "workflow_run_id"})  # the column's name in the table


@functools.cache
def _routing() -> RowReader[RoutingRecord]:
    """The reader of routing choices."""
    from alphred.store.read_records import RoutingRecord

    return RowReader(RoutingRecord)


@functools.cache
def _artifacts() -> tuple[RowReader[ArtifactRecord], RowReader[ArtifactRecord]]:
    """The readers of artifacts: from a row joined with its phase's key, and from a bare row."""
    from alphred.store.read_records import ArtifactRecord

    return RowReader(ArtifactRecord), RowReader(ArtifactRecord, given=("node_key",))


def _artifact(row: Row[Any], node_key: str | None = None) -> ArtifactRecord:
    """An artifact from a row with its phase key (a joined column), or from a bare row and ``node_key``."""
    joined, bare = _artifacts()
    return joined(row) if node_key is None else bare(row, node_key=node_key)


class HistoryOps(RunOps):
    """Appends and reads of a run's history, on the transaction's connection."""

    # --- provider events ----------------------------------------------------------------------------------

    def append_events(self, rows: Iterable[EventRow | Mapping[str, Any]]) -> int:
        """Insert provider events (``EventRow``s or mappings) in one batch; return how many were written."""
        self._fresh.clear()  # an attempt started here may have events now: ``next_event_sequence`` reads
        return self._insert_events(rows)

    def _insert_events(self, rows: Iterable[EventRow | Mapping[str, Any]]) -> int:
        """Insert the events (a database may have a faster way: ``SqliteTransaction``)."""
        return insert_events(self._conn, rows)

    def next_event_sequence(self, run_node_id: int, attempt: int) -> int:
        """The next free ``sequence`` of an attempt's events (1 for the first event): 1 without a statement for
        an attempt this transaction moved into ``running`` above the phase's stored attempt (``_move``), since
        an attempt's events are written only once a transaction that started it has committed."""
        if (run_node_id, attempt) in self._fresh:
            return 1
        found = self._conn.execute(_next_sequence(), {"_node_id": run_node_id, "_attempt": attempt}).scalar_one()
        return int(found) + 1

    def events(
        self, run_id: int, node_key: str | None = None, after_id: int = 0, limit: int | None = None
    ) -> list[EventRecord]:
        """The run's events with ``id > after_id`` in arrival order, optionally of one phase only."""
        events = schema.RUN_NODE_STREAM_EVENTS
        query = (
            select(events, NODES.c.node_key)
            .join(NODES, NODES.c.id == events.c.run_node_id)
            .where(events.c.workflow_run_id == run_id, events.c.id > after_id)
            .order_by(events.c.id)
        )
        if node_key is not None:
            query = query.where(NODES.c.node_key == node_key)
        if limit is not None:
            query = query.limit(limit)
        return [_event()(row) for row in self._conn.execute(query)]

    def latest_events(self, run_id: int, limit: int) -> list[EventRecord]:
        """The run's newest ``limit`` events, oldest first (one indexed read, whatever the run's size)."""
        events = schema.RUN_NODE_STREAM_EVENTS
        query = (
            select(events.c.id)
            .where(events.c.workflow_run_id == run_id)
            .order_by(events.c.id.desc())
            .limit(1)
            .offset(max(limit - 1, 0))
        )
        first = self._conn.execute(query).scalar()
        return self.events(run_id, None, (first - 1) if first is not None else 0, limit)

    # --- artifacts ------------------------------------------------------------------------------------------

    def add_artifact(
        self,
        run_id: int,
        node_key: str,
        attempt: int,
        kind: str,
        *,
        text: str | None = None,
        data: Any = None,
    ) -> ArtifactRecord:
        """Store an artifact of a phase attempt (text, JSON data or both) and return it (inside
        ``deferred_artifacts``, its row waits for the block's end: its ``id`` is 0 here)."""
        node_id = self.node_id(run_id, node_key)
        values = {
            "run_id": run_id,
            "run_node_id": node_id,
            "attempt": attempt,
            "kind": kind,
            "content_text": text,
            "content_json": data,
            "sha256": content_sha256(text, data),
            "created_at": utcnow(),
        }
        if kind == REPORT and attempt >= self._reports.get(node_id, (attempt, None))[0]:
            self._reports[node_id] = (attempt, text)  # the phase's latest report now (``report_texts``)
        from alphred.store.read_records import ArtifactRecord

        if self._queued is not None:
            self._queued.append(values)
            return ArtifactRecord(id=0, node_key=node_key, **values)
        artifact_id = self._writes.inserted(_insert("PHASE_ARTIFACTS"), values)
        return ArtifactRecord(id=artifact_id, node_key=node_key, **values)

    @contextmanager
    def deferred_artifacts(self) -> Iterator[None]:
        """Inside the block ``add_artifact`` only queues its row; the queued rows are inserted when the block
        ends, in one ``executemany`` (an attempt's context manifest and report: one statement, not two). For
        writes only: what is queued is not read back before the block ends."""
        self._queued = []
        try:
            yield
            if self._queued:
                self._writes.insert_many(_insert("PHASE_ARTIFACTS"), self._queued)
        finally:
            self._queued = None

    def report_texts(self, run_id: int, node_keys: Iterable[str]) -> dict[str, tuple[int, str]]:
        """The attempt and text of the latest report (as ``latest_artifact``) of each of ``node_keys`` whose
        latest report has a text. A report this transaction wrote is answered without a statement: an attempt's
        artifacts are written with its outcome, after every earlier attempt's, so no other report of its phase
        is later (the text as the store keeps it: redacted)."""
        found: dict[str, tuple[int, str]] = {}
        for key in node_keys:
            try:
                node_id = self.node_id(run_id, key)
            except KeyError:
                continue  # not a phase of this run: no report
            known = self._reports.get(node_id)
            if known is not None:
                attempt, text = known
            else:
                row = self._conn.execute(_latest_report(), {"_node_id": node_id}).first()
                if row is None:
                    continue
                attempt, text = row
            if text is not None:
                found[key] = (attempt, redacted(text) if known is not None else text)
        return found

    def _artifact_query(self, run_id: int) -> Any:
        artifacts = schema.PHASE_ARTIFACTS
        return (
            select(artifacts, NODES.c.node_key)
            .join(NODES, NODES.c.id == artifacts.c.run_node_id)
            .where(artifacts.c.run_id == run_id)
        )

    def latest_artifact(self, run_id: int, node_key: str, kind: str) -> ArtifactRecord | None:
        """The phase's artifact of ``kind`` from its latest attempt (the newest one within it), if any."""
        try:
            node_id = self.node_id(run_id, node_key)
        except KeyError:
            return None
        row = self._conn.execute(_latest_artifact(), {"_node_id": node_id, "_kind": kind}).first()
        return None if row is None else _artifact(row, node_key)

    def latest_reports(self, run_id: int) -> dict[str, Any]:
        """Each phase's latest report (SPEC §12): its object when it has one, else its text; phases without
        a report are absent."""
        artifacts = schema.PHASE_ARTIFACTS
        query = (
            select(NODES.c.node_key, artifacts.c.content_text, artifacts.c.content_json)
            .join(NODES, NODES.c.id == artifacts.c.run_node_id)
            .where(artifacts.c.run_id == run_id, artifacts.c.kind == "report")
            .order_by(artifacts.c.attempt, artifacts.c.id)
        )
        return {key: data if data is not None else text for key, text, data in self._conn.execute(query)}

    def artifacts(self, run_id: int, node_key: str | None = None, kind: str | None = None) -> list[ArtifactRecord]:
        """The run's artifacts in the order they were stored, optionally of one phase and one kind."""
        artifacts = schema.PHASE_ARTIFACTS
        query = self._artifact_query(run_id).order_by(artifacts.c.id)
        if node_key is not None:
            query = query.where(NODES.c.node_key == node_key)
        if kind is not None:
            query = query.where(artifacts.c.kind == kind)
        return [_artifact(row) for row in self._conn.execute(query)]

    def count_artifacts(self, run_id: int, *, kind: str | None = None, exclude: Iterable[str] = ()) -> int:
        """How many artifacts the run has (of ``kind``, or of any kind but ``exclude``)."""
        artifacts = schema.PHASE_ARTIFACTS
        query = select(func.count()).select_from(artifacts).where(artifacts.c.run_id == run_id)
        if kind is not None:
            query = query.where(artifacts.c.kind == kind)
        left_out = list(exclude)
        if left_out:
            query = query.where(artifacts.c.kind.not_in(left_out))
        return int(self._conn.execute(query).scalar_one())

    def recent_artifacts(
        self, run_id: int, limit: int, *, kind: str | None = None, exclude: Iterable[str] = ()
    ) -> list[ArtifactRecord]:
        """The run's newest ``limit`` artifacts (of ``kind``, or of any kind but ``exclude``), oldest first."""
        artifacts = schema.PHASE_ARTIFACTS
        query = self._artifact_query(run_id).order_by(artifacts.c.id.desc()).limit(limit)
        if kind is not None:
            query = query.where(artifacts.c.kind == kind)
        left_out = list(exclude)
        if left_out:
            query = query.where(artifacts.c.kind.not_in(left_out))
        return [_artifact(row) for row in reversed(self._conn.execute(query).all())]

    # --- routing and diagnostics ----------------------------------------------------------------------------

    def add_routing_decision(
        self,
        run_id: int,
        node_key: str,
        attempt: int,
        target: str,
        *,
        decision: str | None = None,
        priority: int | None = None,
        edge_id: int | None = None,
        reason: str | None = None,
        explanation: Sequence[Mapping[str, Any]] | None = None,
    ) -> int:
        """Record where the run went after a phase attempt (phase key, ``$end``, ``$fail``, ``no_route``) and,
        in ``explanation``, how routing chose (``engine.routing.Explanation``)."""
        values = {
            "run_id": run_id, "run_node_id": self.node_id(run_id, node_key), "attempt": attempt,
            "decision": decision, "target": target, "priority": priority, "edge_id": edge_id,
            "reason": reason, "created_at": utcnow(),
            "explanation": [dict(entry) for entry in explanation] if explanation else None,
        }  # fmt: skip
        return self._writes.inserted(_insert("ROUTING_DECISIONS"), values)

    def routing_decisions(self, run_id: int) -> list[RoutingRecord]:
        """The run's routing decisions in the order they were made."""
        routing = schema.ROUTING_DECISIONS
        query = (
            select(routing, NODES.c.node_key)
            .join(NODES, NODES.c.id == routing.c.run_node_id)
            .where(routing.c.run_id == run_id)
            .order_by(routing.c.id)
        )
        return [_routing()(row) for row in self._conn.execute(query)]

    def add_diagnostic(
        self,
        run_id: int,
        node_key: str,
        attempt: int,
        outcome: str,
        *,
        reason: str | None = None,
        error_code: str | None = None,
        duration_ms: int | None = None,
        tokens: int = 0,
        cost_usd: float = 0.0,
        event_count: int | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> int:
        """Record how a finished attempt ended; ``event_count`` defaults to the attempt's stored events."""
        node_id = self.node_id(run_id, node_key)
        if event_count is None:
            found = self._conn.execute(_event_count(), {"_node_id": node_id, "_attempt": attempt}).scalar_one()
            event_count = int(found)
        values = {
            "run_id": run_id, "run_node_id": node_id, "attempt": attempt, "outcome": str(outcome),
            "reason": reason, "error_code": error_code, "duration_ms": duration_ms, "tokens": tokens,
            "cost_usd": cost_usd, "event_count": event_count,
            "details": None if details is None else dict(details), "created_at": utcnow(),
        }  # fmt: skip
        return self._writes.inserted(_insert("RUN_NODE_DIAGNOSTICS"), values)

    def count_steps(self, run_id: int) -> int:
        """How many finished attempts the run has (the length of ``list_steps``)."""
        diagnostics = schema.RUN_NODE_DIAGNOSTICS
        query = select(func.count()).select_from(diagnostics).where(diagnostics.c.run_id == run_id)
        return int(self._conn.execute(query).scalar_one())

    def list_steps(self, run_id: int, start: int = 0, limit: int | None = None) -> list[StepRecord]:
        """The run's finished attempts in execution order, each with its routing decision (if any); with
        ``start``/``limit``, only steps ``start`` to ``start + limit - 1`` (0-based) are read."""
        diagnostics = schema.RUN_NODE_DIAGNOSTICS
        query = (
            select(diagnostics, NODES.c.node_key)
            .join(NODES, NODES.c.id == diagnostics.c.run_node_id)
            .where(diagnostics.c.run_id == run_id)
            .order_by(diagnostics.c.id)
        )
        if start > 0:
            query = query.offset(start)
        if limit is not None:
            query = query.limit(max(limit, 0))
        rows = [row._mapping for row in self._conn.execute(query)]
        paged = start > 0 or limit is not None
        attempts = {(m["run_node_id"], m["attempt"]) for m in rows} if paged else None
        routes = routes_by_attempt(self._routes_of(run_id, attempts))
        return [step_record(m, routes) for m in rows]

    def _routes_of(self, run_id: int, attempts: set[tuple[int, int]] | None) -> list[RoutingRecord]:
        """The run's routing decisions, or only those of ``attempts`` (run node id, attempt)."""
        routing = schema.ROUTING_DECISIONS
        if attempts is None:
            return self.routing_decisions(run_id)
        if not attempts:
            return []
        by_node: dict[int, set[int]] = {}
        for node_id, attempt in attempts:
            by_node.setdefault(node_id, set()).add(attempt)
        which = or_(*(and_(routing.c.run_node_id == n, routing.c.attempt.in_(sorted(a))) for n, a in by_node.items()))
        query = (
            select(routing, NODES.c.node_key)
            .join(NODES, NODES.c.id == routing.c.run_node_id)
            .where(routing.c.run_id == run_id, which)
            .order_by(routing.c.id)
        )
        return [_routing()(row) for row in self._conn.execute(query)]
