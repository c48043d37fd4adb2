"""``SqlRunStore``: the one store API, over any SQLAlchemy URL; a subclass per database, chosen by the URL.

Every query is a method of ``StoreTransaction``, the store's operations bound to one open transaction:
``with store.transaction() as tx:`` (write, committed when the block ends) or ``with store.reading() as
tx:`` (a consistent read). The store repeats most of them as one-transaction shortcuts
(``store.get_run(7)`` is ``with store.reading() as tx: tx.get_run(7)``).

``SqlRunStore(url)`` returns the subclass of the URL's database (as ``pathlib.Path`` returns a
``PosixPath``): ``SqliteRunStore`` (``sqlite_store.py``) or ``PostgresRunStore`` (``postgres_store.py``),
each owning what its database does differently — creating and configuring its engine, how a claim locks,
how idle workers are woken. Like SQLAlchemy's dialects, they register themselves and are loaded by name on
first use; this module never imports them (they import it). Another SQLAlchemy database gets this base
class: portable SQL, compare-and-set claims, no notifications.
"""

from __future__ import annotations

import functools
import importlib
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar, Concatenate, ParamSpec, TypeVar

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import URL, Connection, make_url

from alphred.store.connect import READ_ONLY, busy_timeout_seconds, install_error_translation, normalize_url
from alphred.store.files import FileOps
from alphred.store.history import HistoryOps
from alphred.store.leases import LeaseOps
from alphred.store.migrations import migrate, schema_version
from alphred.store.processes import ProcessOps
from alphred.store.queue import QueueOps
from alphred.store.redaction import install_redaction
from alphred.store.repositories import RepositoryOps
from alphred.store.snapshots import SnapshotOps
from alphred.store.topology import TopologyOps

if TYPE_CHECKING:
    from sqlmodel import Session

    from alphred.store.state_text import StateText

P = ParamSpec("P")
R = TypeVar("R")

_DIALECT_MODULES = {"sqlite": "alphred.store.sqlite_store", "postgresql": "alphred.store.postgres_store"}
_STORES: dict[str, type[SqlRunStore]] = {}
_CONFIGURED: weakref.WeakKeyDictionary[Engine, float] = weakref.WeakKeyDictionary()


class StoreTransaction(TopologyOps, HistoryOps, SnapshotOps, LeaseOps, ProcessOps, QueueOps, RepositoryOps, FileOps):
    """The store's operations bound to one open transaction (see ``SqlRunStore.transaction``)."""


class Notifications:
    """Where a worker waits to be woken by a submit (``SqlRunStore.notifications``); this one never is."""

    def wait_for_notify(self, timeout: float) -> bool:
        """True once a notification arrived within ``timeout`` seconds; here False at once (poll instead)."""
        return False


_Method = Callable[Concatenate[StoreTransaction, P], R]
_StoreMethod = Callable[Concatenate["SqlRunStore", P], R]


def _writing(method: _Method[P, R]) -> _StoreMethod[P, R]:
    """Run a transaction method (the subclass's, if it has its own) in its own write transaction."""
    name = method.__name__

    @functools.wraps(method)
    def run(store: SqlRunStore, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with store.transaction() as tx:
            result: R = getattr(tx, name)(*args, **kwargs)
            return result

    return run


def _reading(method: _Method[P, R]) -> _StoreMethod[P, R]:
    """Run a transaction method (the subclass's, if it has its own) in its own read transaction."""
    name = method.__name__

    @functools.wraps(method)
    def run(store: SqlRunStore, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with store.reading() as tx:
            result: R = getattr(tx, name)(*args, **kwargs)
            return result

    return run


def _backend(url_or_engine: str | URL | Engine) -> str:
    if isinstance(url_or_engine, Engine):
        return url_or_engine.dialect.name
    return normalize_url(url_or_engine).get_backend_name()


def open_engine(url: str | URL, *, busy_timeout: float | None = None) -> Engine:
    """Create an engine for ``url`` with its database's settings (see the store subclass of that database)."""
    parsed = normalize_url(url)
    timeout = busy_timeout_seconds(busy_timeout)
    store_class = SqlRunStore.dialect_class(parsed.get_backend_name())
    return configure_engine(store_class.new_engine(parsed, timeout), busy_timeout=timeout)


def configure_engine(engine: Engine, *, busy_timeout: float | None = None) -> Engine:
    """Attach its database's connection settings and Alphred's error mapping to ``engine`` (once)."""
    if engine in _CONFIGURED:
        return engine
    timeout = busy_timeout_seconds(busy_timeout)
    _CONFIGURED[engine] = timeout
    SqlRunStore.dialect_class(engine.dialect.name).prepare_engine(engine, timeout)
    install_error_translation(engine, timeout)
    return engine


class SqlRunStore:
    """Alphred's state in SQL: workflow topology, runs, phases, events, artifacts, steps, queue, registry."""

    backend: ClassVar[str] = ""
    """The SQLAlchemy backend name whose URLs this class serves (``sqlite``, ``postgresql``)."""
    transaction_class: ClassVar[type[StoreTransaction]] = StoreTransaction
    notifies: ClassVar[bool] = False
    """Whether ``notify_workers`` wakes anyone: a worker listens (``notifications``) only then."""
    idle_connections: ClassVar[int] = 0
    """How many connections ``transaction`` keeps open between write transactions, for the next one (a new
    SQLAlchemy ``Connection`` and its pool checkout and return cost more than a phase's statements do; the
    SQLite store's). Here none: a checkout pings a PostgreSQL connection (``pool_pre_ping``); one kept aside
    would not be."""

    takes_json_text: ClassVar[bool] = False
    """Whether a JSON column takes a ``JsonText`` (its text made already, written as it is: ``state_text.py``); not
    here, nor on PostgreSQL, where psycopg encodes the value itself."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.backend:
            _STORES[cls.backend] = cls

    @staticmethod
    def dialect_class(backend: str) -> type[SqlRunStore]:
        """The store class of a database (its module loaded on first use); this base class for any other."""
        if backend not in _STORES and backend in _DIALECT_MODULES:
            importlib.import_module(_DIALECT_MODULES[backend])  # defining the subclass registers it
        return _STORES.get(backend, SqlRunStore)

    def __new__(cls, url_or_engine: str | URL | Engine, *, busy_timeout: float | None = None) -> SqlRunStore:
        chosen = SqlRunStore.dialect_class(_backend(url_or_engine)) if cls is SqlRunStore else cls
        return super().__new__(chosen)

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
        self._idle: list[Connection] = []  # open, in no transaction, for the next ``transaction`` to take
        try:
            self.schema_version = migrate(self._engine)
        except BaseException:
            self.close()
            raise

    # -- what a subclass decides ------------------------------------------------------------------------

    @classmethod
    def new_engine(cls, url: URL, busy_timeout: float) -> Engine:
        """A new engine for ``url`` (here: a pool that checks a connection before handing it out)."""
        return create_engine(url, pool_pre_ping=True)

    @classmethod
    def prepare_engine(cls, engine: Engine, busy_timeout: float) -> None:
        """Attach the database's own connection settings to ``engine`` (here: none)."""

    @classmethod
    def may_exist(cls, url: URL) -> bool:
        """False when the database at ``url`` surely does not exist yet (so opening it would create it)."""
        return True

    @contextmanager
    def notifications(self) -> Iterator[Notifications]:
        """A place to wait for ``notify_workers`` (here: none; a worker polls)."""
        yield Notifications()

    # -- opening and closing ------------------------------------------------------------------------------

    @classmethod
    def open_existing(cls, url: str | URL, *, busy_timeout: float | None = None) -> SqlRunStore | None:
        """Open the store at ``url`` only if it already exists; None (having created nothing) otherwise."""
        parsed = normalize_url(url)
        chosen = SqlRunStore.dialect_class(parsed.get_backend_name()) if cls is SqlRunStore else cls
        if not chosen.may_exist(parsed):
            return None
        engine = open_engine(parsed, busy_timeout=busy_timeout)
        try:
            if schema_version(engine) == 0:
                engine.dispose()
                return None
            store = chosen(engine)
        except BaseException:
            engine.dispose()
            raise
        store._owns_engine = True
        return store

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine behind the store (for the store's own modules and tests)."""
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
        while self._idle:
            self._idle.pop().close()
        if self._owns_engine:
            self._engine.dispose()

    def __enter__(self) -> SqlRunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions -------------------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[StoreTransaction]:
        """One write transaction: committed when the block ends, rolled back if it raises; on a connection kept
        from an earlier one when there is one (``idle_connections``), else on a new one, as ``engine.begin()``."""
        try:
            conn = self._idle.pop()  # atomic: another thread may have taken the last one meanwhile
        except IndexError:
            conn = self._engine.connect()
        try:
            tx = self.transaction_class(conn, self._node_ids)
            tx.begin_writes()  # ``conn.begin()``, or on SQLite the driver's ``BEGIN IMMEDIATE``
            try:
                yield tx
            except BaseException as exc:
                tx.end_writes(exc)
                raise
            tx.end_writes(None)
        except BaseException:
            conn.close()  # after any error the connection goes back to the pool, as ``engine.begin()`` does
            raise
        if len(self._idle) < self.idle_connections and not conn.invalidated:
            self._idle.append(conn)
        else:
            conn.close()
        self._node_ids.update(tx.found_node_ids)  # committed: safe to remember

    @contextmanager
    def reading(self) -> Iterator[StoreTransaction]:
        """One read transaction (a consistent snapshot; on SQLite it takes no write lock)."""
        with self._reader.connect() as conn, conn.begin():
            tx = self.transaction_class(conn, self._node_ids)
            yield tx
        self._node_ids.update(tx.found_node_ids)  # read from committed rows

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A SQLModel session in one write transaction, committed when the block ends (``compile.py``)."""
        from sqlmodel import Session

        with self._engine.begin() as conn, Session(bind=conn, expire_on_commit=False) as session:
            yield session
            session.flush()

    def state_text(self, runtime: Mapping[str, Any]) -> StateText:
        """What a runner with the stored ``runtime`` options writes as its run's state (``renew_run``'s
        ``engine_state``), each transition's made from the parts the last one left unchanged (``state_text.py``)."""
        from alphred.store.state_text import StateText

        return StateText(runtime, as_text=self.takes_json_text)

    # -- one transaction each (see StoreTransaction and its parts for the documentation) ------------------

    # topology
    compile = _writing(StoreTransaction.compile)
    edge_ids = _reading(StoreTransaction.edge_ids)
    tree_topology = _reading(StoreTransaction.tree_topology)
    workflow_sources = _reading(StoreTransaction.workflow_sources)
    trees_with_fan_outs = _reading(StoreTransaction.trees_with_fan_outs)
    # runs
    create_run = _writing(StoreTransaction.create_run)
    find_run = _reading(StoreTransaction.find_run)
    get_run = _reading(StoreTransaction.get_run)
    list_runs = _reading(StoreTransaction.list_runs)
    child_runs = _reading(StoreTransaction.child_runs)
    child_run_ids = _reading(StoreTransaction.child_run_ids)
    orphaned_child_ids = _reading(StoreTransaction.orphaned_child_ids)
    set_run_status = _writing(StoreTransaction.set_run_status)
    update_run = _writing(StoreTransaction.update_run)
    add_run_usage = _writing(StoreTransaction.add_run_usage)
    request_pause = _writing(StoreTransaction.request_pause)
    request_cancel = _writing(StoreTransaction.request_cancel)
    run_snapshot = _reading(StoreTransaction.run_snapshot)
    run_requests = _reading(StoreTransaction.run_requests)
    runs_with_worktrees = _reading(StoreTransaction.runs_with_worktrees)
    # phases (run nodes)
    node_id = _reading(StoreTransaction.node_id)
    get_node = _reading(StoreTransaction.get_node)
    set_node_status = _writing(StoreTransaction.set_node_status)
    update_node = _writing(StoreTransaction.update_node)
    # leases and process groups
    acquire_lease = _writing(StoreTransaction.acquire_lease)
    renew_lease = _writing(StoreTransaction.renew_lease)
    release_lease = _writing(StoreTransaction.release_lease)
    add_process = _writing(StoreTransaction.add_process)
    processes = _reading(StoreTransaction.processes)
    clear_processes = _writing(StoreTransaction.clear_processes)
    # history: events, artifacts, routing, steps
    append_events = _writing(StoreTransaction.append_events)
    next_event_sequence = _reading(StoreTransaction.next_event_sequence)
    events = _reading(StoreTransaction.events)
    latest_events = _reading(StoreTransaction.latest_events)
    add_artifact = _writing(StoreTransaction.add_artifact)
    latest_artifact = _reading(StoreTransaction.latest_artifact)
    artifacts = _reading(StoreTransaction.artifacts)
    recent_artifacts = _reading(StoreTransaction.recent_artifacts)
    count_artifacts = _reading(StoreTransaction.count_artifacts)
    add_routing_decision = _writing(StoreTransaction.add_routing_decision)
    routing_decisions = _reading(StoreTransaction.routing_decisions)
    add_diagnostic = _writing(StoreTransaction.add_diagnostic)
    list_steps = _reading(StoreTransaction.list_steps)
    latest_reports = _reading(StoreTransaction.latest_reports)
    count_steps = _reading(StoreTransaction.count_steps)
    # the queue and the worker registry
    claimable_runs = _reading(StoreTransaction.claimable_runs)
    claim_run = _writing(StoreTransaction.claim_run)
    notify_workers = _writing(StoreTransaction.notify_workers)
    register_worker = _writing(StoreTransaction.register_worker)
    beat_worker = _writing(StoreTransaction.beat_worker)
    unregister_worker = _writing(StoreTransaction.unregister_worker)
    set_worker_paused = _writing(StoreTransaction.set_worker_paused)
    list_workers = _reading(StoreTransaction.list_workers)
    live_capabilities = _reading(StoreTransaction.live_capabilities)
    # the repository registry
    add_repository = _writing(StoreTransaction.add_repository)
    get_repository = _reading(StoreTransaction.get_repository)
    find_repository_by_path = _reading(StoreTransaction.find_repository_by_path)
    list_repositories = _reading(StoreTransaction.list_repositories)
    remove_repository = _writing(StoreTransaction.remove_repository)
    set_clone_status = _writing(StoreTransaction.set_clone_status)

    run_files = _reading(StoreTransaction.run_files)
    run_files_size = _reading(StoreTransaction.run_files_size)
    blob_chunk = _reading(StoreTransaction.blob_chunk)
    memories = _reading(StoreTransaction.memories)
    clear_memory = _writing(StoreTransaction.clear_memory)
