"""A foreground run that waits for CI (SPEC §16): sleep until the run's next look, then resume it; again until
it no longer waits. Nothing is held while sleeping (the run is ``paused``, its lease free): Ctrl+C stops the
following and leaves the run waiting, and a worker that finds it due takes it over meanwhile (then this
process stops following, the worker has it)."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

from alphred.engine import WAITING_FOR_CI
from alphred.errors import RunBusyError
from alphred.operations.continuing import continue_run
from alphred.operations.workspace import Workspace
from alphred.runtime.crash import crash_point
from alphred.store import RunRecord, RunStatus


def waiting_for_ci(record: RunRecord) -> bool:
    """The run is paused until its next look at the pull request's checks."""
    return record.status is RunStatus.PAUSED and record.reason == WAITING_FOR_CI


def follow_ci(
    workspace: Workspace,
    record: RunRecord,
    *,
    sleep: Callable[[float], None] = time.sleep,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> RunRecord:
    """Resume ``record`` at each next look while it waits for CI; its last record (still waiting after Ctrl+C)."""
    store = workspace.store
    while waiting_for_ci(record):
        due = record.wake_at
        if due is not None and due.tzinfo is None:
            due = due.replace(tzinfo=UTC)
        crash_point("waiting_for_ci")  # the run is stored waiting and holds nothing: a kill here loses nothing
        try:
            if due is not None:
                pause = (due - now()).total_seconds()
                if pause > 0:
                    say = f"run {record.id} waits for CI, holding nothing; next look in {pause:.0f}s"
                    say += " (Ctrl+C leaves it waiting)"
                    workspace.progress(record.id).note(say)
                    sleep(pause)
            record = continue_run(workspace, record.id, "resume")
        except KeyboardInterrupt:
            say = f"run {record.id} keeps waiting for CI: `alphred resume {record.id}` or a worker looks again"
            workspace.progress(record.id).note(say)
            return store.get_run(record.id)
        except RunBusyError:  # a worker took it at its next look: it is the worker's now
            workspace.progress(record.id).note(f"run {record.id} was taken up by another process")
            return store.get_run(record.id)
    return record
