"""Per-phase cost against the size of the database's history: flat from 10 to 10,000 earlier runs?

Each sample, in a fresh interpreter: a scratch repository and SQLite database, ``--history`` earlier runs
of the same workflow stored first (each with its phases' report, diff and context-manifest artifacts), then
one timed run of the review loop of ``phase_overhead.py`` (agent phases that read their upstream reports),
in-process. Per-phase overhead = (loop time - time inside the provider) / phases. ``--source DIR`` measures
another checkout of Alphred (for before/after figures: ``git archive <commit> alphred | tar -x -C DIR``).

    python benchmarks/history_scale.py [--history 10,10000] [--phases 41] [--runs 3] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from common import ROOT, median, spread, subprocess_env, table
from phase_overhead import run_alphred, workflow_yaml

LOOKUPS = 200
LOOKUP_US: list[float] = []


def prefill(url: str, workflow_text: str, runs: int, repo: Path) -> None:
    """Store ``runs`` finished runs of the workflow, each phase with three artifacts, in one transaction."""
    from alphred.providers import default_registry
    from alphred.store import SqlRunStore
    from alphred.workflow import load_workflow

    path = repo.parent / "history.yaml"
    path.write_text(workflow_text)
    workflow = load_workflow(path, providers=default_registry())
    with SqlRunStore(url) as store, store.transaction() as tx:
        tree_id, _ = tx.compile(workflow)
        for index in range(runs):
            run_id = tx.create_run(tree_id, workflow, {}, repo_path=str(repo), branch=f"old/{index}")
            for key in workflow.phase_keys:
                tx.add_artifact(run_id, key, 1, "report", text=f"report {index} {key}")
                tx.add_artifact(run_id, key, 1, "diff", text="diff --git a/x b/x\n")
                tx.add_artifact(run_id, key, 1, "context_manifest", data={"included": []})
    connection = sqlite3.connect(url.removeprefix("sqlite:///"))  # as a database grown over weeks: no huge WAL
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    with SqlRunStore(url) as store, store.reading() as tx:  # the lookup every agent phase makes, alone
        started = time.perf_counter()
        for _ in range(LOOKUPS):
            tx.latest_artifact(runs, workflow.start, "report")
        LOOKUP_US.append((time.perf_counter() - started) / LOOKUPS * 1e6)


def worker(history: int, phases: int) -> dict[str, Any]:
    """One sample: prefill, then the timed loop (``run_alphred`` with a hook that prefills its database)."""
    import phase_overhead

    original = phase_overhead.make_repo

    def make_repo_with_history(path: Path, files: int = 3) -> Path:
        repo = original(path, files)
        url = f"sqlite:///{repo / '.alphred' / 'alphred.db'}"
        (repo / ".alphred").mkdir(exist_ok=True)
        prefill(url, workflow_yaml(phases, False), history, repo)
        return repo

    phase_overhead.make_repo = make_repo_with_history  # type: ignore[assignment]
    return {**run_alphred(phases, False), "lookup_us": LOOKUP_US[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--history", default="10,10000", help="comma-separated history sizes (runs)")
    parser.add_argument("--phases", type=int, default=41)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--source", help="another Alphred checkout to measure (its directory holding alphred/)")
    parser.add_argument("--quick", action="store_true", help="history 10 and 1000, 1 run")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        print(json.dumps(worker(args.worker, args.phases)))
        return
    sizes = [10, 1000] if args.quick else [int(s) for s in args.history.split(",")]
    runs = 1 if args.quick else args.runs
    env = subprocess_env()
    if args.source:
        env["PYTHONPATH"] = os.pathsep.join((str(Path(args.source).resolve()), env["PYTHONPATH"]))
    samples: dict[int, list[float]] = {size: [] for size in sizes}
    steady: dict[int, list[float]] = {size: [] for size in sizes}
    lookups: dict[int, list[float]] = {size: [] for size in sizes}
    for _ in range(runs):
        for size in sizes:
            argv = [sys.executable, __file__, "--worker", str(size), "--phases", str(args.phases)]
            done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
            if done.returncode != 0:
                raise SystemExit(f"worker failed:\n{done.stderr[-3000:]}")
            result = json.loads(done.stdout.strip().splitlines()[-1])
            samples[size].append((result["loop_s"] - result["provider_s"]) / result["steps"] * 1000)
            steady[size].append(result["last_third_ms"])
            lookups[size].append(result["lookup_us"])
    rows = [
        [
            f"{size:,}",
            f"{median(values):.2f}",
            spread(values),
            f"{median(steady[size]):.2f}",
            f"{median(lookups[size]):.0f}",
        ]
        for size, values in samples.items()
    ]
    print(f"\nPer-phase overhead against history size, {args.phases} phases, median of {runs} run(s):\n")
    print(table(rows, ["earlier runs", "ms/phase", "range", "ms/phase, last third", "latest-report lookup, µs"]))
    first, last = median(samples[sizes[0]]), median(samples[sizes[-1]])
    print(f"\n{sizes[-1]:,} vs {sizes[0]:,} runs of history: {last / first:.2f}x (goal: flat, ~1.0x)")


if __name__ == "__main__":
    main()
