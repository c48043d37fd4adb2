"""The SQL floor of a phase: one write transaction of ten prebuilt SQLAlchemy Core statements on a WAL SQLite file
(``synchronous=NORMAL``, as Alphred opens it), beside the same transaction through ``sqlite3`` directly.

An unchanged phase costs Alphred one write transaction of about ten statements (issue 29, third pass). This
prints what such a transaction costs on its own, so the per-phase figure of ``phase_overhead.py --cli`` can be
split into the storage's share (the design card's SQLAlchemy over SQLite) and the rest of the runtime.

    python benchmarks/sql_floor.py [--transactions 1000] [--rounds 5] [--quick]
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa

STATE = "x" * 200
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--transactions", type=int, default=1000, help="transactions per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (the median is reported)")
    parser.add_argument("--quick", action="store_true", help="2 rounds of 200 transactions")
    args = parser.parse_args()
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
