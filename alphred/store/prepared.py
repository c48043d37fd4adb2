"""Prebuilt Core statements executed on the driver's cursor of the transaction's connection (issue 29).

``Connection.execute`` spends ~0.3 M instructions on a prebuilt statement before and after SQLite's own
work (its cache key, an execution context, a ``CursorResult``): most of an unchanged phase's write
transaction. ``Prepared`` compiles a statement ONCE per dialect and set of parameter names with SQLAlchemy
(the SQL text, its positional parameter order and each parameter's bind processor: ``UtcDateTime``, JSON)
and ``Writes`` executes it on the DBAPI cursor of the SQLAlchemy connection that holds the
transaction, so that the SQL is still SQLAlchemy's, compiled from the schema's tables, and the values
reach the database exactly as through ``Connection.execute`` (``tests/integration/test_prepared.py``
compares the stored rows).

Two things of ``Connection.execute`` are kept on this way too (``cursor_execute``): the engine's
``before_cursor_execute`` listeners see every statement and may replace its parameters (the store's one
redaction boundary, ``redaction.py``; statement counters in tests) and ``after_cursor_execute`` follows;
a driver error goes through SQLAlchemy's own handling (``Connection._handle_dbapi_exception``: the
``handle_error`` listeners that turn a locked or corrupt database into Alphred's errors, then the
``sqlalchemy.exc`` class callers catch, ``IntegrityError`` for a broken constraint).

The reads of a run's start are prepared the same way (``Writes.rows``): a SELECT's rows come from the driver, each
value through its type's result processor as ``CursorResult`` does, each row a ``ReadRow`` (by position, by name,
``_mapping``). A statement ``named`` is not even compiled when ``sql_made.py`` holds its SQL for the dialect and
parameter names (``sql_gen.py``: compiling is ~0.5-1 ms a statement in every process).

Only statements whose compiled form needs nothing at execution time are prepared: positional parameters
(SQLite's ``qmark``), no Python-side column defaults to compute, no parameters rendered at execution
(``IN`` lists); any other statement, and any connection outside a transaction, takes ``Connection.execute``.
"""

from __future__ import annotations

import contextlib
import operator
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import sqlalchemy
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.event.attr import _EmptyListener, _JoinedListener, _ListenerCollection
from sqlalchemy.sql.dml import UpdateBase
from sqlalchemy.sql.selectable import Select

_Processor = Callable[[Any], Any] | None
Statement = UpdateBase | Select[Any]
_JOINED = _JoinedListener  # SQLAlchemy's kinds of listener collections (``listening``)
_LISTS = frozenset({_EmptyListener, _ListenerCollection})
_REQUIRED: Any = object()  # a parameter with no value of its own: it must be given


class NotPreparedError(Exception):
    """Raised by ``Prepared`` when a statement needs SQLAlchemy at execution time (its caller executes it there)."""


class Prepared:
    """A statement compiled once for ``dialect`` with the parameter names ``keys``: its SQL text and how to turn
    a mapping of parameters into the driver's positional tuple (each value through its type's bind processor)."""

    __slots__ = ("_copies", "_get", "_plan", "_processed", "_results", "names", "row", "sql")

    def __init__(self, statement: Statement, dialect: Dialect, keys: Sequence[str], many: bool = False) -> None:
        compiled = compile_prepared(statement, dialect, keys, many)
        plan: list[tuple[str, _Processor, Any]] = []
        for name in compiled.positiontup or ():
            bind = compiled.binds[name]
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            plan.append((name, processor, _REQUIRED if bind.required else bind.effective_value))
        results = [(column.keyname, column.type._cached_result_processor(dialect, None)) for column in
                   compiled._result_columns] if isinstance(statement, Select) else None  # fmt: skip
        self._set(compiled.string, plan, results)

    @classmethod
    def made(
        cls,
        sql: str,
        plan: Sequence[tuple[str, _Processor, Any]],
        results: Sequence[tuple[str, _Processor]] | None = None,
    ) -> Prepared:
        """A statement compiled already (``sql_made.py``'s): its SQL text and, in its parameters' order, each one's
        name, bind processor and value when not given (``_REQUIRED``: none); a SELECT's result columns, each one's
        name and result processor."""
        found = cls.__new__(cls)
        found._set(sql, plan, results)
        return found

    def _set(
        self, sql: str, plan: Sequence[tuple[str, _Processor, Any]], results: Sequence[tuple[str, _Processor]] | None
    ) -> None:
        self.row: type[ReadRow] | None = None  # a SELECT's: the class of its rows
        self._results: tuple[tuple[int, Callable[[Any], Any]], ...] = ()
        if results is not None:
            fields = tuple(name for name, _ in results)
            by_name = {name: at for at, name in enumerate(fields)}
            self.row = type("Row", (ReadRow,), {"__slots__": (), "_fields": fields, "_index": by_name})
            self._results = tuple((at, step) for at, (_, step) in enumerate(results) if step is not None)
        self.sql: str = sql
        self.names: tuple[str, ...] = tuple(name for name, _, _ in plan)
        self._plan = tuple(plan)
        self._get = operator.itemgetter(*self.names) if len(self.names) > 1 else _one_of(self.names)
        first: dict[str, int] = {}  # a parameter used at several places (``_now``) is processed once
        processed: list[tuple[int, Callable[[Any], Any]]] = []
        copies: list[tuple[int, int]] = []
        for index, (name, step, _) in enumerate(plan):
            if step is None:
                continue
            if name in first:
                copies.append((index, first[name]))
            else:
                first[name] = index
                processed.append((index, step))
        self._processed = tuple(processed)
        self._copies = tuple(copies)

    def values(self, params: Mapping[str, Any]) -> list[Any]:
        """``params`` as the driver's positional parameters, each processed as SQLAlchemy would."""
        try:
            found = list(self._get(params))  # every parameter given (the usual case): taken in one C call
        except KeyError:
            return self._with_defaults(params)
        for index, processor in self._processed:
            found[index] = processor(found[index])
        for index, source in self._copies:
            found[index] = found[source]
        return found

    def read(self, rows: list[tuple[Any, ...]]) -> list[ReadRow]:
        """A SELECT's driver ``rows`` as SQLAlchemy would give them: each value through its type's result processor,
        each row a ``ReadRow`` (by position, by name, ``_mapping``)."""
        make = self.row
        assert make is not None, "not a SELECT"
        steps = self._results
        if not steps:
            return [make(row) for row in rows]
        found: list[ReadRow] = []
        for row in rows:
            values = list(row)
            for at, step in steps:
                values[at] = step(values[at])
            found.append(make(values))
        return found

    def _with_defaults(self, params: Mapping[str, Any]) -> list[Any]:
        """``values`` where some parameter is not given: its statement's own value, if it has one."""
        found: list[Any] = []
        for name, processor, default in self._plan:
            value = params.get(name, default)
            if value is _REQUIRED:
                raise TypeError(f"a value is required for the parameter {name!r} of: {self.sql}")
            found.append(value if processor is None else processor(value))
        return found


class ReadRow(tuple[Any, ...]):
    """A row a prepared SELECT read (``Prepared.read``): what callers use of SQLAlchemy's ``Row``, a tuple whose
    values are also read by column name, as attributes or through ``_mapping``."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _index: dict[str, int] = {}  # noqa: RUF012  (each statement's row class has its own)

    def __getattr__(self, name: str) -> Any:
        try:
            return self[self._index[name]]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def _mapping(self) -> dict[str, Any]:
        return dict(zip(self._fields, self, strict=True))


def compile_prepared(statement: Statement, dialect: Dialect, keys: Sequence[str], many: bool = False) -> Any:
    """``statement`` compiled by SQLAlchemy for ``dialect`` and parameter names ``keys``; ``NotPreparedError`` when
    its compiled form needs SQLAlchemy at execution time."""
    compiled = statement.compile(dialect=dialect, column_keys=list(keys), for_executemany=many)
    if (
        compiled.positiontup is None
        or compiled.insert_prefetch
        or compiled.update_prefetch
        or compiled.literal_execute_params
        or compiled.post_compile_params
        or compiled.escaped_bind_names
    ):
        raise NotPreparedError(str(compiled))
    return compiled


def _one_of(names: tuple[str, ...]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """What ``operator.itemgetter(*names)`` is for several names, for one name or none: a tuple."""
    getter = operator.itemgetter(*names) if names else None
    return lambda params: (getter(params),) if getter is not None else ()


_CACHES: weakref.WeakKeyDictionary[Dialect, dict[tuple[Any, ...], Prepared | None]] = weakref.WeakKeyDictionary()


def _cache_of(dialect: Dialect) -> dict[tuple[Any, ...], Prepared | None]:
    """The statements prepared for ``dialect`` (an engine's), by statement, parameter names and executemany."""
    cache = _CACHES.get(dialect)
    return cache if cache is not None else _CACHES.setdefault(dialect, {})


_NAMES: dict[Any, str] = {}
"""The store's named statements (``named``): a statement object -> the name its compiled forms have in
``sql_made.py``."""
_S = TypeVar("_S", bound=UpdateBase | Select[Any])


def named(name: str, statement: _S) -> _S:
    """``statement``, known by ``name``: ``prepare`` takes its SQL from ``sql_made.py`` (generated by ``python -m
    alphred.store.sql_gen``) instead of compiling it, when the module has it for the dialect and parameter names."""
    _NAMES[statement] = name
    return statement


def dialect_fingerprint(dialect: Dialect) -> tuple[Any, ...]:
    """What a statement's compiled text depends on besides the statement and its parameter names: SQLAlchemy's
    version and the dialect's kind (``sql_made.py`` is used for a dialect with its fingerprint only)."""
    return (
        sqlalchemy.__version__, dialect.name, dialect.driver, dialect.paramstyle,
        bool(dialect.insert_returning), bool(dialect.update_returning), bool(dialect.delete_returning),
    )  # fmt: skip


def _made(statement: Statement, dialect: Dialect, keys: tuple[str, ...], many: bool) -> Prepared | None:
    """``statement`` as ``sql_made.py`` holds it for ``dialect`` and ``keys``, or None when it does not (not named,
    another dialect or SQLAlchemy, other parameter names): compiled at run time then (issue 29: compiling the
    ~15 statements of a run costs ~0.5-1 ms each in every process)."""
    name = _NAMES.get(statement)
    if name is None:
        return None
    from alphred.store import sql_made

    entry = sql_made.SQL.get((name, keys, many))
    if entry is None or dialect_fingerprint(dialect) != sql_made.FINGERPRINT:
        return None
    sql, params, read = entry
    plan: list[tuple[str, _Processor, Any]] = []
    for param, column, required, default in params:
        processor = None
        if column is not None:  # an INSERT's or UPDATE's column
            processor = statement.table.c[column].type.dialect_impl(dialect).bind_processor(dialect)  # type: ignore[union-attr]
        plan.append((param, processor, _REQUIRED if required else default))
    if read is None:
        return Prepared.made(sql, plan)
    selected = statement.selected_columns  # type: ignore[union-attr]  # a SELECT's
    results = [(name, None if at is None else selected[at].type._cached_result_processor(dialect, None))
               for name, at in read]  # fmt: skip
    return Prepared.made(sql, plan, results)


def prepare(statement: Statement, dialect: Dialect, keys: Sequence[str], many: bool = False) -> Prepared | None:
    """``statement`` prepared for ``dialect`` and parameter names ``keys`` (from ``sql_made.py`` when it holds it),
    or None when it cannot be (``NotPreparedError``: ``Connection.execute`` executes it)."""
    found = _made(statement, dialect, tuple(keys), many)
    if found is not None:
        return found
    try:
        return Prepared(statement, dialect, keys, many)
    except NotPreparedError:
        return None


Listener = Callable[..., Any]


def listening(collection: Any) -> tuple[Listener, ...]:
    """The listeners of one of an event's collections (``conn.dispatch.begin``...) as they are now, in the order
    SQLAlchemy calls them. ``tuple(collection)`` says the same, but through a Python ``__len__`` and ``__iter__`` per
    nested collection (a connection's joins its own and its engine's, each joins its class's and its instance's):
    ~9 k instructions a collection, three to four times a transaction (issue 29). The listener lists are read
    directly when the collection is one of the kinds SQLAlchemy 2 makes (``_JoinedListener`` over
    ``_EmptyListener`` or ``_ListenerCollection``), else iterated (``tests/integration/test_prepared.py`` compares
    both as listeners come and go)."""
    if type(collection) is _JOINED:  # ``chain(self.local, getattr(self.parent_dispatch, self.name))``, each of
        local, parent = collection.local, getattr(collection.parent_dispatch, collection.name)  # them ``chain(self.
        if type(local) in _LISTS and type(parent) in _LISTS:  # parent_listeners, self.listeners)``
            return (*local.parent_listeners, *local.listeners, *parent.parent_listeners, *parent.listeners)
    return tuple(collection)


def listeners_of(conn: Connection) -> tuple[tuple[Listener, ...], tuple[Listener, ...]]:
    """The ``before_cursor_execute`` and ``after_cursor_execute`` listeners of ``conn`` (its engine's and its own)
    as they are now: iterating ``conn.dispatch``'s joined collections costs ~1.5 µs per statement, a tuple none."""
    dispatch = conn.dispatch
    return listening(dispatch.before_cursor_execute), listening(dispatch.after_cursor_execute)


def cursor_execute(
    conn: Connection,
    cursor: Any,
    sql: str,
    values: Any,
    many: bool = False,
    listeners: tuple[tuple[Listener, ...], tuple[Listener, ...]] | None = None,
) -> None:
    """Execute ``sql`` on ``cursor`` (of ``conn``'s DBAPI connection) as ``Connection.execute`` would: the
    engine's ``before_cursor_execute`` listeners first (redaction), ``after_cursor_execute`` after, a driver error
    handled by SQLAlchemy (Alphred's errors, or ``sqlalchemy.exc``'s class of it, e.g. ``IntegrityError``).
    ``listeners``: ``conn``'s, taken by ``listeners_of`` (a transaction's ``Writes`` takes them once)."""
    before, after = listeners_of(conn) if listeners is None else listeners
    for listener in before:
        sql, values = listener(conn, cursor, sql, values, None, many)
    try:
        if many:
            cursor.executemany(sql, values)
        else:
            cursor.execute(sql, values)
    except Exception as exc:
        conn._handle_dbapi_exception(exc, sql, values, cursor, None)  # raises
    for listener in after:
        listener(conn, cursor, sql, values, None, many)


def execute_text(conn: Connection, sql: str) -> None:
    """Execute SQL text without parameters (``BEGIN IMMEDIATE``) on a cursor of its own, as ``cursor_execute``."""
    cursor = conn.connection.cursor()
    try:
        cursor_execute(conn, cursor, sql, ())
    finally:
        cursor.close()


class Writes:
    """The hot writes of one transaction: with ``driver`` through ``Prepared`` statements on one driver cursor of
    its connection (the SQLite store's), else (and for a statement that cannot be prepared) through
    ``Connection.execute``."""

    __slots__ = ("_begun", "_cache", "_conn", "_cursor", "_driver", "_listeners")

    def __init__(self, conn: Connection, driver: bool) -> None:
        self._conn = conn
        self._driver = driver
        self._begun = False  # the transaction begun on the driver (``begin``), not by SQLAlchemy
        self._cursor: Any = None
        self._listeners: tuple[tuple[Listener, ...], tuple[Listener, ...]] | None = None  # the connection's, once
        self._cache: dict[tuple[Any, ...], Prepared | None] | None = None  # the dialect's, at the first write

    def _prepared(self, statement: Statement, keys: tuple[str, ...], many: bool = False) -> Prepared | None:
        if not self._driver or not (self._begun or self._conn.in_transaction()):  # ``Connection.execute`` begins one
            return None
        cache = self._cache
        if cache is None:
            cache = self._cache = _cache_of(self._conn.dialect)
        key = (statement, keys, many)
        try:
            return cache[key]
        except KeyError:
            found = cache[key] = prepare(statement, self._conn.dialect, keys, many)
            return found

    def _run(self, sql: str, values: Any, many: bool = False) -> Any:
        cursor = self._cursor
        if cursor is None:
            driver = self._conn.connection.dbapi_connection  # its cursor without the pool's wrapper of the
            assert driver is not None  # connection in between (``_ConnectionFairy.cursor`` calls the same)
            cursor = self._cursor = driver.cursor()
        listeners = self._listeners
        if listeners is None:
            listeners = self._listeners = listeners_of(self._conn)
        try:
            cursor_execute(self._conn, cursor, sql, values, many, listeners)
        except BaseException:
            self._cursor = None  # SQLAlchemy closed it
            raise
        return cursor

    def begin(self, sql: str) -> None:
        """Begin the transaction on the driver: ``sql`` (``BEGIN IMMEDIATE``) on this cursor, as every statement (the
        listeners see it), without SQLAlchemy's transaction object and its commit's way (~40 k instructions a
        transaction, issue 29); the engine's ``begin``, ``commit`` and ``rollback`` listeners are called as
        SQLAlchemy calls them. A statement that goes through ``Connection.execute`` inside it
        begins SQLAlchemy's (its ``begin`` hook finds the driver's open and emits nothing); ``end`` ends that one."""
        self._run(sql, ())
        self._begun = True
        conn = self._conn
        for listener in listening(conn.dispatch.begin):  # as SQLAlchemy's begin calls them (``_on_begin`` then
            listener(conn)  # finds the driver's transaction open and emits nothing)

    def end(self, commit: bool) -> None:
        """Commit (or roll back) the transaction ``begin`` began: through SQLAlchemy when a statement began its
        transaction too, else on the driver's connection, an error handled by SQLAlchemy as a statement's is (a
        failed commit rolled back first, as SQLAlchemy's does; a failed rollback left to the pool, which closes or
        resets the connection as it returns, with the error that made it roll back raised)."""
        conn = self._conn
        if conn.in_transaction():
            if commit:
                conn.commit()
            else:
                conn.rollback()
            return
        if conn.invalidated:
            return
        driver = conn.connection.dbapi_connection
        assert driver is not None
        if not commit:
            with contextlib.suppress(Exception):  # the caller raises its own error and closes the connection
                for listener in listening(conn.dispatch.rollback):
                    listener(conn)
                driver.rollback()
            return
        for listener in listening(conn.dispatch.commit):  # as SQLAlchemy's commit calls them: before it
            listener(conn)
        try:
            driver.commit()
        except Exception as exc:
            try:
                driver.rollback()
            finally:
                conn._handle_dbapi_exception(exc, "COMMIT", (), None, None)  # raises

    def rowcount(self, statement: Statement, params: Mapping[str, Any]) -> int:
        """Execute ``statement`` (an UPDATE or DELETE) with ``params``; how many rows it matched."""
        found = self._prepared(statement, tuple(params))
        if found is None:
            return int(self._conn.execute(statement, params).rowcount)
        return int(self._run(found.sql, found.values(params)).rowcount)

    def inserted(self, statement: Statement, params: Mapping[str, Any]) -> int:
        """Execute ``statement`` (a one-row INSERT) with ``params``; the new row's primary key."""
        found = self._prepared(statement, tuple(params))
        if found is None:
            key = self._conn.execute(statement, params).inserted_primary_key
            assert key is not None
            return int(key[0])
        return int(self._run(found.sql, found.values(params)).lastrowid)

    def insert_many(self, statement: Statement, rows: Sequence[Mapping[str, Any]]) -> None:
        """Execute ``statement`` (an INSERT) for each of ``rows`` (all with the first one's keys): one
        ``executemany`` (one ``execute`` for one row, as ``Connection.execute`` does)."""
        many = len(rows) > 1
        found = self._prepared(statement, tuple(rows[0]), many)
        if found is None:
            self._conn.execute(statement, list(rows))
        elif many:
            self._run(found.sql, [found.values(row) for row in rows], many)
        else:
            self._run(found.sql, found.values(rows[0]))

    def rows(self, statement: Select[Any], params: Mapping[str, Any]) -> Sequence[Any]:
        """Execute ``statement`` (a SELECT) with ``params``; its rows (SQLAlchemy's ``Row``s or ``ReadRow``s: read by
        position, by name, through ``_mapping``)."""
        found = self._prepared(statement, tuple(params))
        if found is None:
            return self._conn.execute(statement, params).all()
        return found.read(self._run(found.sql, found.values(params)).fetchall())

    def first(self, statement: Statement, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """Execute ``statement`` (a write with ``RETURNING``) with ``params``; its first row, or None."""
        found = self._prepared(statement, tuple(params))
        if found is None:
            row = self._conn.execute(statement, params).first()
            return None if row is None else tuple(row)
        rows = self._run(found.sql, found.values(params)).fetchall()  # to the end: the statement is done
        return tuple(rows[0]) if rows else None

    def raw_many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """Execute ``sql`` (a ``Prepared`` one's) for ``rows`` of driver-ready values: one ``executemany``."""
        self._run(sql, rows, many=True)
