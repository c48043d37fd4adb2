"""Issue 29: a phase that changes nothing costs ONE write transaction besides the event batches a long
attempt flushes on its own (its last events are written with its outcome), and the attempt's clean-up looks
at this process's descendants only."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import wait_gone
from helpers.runs import workflow

from alphred.git import locate_repository
from alphred.operations.start import start_run
from alphred.operations.where import resolve_for_write
from alphred.operations.workspace import Workspace
from alphred.providers import default_registry
from alphred.runtime.options import RunOptions
from alphred.store import RunRecord, SqlRunStore
from alphred.views.progress import Progress
from alphred.workflow import load_workflow

EVENTS_TABLE = "run_node_stream_events"


def loop(visits: int) -> str:
    """A scripted review loop of ``visits`` executions (odd), no file changes (so stall detection is off)."""
    return f"""\
defaults: {{provider: scripted, max_visits: {visits + 5}}}
limits: {{max_steps: {visits + 5}, max_stalls: {visits + 5}}}
phases:
  review:
    prompt: Review.
    decisions: [approved, changes_requested]
    script: [{{decision: changes_requested, report: please fix}}]
    transitions:
      - {{to: fix, when: decision == "changes_requested", max: {visits // 2}}}
      - to: $end
  fix:
    prompt: "Fix: {{{{ phases.review.report }}}}"
    script: [{{report: fixed}}]
    transitions: [{{to: review}}]
"""


class WriteCounter:
    """Sorts the write transactions (``BEGIN IMMEDIATE``) of an engine: those that insert rows (run creation,
    the transitions), those that only append provider events (the periodic flush of an attempt running longer
    than its interval) and the rest (lease renewals of the heartbeat: timing, not work)."""

    def __init__(self) -> None:
        self.inserting = 0  # transactions that insert rows, event-only batches apart
        self.event_batches = 0
        self.steps_without_events = 0  # transitions recording a step whose attempt's events came apart
        self.reads = 0  # read transactions (``BEGIN``)
        self.statements = 0  # the statements of the transactions that insert rows (BEGIN and COMMIT apart)
        self._open = threading.local()

    def attach(self, engine: Any) -> None:
        from sqlalchemy import event

        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)

    def _statement(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.startswith("BEGIN IMMEDIATE"):
            self._open.statements = []
        elif statement.strip() == "BEGIN":
            self.reads += 1
        elif getattr(self._open, "statements", None) is not None:
            self._open.statements.append(statement.lstrip().upper())

    def _commit(self, conn: Any) -> None:
        statements = getattr(self._open, "statements", None)
        if statements is None:
            return  # a read transaction
        self._open.statements = None
        inserts = [s for s in statements if s.startswith("INSERT")]
        events = [s for s in inserts if EVENTS_TABLE.upper() in s]
        if events and len(events) == len(statements):
            self.event_batches += 1
        elif inserts:
            self.inserting += 1
            self.statements += len(statements)
            if any("RUN_NODE_DIAGNOSTICS" in s for s in inserts) and not events:
                self.steps_without_events += 1


@contextlib.contextmanager
def in_process_run(
    repo: Path, text: str, attach: Callable[[Any], None] | None = None
) -> Iterator[tuple[SqlRunStore, RunRecord]]:
    """One in-process run of workflow ``text`` in ``repo`` (``attach`` sees the store's engine first): its store,
    still open, and its final record."""
    registry = default_registry()
    loaded = load_workflow(workflow(repo, text), providers=registry)
    location, url = resolve_for_write(str(locate_repository(repo).root), None)
    with SqlRunStore(url) as store:
        if attach is not None:
            attach(store.engine)
        workspace = Workspace(
            store=store,
            location=location,
            registry_for=lambda _w, _d: registry,
            progress=lambda run_id: Progress(enabled=False, run_id=run_id),
        )
        yield store, start_run(workspace, loaded, RunOptions(), registry)


def run_counted(repo: Path, visits: int, text: str | None = None) -> tuple[int, int, int]:
    """(steps, write transactions other than event batches, read transactions) of one in-process run of
    ``loop(visits)`` (or of ``text``)."""
    steps, counter = run_counter(repo, visits, text)
    return steps, counter.inserting, counter.reads


def run_counter(repo: Path, visits: int, text: str | None = None) -> tuple[int, WriteCounter]:
    """The steps of one in-process run of ``loop(visits)`` (or of ``text``) and what it cost in SQL."""
    counter = WriteCounter()
    with in_process_run(repo, text or loop(visits), counter.attach) as (_store, record):
        pass
    assert record.status.value == "completed", (record.status, record.reason)
    assert counter.steps_without_events == 0  # each attempt's last events went with its outcome
    return record.steps, counter


def test_an_unchanged_phase_costs_one_write_transaction(repo: Path) -> None:
    short_steps, short_writes, short_reads = run_counted(repo, 5)
    long_steps, long_writes, long_reads = run_counted(repo, 15)
    assert long_steps - short_steps == 10
    # every extra phase: the transition that records it (with its events, artifacts and the next start)
    assert long_writes - short_writes == long_steps - short_steps
    # and no read transaction: the next attempt's preparation is read inside that transition's transaction,
    # the pause flag comes back from its first statement (the run's file areas, empty and known empty, are
    # not read again)
    assert long_reads == short_reads


def test_an_unchanged_phase_costs_ten_statements(repo: Path) -> None:
    short_steps, short = run_counter(repo, 5)
    long_steps, long = run_counter(repo, 15)
    # per phase, in its one transaction: the run row (lease, snapshot, flags back), the context manifest, the
    # events, the report, the phase's move to completed, its diagnostics row, its routing row, the next
    # phase's move to running with its lease (through pending: one statement), the next attempt's first
    # event sequence and its upstream report
    assert (long.statements - short.statements) / (long_steps - short_steps) == 7


def test_a_pause_asked_while_an_attempt_runs_stops_the_run_after_it(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The heartbeat does not look while the attempt runs: the outcome's transaction reads the flag, rolls
    back and the engine sees the pause before the outcome (the next phase does not start)."""
    from alphred.runtime import supervisor

    monkeypatch.setattr(supervisor, "HEARTBEAT_SECONDS", 3600.0)
    database = repo / ".alphred" / "alphred.db"
    asks = f"import sqlite3; sqlite3.connect({str(database)!r}).execute('update workflow_runs set pause_requested = 1').connection.commit()"
    text = f"""\
phases:
  ask:
    type: command
    run: {json.dumps(f"{sys.executable} -c {json.dumps(asks)}")}
    transitions: [{{to: after}}]
  after:
    type: command
    run: "true"
    transitions: [{{to: $end}}]
"""
    with in_process_run(repo, text) as (store, record):
        assert (record.status.value, record.reason, record.pause_requested) == ("paused", "paused", False)
        nodes = {node.node_key: (node.status.value, node.attempt) for node in record.nodes}
        assert nodes == {"ask": ("completed", 1), "after": ("pending", 0)}
        steps = store.list_steps(record.id)
        assert [(step.phase, str(step.outcome)) for step in steps] == [("ask", "completed")]  # recorded once
        assert [a.kind for a in store.artifacts(record.id) if a.attempt == 1] == ["report"]  # written once


COMMANDS = """\
defaults: {max_visits: 20}
limits: {max_steps: 20, max_stalls: 20}
phases:
  check:
    type: command
    run: "true"
    transitions: [{to: tidy, max: 2}, {to: $end}]
  tidy:
    type: command
    run: "true"
    transitions: [{to: check}]
"""


@pytest.fixture
def looks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The attempt markers the clean-up looked for leftover processes of, in order."""
    from alphred.runtime import room

    seen: list[str] = []
    real = room.kill_attempt_processes

    def counted(marker: str) -> int:
        seen.append(marker)
        return real(marker)

    monkeypatch.setattr(room, "kill_attempt_processes", counted)
    return seen


def test_a_command_attempt_looks_for_its_leftover_processes_once(
    repo: Path, looks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from alphred.runtime import room

    monkeypatch.setattr(room, "nothing_below", lambda: False)  # as when something may be left: look
    steps, _, _ = run_counted(repo, 0, COMMANDS)
    assert steps == 5
    assert len(looks) == steps  # at the stream's end; ``close`` does not look again (no ``run`` check follows)
    assert len(set(looks)) == steps


LEAVES_AN_ORPHAN = """\
phases:
  quick:
    type: command
    run: "true"
    transitions: [{to: leave}]
  leave:
    type: command
    run: setsid sleep 300 > /dev/null 2>&1 < /dev/null & echo $! > PID_FILE
"""


_NOTHING_BELOW = """
import json, sys
from pathlib import Path
sys.path[:0] = sys.argv[3:]
from alphred.runtime import orphans, room
import test_phase_transactions as t
looks = []
real = room.kill_attempt_processes
room.kill_attempt_processes = lambda marker: looks.append(marker) or real(marker)
assert orphans.become_subreaper() and orphans.nothing_below()  # a fresh interpreter: no child yet
steps, _, _ = t.run_counted(Path(sys.argv[1]), 0, t.LEAVES_AN_ORPHAN.replace("PID_FILE", sys.argv[2]))
print(json.dumps([steps, looks]))
"""


def test_the_clean_up_looks_for_leftovers_only_when_a_process_is_left_below_the_runner(
    repo: Path, tmp_path: Path
) -> None:
    # A child subreaper with no child at all has nothing below it: a quick command's attempt ends without a
    # thread hop or a look at /proc. An attempt whose ``setsid`` orphan was adopted looks, and kills it. In a
    # fresh interpreter: a test process may hold children of other tests.
    pid_file = tmp_path / "orphan.pid"
    here = Path(__file__).resolve().parent
    argv = [sys.executable, "-c", _NOTHING_BELOW, str(repo), str(pid_file), str(here.parent), str(here)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    steps, looks = json.loads(done.stdout.strip().splitlines()[-1])
    assert steps == 2
    assert [look.split("/")[-2:] for look in looks] == [["leave", "1"]]
    orphan = int(pid_file.read_text())
    assert wait_gone(orphan)


@pytest.mark.skipif(not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").is_file(), reason="Linux /proc")
def test_the_attempt_clean_up_sees_descendants_only_and_orphans_below_a_subreaper() -> None:
    code = """
import os, subprocess, sys, time
from alphred.runtime import orphans
assert orphans.become_subreaper()
mark = {**os.environ, "ALPHRED_ATTEMPT": "probe"}
shell = subprocess.Popen(["sh", "-c", "setsid sleep 300 & echo $!"], env=mark, stdout=subprocess.PIPE, text=True)
orphan = int(shell.stdout.readline())
shell.wait()  # the setsid child is orphaned: adopted by this process, the subreaper
assert orphan in orphans.descendants(), (orphan, orphans.descendants())
assert os.getppid() not in orphans.descendants()
assert orphans.kill_attempt_processes("probe") == 1
assert not orphans.marked_processes("probe", "ALPHRED_ATTEMPT")
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
