"""Parallel branches (SPEC §8): wall time of N branches at once, and the cost of a join with K merges.

Wall time: ``alphred run`` (a real process) of a workflow whose fan-out starts N ``scripted`` branches that
each sleep S seconds and write a file, joined by one phase, with ``max_parallel: N``. The same workflow with
S = 0 gives the overhead (start-up, worktrees, commits, merges); the goal of issue 11 is a wall time within
10% of S + overhead, against N×S + overhead if the branches ran one after another.

Join cost: through ``alphred.git.merges.LaneGit`` (the code the runtime's join calls), K lane worktrees are
made from the run branch, each lane commits one file, and the K branches are merged ``--no-ff`` into the
run's worktree in fan-out order. Printed: median milliseconds to create the K lanes and to merge them
(total and per merge), over ``--runs`` repetitions, in a repository of ``--files`` files. Usage::

    python benchmarks/parallel.py [--n 1,2,4] [--sleep 2] [--k 2,4,8] [--runs 5] [--files 200] [--quick]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from common import make_repo, median, scratch, spread, subprocess_env, table, verdict

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


def fan_out_workflow(n: int, sleep: float) -> str:
    """N scripted branches that each sleep ``sleep`` seconds and write a file, joined by one phase."""
    heads = [f"b{i}" for i in range(n)]
    lines = [
        "alphred: 1", "key: wall", "defaults: {provider: scripted}",
        f"limits: {{max_parallel: {n}, max_steps: {n + 5}}}", "phases:",
        "  plan:", "    type: command", '    run: "true"', f"    transitions: [{{to: [{', '.join(heads)}]}}]"
        if n > 1 else "    transitions: [{to: b0}]",
    ]  # fmt: skip
    for head in heads:
        lines += [
            f"  {head}:",
            f'    script: [{{sleep: {sleep}, report: done, files: {{"{head}.txt": "{head}\\n"}}}}]',
            "    transitions: [{to: join}]",
        ]
    lines += ["  join:", *(["    join: all"] if n > 1 else []), "    type: command", "    run: ls"]
    return "\n".join(lines) + "\n"


def wall(root: Path, n: int, sleep: float) -> float:
    """Seconds one ``alphred run`` of the N-branch workflow takes, start to exit."""
    workflow = root.parent / f"wall-{n}-{sleep}.yaml"
    workflow.write_text(fan_out_workflow(n, sleep))
    command = [sys.executable, "-m", "alphred", "run", str(workflow), "--repo", str(root), "--quiet"]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=root, env=subprocess_env(), capture_output=True, text=True)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"alphred run failed: {done.stderr}")
    return took


def wall_table(root: Path, ns: list[int], sleep: float, runs: int) -> None:
    """Print wall time against S + overhead (the goal) and N×S + overhead (one after another)."""
    rows = []
    for n in ns:
        overhead = median([wall(root, n, 0) for _ in range(runs)])
        took = median([wall(root, n, sleep) for _ in range(runs)])
        goal = 1.1 * sleep + overhead
        rows.append(
            [n, f"{overhead:.2f}", f"{took:.2f}", f"{sleep + overhead:.2f}", f"{n * sleep + overhead:.2f}",
             f"{(took - overhead) / sleep:.2f}", verdict(took, goal)]
        )  # fmt: skip
    print(f"wall time of N scripted branches that each sleep S = {sleep:g}s (max_parallel N), median of {runs}")
    header = ["N", "overhead s (S=0)", "wall s", "S + overhead", "N×S + overhead", "(wall-overhead)/S", "≤ 1.1·S+ovh"]
    print(table(rows, header))


def main() -> None:
    """Measure each K ``--runs`` times; print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", default="1,2,4", help="comma-separated numbers of branches for the wall time")
    parser.add_argument("--sleep", type=float, default=2.0, help="seconds each branch sleeps (wall time)")
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
        ns = [2] if args.quick else [int(n) for n in args.n.split(",")]
        wall_table(root, ns, 0.5 if args.quick else args.sleep, runs)
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
