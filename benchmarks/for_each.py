"""Dynamic fan-out (SPEC §13): wall time of a for_each over N items, merge cost per item branch, and what
making an item's worktree costs as the repository grows, by each way git offers.

Wall time: ``alphred run`` (a real process) of a workflow whose ``scripted`` planner returns N tasks; a
``for_each`` starts one branch per task (``max_parallel: N``), each a command that sleeps S seconds and
writes its own file (so that every item has a commit to merge), joined by ``join: all_done``. The same run
with S = 0 gives the overhead (start-up, N item worktrees, N commits, N merges, the join); the goal of
issue 24 is a wall time within S + 10 % + that overhead.

Worktree methods (``--only methods``): in packed repositories of ``--method-files`` files (default 500, 5,000
and 20,000), each way of making an item's worktree with the FULL tree (plain ``git worktree add``;
``--no-checkout`` then ``reset --hard`` with and without parallel checkout; ``read-tree`` + ``checkout-index``;
the run worktree's index copied, then ``checkout-index``; ``feature.manyFiles``), beside git's fixed cost
(``--no-checkout`` alone), the floor of writing the files without git (``tar | tar``) and ``LaneGit.create_lane``
(what the runtime calls). Samples are interleaved; wall and CPU (this process and its children: the
load-independent figure) with the load average.

Merge cost and worktree creation: through ``alphred.git.merges.LaneGit`` (the code the runtime's join and
branches call), K item worktrees ``implement-<i>`` are made from the run branch, each commits one file, and
they are merged ``--no-ff`` in item order; printed per item, in repositories of ``--files`` files (default
500 and 5,000), so that the growth with the repository's size shows. Usage::

    python benchmarks/for_each.py [--n 1,4,16] [--sleep 2] [--k 8] [--files 500,5000] [--runs 3] [--quick]
        [--only wall|methods|items|lanes] [--method-files 500,5000,20000] [--methods add,reset,LaneGit]

Lanes made at once (``--only lanes``): N (the largest of ``--n``) item worktrees made through
``LaneGit.create_lane`` from a thread pool the size of asyncio's default executor (what the runtime's
branches use), one at a time (a lock around each, as the runtime did before lanes were made at once) and
at once (git's worktree registry serialised alone, ``registry_lock``); rounds interleaved, wall and git's
CPU per round, in repositories of ``--files`` files.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from common import fan_out_wall_table, git, lanes_made_and_merged, make_repo, median, scratch, spread, table

from alphred.git import GitWorktrees, locate_repository
from alphred.git.merges import LaneGit


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


# -- making an item's worktree: the alternatives (issue 24, item 8) ---------------------------------------


def _plain(repo: Path, run: Path, path: Path, branch: str, sha: str) -> None:
    git(["worktree", "add", "-q", "-b", branch, str(path), sha], repo)


def _many_files(repo: Path, run: Path, path: Path, branch: str, sha: str) -> None:
    git(["-c", "feature.manyFiles=true", "worktree", "add", "-q", "-b", branch, str(path), sha], repo)


def _no_checkout(repo: Path, run: Path, path: Path, branch: str, sha: str) -> None:
    git(["worktree", "add", "-q", "--no-checkout", "-b", branch, str(path), sha], repo)


PARALLEL = ["-c", "checkout.workers=2", "-c", "checkout.thresholdForParallelism=100", "-c", "core.preloadIndex=true"]


def _reset_hard(repo: Path, run: Path, path: Path, branch: str, sha: str) -> None:
    _no_checkout(repo, run, path, branch, sha)
    git([*PARALLEL, "reset", "-q", "--hard"], path)


def _reset_serial(repo: Path, run: Path, path: Path, branch: str, sha: str) -> None:
    _no_checkout(repo, run, path, branch, sha)
    git(["-c", "checkout.workers=1", "reset", "-q", "--hard"], path)


def _read_tree(repo: Path, run: Path, path: Path, branch: str, sha: str) -> None:
    _no_checkout(repo, run, path, branch, sha)
    git(["read-tree", "HEAD"], path)
    git([*PARALLEL, "checkout-index", "-a", "-f", "-u"], path)


def _shared_index(repo: Path, run: Path, path: Path, branch: str, sha: str) -> None:
    _no_checkout(repo, run, path, branch, sha)
    admin = Path(git(["rev-parse", "--git-dir"], path).strip())
    source = Path(git(["rev-parse", "--git-dir"], run).strip())
    shutil.copyfile(source / "index", admin / "index")
    git([*PARALLEL, "checkout-index", "-a", "-f", "-u"], path)


def _tar_copy(repo: Path, run: Path, path: Path, branch: str, sha: str) -> None:
    """Not a worktree: the run worktree's files copied by ``tar`` (C, no git): the floor of writing N files."""
    path.mkdir(parents=True)
    subprocess.run(
        ["sh", "-c", 'tar -C "$1" --exclude=.git -cf - . | tar -C "$2" -xf -', "sh", str(run), str(path)],
        check=True,
    )


def _lane_git(repo: Path, run: Path, path: Path, branch: str, sha: str) -> None:
    """What the runtime calls: ``LaneGit.create_lane`` (a fresh ``GitWorktrees``, as a new process has)."""
    worktrees = GitWorktrees(locate_repository(repo))
    lanes = LaneGit(worktrees)
    run_id, _, phase = path.name.partition(".")
    made = lanes.create_lane(int(run_id), "alphred/bench/methods", phase, sha)
    if made.path != path:
        raise SystemExit(f"LaneGit made {made.path}, not {path}")


METHODS: dict[str, tuple[str, Callable[[Path, Path, Path, str, str], None]]] = {
    "add": ("`git worktree add` (full checkout)", _plain),
    "many-files": ("`git -c feature.manyFiles=true worktree add` (index v4, untracked cache)", _many_files),
    "reset": ("`worktree add --no-checkout` + `reset --hard` (checkout.workers=2, preloadIndex)", _reset_hard),
    "reset-serial": ("`worktree add --no-checkout` + `reset --hard` (checkout.workers=1)", _reset_serial),
    "read-tree": ("`--no-checkout` + `read-tree HEAD` + `checkout-index -a -u` (workers=2)", _read_tree),
    "shared-index": ("`--no-checkout` + the run worktree's index copied + `checkout-index -a -u` (workers=2)",
                     _shared_index),
    "no-checkout": ("`worktree add --no-checkout` alone (git's fixed cost; NOT a usable tree)", _no_checkout),
    "tar": ("`tar | tar` copy of the files, no git (the floor: writing N files; NOT a worktree)", _tar_copy),
    "LaneGit": ("`LaneGit.create_lane` (what the runtime calls, in-process)", _lane_git),
}  # fmt: skip


def cpu_of_children() -> float:
    """CPU seconds (user + system) of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def method_samples(root: Path, names: list[str], runs: int) -> dict[str, tuple[list[float], list[float]]]:
    """Wall ms and CPU ms (this process and its children) of each method, samples interleaved (method after
    method, ``runs`` rounds) so that a change of load hits them alike; each tree is checked and removed."""
    run = root / ".alphred" / "worktrees" / "1"  # where a run's worktree is, and LaneGit puts an item's
    with (root / ".git" / "info" / "exclude").open("a") as exclude:
        exclude.write("/.alphred/\n")
    sha = git(["rev-parse", "HEAD"], root).strip()
    git(["worktree", "add", "-q", "-b", "alphred/bench/methods", str(run), sha], root)
    git(["status", "--porcelain"], run)  # the run worktree's index refreshed, as a run's is after its commits
    found: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in names}
    serial = 0
    for _ in range(runs):
        for name in names:
            serial += 1
            path = run.parent / f"1.implement-{serial}"
            branch = f"alphred/bench/methods.implement-{serial}"
            cpu, self_cpu, started = cpu_of_children(), time.process_time(), time.perf_counter()
            METHODS[name][1](root, run, path, branch, sha)
            found[name][0].append((time.perf_counter() - started) * 1000)
            found[name][1].append((cpu_of_children() - cpu + time.process_time() - self_cpu) * 1000)
            _check_and_remove(root, path, branch, name)
    git(["worktree", "remove", "--force", str(run)], root)
    return found


def _check_and_remove(root: Path, path: Path, branch: str, name: str) -> None:
    if name == "tar":
        shutil.rmtree(path)
        return
    if name != "no-checkout":
        left = git(["status", "--porcelain", "--untracked-files=all"], path)
        if left.strip():
            raise SystemExit(f"{name}: the new worktree is not clean: {left[:300]}")
    git(["worktree", "remove", "--force", str(path)], root)
    git(["branch", "-D", branch], root)


def methods_table(sizes: list[int], names: list[str], runs: int, tmp: Path) -> None:
    """Print per method and repository size: median wall ms, median CPU ms, and the load average (a table per
    size, printed as soon as it is measured)."""
    print(f"making one item's worktree (full tree), median of {runs} (range), samples interleaved")
    for name in names:
        print(f"  {name}: {METHODS[name][0]}")
    for files in sizes:
        root = make_repo(tmp / f"methods-{files}", files).resolve()
        git(["gc", "-q"], root)  # objects packed, as in a real repository
        load = os.getloadavg()[0]
        rows = [
            [files, name, f"{median(walls):.0f} ({spread(walls, 0)})", f"{median(cpus):.0f}", f"{load:.1f}"]
            for name, (walls, cpus) in method_samples(root, names, runs).items()
        ]
        shutil.rmtree(root, ignore_errors=True)
        print(table(rows, ["repository files", "method", "wall ms", "CPU ms (incl. children)", "load average"]))
        print(flush=True)


def main() -> None:
    """Measure; print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", default="1,4,16", help="comma-separated numbers of items for the wall time")
    parser.add_argument("--sleep", type=float, default=2.0, help="seconds each item sleeps (wall time)")
    parser.add_argument("--k", type=int, default=8, help="items per merge-cost measurement")
    parser.add_argument("--files", default="500,5000", help="comma-separated repository sizes (files)")
    parser.add_argument("--method-files", default="500,5000,20000", help="repository sizes for the methods")
    parser.add_argument("--methods", default=",".join(METHODS), help="comma-separated worktree methods")
    parser.add_argument("--only", choices=["wall", "items", "methods", "lanes"], help="measure one part only")
    parser.add_argument("--runs", type=int, default=3, help="repetitions (medians are reported)")
    parser.add_argument("--quick", action="store_true", help="smoke mode: N=2, K=2, 1 run, 20 and 200 files")
    args = parser.parse_args()
    quick = args.quick
    ns = [2] if quick else [int(n) for n in args.n.split(",")]
    sizes = [20, 200] if quick else [int(f) for f in args.files.split(",")]
    method_sizes = [20, 200] if quick else [int(f) for f in args.method_files.split(",")]
    runs, k = (1, 2) if quick else (args.runs, args.k)
    with scratch("for-each") as tmp:
        if args.only in (None, "wall"):
            root = make_repo(tmp / "wall", 200).resolve()
            fan_out_wall_table(root, ns, 0.5 if quick else args.sleep, runs, for_each_workflow, "for_each items")
        if args.only in (None, "methods"):
            methods_table(method_sizes, args.methods.split(","), runs, tmp)
        if args.only in (None, "items"):
            items_table(sizes, k, runs, tmp)
        if args.only in (None, "lanes"):
            lanes_table(sizes, max(ns), runs, tmp)


def items_table(sizes: list[int], k: int, runs: int, tmp: Path) -> None:
    """Print per repository size: ms per item to make its worktree with one commit, and to merge it."""
    rows = []
    run_id = 0
    for files in sizes:
        root = make_repo(tmp / f"repo-{files}", files).resolve()
        created: list[float] = []
        merged: list[float] = []
        for _ in range(runs):
            run_id += 1
            c, m = lanes_made_and_merged(root, [f"implement-{i}" for i in range(k)], run_id)
            created.append(c / k)
            merged.append(m / k)
        rows.append(
            [files, f"{median(created):.0f} ({spread(created, 0)})", f"{median(merged):.0f} ({spread(merged, 0)})"]
        )
    print(f"per item branch, {k} items, median of {runs} (range), load average {os.getloadavg()[0]:.1f}")
    print(
        table(
            rows, ["repository files", "make worktree + commit, ms/item", "--no-ff merge + worktree removal, ms/item"]
        )
    )


def lanes_at_once(root: Path, n: int, run_id: int, one_at_a_time: bool) -> tuple[float, float]:
    """Seconds of wall and of git's CPU to make ``n`` lane worktrees of a new run from a thread pool of
    asyncio's default size, each call under one lock (``one_at_a_time``) or not; every lane checked whole."""
    worktrees = GitWorktrees(locate_repository(root))
    run = worktrees.create(run_id, f"alphred/bench/{run_id}", worktrees.resolve_base().sha)
    lanes, head, serial = LaneGit(worktrees), worktrees.head_sha(run.path), threading.Lock()

    def make(index: int) -> Path:
        with serial if one_at_a_time else contextlib.nullcontext():
            return lanes.create_lane(run_id, run.branch, f"implement-{index}", head).path

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=min(32, (os.cpu_count() or 1) + 4)) as pool:
        paths = list(pool.map(make, range(n)))
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    for path in paths:
        if git(["status", "--porcelain"], path).strip():
            raise SystemExit(f"{path} is not a clean checkout")
    for path in [*paths, run.path]:
        worktrees.remove(path)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def lanes_table(sizes: list[int], n: int, runs: int, tmp: Path) -> None:
    """Print per repository size: wall and git CPU to make N lane worktrees one at a time and at once."""
    rows = []
    run_id = 1000
    for files in sizes:
        root = make_repo(tmp / f"lanes-{files}", files).resolve()
        samples: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for _ in range(runs):
            for one_at_a_time in (True, False):  # interleaved: both see the same load
                run_id += 1
                samples[one_at_a_time].append(lanes_at_once(root, n, run_id, one_at_a_time))
        for one_at_a_time, found in samples.items():
            walls, cpus = [w for w, _ in found], [c for _, c in found]
            way = "one at a time" if one_at_a_time else "at once"
            rows.append([files, way, f"{median(walls):.2f} ({spread(walls, 2)})", f"{median(cpus):.2f}"])
        shutil.rmtree(root, ignore_errors=True)
    print(f"{n} lane worktrees made from a thread pool, median of {runs} (range), load {os.getloadavg()[0]:.1f}")
    print(table(rows, ["repository files", "lanes made", "wall s", "git CPU s"]))


if __name__ == "__main__":
    main()
