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

from common import fan_out_wall_table, lanes_made_and_merged, make_repo, median, scratch, spread, table


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
        fan_out_wall_table(root, ns, 0.5 if args.quick else args.sleep, runs, fan_out_workflow, "scripted branches")
        run_id = 0
        for k in ks:
            created: list[float] = []
            merged: list[float] = []
            for _ in range(runs):
                run_id += 1
                c, m = lanes_made_and_merged(root, [f"lane{i}" for i in range(k)], run_id)
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
