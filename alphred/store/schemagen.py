"""Write ``schema.py``: the SQLModel tables of ``tables.py`` as plain SQLAlchemy Core ``Table`` objects.

``tables.py`` (SQLModel) stays the one definition of the schema. Importing SQLModel costs pydantic and
the SQLAlchemy ORM (~0.2 s, plus ~0.1 s creating the classes), which the read and run paths of the store
do not need: they use the Core tables of the generated ``schema.py``. A test checks that ``schema.py`` is
what this module writes from ``tables.py`` and that both give the same DDL on SQLite and PostgreSQL.
Run ``python -m alphred.store.schemagen`` after changing ``tables.py``.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import JSON, BigInteger, Boolean, Column, Float, Integer, LargeBinary, String, Table, Text
from sqlalchemy.schema import CheckConstraint, ForeignKeyConstraint, UniqueConstraint

from alphred.store.columns import UtcDateTime, utcnow

TARGET = Path(__file__).with_name("schema.py")

_HEADER = '''"""The tables of ``tables.py`` as SQLAlchemy Core ``Table`` objects, without SQLModel (generated).

Written by ``python -m alphred.store.schemagen`` from the SQLModel classes of ``tables.py``, the one
definition of the schema: do not edit by hand. The store's read and run paths import these (no pydantic,
no ORM); a test checks that they match ``tables.py`` exactly.

Each table is built when first asked for (``schema.RUN_NODES``, ``from alphred.store.schema import
RUN_NODES``), with the tables its foreign keys name: building the 21 tables costs ~53 M instructions
(issue 29), and a run's start uses fewer than half of them. ``METADATA`` and the groups build every table
they hold.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

from alphred.store.columns import UtcDateTime, utcnow

_METADATA = MetaData()
_BUILDING = threading.RLock()  # one thread builds a table; a second ``Table(name, ...)`` would be an error


def __getattr__(name: str) -> Any:
    """A table, a group of tables or ``METADATA`` (every table), built when first asked for and kept."""
    with _BUILDING:
        if name in _TABLES:
            return _table(name)
        if name in _GROUPS:
            value: Any = tuple(_table(each) for each in _GROUPS[name])
        elif name == "METADATA":
            for each in _TABLES:
                _table(each)
            value = _METADATA
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        globals()[name] = value
        return value


def _table(name: str) -> Table:
    """The table ``name``, built (then the tables it refers to: SQLAlchemy links a foreign key whichever of
    its two tables comes first) unless it was already."""
    found: Table | None = globals().get(name)
    if found is None:
        found = globals()[name] = _TABLES[name]()
        for other in _REFERS.get(name, ()):
            _table(other)
    return found
'''


def _type(column: Column[object]) -> str:
    kind = column.type
    if isinstance(kind, UtcDateTime):
        return "UtcDateTime()"
    if isinstance(kind, JSON):
        return "JSON(none_as_null=True)" if kind.none_as_null else "JSON()"
    if isinstance(kind, String) and not isinstance(kind, Text):
        return f"String({kind.length})"
    for simple in (Text, Integer, BigInteger, Boolean, Float, LargeBinary):
        if type(kind) is simple:
            return simple.__name__
    raise TypeError(f"schemagen: column type {kind!r} of {column} is not handled")


def _column(column: Column[object]) -> str:
    parts = [repr(column.name), _type(column)]
    for fk in column.foreign_keys:
        if len(fk.constraint.elements) == 1 if fk.constraint is not None else True:
            ondelete = f", ondelete={fk.ondelete!r}" if fk.ondelete else ""
            parts.append(f"ForeignKey({fk.target_fullname!r}{ondelete})")
    if column.primary_key:
        parts.append("primary_key=True")
    if column.autoincrement != "auto":
        parts.append(f"autoincrement={column.autoincrement!r}")
    if not column.nullable and not column.primary_key:
        parts.append("nullable=False")
    if column.unique:
        parts.append("unique=True")
    default = column.default
    if default is not None:
        arg = getattr(default, "arg", None)
        if getattr(default, "is_callable", False):
            if getattr(arg, "__wrapped__", arg) is not utcnow and "utcnow" not in repr(arg):
                raise TypeError(f"schemagen: callable default of {column} is not utcnow")
            parts.append("default=utcnow")
        else:
            parts.append(f"default={arg!r}")
    if column.server_default is not None:
        if str(getattr(column.server_default, "arg", "")) != "false":
            raise TypeError(f"schemagen: server default of {column} is not false()")
        parts.append("server_default=false()")
    return f"    Column({', '.join(parts)}),"


def _table(table: Table) -> list[str]:
    lines = [f"def _build_{table.name}() -> Table:", "    return Table(", f"    {table.name!r},", "    _METADATA,"]
    lines += [_column(column) for column in table.columns]
    for constraint in sorted(table.constraints, key=lambda c: c._creation_order):  # as in ``tables.py``
        if isinstance(constraint, UniqueConstraint) and not getattr(constraint, "_column_flag", False):
            names = ", ".join(repr(c.name) for c in constraint.columns)
            lines.append(f"    UniqueConstraint({names}, name={constraint.name!r}),")
        elif isinstance(constraint, CheckConstraint):
            lines.append(f"    CheckConstraint({str(constraint.sqltext)!r}, name={constraint.name!r}),")
        elif isinstance(constraint, ForeignKeyConstraint) and len(constraint.elements) > 1:
            local = [e.parent.name for e in constraint.elements]
            remote = [e.target_fullname for e in constraint.elements]
            ondelete = f", ondelete={constraint.ondelete!r}" if constraint.ondelete else ""
            lines.append(f"    ForeignKeyConstraint({local!r}, {remote!r}{ondelete}),")
    for index in sorted(table.indexes, key=lambda i: str(i.name)):
        names = ", ".join(repr(c.name) for c in index.columns)
        unique = ", unique=True" if index.unique else ""
        lines.append(f"    Index({index.name!r}, {names}{unique}),")
    for key, value in sorted(table.dialect_kwargs.items()):
        lines.append(f"    {key}={value!r},")
    lines.append(")")
    return [lines[0], lines[1], *(f"    {line}" for line in lines[2:])]


def render_schema() -> str:
    """The text of ``schema.py`` for the tables of ``tables.py``."""
    from sqlmodel import SQLModel

    from alphred.store.tables import FILE_MODELS, QUEUE_COLUMNS, RUN_MODELS, TOPOLOGY_MODELS, table

    every = list(SQLModel.metadata.tables.values())
    body = [_HEADER]
    for each in every:
        body.append("\n".join(_table(each)) + "\n")
    names = [each.name.upper() for each in every]
    body.append("_TABLES: dict[str, Callable[[], Table]] = {")
    body += [f"    {each.name.upper()!r}: _build_{each.name}," for each in every]
    body.append("}")
    refers = {each.name.upper(): _referred(each) for each in every}
    body.append("_REFERS = {")
    body += [f"    {name!r}: {others!r}," for name, others in refers.items() if others]
    body.append("}")
    groups = (("TOPOLOGY_TABLES", TOPOLOGY_MODELS), ("RUN_TABLES", RUN_MODELS), ("FILE_TABLES", FILE_MODELS))
    body.append("_GROUPS = {")
    for name, models in groups:
        listed = "".join(f"{table(model).name.upper()!r}, " for model in models)
        body.append(f"    {name!r}: ({listed}),")
    body.append("}")
    body.append(f"QUEUE_COLUMNS = {QUEUE_COLUMNS!r}\n")
    body.append("if TYPE_CHECKING:")
    body.append("    METADATA: MetaData")
    body += [f"    {name}: Table" for name in names]
    body += [f"    {name}: tuple[Table, ...]" for name, _ in groups]
    return "\n".join(body) + "\n"


def _referred(table: Table) -> tuple[str, ...]:
    """The other tables ``table``'s foreign keys name (their constant names), sorted."""
    return tuple(sorted({fk.column.table.name.upper() for fk in table.foreign_keys} - {table.name.upper()}))


def main() -> None:
    """Rewrite ``schema.py`` next to this module."""
    TARGET.write_text(render_schema(), encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
