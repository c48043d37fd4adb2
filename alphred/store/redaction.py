"""The store's one redaction boundary: every string written by an INSERT or UPDATE passes the process's
redactor, whatever path produced it (events, reports, inputs, engine state, comments, workflow text)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, event

from alphred.redact import process_redactor

_WRITES = ("INSERT", "UPDATE")


def install_redaction(engine: Engine) -> None:
    """Redact the parameters of every write ``engine`` executes (idempotent)."""
    if not event.contains(engine, "before_cursor_execute", _redact_parameters):
        event.listen(engine, "before_cursor_execute", _redact_parameters, retval=True)


def _redact_parameters(
    conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool
) -> tuple[str, Any]:
    if statement.lstrip()[:6].upper() not in _WRITES or not parameters:
        return statement, parameters
    redact = process_redactor().redact
    if executemany:
        return statement, [_row(row, redact) for row in parameters]
    return statement, _row(parameters, redact)


def _row(row: Any, redact: Any) -> Any:
    if isinstance(row, dict):
        return {key: redact(value) if isinstance(value, str) else value for key, value in row.items()}
    if isinstance(row, list | tuple):
        return type(row)(redact(value) if isinstance(value, str) else value for value in row)
    return row
