"""Turning provider events into ``run_node_stream_events`` rows, fast (one executemany per batch).

``insert_events`` goes through SQLAlchemy Core (any database). ``insert_sqlite_events`` (the SQLite store's)
encodes the rows exactly as SQLAlchemy would store them (UTC timestamp text, JSON text) and hands them to
the driver's ``executemany`` directly (``prepared.Writes.raw_many``, the INSERT compiled by SQLAlchemy):
SQLAlchemy's per-row parameter processing would otherwise cost more than SQLite's insert itself.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Insert, insert
from sqlalchemy.engine import Connection

from alphred.store import schema
from alphred.store.columns import json_text, sqlite_time, utcnow
from alphred.store.prepared import Writes, named, prepare
from alphred.store.records import EventRow


@functools.cache
def columns() -> tuple[str, ...]:
    """The columns an event row fills, in table order (``event_tuple`` gives its values in this order). Like the
    INSERT, made on first use: the table is built then, not as a run's start imports this (issue 29)."""
    return tuple(column.name for column in schema.RUN_NODE_STREAM_EVENTS.c if column.name != "id")


@functools.cache
def _insert() -> Insert:
    return named("insert.RUN_NODE_STREAM_EVENTS", insert(schema.RUN_NODE_STREAM_EVENTS))


@functools.cache
def sqlite_insert() -> str:
    """The SQL of the events' INSERT on SQLite, as SQLAlchemy compiles it (kept in ``sql_made.py``, else compiled
    once, on first use); its parameters are ``columns()`` in order (``_sqlite_row``'s values)."""
    from sqlalchemy.dialects import sqlite

    found = prepare(_insert(), sqlite.dialect(), columns(), many=True)
    assert found is not None and found.names == columns()
    return found.sql


def _timestamp(value: Any) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    if isinstance(value, int | float):
        return datetime.fromtimestamp(value, UTC)
    return datetime.fromisoformat(str(value))


def event_tuple(row: EventRow | Mapping[str, Any] | Any) -> tuple[Any, ...]:
    """One event's column values in ``columns()`` order (timestamp may be None: now)."""
    if isinstance(row, EventRow):
        run_id, node_id, attempt, sequence = row.workflow_run_id, row.run_node_id, row.attempt, row.sequence
        event_type, timestamp, content, metadata = row.event_type, row.timestamp, row.content, row.metadata
    elif isinstance(row, Mapping):
        run_id = row["workflow_run_id"] if "workflow_run_id" in row else row["run_id"]
        node_id, attempt, sequence, event_type = (
            row["run_node_id"],
            row["attempt"],
            row["sequence"],
            row["event_type"],
        )
        timestamp, content, metadata = row.get("timestamp"), row.get("content"), row.get("metadata")
    else:
        run_id = getattr(row, "workflow_run_id", None) or row.run_id
        node_id, attempt, sequence, event_type = row.run_node_id, row.attempt, row.sequence, row.event_type
        timestamp = getattr(row, "timestamp", None)
        content, metadata = getattr(row, "content", None), getattr(row, "metadata", None)
    if content is not None and not isinstance(content, str):
        content = json_text(content)
    return (
        run_id, node_id, attempt, sequence, str(event_type), _timestamp(timestamp), content,
        None if metadata is None else dict(metadata),
    )  # fmt: skip


def _sqlite_row(row: EventRow | Mapping[str, Any] | Any, now_text: str) -> tuple[Any, ...]:
    """One event encoded for SQLite's driver, as SQLAlchemy would store it."""
    if type(row) is EventRow:  # the runtime's rows: straight to the columns (as ``event_tuple`` reads them)
        stamp, content, metadata = _timestamp(row.timestamp), row.content, row.metadata
        if content is not None and not isinstance(content, str):
            content = json_text(content)
        return (
            row.workflow_run_id, row.run_node_id, row.attempt, row.sequence, str(row.event_type),
            now_text if stamp is None else sqlite_time(stamp), content,
            None if metadata is None else json_text(dict(metadata)),
        )  # fmt: skip
    v = event_tuple(row)
    return (*v[:5], now_text if v[5] is None else sqlite_time(v[5]), v[6], None if v[7] is None else json_text(v[7]))


def insert_events(conn: Connection, rows: Iterable[EventRow | Mapping[str, Any] | Any]) -> int:
    """Insert provider events with one Core ``executemany``; return how many were written."""
    now = utcnow()
    values = [event_tuple(row) for row in rows]
    if values:
        names = columns()
        conn.execute(_insert(), [dict(zip(names, (*v[:5], v[5] or now, *v[6:]), strict=True)) for v in values])
    return len(values)


def insert_sqlite_events(writes: Writes, rows: Iterable[EventRow | Mapping[str, Any] | Any]) -> int:
    """Insert provider events into SQLite with the driver's own ``executemany``; return how many were written."""
    now_text = sqlite_time(utcnow())
    encoded = [_sqlite_row(row, now_text) for row in rows]
    if encoded:
        writes.raw_many(sqlite_insert(), encoded)
    return len(encoded)
