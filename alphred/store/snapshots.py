"""What resume needs back from SQL: the engine's state snapshot and the workflow source of a run's tree."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from alphred.errors import UnknownRunError
from alphred.store.runs import RUNS, TREES


@dataclass(frozen=True)
class RunSnapshot:
    """The stored engine state of a run (``engine``), the runtime options it ran with, and its workflow."""

    run_id: int
    engine: dict[str, Any] | None
    runtime: dict[str, Any]
    source_path: str | None
    source_text: str | None
    source_files: dict[str, str] = field(default_factory=dict)


def read_snapshot(store: Any, run_id: int) -> RunSnapshot:
    """Read a run's snapshot (``store`` is a SqlRunStore); UnknownRunError when there is no such run."""
    query = (
        select(RUNS.c.engine_state, TREES.c.source_path, TREES.c.definition)
        .join(TREES, TREES.c.id == RUNS.c.tree_id)
        .where(RUNS.c.id == run_id)
    )
    with store.reading() as tx:
        row = tx.connection.execute(query).first()
    if row is None:
        raise UnknownRunError(run_id)
    state = row.engine_state or {}
    source = (row.definition or {}).get("source") or {}
    return RunSnapshot(
        run_id=run_id,
        engine=state.get("engine"),
        runtime=dict(state.get("runtime") or {}),
        source_path=row.source_path,
        source_text=source.get("text"),
        source_files=dict(source.get("files") or {}),
    )


def read_requests(store: Any, run_id: int) -> tuple[bool, bool]:
    """The run's ``(pause_requested, cancel_requested)`` flags, in one small read."""
    with store.reading() as tx:
        return requests_in(tx, run_id)


def requests_in(tx: Any, run_id: int) -> tuple[bool, bool]:
    """The run's ``(pause_requested, cancel_requested)`` flags, read inside the transaction ``tx``."""
    query = select(RUNS.c.pause_requested, RUNS.c.cancel_requested).where(RUNS.c.id == run_id)
    row = tx.connection.execute(query).first()
    return (False, False) if row is None else (bool(row[0]), bool(row[1]))
