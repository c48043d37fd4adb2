"""Process groups of attempts (``run_processes``): recorded when started, read and cleared on take-over."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from alphred.store import schema
from alphred.store.columns import utcnow
from alphred.store.prepared import Writes

if TYPE_CHECKING:
    from sqlalchemy import Insert

    from alphred.store.read_records import ProcessRecord


@functools.cache
def _add() -> Insert:
    """Built once, on first use (the table too: a run's start writes none, issue 29): a command phase writes one
    row per process group (its values as parameters)."""
    return insert(schema.RUN_PROCESSES)


class ProcessOps:
    """Reads and writes of ``run_processes`` on the transaction's connection."""

    _conn: Connection
    _writes: Writes

    def add_process(self, run_id: int, node_key: str, attempt: int, host: str, pgid: int, started: str | None) -> None:
        """Record that ``attempt`` of phase ``node_key`` started process group ``pgid`` on ``host``."""
        values = {
            "run_id": run_id, "node_key": node_key, "attempt": attempt, "host": host, "pgid": pgid,
            "started": started, "created_at": utcnow(),
        }  # fmt: skip
        self._writes.insert_many(_add(), (values,))  # prepared once, on the driver's cursor (``prepared.Writes``)

    def processes(self, run_id: int) -> list[ProcessRecord]:
        """The process groups recorded for the run, oldest first."""
        from alphred.store.read_records import ProcessRecord

        processes = schema.RUN_PROCESSES
        query = select(processes).where(processes.c.run_id == run_id).order_by(processes.c.id)
        return [
            ProcessRecord(row.node_key, row.attempt, row.host, row.pgid, row.started)
            for row in self._conn.execute(query)
        ]

    def clear_processes(self, run_id: int, host: str) -> int:
        """Forget the run's process groups on ``host`` (they were killed); return how many."""
        processes = schema.RUN_PROCESSES
        statement = delete(processes).where(processes.c.run_id == run_id, processes.c.host == host)
        return int(self._conn.execute(statement).rowcount)
