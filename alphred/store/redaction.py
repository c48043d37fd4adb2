"""The store's one redaction boundary: every string written by an INSERT or UPDATE passes the process's
redactor, whatever path produced it (events, reports, inputs, engine state, comments, workflow text)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, event

from alphred.redact import Redactor, process_redactor

_WRITES = ("INSERT", "UPDATE")
_KINDS: dict[str, bool] = {}
"""Whether a statement's SQL text writes, by the text (the store's prebuilt statements are the same ``str`` objects
each time: a lookup of its cached hash instead of stripping and upper-casing it per statement, issue 29)."""
_MAX_KINDS = 1024  # statements past it are looked at each time (SQL built per call must not grow it unbounded)


def install_redaction(engine: Engine) -> None:
    """Redact the parameters of every write ``engine`` executes (idempotent)."""
    if not event.contains(engine, "before_cursor_execute", _redact_parameters):
        event.listen(engine, "before_cursor_execute", _redact_parameters, retval=True)


def _redact_parameters(
    conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool
) -> tuple[str, Any]:
    if not parameters:
        return statement, parameters
    writes = _KINDS.get(statement)
    if writes is None:
        writes = statement.lstrip()[:6].upper() in _WRITES
        if len(_KINDS) < _MAX_KINDS:
            _KINDS[statement] = writes
    if not writes:
        return statement, parameters
    redactor = process_redactor()
    # executemany may still come with one row: "insertmanyvalues" batches rows into one statement
    kind = type(parameters)
    if kind is list and not executemany:  # a prepared statement's values (``prepared.Writes``): the usual case
        many = False
        texts = _texts(parameters)
    else:
        rows = executemany and isinstance(parameters, list | tuple)
        many = rows and isinstance(parameters[0], tuple | list | Mapping)  # the ABC's check last: rows are tuples
        texts = _texts_of_rows(parameters if many else (parameters,))
    if texts is not None and redactor.leaves_alone(texts):
        return statement, parameters  # nothing to mask (most writes): the parameters as they came
    if many:
        return statement, [_row(row, redactor) for row in parameters]
    return statement, _row(parameters, redactor)


def _texts(values: Any) -> list[str] | None:
    """The strings among ``values`` (one row's), for one pass of the redactor over all of them
    (``Redactor.leaves_alone``) instead of one pass per string (~45 per phase); None when a value of another type
    than ``_PLAIN``'s (psycopg's JSON) sends the row the per-string way."""
    texts: list[str] = []
    for value in values:
        kind = type(value)
        if kind is str:
            texts.append(value)
        elif kind not in _PLAIN:
            return None
    return texts


def _texts_of_rows(rows: Any) -> list[str] | None:
    """``_texts`` of several rows (mappings, lists or tuples) together."""
    texts: list[str] = []
    for row in rows:
        kind = type(row)
        if kind is tuple or kind is list:  # the driver's rows (``executemany``): no ABC's check
            found = _texts(row)
        else:
            found = _texts(row.values() if isinstance(row, Mapping) else row if isinstance(row, list | tuple) else ())
        if found is None:
            return None
        texts += found
    return texts


def redacted(text: str) -> str:
    """``text`` as the store writes it (what a row read back holds)."""
    return process_redactor().redact(text)


_PLAIN = frozenset({int, float, bool, type(None), bytes, datetime})
"""Parameter types that hold no text to redact: passed on without a look (most of a row's values)."""


def _row(row: Any, redactor: Redactor) -> Any:
    if isinstance(row, Mapping):
        return {key: value if type(value) in _PLAIN else _value(value, redactor) for key, value in row.items()}
    if isinstance(row, list | tuple):
        return type(row)(value if type(value) in _PLAIN else _value(value, redactor) for value in row)
    return row


def _value(value: Any, redactor: Redactor) -> Any:
    if isinstance(value, str):
        return redactor.redact(value)
    if type(value).__name__ in ("Json", "Jsonb") and hasattr(value, "obj"):  # psycopg's JSON parameters
        return type(value)(redactor.redact_data(value.obj), getattr(value, "dumps", None))
    return value
