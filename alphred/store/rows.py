"""Records from rows by name: a record field that is a column has the column's name, so a row fills it.

This is what keeps ``records.py`` from being a third copy of the tables: no query spells a record's fields
out again, a ``RowReader`` reads them from the row by name (``tests/integration/test_store_api.py`` checks
that each record's fields are its table's columns). Reading is as fast as spelling the fields out: the
values are picked by one ``itemgetter`` and the record is built positionally.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from alphred.lazy import materialised

if TYPE_CHECKING:
    from sqlalchemy import Row

T = TypeVar("T")


def column_fields(record: type[Any], *, without: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The field names of the dataclass ``record`` (all but ``without``), in declaration order (a
    ``deferred_dataclass`` is made here: a reader of it is about to make its instances)."""
    return tuple(f.name for f in fields(materialised(record)) if f.name not in without)


class RowReader(Generic[T]):
    """Builds ``record`` (a dataclass) from rows: each field from the row's column of the same name.

    ``rename`` maps a field to a column of another name, ``convert`` a field to a function applied to its
    value, and the fields in ``given`` are not read from the row but passed to the call by keyword.
    """

    def __init__(
        self,
        record: type[T],
        *,
        rename: Mapping[str, str] | None = None,
        convert: Mapping[str, Callable[[Any], Any]] | None = None,
        given: tuple[str, ...] = (),
    ) -> None:
        names = column_fields(record)
        read = [rename.get(name, name) if rename else name for name in names if name not in given]
        self._record = record
        self._get = itemgetter(*read)
        self._given = [(position, name) for position, name in enumerate(names) if name in given]
        converters = convert or {}
        self._convert = [(position, converters[name]) for position, name in enumerate(names) if name in converters]

    def __call__(self, row: Row[Any], **given: Any) -> T:
        """The record of ``row`` (with the ``given`` fields)."""
        values = list(self._get(row._mapping))
        for position, name in self._given:
            values.insert(position, given[name])
        for position, to in self._convert:
            values[position] = to(values[position])
        return self._record(*values)
