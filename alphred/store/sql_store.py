"""``SqlRunStore``: the run repository over any SQLAlchemy URL (SQLite file or PostgreSQL).

Every public method is one short transaction. To make several writes atomic (persist first, then act),
use ``with store.transaction() as tx:``; ``tx`` has the same methods and commits when the block ends.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from sqlalchemy import Engine
from sqlalchemy.engine import URL, make_url

from alphred.store.connect import READ_ONLY, configure_engine, normalize_url, open_engine, sqlite_file
from alphred.store.history import HistoryOps
from alphred.store.leases import LeaseOps
from alphred.store.migrations import migrate, schema_version
from alphred.store.processes import ProcessOps
from alphred.store.redaction import install_redaction

if TYPE_CHECKING:
    from sqlmodel import Session

P = ParamSpec("P")
R = TypeVar("R")


class StoreTransaction(HistoryOps, LeaseOps, ProcessOps):
    """The store's operations bound to one open transaction (see ``SqlRunStore.transaction``)."""


_Method = Callable[Concatenate[StoreTransaction, P], R]
_StoreMethod = Callable[Concatenate["SqlRunStore", P], R]


def _writing(method: _Method[P, R]) -> _StoreMethod[P, R]:
    """Run a transaction method in its own write transaction."""

    @functools.wraps(method)
    def run(store: SqlRunStore, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with store.transaction() as tx:
            return method(tx, *args, **kwargs)

    return run


def _reading(method: _Method[P, R]) -> _StoreMethod[P, R]:
    """Run a transaction method in its own read transaction."""

    @functools.wraps(method)
    def run(store: SqlRunStore, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with store.reading() as tx:
            return method(tx, *args, **kwargs)

    return run


class SqlRunStore:
    """Alphred's state in SQL: workflow topology, runs, phases, events, artifacts and steps."""

    def __init__(self, url_or_engine: str | URL | Engine, *, busy_timeout: float | None = None) -> None:
        if isinstance(url_or_engine, Engine):
            self._engine = configure_engine(url_or_engine, busy_timeout=busy_timeout)
            self._owns_engine = False
        else:
            self._engine = open_engine(url_or_engine, busy_timeout=busy_timeout)
            self._owns_engine = True
        install_redaction(self._engine)  # the one redaction boundary: every string written is redacted
        self._reader = self._engine.execution_options(**{READ_ONLY: True})
        self._node_ids: dict[tuple[int, str], int] = {}  # (run id, phase key) -> run_nodes.id, committed
        try:
            self.schema_version = migrate(self._engine)
        except BaseException:
            self.close()
            raise

    @classmethod
    def open_existing(cls, url: str | URL, *, busy_timeout: float | None = None) -> SqlRunStore | None:
        """Open the store at ``url`` only if it already exists; None (having created nothing) otherwise."""
        parsed = normalize_url(url)
        if parsed.get_backend_name() == "sqlite":
            path = sqlite_file(parsed)
            if path is None or not path.is_file():
                return None
        engine = open_engine(parsed, busy_timeout=busy_timeout)
        try:
            if schema_version(engine) == 0:
                engine.dispose()
                return None
            store = cls(engine)
        except BaseException:
            engine.dispose()
            raise
        store._owns_engine = True
        return store

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine behind the store."""
        return self._engine

    @property
    def url(self) -> str:
        """The database URL, password hidden."""
        return make_url(self._engine.url).render_as_string(hide_password=True)

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql`` (or another SQLAlchemy dialect name)."""
        return self._engine.dialect.name

    def close(self) -> None:
        """Release the store's connections (the engine is disposed only if the store created it)."""
        if self._owns_engine:
            self._engine.dispose()

    def __enter__(self) -> SqlRunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[StoreTransaction]:
        """One write transaction: committed when the block ends, rolled back if it raises."""
        with self._engine.begin() as conn:
            tx = StoreTransaction(conn, self._node_ids)
            yield tx
        self._node_ids.update(tx.found_node_ids)  # committed: safe to remember

    @contextmanager
    def reading(self) -> Iterator[StoreTransaction]:
        """One read transaction (a consistent snapshot; on SQLite it takes no write lock)."""
        with self._reader.connect() as conn, conn.begin():
            tx = StoreTransaction(conn, self._node_ids)
            yield tx
        self._node_ids.update(tx.found_node_ids)  # read from committed rows

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A SQLModel session in one write transaction, committed when the block ends."""
        from sqlmodel import Session

        with self._engine.begin() as conn, Session(bind=conn, expire_on_commit=False) as session:
            yield session
            session.flush()

    # one transaction each; see StoreTransaction / RunOps / HistoryOps for the documentation
    compile = _writing(StoreTransaction.compile)
    edge_ids = _reading(StoreTransaction.edge_ids)
    create_run = _writing(StoreTransaction.create_run)
    find_run = _reading(StoreTransaction.find_run)
    get_run = _reading(StoreTransaction.get_run)
    list_runs = _reading(StoreTransaction.list_runs)
    set_run_status = _writing(StoreTransaction.set_run_status)
    update_run = _writing(StoreTransaction.update_run)
    add_run_usage = _writing(StoreTransaction.add_run_usage)
    request_pause = _writing(StoreTransaction.request_pause)
    request_cancel = _writing(StoreTransaction.request_cancel)
    node_id = _reading(StoreTransaction.node_id)
    get_node = _reading(StoreTransaction.get_node)
    set_node_status = _writing(StoreTransaction.set_node_status)
    update_node = _writing(StoreTransaction.update_node)
    acquire_lease = _writing(StoreTransaction.acquire_lease)
    renew_lease = _writing(StoreTransaction.renew_lease)
    release_lease = _writing(StoreTransaction.release_lease)
    append_events = _writing(StoreTransaction.append_events)
    next_event_sequence = _reading(StoreTransaction.next_event_sequence)
    events = _reading(StoreTransaction.events)
    add_artifact = _writing(StoreTransaction.add_artifact)
    latest_artifact = _reading(StoreTransaction.latest_artifact)
    artifacts = _reading(StoreTransaction.artifacts)
    add_routing_decision = _writing(StoreTransaction.add_routing_decision)
    routing_decisions = _reading(StoreTransaction.routing_decisions)
    add_diagnostic = _writing(StoreTransaction.add_diagnostic)
    list_steps = _reading(StoreTransaction.list_steps)
    add_process = _writing(StoreTransaction.add_process)
    processes = _reading(StoreTransaction.processes)
    clear_processes = _writing(StoreTransaction.clear_processes)
