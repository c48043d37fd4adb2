"""Parallel branches (SPEC §8): the cost of a join with K merges, and of making K lane worktrees.

The runtime does not execute lanes yet, so the wall-time figure of the issue (N scripted branches that each
sleep S seconds vs N×S) cannot be measured; this script measures the git side a join will pay, through the
same code the runtime will call (``alphred.git.merges.LaneGit``): for each K, K lane worktrees are made
from the run branch, each lane commits one file, and the K branches are merged ``--no-ff`` into the run's
worktree in fan-out order. Printed: median milliseconds to create the K lanes and to merge them (total and
per merge), over ``--runs`` repetitions, in a repository of ``--files`` files. Usage::

    python benchmarks/parallel.py [--k 2,4,8] [--runs 5] [--files 200] [--quick]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from common import make_repo, median, scratch, spread, table

from alphred.git import GitWorktrees, locate_repository, phase_commit_message
from alphred.git.merges import LaneGit, merge_message


def one_join(root: Path, k: int, run_id: int) -> tuple[float, float]:
    """Milliseconds to create ``k`` lanes (each committing a file) and to merge them all."""
    worktrees = GitWorktrees(locate_repository(root))
    run = worktrees.create(run_id, f"alphred/bench/{run_id}", worktrees.resolve_base().sha)
    lanes = LaneGit(worktrees)
    head = worktrees.head_sha(run.path)
    started = time.perf_counter()
    made = [lanes.create_lane(run_id, run.branch, f"lane{i}", head) for i in range(k)]
    for index, lane in enumerate(made):
        (lane.path / f"lane{index}.txt").write_text(f"lane {index}\n")
        worktrees.commit_phase(lane.path, phase_commit_message("bench", f"lane{index}", 1))
    created = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    for index, lane in enumerate(made):
        outcome = lanes.merge(run.path, lane.branch, merge_message("bench", f"lane{index}"))
        if outcome.sha is None:
            raise SystemExit(f"lane{index} conflicted: {outcome.conflicts}")
        worktrees.remove(lane.path)
    merged = (time.perf_counter() - started) * 1000
    worktrees.remove(run.path)
    return created, merged


def main() -> None:
    """Measure each K ``--runs`` times; print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--k", default="2,4,8", help="comma-separated numbers of branches")
    parser.add_argument("--runs", type=int, default=5, help="repetitions per K (medians are reported)")
    parser.add_argument("--files", type=int, default=200, help="files in the repository")
    parser.add_argument("--quick", action="store_true", help="smoke mode: K=2, 1 run, 20 files")
    args = parser.parse_args()
    ks = [2] if args.quick else [int(k) for k in args.k.split(",")]
    runs, files = (1, 20) if args.quick else (args.runs, args.files)
    rows = []
    with scratch("parallel") as tmp:
        root = make_repo(tmp / "repo", files).resolve()
        run_id = 0
        for k in ks:
            created: list[float] = []
            merged: list[float] = []
            for _ in range(runs):
                run_id += 1
                c, m = one_join(root, k, run_id)
                created.append(c)
                merged.append(m)
            rows.append(
                [k, f"{median(created):.0f} ({spread(created, 0)})", f"{median(merged):.0f} ({spread(merged, 0)})",
                 f"{median(merged) / k:.0f}"]
            )  # fmt: skip
    print(f"join cost, {files}-file repository, median of {runs} (range)")
    print(table(rows, ["K branches", "make K lanes + commit, ms", "K merges + lane removal, ms", "ms per merge"]))


if __name__ == "__main__":
    main()
