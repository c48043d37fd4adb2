"""The queue on PostgreSQL: N submitted short runs drained by 1, 2 and 4 ``alphred worker`` processes.

For each worker count, in a fresh PostgreSQL schema: ``--runs`` runs of a one-command-phase workflow are
submitted (in-process, through the same code as ``alphred submit``), then that many ``alphred worker
--once -q`` processes are started together and timed until all exit. Figures: runs/s (runs / wall time of
the drain, worker start-up included, and without it: first start to last completion), submit→start latency
p50/p99 (``created_at`` → ``started_at``: queueing time, so it grows with the backlog), and double
executions (lines of a ledger file outside every worktree, written by the phase: must be 0).

    python benchmarks/queue_drain.py [--runs 200] [--workers 1,2,4] [--quick]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[1]
POSTGRES = os.environ.get("ALPHRED_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")

WORKFLOW = """\
alphred: 1
key: q
inputs: {tag: {required: true}}
phases:
  work:
    type: command
    run: echo "{{ inputs.tag }}" >> "$LEDGER"
"""


FINISHED = text("select created_at, started_at from workflow_runs where id = :i and completed_at is not null")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def git(repo: Path, *args: str, env: dict[str, str]) -> None:
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def drain(runs: int, workers: int, scratch: Path, env: dict[str, str]) -> dict[str, float]:
    schema = f"alphred_bench_queue_{os.getpid()}_{workers}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE; CREATE SCHEMA "{schema}"'))
    url = f"{POSTGRES}?options=-csearch_path%3D{schema}"
    repo = scratch / f"repo{workers}"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main", env=env)
    git(repo, "commit", "-q", "--allow-empty", "-m", "init", env=env)
    ledger = scratch / f"ledger{workers}"
    env = {**env, "LEDGER": str(ledger)}
    wf = scratch / "q.yaml"
    wf.write_text(WORKFLOW)
    submit = (
        "import sys\nfrom alphred.cli import app\n"
        "for i in range(int(sys.argv[3])):\n"
        "    args = ['submit', sys.argv[1], '-i', f'tag=r{i}', '--db', sys.argv[2]]\n"
        "    assert app.main(args, standalone_mode=False) == 0\n"
    )
    subprocess.run([sys.executable, "-c", submit, str(wf), url, str(runs)], cwd=repo, env=env, check=True)
    began = time.monotonic()
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "alphred", "worker", "--once", "-q", "--db", url],
            cwd=repo,
            env=env,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(workers)
    ]
    for proc in procs:
        proc.wait()
    wall = time.monotonic() - began
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(text("select created_at, started_at, completed_at, status from workflow_runs")).all()
    engine.dispose()
    with admin.connect() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()
    counts = Counter(ledger.read_text().split()) if ledger.exists() else Counter()
    latencies = [(r.started_at - r.created_at).total_seconds() for r in rows if r.started_at]
    first = min(r.started_at for r in rows if r.started_at)
    last = max(r.completed_at for r in rows if r.completed_at)
    return {
        "completed": sum(r.status == "completed" for r in rows),
        "runs_per_s": runs / wall,
        "runs_per_s_busy": runs / (last - first).total_seconds(),
        "p50": percentile(latencies, 0.5),
        "p99": percentile(latencies, 0.99),
        "double": sum(c - 1 for c in counts.values() if c > 1),
        "missing": runs - len(counts),
    }


def notify_latency(samples: int, scratch: Path, env: dict[str, str]) -> list[float]:
    """Submit→start of runs submitted one at a time to ONE idle worker polling every 120 s (so: NOTIFY)."""
    schema = f"alphred_bench_notify_{os.getpid()}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE; CREATE SCHEMA "{schema}"'))
    url = f"{POSTGRES}?options=-csearch_path%3D{schema}"
    repo = scratch / "notify-repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main", env=env)
    git(repo, "commit", "-q", "--allow-empty", "-m", "init", env=env)
    env = {**env, "LEDGER": str(scratch / "notify-ledger")}
    wf = scratch / "q.yaml"
    wf.write_text(WORKFLOW)
    command = [sys.executable, "-m", "alphred", "worker", "--poll", "120", "-q", "--db", url]
    worker = subprocess.Popen(command, cwd=repo, env=env, stderr=subprocess.DEVNULL)
    engine = create_engine(url)
    latencies = []
    try:
        for index in range(samples + 1):
            subprocess.run(
                [sys.executable, "-m", "alphred", "submit", str(wf), "-i", f"tag=n{index}", "--db", url],
                cwd=repo, env=env, check=True, capture_output=True,
            )  # fmt: skip
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                with engine.connect() as conn:
                    done = conn.execute(FINISHED, {"i": index + 1}).first()
                if done is not None:
                    break
                time.sleep(0.05)
            assert done is not None, "a run was not picked up within 120 s"
            if index:  # the first one may have been found by the worker's first look, not by NOTIFY
                latencies.append((done.started_at - done.created_at).total_seconds())
    finally:
        worker.terminate()
        worker.wait(60)
        engine.dispose()
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--quick", action="store_true", help="20 runs, 1 and 2 workers")
    parser.add_argument("--notify-only", action="store_true", help="only the NOTIFY wake-up latency")
    args = parser.parse_args()
    runs, counts = (20, [1, 2]) if args.quick else (args.runs, [int(w) for w in args.workers.split(",")])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "ALPHRED_"))}
    env.update(
        GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="B",
        GIT_AUTHOR_EMAIL="b@example.invalid", GIT_COMMITTER_NAME="B", GIT_COMMITTER_EMAIL="b@example.invalid",
        PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    )  # fmt: skip
    print(f"{runs} runs; load average {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores")
    print("workers  completed  runs/s (wall)  runs/s (busy)  submit->start p50  p99      double  missing")
    base = None
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp) / "notify"
        scratch.mkdir()
        waits = notify_latency(3 if args.quick else 10, scratch, {**env, "HOME": str(scratch)})
        print(
            f"idle worker (--poll 120) woken by NOTIFY: submit->start p50 {percentile(waits, 0.5):.2f}s, "
            f"max {max(waits):.2f}s over {len(waits)} runs"
        )
        if args.notify_only:
            return
        for workers in counts:
            scratch = Path(tmp) / f"w{workers}"
            scratch.mkdir()
            got = drain(runs, workers, scratch, {**env, "HOME": str(scratch)})
            base = base or got["runs_per_s"]
            print(
                f"{workers:>7}  {got['completed']:>9.0f}  {got['runs_per_s']:>13.2f}  {got['runs_per_s_busy']:>13.2f}"
                f"  {got['p50']:>16.2f}s  {got['p99']:>6.2f}s  {got['double']:>6.0f}  {got['missing']:>7.0f}"
                f"   (x{got['runs_per_s'] / base:.2f})"
            )


if __name__ == "__main__":
    main()
