"""Run and run-node operations inside one transaction: creation, snapshots and guarded status moves."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any, ClassVar

from sqlalchemy import (
    BindParameter,
    Integer,
    Row,
    Table,
    Text,
    bindparam,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, CursorResult

from alphred.errors import StoreError, UnknownRunError
from alphred.store import schema
from alphred.store.assembly import RUN_CONVERT, children_by_parent
from alphred.store.columns import utcnow
from alphred.store.enums import ENDED_RUN_STATUSES, NodeStatus, RunStatus
from alphred.store.move_sql import FIXED_FIELDS, move_statement, move_values
from alphred.store.moves import NODE_TRANSITIONS, check_node_transition, check_run_transition
from alphred.store.prepared import Writes, named
from alphred.store.records import NodeRecord, RunRecord
from alphred.store.rows import RowReader

if TYPE_CHECKING:
    from alphred.workflow.model import Workflow

RUNS = schema.WORKFLOW_RUNS
NODES = schema.RUN_NODES
TREES = schema.WORKFLOW_TREES
TREE_NODES = schema.TREE_NODES

RUN_FIELDS = frozenset(RUNS.c.keys()) - {"id", "tree_id", "status", "created_at", "updated_at"}
"""Run columns ``update_run`` and ``set_run_status`` accept as keyword fields (all but identity and status)."""

NODE_FIELDS = frozenset(NODES.c.keys()) - {
    "id",
    "run_id",
    "tree_node_id",
    "node_key",
    "sequence_index",
    "status",
    "updated_at",
}
"""Run-node columns ``update_node`` and ``set_node_status`` accept as keyword fields (all but identity and status)."""

# Statements of the per-phase hot path, built once: building a statement (coercing every clause and
# generating its cache key) costs several times more than executing it. Bound parameters start with ``_``
# so that they never clash with the column names an UPDATE sets from its parameters.
_RUN_ID: BindParameter[int] = bindparam("_run_id", type_=Integer)
_NODE_KEY: BindParameter[str] = bindparam("_node_key", type_=Text)
_RUN_BY_ID = named(
    "runs.run_by_id",
    select(RUNS, TREES.c.tree_key, TREES.c.version.label("tree_version"))
    .join(TREES, TREES.c.id == RUNS.c.tree_id)
    .where(RUNS.c.id == _RUN_ID),
)
_NODES_OF_RUN = named(
    "runs.nodes_of_run", select(NODES).where(NODES.c.run_id == _RUN_ID).order_by(NODES.c.sequence_index)
)
_LOCKED_RUN = named("runs.locked_run", select(RUNS).where(RUNS.c.id == _RUN_ID).with_for_update())
_TREE_NODES = named(
    "runs.tree_nodes",
    select(TREE_NODES.c.id, TREE_NODES.c.node_key, TREE_NODES.c.sequence_index)
    .where(TREE_NODES.c.tree_id == bindparam("_tree_id", type_=Integer))
    .order_by(TREE_NODES.c.sequence_index),
)
_UPDATE_RUN = named("runs.update_run", update(RUNS).where(RUNS.c.id == _RUN_ID))
_NODE_ID = named("runs.node_id", select(NODES.c.id).where(NODES.c.run_id == _RUN_ID, NODES.c.node_key == _NODE_KEY))
_NODE = select(NODES).where(NODES.c.run_id == _RUN_ID, NODES.c.node_key == _NODE_KEY)
_LOCKED_NODE = _NODE.with_for_update()
_NODE_BY_ID = select(NODES).where(NODES.c.id == bindparam("_id", type_=Integer))
_UPDATE_NODE_BY_ID = named("runs.update_node_by_id", update(NODES).where(NODES.c.id == bindparam("_id", type_=Integer)))
_INSERT_RUN = named("insert.WORKFLOW_RUNS", insert(RUNS))
_INSERT_NODES = named("insert.RUN_NODES", insert(NODES))
_NO_DEFAULT = object()
_RUN_COLUMNS = tuple(
    (c.key, c.default.arg if c.default is not None and c.default.is_scalar else _NO_DEFAULT)  # type: ignore[attr-defined]
    for c in RUNS.c
    if c.key != "id"
)
"""A run row's columns in order, each with its scalar default (``create_run`` fills those not given)."""
_UPDATE_NODE = named("runs.update_node", update(NODES).where(NODES.c.run_id == _RUN_ID, NODES.c.node_key == _NODE_KEY))


def checked_fields(fields: Mapping[str, Any], allowed: frozenset[str], entity: str) -> dict[str, Any]:
    """``fields`` as a dict, or TypeError naming the keys that are not columns one may set."""
    if fields.keys() <= allowed:  # the usual case: no set built
        return dict(fields)
    unknown = sorted(set(fields) - allowed)
    if unknown:
        raise TypeError(f"unknown {entity} field(s): {', '.join(unknown)}")
    return dict(fields)


def inserted_id(result: CursorResult[Any]) -> int:
    """The primary key of the row a single-row INSERT created."""
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


_NODE_RECORD = RowReader(NodeRecord, convert={"status": NodeStatus})
_RUN_RECORD = RowReader(RunRecord, convert=RUN_CONVERT, given=("nodes",))  # its engine state: ``run_snapshot``


def node_record(row: Row[Any]) -> NodeRecord:
    """A NodeRecord from a ``run_nodes`` row."""
    return _NODE_RECORD(row)


def _run_record(row: Row[Any], nodes: Iterable[NodeRecord]) -> RunRecord:
    return _RUN_RECORD(row, nodes=tuple(nodes))  # the run's columns with its tree's key and version


class RunOps:
    """Reads and writes of runs and their phases, all on one connection inside one transaction."""

    driver_writes: ClassVar[bool] = False
    """Whether the per-phase writes go to the driver's cursor as ``prepared.Prepared`` statements (``Writes``)."""

    def __init__(self, conn: Connection, node_ids: dict[tuple[int, str], int] | None = None) -> None:
        self._conn = conn
        self._writes = Writes(conn, self.driver_writes)  # the hot writes (``Connection.execute`` unless driver)
        self._known_node_ids = node_ids if node_ids is not None else {}  # committed ones, shared by the store
        self.found_node_ids: dict[tuple[int, str], int] = {}  # looked up in this transaction
        # What this transaction wrote that it is asked again (issue 29), answered without a statement:
        self._fresh: set[tuple[int, int]] = set()  # (run_nodes.id, attempt) started here, above the stored one
        self._reports: dict[int, tuple[int, str | None]] = {}  # run_nodes.id -> its newest report written here
        self._queued: list[dict[str, Any]] | None = None  # artifacts to insert at once (``deferred_artifacts``)

    def begin_writes(self) -> None:
        """Begin this write transaction (``SqlRunStore.transaction``): here SQLAlchemy's, ``conn.begin()``."""
        self._root = self._conn.begin()
        self._root.__enter__()

    def end_writes(self, error: BaseException | None) -> None:
        """End the transaction ``begin_writes`` began: committed, or rolled back when the block raised ``error``."""
        root = self._root
        if error is None:
            root.__exit__(None, None, None)
        else:
            root.__exit__(type(error), error, error.__traceback__)

    @property
    def connection(self) -> Connection:
        """The SQLAlchemy connection this transaction runs on: for the store's own modules and for tests (no
        code outside ``alphred/store/`` writes SQL; it calls this transaction's methods)."""
        return self._conn

    # --- runs ---------------------------------------------------------------------------------------------

    def create_run(
        self,
        /,
        tree_id: int,
        workflow: Workflow | None = None,
        inputs: Mapping[str, Any] | None = None,
        **fields: Any,
    ) -> int:
        """Create a pending run of tree ``tree_id`` with one pending phase (attempt 0) per tree node."""
        values = checked_fields(fields, RUN_FIELDS, "run")
        tree_nodes = self._writes.rows(_TREE_NODES, {"_tree_id": tree_id})
        if not tree_nodes:
            raise StoreError(f"workflow tree {tree_id} does not exist or has no phases")
        keys = tuple(row.node_key for row in tree_nodes)
        if workflow is not None and keys != workflow.phase_keys:
            raise StoreError(f"workflow tree {tree_id} has phases {keys}, not {workflow.phase_keys}")
        now = utcnow()
        values.update(
            tree_id=tree_id, status=RunStatus.PENDING.value, inputs=dict(inputs or {}),
            created_at=now, updated_at=now,
        )  # fmt: skip
        # every column in the table's order, a column's own default where not given (the values SQLAlchemy would
        # have filled in): one parameter set per kind of run, its INSERT compiled already (``sql_made.py``)
        given = [(name, values.get(name, default)) for name, default in _RUN_COLUMNS]
        params = {name: value for name, value in given if value is not _NO_DEFAULT}
        run_id = self._writes.inserted(_INSERT_RUN, params)
        self._writes.insert_many(
            _INSERT_NODES,
            [
                {
                    "run_id": run_id, "tree_node_id": row.id, "node_key": row.node_key,
                    "sequence_index": row.sequence_index, "status": NodeStatus.PENDING.value,
                    "attempt": 0, "visits": 0, "tokens": 0, "cost_usd": 0.0, "updated_at": now,
                }
                for row in tree_nodes
            ],
        )  # fmt: skip
        return run_id

    def _run_query(self) -> Any:
        return select(RUNS, TREES.c.tree_key, TREES.c.version.label("tree_version")).join(
            TREES, TREES.c.id == RUNS.c.tree_id
        )

    def find_run(self, run_id: int) -> RunRecord | None:
        """The run ``run_id`` with its phases, or None when there is no such run."""
        rows = self._writes.rows(_RUN_BY_ID, {"_run_id": run_id})
        if not rows:
            return None
        nodes = self._writes.rows(_NODES_OF_RUN, {"_run_id": run_id})
        return _run_record(rows[0], [node_record(node) for node in nodes])

    def get_run(self, run_id: int) -> RunRecord:
        """The run ``run_id`` with its phases; UnknownRunError when there is no such run."""
        record = self.find_run(run_id)
        if record is None:
            raise UnknownRunError(run_id)
        return record

    def list_runs(
        self, limit: int | None = 50, statuses: Iterable[str] | None = None, before: int | None = None
    ) -> list[RunRecord]:
        """Top-level runs newest first (at most ``limit``), optionally only in ``statuses`` or with an id below
        ``before``; a sub-workflow's run (SPEC §13) is listed under its parent (``child_runs``)."""
        query = self._run_query().where(RUNS.c.parent_run_id.is_(None)).order_by(RUNS.c.id.desc())
        if before is not None:
            query = query.where(RUNS.c.id < before)
        if statuses is not None:
            query = query.where(RUNS.c.status.in_([str(s) for s in statuses]))
        if limit is not None:
            query = query.limit(limit)
        return self._records(query)

    def child_runs(self, run_id: int) -> list[RunRecord]:
        """The sub-workflow runs (SPEC §13) of run ``run_id``'s workflow phases, oldest first."""
        query = self._run_query().where(RUNS.c.parent_run_id == run_id).order_by(RUNS.c.id)
        return self._records(query)

    def orphaned_child_ids(self) -> list[int]:
        """Unfinished sub-workflow runs (SPEC §13) whose parent has ended, oldest first: left by a kill between
        the parent's end and theirs (``operations.requests.end_orphaned_children`` ends them)."""
        parents = RUNS.alias("parents")
        ended = [str(s) for s in ENDED_RUN_STATUSES]
        query = (
            select(RUNS.c.id)
            .join(parents, parents.c.id == RUNS.c.parent_run_id)
            .where(parents.c.status.in_(ended), RUNS.c.status.not_in(ended))
            .order_by(RUNS.c.id)
        )
        return [row[0] for row in self._conn.execute(query).all()]

    def child_run_ids(self, run_ids: Iterable[int]) -> dict[int, list[int]]:
        """The ids of the sub-workflow runs (SPEC §13) of each of ``run_ids`` that has some, oldest first."""
        ids = set(run_ids)
        if not ids:
            return {}
        within = RUNS.c.parent_run_id.between(min(ids), max(ids))  # one index range for any number of runs
        rows = self._conn.execute(select(RUNS.c.parent_run_id, RUNS.c.id).where(within)).all()
        return children_by_parent(((row[0], row[1]) for row in rows), ids)

    def _records(self, query: Any) -> list[RunRecord]:
        """The runs ``query`` selects, each with its phases (one query for all of them)."""
        rows = self._conn.execute(query).all()
        nodes = self._nodes_of([row.id for row in rows])
        return [_run_record(row, nodes.get(row.id, ())) for row in rows]

    def _nodes_of(self, run_ids: list[int]) -> dict[int, list[NodeRecord]]:
        result: dict[int, list[NodeRecord]] = {}
        if not run_ids:
            return result
        query = select(NODES).where(NODES.c.run_id.in_(run_ids)).order_by(NODES.c.run_id, NODES.c.sequence_index)
        for row in self._conn.execute(query):
            result.setdefault(row.run_id, []).append(node_record(row))
        return result

    def _locked_row(self, source: Table, *conditions: Any) -> Row[Any] | None:
        return self._conn.execute(select(source).where(*conditions).with_for_update()).first()

    def set_run_status(self, /, run_id: int, new: str, reason: str | None = None, **fields: Any) -> RunStatus:
        """Move a run to ``new`` (InvalidTransitionError unless SPEC §5 allows it); return the old status.

        ``reason`` replaces the stored reason; entering ``running`` sets ``started_at`` once and clears
        ``completed_at``; an ended status sets ``completed_at``; ``paused`` clears ``pause_requested``.
        """
        extra = checked_fields(fields, RUN_FIELDS, "run")
        rows = self._writes.rows(_LOCKED_RUN, {"_run_id": run_id})
        if not rows:
            raise UnknownRunError(run_id)
        row = rows[0]
        target = check_run_transition(row.status, new, run_id)
        now = utcnow()
        values: dict[str, Any] = {"status": target.value, "reason": reason, "updated_at": now}
        if target is RunStatus.RUNNING:
            values["completed_at"] = None
            if row.started_at is None:
                values["started_at"] = now
        if target in ENDED_RUN_STATUSES:
            values["completed_at"] = now
        if target in (RunStatus.PAUSED, RunStatus.CANCELLED):
            values["pause_requested"] = False
        values.update(extra)
        self._writes.rowcount(_UPDATE_RUN, {**values, "_run_id": run_id})
        return RunStatus(row.status)

    def update_run(self, /, run_id: int, **fields: Any) -> None:
        """Set non-status fields of run ``run_id`` (branch, head_sha, tokens, pr_url, ...)."""
        values = checked_fields(fields, RUN_FIELDS, "run")
        values["updated_at"] = utcnow()
        if self._writes.rowcount(_UPDATE_RUN, {**values, "_run_id": run_id}) != 1:
            raise UnknownRunError(run_id)

    def add_run_usage(self, run_id: int, *, tokens: int = 0, cost_usd: float = 0.0, steps: int = 0) -> None:
        """Add to the run's token, cost and step counters atomically."""
        statement = (
            update(RUNS)
            .where(RUNS.c.id == run_id)
            .values(
                tokens=RUNS.c.tokens + tokens,
                cost_usd=RUNS.c.cost_usd + cost_usd,
                steps=RUNS.c.steps + steps,
                updated_at=utcnow(),
            )
        )
        if self._conn.execute(statement).rowcount != 1:
            raise UnknownRunError(run_id)

    def request_pause(self, run_id: int) -> RunStatus:
        """Record that the run should pause at the next safe point; return its current status."""
        return self._request(run_id, "pause_requested")

    def request_cancel(self, run_id: int) -> RunStatus:
        """Record that the run should be cancelled; return its current status."""
        return self._request(run_id, "cancel_requested")

    def _request(self, run_id: int, flag: str) -> RunStatus:
        row = self._locked_row(RUNS, RUNS.c.id == run_id)
        if row is None:
            raise UnknownRunError(run_id)
        values = {flag: True, "updated_at": utcnow()}
        self._conn.execute(update(RUNS).where(RUNS.c.id == run_id).values(values))
        parents = [run_id]
        ended = [status.value for status in (RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELLED)]
        while parents:  # SPEC §13: the request reaches its sub-workflows' runs (their runners read their own)
            query = select(RUNS.c.id).where(RUNS.c.parent_run_id.in_(parents), RUNS.c.status.not_in(ended))
            parents = [int(found) for found in self._conn.execute(query).scalars()]
            if parents:
                self._conn.execute(update(RUNS).where(RUNS.c.id.in_(parents)).values(values))
        return RunStatus(row.status)

    # --- run nodes ----------------------------------------------------------------------------------------

    def node_id(self, run_id: int, node_key: str) -> int:
        """The ``run_nodes.id`` of phase ``node_key`` in run ``run_id`` (KeyError when there is none)."""
        known = self._known_node_ids.get((run_id, node_key)) or self.found_node_ids.get((run_id, node_key))
        if known is not None:
            return known  # a phase's row id never changes once committed
        rows = self._writes.rows(_NODE_ID, {"_run_id": run_id, "_node_key": node_key})
        found = rows[0][0] if rows else None
        if found is None:
            raise KeyError(f"run {run_id} has no phase {node_key!r}")
        self.found_node_ids[(run_id, node_key)] = int(found)
        return int(found)

    def add_node(self, run_id: int, node_key: str, base_key: str) -> None:
        """Add phase ``node_key`` to run ``run_id`` as another instance of its phase ``base_key`` (a for_each
        item's ``<phase>-<index>``, SPEC §13): pending, attempt 0; nothing when it exists already."""
        if self._conn.execute(_NODE_ID, {"_run_id": run_id, "_node_key": node_key}).scalar() is not None:
            return
        base = self._conn.execute(_NODE, {"_run_id": run_id, "_node_key": base_key}).first()
        if base is None:
            raise KeyError(f"run {run_id} has no phase {base_key!r}")
        self._conn.execute(
            insert(NODES).values(
                run_id=run_id,
                tree_node_id=base.tree_node_id,
                node_key=node_key,
                sequence_index=base.sequence_index,
                status=NodeStatus.PENDING.value,
                attempt=0,
                visits=0,
                tokens=0,
                cost_usd=0.0,
                updated_at=utcnow(),
            )
        )

    def get_node(self, run_id: int, node_key: str) -> NodeRecord:
        """Phase ``node_key`` of run ``run_id`` (KeyError when there is none)."""
        row = self._conn.execute(_NODE, {"_run_id": run_id, "_node_key": node_key}).first()
        if row is None:
            raise KeyError(f"run {run_id} has no phase {node_key!r}")
        return node_record(row)

    def set_node_status(self, /, run_id: int, node_key: str, new: str, **fields: Any) -> NodeRecord:
        """Move a phase to ``new`` (InvalidTransitionError if SPEC §5 forbids it) and return it.

        Entering ``running`` is a new execution: ``attempt`` becomes the old one + 1 unless given,
        ``started_at`` is set and ``completed_at`` cleared. An ended status sets ``completed_at``. Leaving
        ``running`` drops the lease. Explicit ``fields`` win over these defaults.
        """
        node_id = self.move_node(run_id, node_key, new, **fields)
        return node_record(self._conn.execute(_NODE_BY_ID, {"_id": node_id}).one())

    def move_node(self, /, run_id: int, node_key: str, new: str, *, via: str | None = None, **fields: Any) -> int:
        """``set_node_status`` without reading the row back (the runner's transitions): its ``run_nodes.id``.

        ``via``: a status the phase passes through on its way (``pending`` before ``running``: a loop entering a
        completed phase again), both moves checked, in one statement.
        """
        found = self._move(run_id, node_key, new, via, None, fields)
        assert found is not None, "a move without a lease always moves or raises"
        return found

    def _move(
        self,
        run_id: int,
        node_key: str,
        new: str,
        via: str | None,
        lease: tuple[str, float] | None,
        fields: Mapping[str, Any],
        acquire: Callable[[], bool] | None = None,
    ) -> int | None:
        """A guarded move (``via``, then ``new``), in one UPDATE whose row count says whether it moved; with ``lease``
        (owner, ttl) it takes the phase's lease too, and the slow way asks ``acquire`` for it between the moves:
        None when it is held by another live owner."""
        extra = checked_fields(fields, NODE_FIELDS, "phase")
        target = NodeStatus(new)
        through = NodeStatus(via) if via is not None else None
        fast = (
            through is not NodeStatus.RUNNING
            and (through is None or target in NODE_TRANSITIONS[through])
            and not (FIXED_FIELDS & extra.keys())
        )
        if fast:  # one UPDATE that checks the move (and the lease) itself; the slow way says what was wrong
            now = utcnow()
            params: dict[str, Any] = {**extra, "_run_id": run_id, "_node_key": node_key, "_now": now}
            if lease is not None:
                owner, ttl = lease
                params.update(_owner=owner, _expires=now + timedelta(seconds=ttl))
            counted = target is NodeStatus.RUNNING and "attempt" not in extra
            fresh = target is NodeStatus.RUNNING and not counted  # moves only above the stored attempt
            if fresh:
                params["_fresh"] = extra["attempt"]
            statement = move_statement(target, through, counted, lease is not None, fresh)
            if self._writes.rowcount(statement, params) == 1:
                found = self.node_id(run_id, node_key)  # known once read: a phase's row id never changes
                if fresh:
                    self._fresh.add((found, extra["attempt"]))
                return found
        if through is not None:
            self._move_one(run_id, node_key, through, extra)
        if acquire is not None and not acquire():
            return None
        return self._move_one(run_id, node_key, target, extra)

    def _move_one(self, run_id: int, node_key: str, new: NodeStatus, extra: Mapping[str, Any]) -> int:
        """One guarded move, the row read first (the way that names what is wrong)."""
        row = self._conn.execute(_LOCKED_NODE, {"_run_id": run_id, "_node_key": node_key}).first()
        if row is None:
            raise KeyError(f"run {run_id} has no phase {node_key!r}")
        target = check_node_transition(row.status, new.value, f"{run_id}/{node_key}")
        values = move_values(NodeStatus(row.status), target, utcnow())
        if target is NodeStatus.RUNNING:
            values["attempt"] = row.attempt + 1
        values.update(extra)
        self._writes.rowcount(_UPDATE_NODE_BY_ID, {**values, "_id": row.id})
        if target is NodeStatus.RUNNING and values["attempt"] > row.attempt:
            self._fresh.add((int(row.id), values["attempt"]))
        return int(row.id)

    def update_node(self, /, run_id: int, node_key: str, **fields: Any) -> NodeRecord:
        """Set non-status fields of a phase (decision, exit_code, tokens, visits, ...) and return it."""
        values = checked_fields(fields, NODE_FIELDS, "phase")
        values["updated_at"] = utcnow()
        keys = {"_run_id": run_id, "_node_key": node_key}
        if self._writes.rowcount(_UPDATE_NODE, {**values, **keys}) != 1:
            raise KeyError(f"run {run_id} has no phase {node_key!r}")
        return node_record(self._conn.execute(_NODE, keys).one())
