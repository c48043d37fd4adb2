"""Records from rows by name: a record field that is a column has the column's name, so it is read by it.

This is what keeps ``records.py`` from being a third copy of the tables: the store lists no field twice, it
fills each record from the fields the record declares (``tests/integration/test_store_records.py`` checks
that those are the table's columns).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")


def column_fields(record: type[Any], *, without: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The field names of the dataclass ``record`` read from a row (all but ``without``)."""
    return tuple(f.name for f in fields(record) if f.name not in without)


def from_row(
    record: Callable[..., T],
    names: tuple[str, ...],
    row: Mapping[Any, Any],
    convert: Mapping[str, Callable[[Any], Any]] | None = None,
    **values: Any,
) -> T:
    """``record`` with each of ``names`` read from ``row`` (through ``convert[name]`` when given) and ``values``."""
    read = {name: row[name] for name in names}
    for name, to in (convert or {}).items():
        read[name] = to(read[name])
    return record(**read, **values)
