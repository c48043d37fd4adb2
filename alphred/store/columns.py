"""Column building blocks for the tables: UTC timestamps, JSON, counters, flags and CHECK ... IN lists."""

from __future__ import annotations

from _json import make_encoder
from collections.abc import Callable
from datetime import UTC, datetime
from json import JSONEncoder, encoder
from typing import Any

from sqlalchemy import JSON, Boolean, Column, DateTime, Dialect, Float, ForeignKey, Integer, Text, TypeDecorator, false


def utcnow() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)


_MINUTE: tuple[tuple[int, ...], str] = ((), "")
"""The last minute ``sqlite_time`` wrote, as its fields and its text (``2026-11-26 16:40:``): replaced whole, so
that a thread reads both of one minute."""


def sqlite_time(value: datetime) -> str:
    """``value`` as SQLAlchemy stores a ``UtcDateTime`` in SQLite (its DATETIME text ``%Y-%m-%d %H:%M:%S.%f``, the
    UTC fields; a naive value is UTC already), made the fast way: the text of its minute is the last one's most
    of the time, only the seconds are formatted (a phase writes a dozen timestamps; ``isoformat`` costs twice as
    much, SQLAlchemy's format filled from a dict more: ``tests/integration/test_prepared.py`` compares them)."""
    global _MINUTE
    zone = value.tzinfo
    if zone is not None and zone is not UTC:
        value = value.astimezone(UTC)
    minute = (value.year, value.month, value.day, value.hour, value.minute)
    known = _MINUTE
    if known[0] != minute:
        known = _MINUTE = (minute, "%04d-%02d-%02d %02d:%02d:" % minute)  # noqa: UP031
    return known[1] + "%02d.%06d" % (value.second, value.microsecond)  # noqa: UP031 (one C call, no format specs)


def _sqlite_bind(value: datetime | None) -> str | None:
    return None if value is None else sqlite_time(value)


class UtcDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back timezone-aware (SQLite keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Normalise to UTC; naive values are taken as UTC already."""
        if value is None:
            return None
        if value.tzinfo is UTC:  # the store's own (``utcnow``): SQLite's text of it is its UTC fields, no zone
            return value  # (``replace`` costs more than the rest of the parameter's way: ~1 µs, issue 29)
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def bind_processor(self, dialect: Dialect) -> Callable[[datetime | None], Any] | None:
        """On SQLite, ``sqlite_time``: the text ``process_bind_param`` and SQLite's DATETIME make, cheaper (a
        phase writes a dozen timestamps, issue 29); elsewhere theirs."""
        if dialect.name == "sqlite":
            return _sqlite_bind
        return super().bind_processor(dialect)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Attach UTC to the naive values SQLite returns."""
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


_ENCODE = make_encoder(
    None, JSONEncoder().default, encoder.encode_basestring_ascii, None, ": ", ", ", False, False, True
)
"""``json.dumps``'s own C encoder with its default settings, made once: ``dumps`` makes one per call (and a
``JSONEncoder`` around it), ~2 µs of a phase's half-dozen JSON values (issue 29). No ``markers``: they would be
shared by the threads that write, and a stale entry left by a failed call would read as a cycle in the next one
(a cyclic value, which no stored value is, raises ``RecursionError`` instead of ``ValueError``)."""


def json_text(value: Any) -> str:
    """``json.dumps(value)``, the same text, cheaper (the JSON columns' serializer on SQLite, the events' JSON)."""
    return "".join(_ENCODE(value, 0))


class JsonText:
    """JSON text made already (``json_text``'s of a value, ``state_text.StateText``): the JSON columns' serializer on
    SQLite (``stored_json``) writes it as it is."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def stored_json(value: Any) -> str:
    """The text a JSON column stores on SQLite: ``json_text(value)``, or a ``JsonText``'s own text."""
    if type(value) is JsonText:
        return value.text
    return json_text(value)


_CANONICAL = make_encoder(
    None, JSONEncoder().default, encoder.encode_basestring_ascii, None, ":", ",", True, False, True
)


def canonical_json_text(value: Any) -> str:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"))``, the same text, cheaper (an artifact's hash)."""
    return "".join(_CANONICAL(value, 0))


def in_list(column: str, values: type[Any]) -> str:
    """SQL text ``column = 'a' OR column = 'b' ...`` for the members of a StrEnum: a CHECK that ``column`` is one of
    them. Not ``column IN ('a', 'b', ...)``: SQLite evaluates an IN list of more than two constants by building a
    temporary b-tree of them, each time the CHECK is evaluated (~33 k instructions an inserted or moved row; a
    phase's transaction evaluated six, issue 29); the same ORs cost ~1 k. A SQLite database created before has its
    IN lists rewritten as these ORs by migration 9 (``migrations._create_v9``)."""
    return " OR ".join(f"{column} = '{v.value}'" for v in values)


def json_field(nullable: bool = True) -> Any:
    from sqlmodel import Field  # only ``tables.py`` builds fields: the Core schema needs no SQLModel

    return Field(default=None, sa_column=Column(JSON(none_as_null=True), nullable=nullable))


def ts_field(nullable: bool = True, default_now: bool = False) -> Any:
    from sqlmodel import Field  # only ``tables.py`` builds fields: the Core schema needs no SQLModel

    if default_now:
        return Field(default_factory=utcnow, sa_column=Column(UtcDateTime(), nullable=False, default=utcnow))
    return Field(default=None, sa_column=Column(UtcDateTime(), nullable=nullable))


def fk_field(target: str, ondelete: str, nullable: bool = True) -> Any:
    """An integer foreign key to ``target``; a nullable one defaults to None, a required one has no default."""
    from sqlmodel import Field  # only ``tables.py`` builds fields: the Core schema needs no SQLModel

    column = Column(Integer, ForeignKey(target, ondelete=ondelete), nullable=nullable)
    return Field(default=None, sa_column=column) if nullable else Field(sa_column=column)


def int_field(default: int = 0) -> Any:
    from sqlmodel import Field  # only ``tables.py`` builds fields: the Core schema needs no SQLModel

    return Field(default=default, sa_column=Column(Integer, nullable=False, default=default))


def float_field(default: float = 0.0) -> Any:
    from sqlmodel import Field  # only ``tables.py`` builds fields: the Core schema needs no SQLModel

    return Field(default=default, sa_column=Column(Float, nullable=False, default=default))


def flag_field() -> Any:
    from sqlmodel import Field  # only ``tables.py`` builds fields: the Core schema needs no SQLModel

    column = Column(Boolean, nullable=False, default=False, server_default=false())
    return Field(default=False, sa_column=column)


def text_field(nullable: bool = True) -> Any:
    from sqlmodel import Field  # only ``tables.py`` builds fields: the Core schema needs no SQLModel

    return Field(default=None, sa_column=Column(Text, nullable=nullable))
