"""The SQL floor of a phase: one write transaction of ten prebuilt SQLAlchemy Core statements on a WAL SQLite file
(``synchronous=NORMAL``, as Alphred opens it), beside the same transaction through ``sqlite3`` directly.

An unchanged phase costs Alphred one write transaction of seven statements (issue 29: ten before branch
``store-cuts``; docs/architecture.md, "Statements per phase", says why each stays). This prints what ten
prebuilt statements in one transaction cost on their own, so the per-phase figure of ``phase_overhead.py
--cli`` can be split into the storage's share (the design card's SQLAlchemy over SQLite) and the rest.

``--alphred`` puts Alphred's real per-phase transaction beside it: a scripted review loop runs in process (in a
scratch git repository, fresh interpreter) and every ``Persister.persist`` call — the transition's one write
transaction with the next attempt's preparation read inside it, all of it in the worker thread — is timed
(wall and the thread's CPU; the median over the loop's steady transitions). ``--callgrind`` counts the same
calls' instructions under valgrind (each call runs inside ``functools.reduce``, whose inclusive cost
callgrind reports; the floor's transactions likewise), a figure the machine's load does not move.

    python benchmarks/sql_floor.py [--transactions 1000] [--rounds 5] [--quick]
    python benchmarks/sql_floor.py --alphred [--visits 201] [--callgrind] [--source OTHER_CHECKOUT]
    python benchmarks/sql_floor.py --group [--source OTHER_CHECKOUT]

``--group`` counts the instructions of a command phase's other write, the process group's record
(``store.add_process``, its own write transaction, in the run's recording thread): 220 calls on a run of a real
SQLite store, the first 20 left out (statements compiled, caches filled), under callgrind.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa

STATE = "x" * 200
CALLGRIND_VISITS = 61  # --alphred --callgrind: the loop's visits under valgrind
WARM_UP = 10  # --alphred: the first transitions of the loop, left out of the figures
EVENT = "y" * 100


def sqlalchemy_transaction(path: Path) -> Callable[[], None]:
    """A run-row UPDATE, eight event INSERTs and a second UPDATE in one ``engine.begin()``, statements built once."""
    engine = sa.create_engine(f"sqlite:///{path}")

    @sa.event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    metadata = sa.MetaData()
    events = sa.Table(
        "events",
        metadata,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run", sa.Integer),
        sa.Column("body", sa.Text),
    )
    runs = sa.Table(
        "runs",
        metadata,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("state", sa.Text),
        sa.Column("n", sa.Integer),
    )
    metadata.create_all(engine)
    with engine.begin() as connection:
        connection.execute(runs.insert().values(id=1, state="{}", n=0))
    insert = events.insert()
    update = runs.update().where(runs.c.id == sa.bindparam("rid")).values(state=sa.bindparam("st"), n=runs.c.n + 1)

    def transaction() -> None:
        with engine.begin() as connection:
            connection.execute(update, {"rid": 1, "st": STATE})
            for _ in range(8):
                connection.execute(insert, {"run": 1, "body": EVENT})
            connection.execute(update, {"rid": 1, "st": STATE})

    return transaction


def sqlite3_transaction(path: Path) -> Callable[[], None]:
    """The same transaction through ``sqlite3`` directly (for scale: what SQLAlchemy adds)."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = NORMAL")
    connection.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, run INTEGER, body TEXT)")
    connection.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, state TEXT, n INTEGER)")
    connection.execute("INSERT INTO runs VALUES (1, '{}', 0)")

    def transaction() -> None:
        connection.execute("BEGIN")
        connection.execute("UPDATE runs SET state = ?, n = n + 1 WHERE id = ?", (STATE, 1))
        for _ in range(8):
            connection.execute("INSERT INTO events (run, body) VALUES (?, ?)", (1, EVENT))
        connection.execute("UPDATE runs SET state = ?, n = n + 1 WHERE id = ?", (STATE, 1))
        connection.execute("COMMIT")

    return transaction


def measure(transaction: Callable[[], None], count: int, rounds: int) -> tuple[float, float]:
    """(wall ms, CPU ms) per transaction: the median over ``rounds`` of ``count`` transactions, after a warm-up."""
    for _ in range(min(count, 200)):
        transaction()
    walls, cpus = [], []
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(count):
            transaction()
        walls.append((time.perf_counter() - wall) * 1000 / count)
        cpus.append((time.process_time() - cpu) * 1000 / count)
    return statistics.median(walls), statistics.median(cpus)


def through_reduce(call: Callable[[], Any]) -> Any:
    """``call()`` inside the C function ``functools_reduce``: callgrind's inclusive cost of that function is then
    the cost of these calls alone."""
    return functools.reduce(lambda _none, function: function(), [call], None)


def alphred_transitions(visits: int) -> list[tuple[float, float]]:
    """(wall ms, thread CPU ms) of each ``Persister.persist`` call of an in-process scripted loop of ``visits``."""
    from common import make_repo, scratch
    from phase_overhead import workflow_yaml

    from alphred.git import locate_repository
    from alphred.operations.start import start_run
    from alphred.operations.where import resolve_for_write
    from alphred.operations.workspace import Workspace
    from alphred.providers import default_registry
    from alphred.runtime import persist
    from alphred.runtime.options import RunOptions
    from alphred.store import SqlRunStore
    from alphred.views.progress import Progress
    from alphred.workflow import load_workflow

    timings: list[tuple[float, float]] = []
    original = persist.Persister.persist

    def timed_persist(self: Any, *args: Any, **kwargs: Any) -> None:
        wall, cpu = time.perf_counter(), time.thread_time()
        if len(timings) < WARM_UP:  # the run's start: statements compiled, caches filled (not counted)
            original(self, *args, **kwargs)
        else:
            through_reduce(lambda: original(self, *args, **kwargs))
        timings.append(((time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000))

    persist.Persister.persist = timed_persist  # type: ignore[method-assign]
    registry = default_registry()
    with scratch("sql-floor") as tmp:
        repo = make_repo(tmp / "repo")
        path = tmp / "loop.yaml"
        path.write_text(workflow_yaml(visits, False))
        workflow = load_workflow(path, providers=registry)
        location, url = resolve_for_write(str(locate_repository(repo).root), None)
        with SqlRunStore(url) as store:
            workspace = Workspace(
                store=store,
                location=location,
                registry_for=lambda _w, _d: registry,
                progress=lambda run_id: Progress(enabled=False, run_id=run_id),
            )
            record = start_run(workspace, workflow, RunOptions(), registry)
    assert record.status.value == "completed", (record.status, record.reason)
    return timings


def alphred_worker(visits: int, floor: bool) -> None:
    """Print the figures of one fresh interpreter as JSON-ish lines: Alphred's transitions, or the floor's."""
    if floor:
        with tempfile.TemporaryDirectory() as scratch_dir:
            transaction = sqlalchemy_transaction(Path(scratch_dir) / "a.db")
            for _ in range(20):
                transaction()
            for _ in range(visits):
                through_reduce(transaction)
        print(f"calls {visits}")
        return
    # the checkout PYTHONPATH names first (``--source``): importing ``common`` puts this one ahead on sys.path, and
    # every ``alphred`` module imported after it would come from here
    import alphred  # noqa: F401

    timings = alphred_transitions(visits)
    steady = timings[WARM_UP:-1]  # the loop's own, its start and its end apart
    print(f"calls {len(timings) - WARM_UP}")
    print(f"wall {statistics.median(t[0] for t in steady):.4f}")
    print(f"cpu {statistics.median(t[1] for t in steady):.4f}")


GROUP_CALLS, GROUP_WARM_UP = 220, 20  # --group: the process group's record, the first calls left out


def group_worker() -> None:
    """``store.add_process`` GROUP_CALLS times on a fresh SQLite store's run, the calls after the warm-up inside
    ``through_reduce`` (a scripted loop's workflow compiled: a run with its phases)."""
    from phase_overhead import workflow_yaml

    import alphred  # noqa: F401  (the checkout PYTHONPATH names first, as ``alphred_worker``)
    from alphred.providers import default_registry
    from alphred.store import SqlRunStore
    from alphred.workflow import load_workflow

    with tempfile.TemporaryDirectory() as scratch_dir:
        path = Path(scratch_dir) / "loop.yaml"
        path.write_text(workflow_yaml(3, False))
        workflow = load_workflow(path, providers=default_registry())
        with SqlRunStore(f"sqlite:///{scratch_dir}/alphred.db") as store:
            tree_id, _ = store.compile(workflow)
            run_id = store.create_run(tree_id, workflow, repo_path=scratch_dir)
            phase = workflow.phases[0].key

            def record(number: int) -> None:
                store.add_process(run_id, phase, 1, "host", 10_000 + number, "12345")

            for number in range(GROUP_WARM_UP):
                record(number)
            functools.reduce(lambda _none, number: record(number), range(GROUP_WARM_UP, GROUP_CALLS), None)
    print(f"calls {GROUP_CALLS - GROUP_WARM_UP}")


def group_main(source: str | None) -> None:
    """The process group's record, in instructions (callgrind), this checkout and ``source``."""
    env = dict(os.environ)
    here = str(Path(__file__).resolve().parent)
    checkouts = [("this checkout", str(Path(here).parent))] + ([("source", source)] if source else [])
    print(f"The process group's record (store.add_process): {GROUP_CALLS} - {GROUP_WARM_UP} calls under callgrind\n")
    for label, checkout in checkouts:
        env["PYTHONPATH"] = os.pathsep.join((checkout, here))
        args = [sys.executable, __file__, "--worker", "--group"]
        print(f"{label:16s} {_instructions(args, env) / 1e3:8.1f} k instructions a record")


def alphred_main(visits: int, rounds: int, callgrind: bool, source: str | None) -> None:
    """Alphred's per-phase transaction beside the 10-statement floor, each in fresh interpreters."""
    env = dict(os.environ)
    here = str(Path(__file__).resolve().parent)
    checkouts = [("this checkout", str(Path(here).parent))] + ([("source", source)] if source else [])
    rows = []
    for label, checkout in checkouts:
        env["PYTHONPATH"] = os.pathsep.join((checkout, here))
        args = [sys.executable, __file__, "--worker", "--visits", str(visits)]
        walls, cpus = [], []
        for _ in range(rounds):
            out = subprocess.run(args, capture_output=True, text=True, env=env, check=True).stdout
            walls.append(float(re.findall(r"wall (\S+)", out)[0]))
            cpus.append(float(re.findall(r"cpu (\S+)", out)[0]))
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        line = f"{f'Alphred transition, {label}':36s} {wall:6.3f} ms wall {cpu:6.3f} ms CPU"
        if callgrind:  # a shorter loop: valgrind runs it ~50x slower
            grind = [*args[:-1], str(min(visits, CALLGRIND_VISITS))]
            line += f"  {_instructions(grind, env) / 1e6:6.2f} M instructions"
        rows.append(line)
    with tempfile.TemporaryDirectory() as scratch_dir:
        wall, cpu = measure(sqlalchemy_transaction(Path(scratch_dir) / "a.db"), 200, max(rounds, 2))
    line = f"{'the floor: 10 prebuilt Core statements':36s} {wall:6.3f} ms wall {cpu:6.3f} ms CPU"
    if callgrind:
        env["PYTHONPATH"] = here
        floor = [sys.executable, __file__, "--worker", "--floor", "--visits", "500"]
        line += f"  {_instructions(floor, env) / 1e6:6.2f} M instructions"
    rows.append(line)
    print(f"One write transaction per phase; Alphred's: median of {rounds} loops of {visits} visits")
    grind = min(visits, CALLGRIND_VISITS)
    print(f"(instructions: one loop of {grind} visits, the first {WARM_UP} transitions left out)\n")
    print("\n".join(rows))


def _instructions(args: list[str], env: dict[str, str]) -> float:
    """Instructions per call of ``through_reduce`` in the process ``args`` starts (valgrind's callgrind)."""
    with tempfile.TemporaryDirectory() as scratch_dir:
        out = Path(scratch_dir) / "cg.out"
        grind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *args]
        done = subprocess.run(grind, capture_output=True, text=True, env=env, check=True)
        calls = int(re.findall(r"calls (\d+)", done.stdout)[0])
        annotate = ["callgrind_annotate", "--threshold=100", "--inclusive=yes", str(out)]  # every function listed
        annotated = subprocess.run(annotate, capture_output=True, text=True, check=True).stdout
    found = re.search(r"^\s*([\d,]+) .*:functools_reduce ", annotated, re.MULTILINE)
    if found is None:
        raise SystemExit("callgrind found no functools_reduce (a Python without symbols?)")
    return int(found.group(1).replace(",", "")) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--transactions", type=int, default=1000, help="transactions per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (the median is reported)")
    parser.add_argument("--quick", action="store_true", help="2 rounds of 200 transactions")
    parser.add_argument("--alphred", action="store_true", help="Alphred's real per-phase transaction beside the floor")
    parser.add_argument("--visits", type=int, default=201, help="with --alphred: visits of the scripted loop")
    parser.add_argument("--callgrind", action="store_true", help="with --alphred: instructions too (valgrind)")
    parser.add_argument("--source", help="with --alphred: another Alphred checkout measured in the same run")
    parser.add_argument("--group", action="store_true", help="the process group's record, in instructions")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--floor", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker and args.group:
        group_worker()
        return
    if args.group:
        group_main(args.source)
        return
    if args.worker:
        alphred_worker(args.visits, args.floor)
        return
    if args.alphred:
        alphred_main(args.visits, 1 if args.quick else 3, args.callgrind, args.source)
        return
    count, rounds = (200, 2) if args.quick else (args.transactions, args.rounds)
    with tempfile.TemporaryDirectory() as scratch:
        rows = [
            ("SQLAlchemy Core, 10 statements, 1 transaction", sqlalchemy_transaction(Path(scratch) / "a.db")),
            ("sqlite3 directly, the same transaction", sqlite3_transaction(Path(scratch) / "b.db")),
        ]
        print(f"One write transaction of 10 statements on a WAL SQLite file, median of {rounds} x {count}:\n")
        for name, transaction in rows:
            wall, cpu = measure(transaction, count, rounds)
            print(f"{name:48s} {wall:6.3f} ms wall  {cpu:6.3f} ms CPU")


if __name__ == "__main__":
    main()
