"""Crash-anywhere soak: random ``kill -9``s of ``run``, ``resume`` and ``worker`` processes, then counts.

Concurrent runs of a four-phase workflow (commands that write files and log what they do, an agent phase)
are killed at random instants — the alphred pid alone, its process group, or its whole process tree (as a
container kill does) — and recovered with ``resume`` or ``worker --once``, themselves killable. At the end
every run is driven to its end and the script prints:

  kills, runs, runs not completed, completed attempts run twice, finished work redone, duplicate commits,
  orphan writes, stale worktrees

All but the first two must be 0. ``--db postgres`` uses a fresh schema of the PostgreSQL at
``ALPHRED_TEST_POSTGRES_URL`` (default ``postgresql+psycopg://postgres@127.0.0.1:5432/test``).

    python benchmarks/soak.py --kills 200 --db sqlite
    python benchmarks/soak.py --kills 200 --db postgres
    python benchmarks/soak.py --quick            # a few kills, ~1 min
    python benchmarks/soak.py --kills 100 --parallel   # the same with parallel branches and a join
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PHASES = ("prepare", "build", "review", "finish")

WORKFLOW = """\
alphred: 1
key: soak
phases:
  prepare:
    type: command
    run: {prepare}
    transitions: [{{to: build}}]
  build:
    type: command
    run: {build}
    transitions: [{{to: review}}]
  review:
    provider: scripted
    script: [{{sleep: 0.15, report: reviewed, files: {{review.txt: "ok\\n"}}}}]
    transitions: [{{to: finish}}]
  finish:
    type: command
    run: {finish}
"""

PARALLEL_WORKFLOW = """\
alphred: 1
key: soak
phases:
  prepare:
    type: command
    run: {prepare}
    transitions: [{{to: [build, review]}}]
  build:
    type: command
    run: {build}
    transitions: [{{to: finish}}]
  review:
    provider: scripted
    script: [{{sleep: 0.15, report: reviewed, files: {{review.txt: "ok\\n"}}}}]
    transitions: [{{to: finish}}]
  finish:
    join: all
    type: command
    run: {finish}
"""
"""With ``--parallel``: build and review run as parallel branches (SPEC §8), each in its own worktree."""


def command(phase: str, log: Path, steps: int) -> str:
    """A command that logs ``start``, writes into the worktree ``steps`` times, then logs ``done``."""
    # the group, the run (its worktree is .alphred/worktrees/<run>, a parallel branch's <run>.<phase>)
    tag = f'$$ $(basename "$PWD" | cut -d. -f1) {phase}'
    body = (
        f'echo "{tag} start $(date +%s%N)" >> {log}; i=0; while [ $i -lt {steps} ]; do echo $i >> {phase}.txt; '
        f'echo "{tag} write $(date +%s%N)" >> {log}; sleep 0.05; i=$((i+1)); done; '
        f'echo "{tag} done $(date +%s%N)" >> {log}'
    )
    return "'" + body + "'"


class Soak:
    def __init__(self, args: argparse.Namespace, workdir: Path, db_url: str | None) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.root = workdir
        self.repo = workdir / "repo"
        self.log = workdir / "commands.log"
        self.db_url = db_url
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "ALPHRED_"))}
        self.env.update(
            HOME=str(workdir),
            GIT_CONFIG_GLOBAL="/dev/null",
            GIT_CONFIG_NOSYSTEM="1",
            GIT_AUTHOR_NAME="Soak",
            GIT_AUTHOR_EMAIL="soak@example.invalid",
            GIT_COMMITTER_NAME="Soak",
            GIT_COMMITTER_EMAIL="soak@example.invalid",
            PYTHONPATH=str(ROOT),
            ALPHRED_RETRY_BASE_SECONDS="0.01",
            ALPHRED_LEASE_TTL="5",
        )
        self.kills: dict[str, int] = defaultdict(int)
        self.live: list[tuple[subprocess.Popen[bytes], float]] = []  # process, when it is to be killed
        self.started = 0

    # -- setup ----------------------------------------------------------------------------------------------

    def setup(self) -> Path:
        self.repo.mkdir()
        for args in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "init"]):
            subprocess.run(["git", *args], cwd=self.repo, env=self.env, check=True, capture_output=True)
        wf = self.root / "soak.yaml"
        wf.write_text(
            (PARALLEL_WORKFLOW if self.args.parallel else WORKFLOW).format(
                prepare=command("prepare", self.log, 3),
                build=command("build", self.log, 6),
                finish=command("finish", self.log, 2),
            )
        )
        return wf

    def alphred(self, *args: str) -> list[str]:
        extra = ["--db", self.db_url] if self.db_url else []
        return [sys.executable, "-m", "alphred", *args, "--repo", str(self.repo), *extra, "-q"]

    def spawn(self, argv: list[str], what: str) -> None:
        process = subprocess.Popen(
            argv, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        # Most processes die at a random instant of their life (start-up included); some live to their end.
        doom = time.monotonic() + self.rng.uniform(0.2, self.args.max_life) if self.rng.random() < 0.8 else float("inf")
        self.live.append((process, doom))

    # -- the storm ------------------------------------------------------------------------------------------

    def storm(self, wf: Path) -> None:
        while sum(self.kills.values()) < self.args.kills:
            now = time.monotonic()
            for process, doom in self.live:
                if doom <= now and process.poll() is None:
                    mode = self.rng.choice(("pid", "group", "tree"))
                    self.kill(process, mode)
                    self.kills[mode] += 1
            self.live = [(p, d) for p, d in self.live if p.poll() is None]
            while len(self.live) < self.args.concurrency:
                if self.rng.random() < 0.5 or self.started < self.args.concurrency:
                    self.spawn(self.alphred("run", str(wf)), "run")
                    self.started += 1
                else:
                    self.recover()
            time.sleep(0.05)

    def recover(self) -> None:
        if self.rng.random() < 0.5:
            self.spawn(self.alphred("worker", "--once"), "worker")
        else:
            ids = self.run_ids(("pending", "running", "paused"))
            if ids:
                self.spawn(self.alphred("resume", str(self.rng.choice(ids))), "resume")
            else:
                self.spawn(self.alphred("worker", "--once"), "worker")

    def kill(self, process: subprocess.Popen[bytes], mode: str) -> None:
        with _suppress():
            if mode == "pid":
                os.kill(process.pid, signal.SIGKILL)
            elif mode == "group":
                os.killpg(process.pid, signal.SIGKILL)
            else:
                for pid in [process.pid, *descendants(process.pid)]:
                    with _suppress():
                        os.kill(pid, signal.SIGKILL)
        process.wait()

    def settle(self) -> None:
        for process, _doom in self.live:
            process.wait()
        for _ in range(10):
            subprocess.run(self.alphred("worker", "--once"), env=self.env, capture_output=True, timeout=600)
            left = self.run_ids(("pending", "running", "paused"))
            for run_id in left:
                subprocess.run(self.alphred("resume", str(run_id)), env=self.env, capture_output=True, timeout=600)
            if not self.run_ids(("pending", "running", "paused")):
                break
        subprocess.run(self.alphred("worker", "--once"), env=self.env, capture_output=True, timeout=600)

    # -- counting -------------------------------------------------------------------------------------------

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        if self.db_url is None:
            connection = sqlite3.connect(self.repo / ".alphred" / "alphred.db", timeout=30)
            try:
                return list(connection.execute(sql).fetchall())
            finally:
                connection.close()
        from sqlalchemy import create_engine, text

        engine = create_engine(self.db_url)
        try:
            with engine.connect() as conn:
                return [tuple(row) for row in conn.execute(text(sql))]
        finally:
            engine.dispose()

    def run_ids(self, statuses: tuple[str, ...]) -> list[int]:
        listed = ", ".join(f"'{s}'" for s in statuses)
        try:
            return [row[0] for row in self.query(f"select id from workflow_runs where status in ({listed})")]
        except Exception:  # no database yet
            return []

    def report(self) -> dict[str, int]:
        runs = self.query("select id, status, branch, worktree_path, base_sha from workflow_runs")
        processes = {
            (row[0], row[1]): (row[2], row[3])
            for row in self.query("select run_id, pgid, node_key, attempt from run_processes")
        }
        outcomes = {(r[0], r[1], r[2]): r[3] for r in self.query(
            "select d.run_id, n.node_key, d.attempt, d.outcome from run_node_diagnostics d "
            "join run_nodes n on n.id = d.run_node_id"
        )}  # fmt: skip
        intents = {(r[0], r[1], r[2]) for r in self.query(
            "select a.run_id, n.node_key, a.attempt from phase_artifacts a join run_nodes n on n.id = a.run_node_id "
            "where a.kind = 'outcome'"
        )}  # fmt: skip
        events = self.read_log()
        done: dict[tuple[int, str, int], set[int]] = defaultdict(set)
        first_line: dict[int, int] = {}
        groups: dict[tuple[int, str], set[int]] = defaultdict(set)
        for pgid, run, phase, kind, stamp in events:
            first_line.setdefault(pgid, stamp)
            groups[(run, phase)].add(pgid)
            known = processes.get((run, pgid))
            if known is not None and kind == "done":
                done[(run, phase, known[1])].add(pgid)
        twice = sum(1 for owners in done.values() if len(owners) > 1)
        committed = self.committed_attempts(runs)
        acknowledged = set(intents) | committed | {key for key, outcome in outcomes.items() if outcome == "completed"}
        redone = sum(
            1
            for (run, phase, attempt) in done
            if any((run, phase, earlier) in acknowledged for earlier in range(1, attempt))
        )
        orphan = 0  # a command group writing after a later group of the same run and phase started
        for pgid, run, phase, kind, stamp in events:
            if kind != "write":
                continue
            later = [first_line[g] for g in groups[(run, phase)] if first_line[g] > first_line[pgid]]
            if later and stamp > min(later):
                orphan += 1
        return {
            "kills": sum(self.kills.values()),
            "runs": len(runs),
            "runs not completed": sum(1 for r in runs if r[1] != "completed"),
            "completed attempts run twice": twice,
            "finished work redone": redone,
            "duplicate commits": self.duplicate_commits(runs),
            "orphan writes": orphan,
            "stale worktrees": self.stale_worktrees(runs),
        }

    def unfinished(self) -> list[str]:
        """Why each run that did not complete stopped: its status, reason and attempts (to find the bug)."""
        lines = []
        for run_id, status, reason in self.query(
            "select id, status, reason from workflow_runs where status != 'completed'"
        ):
            lines.append(f"run {run_id} not completed: {status} ({reason})")
            lines += [
                "    " + " ".join(map(str, row))
                for row in self.query(
                    "select n.node_key, d.attempt, d.outcome, d.reason, d.error_code, d.details "
                    "from run_node_diagnostics d join run_nodes n on n.id = d.run_node_id "
                    f"where d.run_id = {int(run_id)} order by d.id"
                )
            ]
        return lines

    def read_log(self) -> list[tuple[int, int, str, str, int]]:
        found = []
        for line in self.log.read_text().splitlines() if self.log.exists() else ():
            parts = line.split()
            if len(parts) == 5 and parts[0].isdigit() and parts[1].isdigit() and parts[4].isdigit():
                found.append((int(parts[0]), int(parts[1]), parts[2], parts[3], int(parts[4])))
        return sorted(found, key=lambda e: e[4])

    def git(self, *args: str) -> str:
        return subprocess.run(["git", *args], cwd=self.repo, env=self.env, capture_output=True, text=True).stdout

    def committed_attempts(self, runs: list[tuple[Any, ...]]) -> set[tuple[int, str, int]]:
        found = set()
        for run_id, _status, branch, _wt, base in runs:
            if not branch:
                continue
            text = self.git(
                "log",
                "--format=%(trailers:key=Alphred-Phase,key=Alphred-Attempt,valueonly,separator=%x20)",
                f"{base}..{branch}",
            )
            for line in text.splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[1].isdigit():
                    found.add((run_id, parts[0], int(parts[1])))
        return found

    def duplicate_commits(self, runs: list[tuple[Any, ...]]) -> int:
        duplicates = 0
        for _run_id, _status, branch, _wt, base in runs:
            if branch:
                subjects = self.git("log", "--format=%s", f"{base}..{branch}").splitlines()
                duplicates += len(subjects) - len(set(subjects))
        return duplicates

    def stale_worktrees(self, runs: list[tuple[Any, ...]]) -> int:
        listed = self.git("worktree", "list", "--porcelain")
        stale = 0
        for run_id, status, _branch, worktree, _base in runs:
            path = self.repo / ".alphred" / "worktrees" / str(run_id)
            if status == "completed" and (worktree is not None or path.exists() or f"worktree {path}\n" in listed):
                stale += 1
            lanes = list(path.parent.glob(f"{run_id}.*")) if status == "completed" else []
            stale += len(lanes)  # a completed run's parallel branches' worktrees are gone too
        return stale


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with _suppress():
                stat = (entry / "stat").read_text()
                children[int(stat[stat.rfind(")") + 2 :].split()[1])].append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _suppress() -> contextlib.suppress:
    return contextlib.suppress(OSError, ValueError, IndexError)


def postgres_schema() -> tuple[str, Any]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    base = os.environ.get("ALPHRED_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
    schema = f"alphred_soak_{uuid.uuid4().hex[:8]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()

    return url.render_as_string(hide_password=False), drop


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=3)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--max-life", type=float, default=6.0, help="kill instants are drawn up to this age (s)")
    parser.add_argument("--quick", action="store_true", help="10 kills")
    parser.add_argument("--parallel", action="store_true", help="build and review as parallel branches")
    parser.add_argument("--keep", action="store_true", help="keep the working directory")
    args = parser.parse_args()
    if args.quick:
        args.kills = min(args.kills, 10)
    args.seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    drop = None
    db_url = None
    if args.db == "postgres":
        db_url, drop = postgres_schema()
    workdir = Path(tempfile.mkdtemp(prefix="alphred-soak-"))
    started = time.monotonic()
    try:
        soak = Soak(args, workdir, db_url)
        wf = soak.setup()
        soak.storm(wf)
        soak.settle()
        figures = soak.report()
        unfinished = soak.unfinished()
    finally:
        if drop is not None:
            drop()
        if not args.keep:
            subprocess.run(["rm", "-rf", str(workdir)], check=False)
    print(f"soak on {args.db}, seed {args.seed}, {time.monotonic() - started:.0f} s, kills by mode {dict(soak.kills)}")
    for name, value in figures.items():
        print(f"{name:30} {value}")
    bad = {k: v for k, v in figures.items() if k not in ("kills", "runs") and v}
    for line in unfinished:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
