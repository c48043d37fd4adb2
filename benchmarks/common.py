"""Helpers shared by the benchmark scripts: timing, medians, scratch git repositories, tables.

Benchmarks are scripts, never timed tests. Each script prints its figures and, where a peer exists, the
ratio measured in the same run. ``ROOT`` is put on ``sys.path`` so the scripts run from a fresh clone.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@localhost",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@localhost",
}


def median(values: Sequence[float]) -> float:
    """The median of ``values``."""
    return float(statistics.median(values))


def spread(values: Sequence[float], digits: int = 2) -> str:
    """``min..max`` of ``values`` for the printed tables."""
    return f"{min(values):.{digits}f}..{max(values):.{digits}f}"


def timed(func: Callable[[], object]) -> float:
    """Seconds ``func()`` took (wall clock)."""
    started = time.perf_counter()
    func()
    return time.perf_counter() - started


PYCACHE = Path(tempfile.gettempdir()) / "alphred-bench-pycache"


def subprocess_env() -> dict[str, str]:
    """The environment for child processes: this checkout on ``PYTHONPATH``, a fixed git identity.

    Bytecode is written (to a cache outside the checkout), as an installed package has it: a child that
    recompiled every module from source would measure the compiler, not Alphred.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    env.update(GIT_IDENTITY)
    return env


def git(args: Sequence[str], cwd: Path) -> str:
    """Run ``git ARGS`` in ``cwd`` (checked); its stdout."""
    env = {**os.environ, **GIT_IDENTITY}
    result = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return result.stdout


def make_repo(path: Path, files: int = 3) -> Path:
    """A git repository at ``path`` with one commit of ``files`` small files (spread over directories)."""
    path.mkdir(parents=True, exist_ok=True)
    git(["init", "-q", "-b", "main"], path)
    for index in range(files):
        target = path / f"src/d{index // 500:03d}/f{index:05d}.txt" if files > 10 else path / f"f{index}.txt"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"file {index}\n")
    git(["add", "-A"], path)
    git(["-c", "gc.auto=0", "commit", "-q", "-m", "initial"], path)  # no background gc skewing the figures
    return path


@contextlib.contextmanager
def scratch(prefix: str) -> Iterator[Path]:
    """A temporary directory, removed afterwards."""
    directory = Path(tempfile.mkdtemp(prefix=f"alphred-bench-{prefix}-"))
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def generated_workflow(phases: int) -> str:
    """A valid, warning-free workflow of ``phases`` scripted phases: a chain with guarded back edges.

    Every phase has a prompt template reading an input and the previous phase's report, a ``decisions``
    list, a script, and three transitions (a guard on ``decision`` and ``attempt``, a capped back edge and
    a ``$fail`` fallback), so that validation exercises guards, templates and the graph checks.
    """
    lines = ["alphred: 1", "key: generated", "inputs:", "  task: {default: demo}", "defaults: {provider: scripted}"]
    lines.append("phases:")
    for index in range(phases):
        following = f"p{index + 1}" if index + 1 < phases else "$end"
        previous = f"p{max(index - 1, 0)}"
        lines += [
            f"  p{index}:",
            f'    prompt: "Step {index} of {{{{ inputs.task }}}}: {{{{ phases.{previous}.report }}}}"',
            "    decisions: [approved, changes_requested]",
            '    script: [{decision: approved, report: "ok"}]',
            "    transitions:",
            f'      - {{to: {following}, when: decision == "approved" and attempt < 5}}',
            f'      - {{to: {previous}, when: decision == "changes_requested", max: 2}}',
            "      - {to: $fail}",
        ]
    return "\n".join(lines) + "\n"


def table(rows: Sequence[Sequence[object]], header: Sequence[str]) -> str:
    """A plain Markdown table (also readable on a terminal)."""
    cells = [[str(c) for c in header], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |" for row in cells]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def verdict(value: float, goal: float, lower_is_better: bool = True) -> str:
    """``met`` or ``MISSED`` against ``goal``."""
    ok = value <= goal if lower_is_better else value >= goal
    return "met" if ok else "MISSED"


def peer_available(module: str) -> bool:
    """Whether an optional peer (``pip install -r benchmarks/requirements.txt``) is importable."""
    import importlib.util

    return importlib.util.find_spec(module) is not None


def alphred_run_seconds(root: Path, workflow: Path) -> float:
    """Seconds one ``alphred run WORKFLOW`` (a real process, ``--quiet``) in ``root`` takes, start to exit."""
    command = [sys.executable, "-m", "alphred", "run", str(workflow), "--repo", str(root), "--quiet"]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=root, env=subprocess_env(), capture_output=True, text=True)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"alphred run failed: {done.stderr}")
    return took


def fan_out_wall_table(
    root: Path, ns: Sequence[int], sleep: float, runs: int, workflow: Callable[[int, float], str], what: str
) -> None:
    """Print the wall time of ``alphred run`` of ``workflow(n, sleep)`` (N branches that each sleep S seconds,
    ``max_parallel`` N) against S + 10 % + overhead (the goal) and N×S + overhead (one after another); the
    overhead is the same run with S = 0. ``what`` names the branches in the title."""

    def wall(n: int, seconds: float) -> float:
        path = root.parent / f"wall-{n}-{seconds:g}.yaml"
        path.write_text(workflow(n, seconds))
        return alphred_run_seconds(root, path)

    rows = []
    for n in ns:
        overhead = median([wall(n, 0) for _ in range(runs)])
        took = median([wall(n, sleep) for _ in range(runs)])
        goal = 1.1 * sleep + overhead
        rows.append(
            [n, f"{overhead:.2f}", f"{took:.2f}", f"{sleep + overhead:.2f}", f"{n * sleep + overhead:.2f}",
             f"{(took - overhead) / sleep:.2f}", verdict(took, goal)]
        )  # fmt: skip
    print(f"wall time of N {what} that each sleep S = {sleep:g}s (max_parallel N), median of {runs}")
    print(f"load average {os.getloadavg()[0]:.1f}")
    header = ["N", "overhead s (S=0)", "wall s", "S + overhead", "N×S + overhead", "(wall-overhead)/S", "≤ 1.1·S+ovh"]
    print(table(rows, header))


def lanes_made_and_merged(root: Path, keys: Sequence[str], run_id: int) -> tuple[float, float]:
    """Through ``alphred.git.merges.LaneGit`` (the code the runtime's branches and join call): milliseconds to
    make a lane worktree per key from a new run branch, each committing one file, and then to merge them all
    ``--no-ff`` in order into the run's worktree (each lane's worktree removed once merged, as the runtime does).
    """
    from alphred.git import GitWorktrees, locate_repository, phase_commit_message
    from alphred.git.merges import LaneGit, merge_message

    worktrees = GitWorktrees(locate_repository(root))
    run = worktrees.create(run_id, f"alphred/bench/{run_id}", worktrees.resolve_base().sha)
    lanes = LaneGit(worktrees)
    head = worktrees.head_sha(run.path)
    made = []
    started = time.perf_counter()
    for key in keys:
        lane = lanes.create_lane(run_id, run.branch, key, head)
        (lane.path / f"{key}.txt").write_text(f"{key}\n")
        worktrees.commit_phase(lane.path, phase_commit_message("bench", key, 1))
        made.append(lane)
    created = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    for key, lane in zip(keys, made, strict=True):
        outcome = lanes.merge(run.path, lane.branch, merge_message("bench", key))
        if outcome.sha is None:
            raise SystemExit(f"{key} conflicted: {outcome.conflicts}")
        worktrees.remove(lane.path)
    merged = (time.perf_counter() - started) * 1000
    worktrees.remove(run.path)
    return created, merged
