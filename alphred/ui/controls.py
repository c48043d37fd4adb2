"""Approve, Reject, Pause, Cancel and Resume from the web view (blocking: call from a worker thread).

Pause and cancel record their request exactly as ``alphred pause``/``cancel`` do. Approve, reject and
resume are checked against the run's state here, then continue the run the way the CLI commands do, in a
detached ``python -I -m alphred ACTION RUN --repo REPO`` process started in ``/`` (its own session; its
progress and closing block go to a log file under ``.alphred/ui-logs/``); with ``--no-exec`` they only
record the request for the workers (a ``request`` artifact on the phase the run stands at) and start
nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alphred.engine import AWAITING_APPROVAL, Action
from alphred.engine import allowed_actions as engine_allowed_actions
from alphred.errors import RunBusyError, RunStateError, UnknownRunError, UsageError
from alphred.store import RunRecord, SqlRunStore
from alphred.store.owners import lease_free

ACTIONS = ("approve", "reject", "pause", "cancel", "resume")  # the web view does not retry
MAX_COMMENT = 20_000
SETTLE_SECONDS = 15.0
NEUTRAL_DIRECTORY = os.path.abspath(os.sep)  # where a started process runs: no repository, nothing to import


@dataclass(frozen=True)
class ActionOutcome:
    """What an action did: a message for people, and the log file of a process it started (if any)."""

    message: str
    log: Path | None = None


def allowed_actions(record: RunRecord, waiting_child: RunRecord | None = None) -> list[str]:
    """The actions the run's state allows now (the page shows these buttons): ``engine.allowed_actions``,
    with whether a live process holds the run's lease read from its row.

    SPEC §13, as the CLI: a sub-workflow's run is never continued on its own (its parent's ``approve``,
    ``reject`` and ``resume`` do it); a parent whose sub-workflow run ``waiting_child`` waits at an approval
    (``views.status.child_awaiting_approval``) offers ``approve`` and ``reject``, which answer the child."""
    holder_alive = not lease_free(record.lease_owner, record.lease_expires_at)
    found = engine_allowed_actions(record.status, record.reason, holder_alive=holder_alive, retryable=False)
    allowed: list[str] = [str(action.value) for action in found if action.value in ACTIONS]
    if record.parent_run_id is not None:
        return [action for action in allowed if action not in _CONTINUING]
    if waiting_child is not None:
        return ["approve", "reject", *(action for action in allowed if action not in _CONTINUING)]
    return allowed


_CONTINUING = ("approve", "reject", "resume")


def check_continue(record: RunRecord, action: str, waiting_child: RunRecord | None = None) -> None:
    """RunStateError/RunBusyError unless ``approve``/``reject``/``resume`` may continue the run now
    (``waiting_child``: the sub-workflow run whose approval the run's ``approve``/``reject`` answers)."""
    if action in allowed_actions(record, waiting_child):
        return
    status, reason = record.status.value, record.reason
    if record.parent_run_id is not None:
        parent = record.parent_run_id
        raise RunStateError(record.id, status, action, reason, f"it is a sub-workflow of run {parent}: continue that")
    if waiting_child is not None:
        hint = f"sub-workflow run {waiting_child.id} waits for approval: approve or reject"
        raise RunStateError(record.id, status, action, reason, hint)
    if action in (Action.APPROVE, Action.REJECT):
        raise RunStateError(record.id, f"{status} ({reason})", f"{action}: it waits for no approval")
    if status == "paused" and reason == AWAITING_APPROVAL:
        raise RunStateError(record.id, f"{status} ({reason})", "resume: approve or reject")
    if status in ("completed", "failed", "cancelled"):
        raise RunStateError(record.id, status, "resume")
    raise RunBusyError(record.id, record.lease_owner)


def perform(
    store: SqlRunStore,
    run_id: int,
    action: str,
    comment: str | None,
    *,
    db_url: str,
    repo: str | None,
    no_exec: bool,
) -> ActionOutcome:
    """Do ``action`` on the run (see the module's docstring); raise the CLI's errors when it may not."""
    if action not in ACTIONS:
        raise UsageError(f"unknown action '{action}' (one of {', '.join(ACTIONS)})")
    if comment is not None and len(comment) > MAX_COMMENT:
        raise UsageError(f"comment too long ({len(comment)} characters; at most {MAX_COMMENT})")
    record = store.find_run(run_id)
    if record is None:
        raise UnknownRunError(run_id)
    if action == "pause":
        from alphred.operations.requests import request_pause

        return ActionOutcome(request_pause(store, run_id))
    if action == "cancel":
        from alphred.operations.requests import request_cancel

        return ActionOutcome(request_cancel(_workspace(store, record, repo), run_id))
    from alphred.views.status import child_awaiting_approval  # what `alphred approve|reject RUN` answers too

    check_continue(record, action, child_awaiting_approval(store, record))
    if no_exec:
        return ActionOutcome(record_request(store, record, action, comment))
    log, process = _spawn(record, action, comment, db_url, repo)
    _settle(store, record, process)
    code = process.poll()
    if code not in (None, 0):
        tail = log.read_text(errors="replace").strip().splitlines()[-1:] if log.is_file() else []
        return ActionOutcome(f"run {run_id}: {action} exited with {code}: {' '.join(tail)} (log: {log})", log)
    return ActionOutcome(f"run {run_id}: {action} started in a new process (log: {log})", log)


def record_request(store: SqlRunStore, record: RunRecord, action: str, comment: str | None) -> str:
    """Store the request as a ``request`` artifact of the phase the run stands at (nothing is started)."""
    node = _current_node(record)
    data = {"action": action, "comment": comment, "source": "ui", "requested_at": datetime.now(UTC).isoformat()}
    store.add_artifact(record.id, node.node_key, node.attempt, "request", text=comment or action, data=data)
    from alphred.operations.submit import request_detached

    request_detached(store, record.id, action, comment)  # what `alphred worker` acts on (as --detach)
    return f"run {record.id}: {action} recorded for the workers (nothing started: --no-exec)"


def _current_node(record: RunRecord) -> Any:
    running = [n for n in record.nodes if n.status.value == "running"]
    if running:
        return running[0]
    return max(record.nodes, key=lambda n: (n.updated_at, n.sequence_index))


def _workspace(store: SqlRunStore, record: RunRecord, repo: str | None) -> Any:
    from alphred.git import locate_repository
    from alphred.operations.workspace import Workspace
    from alphred.providers import ProviderRegistry
    from alphred.views.progress import Progress

    where = record.repo_path or repo
    location = locate_repository(Path(where) if where else None)
    return Workspace(
        store=store,
        location=location,
        registry_for=lambda _workflow, _dry: ProviderRegistry({}),
        progress=lambda run_id: Progress(enabled=False, run_id=run_id),
    )


def log_directory(record: RunRecord, repo: str | None) -> Path:
    """``.alphred/ui-logs`` of the run's repository (else the server's; a temporary directory when none)."""
    where = record.repo_path or repo
    if where:
        from alphred.errors import AlphredError
        from alphred.git import locate_repository

        try:
            return locate_repository(Path(where)).alphred_dir / "ui-logs"
        except (AlphredError, OSError):  # the repository moved away: keep the log somewhere anyway
            pass
    return Path(tempfile.gettempdir()) / "alphred-ui-logs"


def _spawn(
    record: RunRecord, action: str, comment: str | None, db_url: str, repo: str | None
) -> tuple[Path, subprocess.Popen[bytes]]:
    """Start ``python -I -m alphred ACTION RUN`` detached (new session, in ``/``); its output goes to a log file."""
    directory = log_directory(record, repo)
    directory.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    log = directory / f"run-{record.id}-{action}-{stamp}.log"
    # -I (isolated): neither the working directory nor PYTHON* variables reach sys.path, and the process
    # starts in a neutral directory: a repository's own `alphred/` package can never stand in for Alphred
    argv = [sys.executable, "-I", "-m", "alphred", action, str(record.id)]
    where = record.repo_path or repo
    if where:
        argv.append(f"--repo={where}")
    if comment is not None and action in ("approve", "reject"):
        argv.append(f"--comment={comment}")  # one argv item: never parsed by a shell, never taken for an option
    from alphred.store import absolute_database_url

    # not on the command line (`ps` would show a password); absolute, as the process starts in another directory
    environ = dict(os.environ, ALPHRED_DATABASE_URL=absolute_database_url(db_url))
    with open(log, "ab") as out:
        process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=environ,
            cwd=NEUTRAL_DIRECTORY, start_new_session=True, close_fds=True,
        )  # fmt: skip
    threading.Thread(target=process.wait, name=f"alphred-ui-reap-{process.pid}", daemon=True).start()
    return log, process


def _settle(
    store: SqlRunStore, before: RunRecord, process: subprocess.Popen[bytes], timeout: float = SETTLE_SECONDS
) -> None:
    """Wait (bounded) until the started process has taken the run or ended, so the answer shows its effect."""
    deadline = time.monotonic() + timeout
    taken_over = before.status.value in ("pending", "running")  # its status may not change for a while
    while time.monotonic() < deadline and process.poll() is None:
        now = store.find_run(before.id)
        if now is None or (now.status, now.reason, now.steps) != (before.status, before.reason, before.steps):
            return
        if taken_over and now.lease_owner not in (None, before.lease_owner):
            return
        time.sleep(0.05)
