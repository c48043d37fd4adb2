"""Dynamic fan-out (SPEC §13): wall time of a for_each over N items, merge cost per item branch, and what
making an item's worktree costs as the repository grows.

Wall time: ``alphred run`` (a real process) of a workflow whose ``scripted`` planner returns N tasks; a
``for_each`` starts one branch per task (``max_parallel: N``), each a command that sleeps S seconds and
writes its own file (so that every item has a commit to merge), joined by ``join: all_done``. The same run
with S = 0 gives the overhead (start-up, N item worktrees, N commits, N merges, the join); the goal of
issue 24 is a wall time within S + 10 % + that overhead.

Merge cost and worktree creation: through ``alphred.git.merges.LaneGit`` (the code the runtime's join and
branches call), K item worktrees ``implement-<i>`` are made from the run branch, each commits one file, and
they are merged ``--no-ff`` in item order; printed per item, in repositories of ``--files`` files (default
500 and 5,000), so that the growth with the repository's size shows. Usage::

    python benchmarks/for_each.py [--n 1,4,16] [--sleep 2] [--k 8] [--files 500,5000] [--runs 3] [--quick]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from common import make_repo, median, scratch, spread, subprocess_env, table, verdict

from alphred.git import GitWorktrees, locate_repository, phase_commit_message
from alphred.git.merges import LaneGit, merge_message


def for_each_workflow(n: int, sleep: float) -> str:
    """A scripted planner returning ``n`` tasks; one command branch per task sleeping ``sleep`` seconds."""
    tasks = json.dumps([{"title": f"t{i}"} for i in range(n)])
    return (
        "alphred: 1\nkey: fanout\ndefaults: {provider: scripted}\n"
        f"limits: {{max_parallel: {max(n, 1)}, max_items: {max(n, 1)}, max_steps: {n + 5}}}\n"
        "phases:\n"
        f"  plan:\n    script: [{{report: {{tasks: {tasks}}}}}]\n"
        "    transitions: [{to: implement, for_each: report.tasks, as: task}]\n"
        "  implement:\n    type: command\n"
        f'    run: "sleep {sleep:g}; echo {{{{ task.title }}}} > item-{{{{ task_index }}}}.txt"\n'
        "    transitions: [{to: integrate}]\n"
        "  integrate:\n    join: all_done\n    type: command\n    run: ls\n"
    )


def wall(root: Path, n: int, sleep: float) -> float:
    """Seconds one ``alphred run`` of the N-item for_each takes, start to exit."""
    workflow = root.parent / f"for-each-{n}-{sleep:g}.yaml"
    workflow.write_text(for_each_workflow(n, sleep))
    command = [sys.executable, "-m", "alphred", "run", str(workflow), "--repo", str(root), "--quiet"]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=root, env=subprocess_env(), capture_output=True, text=True)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"alphred run failed: {done.stderr}")
    return took


def wall_table(root: Path, ns: list[int], sleep: float, runs: int) -> None:
    """Print the wall time against S + 10 % + overhead (the goal) and N×S + overhead (one after another)."""
    rows = []
    for n in ns:
        overhead = median([wall(root, n, 0) for _ in range(runs)])
        took = median([wall(root, n, sleep) for _ in range(runs)])
        goal = 1.1 * sleep + overhead
        rows.append(
            [n, f"{overhead:.2f}", f"{took:.2f}", f"{sleep + overhead:.2f}", f"{n * sleep + overhead:.2f}",
             f"{(took - overhead) / sleep:.2f}", verdict(took, goal)]
        )  # fmt: skip
    print(f"for_each over N items that each sleep S = {sleep:g}s (max_parallel N), median of {runs}")
    header = ["N", "overhead s (S=0)", "wall s", "S + overhead", "N×S + overhead", "(wall-overhead)/S", "≤ 1.1·S+ovh"]
    print(table(rows, header))


def items(root: Path, k: int, run_id: int) -> tuple[float, float]:
    """Milliseconds per item to make its worktree (with one commit) and to merge it, for ``k`` items."""
    worktrees = GitWorktrees(locate_repository(root))
    run = worktrees.create(run_id, f"alphred/bench/{run_id}", worktrees.resolve_base().sha)
    lanes = LaneGit(worktrees)
    head = worktrees.head_sha(run.path)
    made = []
    started = time.perf_counter()
    for index in range(k):
        lane = lanes.create_lane(run_id, run.branch, f"implement-{index}", head)
        (lane.path / f"item-{index}.txt").write_text(f"item {index}\n")
        worktrees.commit_phase(lane.path, phase_commit_message("bench", f"implement-{index}", 1))
        made.append(lane)
    created = (time.perf_counter() - started) * 1000 / k
    started = time.perf_counter()
    for index, lane in enumerate(made):
        outcome = lanes.merge(run.path, lane.branch, merge_message("bench", f"implement-{index}"))
        if outcome.sha is None:
            raise SystemExit(f"implement-{index} conflicted: {outcome.conflicts}")
    merged = (time.perf_counter() - started) * 1000 / k
    for lane in made:
        worktrees.remove(lane.path)
    worktrees.remove(run.path)
    return created, merged


def main() -> None:
    """Measure; print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", default="1,4,16", help="comma-separated numbers of items for the wall time")
    parser.add_argument("--sleep", type=float, default=2.0, help="seconds each item sleeps (wall time)")
    parser.add_argument("--k", type=int, default=8, help="items per merge-cost measurement")
    parser.add_argument("--files", default="500,5000", help="comma-separated repository sizes (files)")
    parser.add_argument("--runs", type=int, default=3, help="repetitions (medians are reported)")
    parser.add_argument("--quick", action="store_true", help="smoke mode: N=2, K=2, 1 run, 20 and 200 files")
    args = parser.parse_args()
    quick = args.quick
    ns = [2] if quick else [int(n) for n in args.n.split(",")]
    sizes = [20, 200] if quick else [int(f) for f in args.files.split(",")]
    runs, k = (1, 2) if quick else (args.runs, args.k)
    rows = []
    with scratch("for-each") as tmp:
        wall_table(make_repo(tmp / "wall", 200).resolve(), ns, 0.5 if quick else args.sleep, runs)
        run_id = 0
        for files in sizes:
            root = make_repo(tmp / f"repo-{files}", files).resolve()
            created: list[float] = []
            merged: list[float] = []
            for _ in range(runs):
                run_id += 1
                c, m = items(root, k, run_id)
                created.append(c)
                merged.append(m)
            rows.append(
                [files, f"{median(created):.0f} ({spread(created, 0)})", f"{median(merged):.0f} ({spread(merged, 0)})"]
            )
    print(f"per item branch, {k} items, median of {runs} (range)")
    print(table(rows, ["repository files", "make worktree + commit, ms/item", "--no-ff merge, ms/item"]))


if __name__ == "__main__":
    main()
