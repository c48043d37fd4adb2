"""CLI start-up: ``alphred --help``, ``validate`` (generated 10-phase file) and the read commands ``status``,
``runs``, ``logs`` and ``workers``.

Each command runs in a fresh interpreter the way the console script does (``from alphred.cli import main;
main()``), ``--runs`` times, alternating with the bare interpreter (``python -c pass``). Printed: medians
and the time over the bare interpreter, which is what the goal (<= 150 ms, issue 28) bounds; the read
commands run on a repository holding one finished run. Usage::

    python benchmarks/cli_startup.py [--runs 21] [--quick] [--source OTHER_CHECKOUT]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from common import generated_workflow, make_repo, median, scratch, spread, subprocess_env, table, verdict

GOAL_MS = 150.0
SOURCE: list[str] = []  # --source: another checkout of Alphred to measure (before/after figures)
ONE_PHASE = "alphred: 1\nkey: one\nphases:\n  say:\n    type: command\n    run: echo hello\n"


def child_env() -> dict[str, str]:
    """The children's environment, with ``--source`` first on ``PYTHONPATH``."""
    env = subprocess_env()
    if SOURCE:
        env["PYTHONPATH"] = os.pathsep.join((SOURCE[0], env["PYTHONPATH"]))
    return env


ENTRY = "from alphred.cli import main; main()"


def timed_process(args: list[str], cwd: Path) -> float:
    """Milliseconds one process took from spawn to exit (it must succeed)."""
    started = time.perf_counter()
    result = subprocess.run(args, cwd=cwd, env=child_env(), capture_output=True, check=False)
    elapsed = (time.perf_counter() - started) * 1000
    if result.returncode != 0:
        raise SystemExit(f"{args} failed ({result.returncode}):\n{result.stderr.decode()[-2000:]}")
    return elapsed


def main() -> None:
    """Time the bare interpreter and both commands round-robin; print medians and the verdicts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="runs per command (medians are reported)")
    parser.add_argument("--quick", action="store_true", help="smoke mode: 3 runs")
    parser.add_argument("--source", help="another Alphred checkout to measure (the directory holding alphred/)")
    args = parser.parse_args()
    if args.source:
        SOURCE.append(os.path.abspath(args.source))
    runs = 3 if args.quick else args.runs
    with scratch("cli") as tmp:
        path = tmp / "generated.yaml"
        path.write_text(generated_workflow(10))
        repo = make_repo(tmp / "repo")
        (tmp / "one.yaml").write_text(ONE_PHASE)
        timed_process([sys.executable, "-c", ENTRY, "run", str(tmp / "one.yaml")], repo)
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "alphred --help": [sys.executable, "-c", ENTRY, "--help"],
            "alphred validate (10 phases)": [sys.executable, "-c", ENTRY, "validate", str(path)],
            "alphred status 1": [sys.executable, "-c", ENTRY, "status", "1", "--repo", str(repo)],
            "alphred runs": [sys.executable, "-c", ENTRY, "runs", "--repo", str(repo)],
            "alphred logs 1": [sys.executable, "-c", ENTRY, "logs", "1", "--repo", str(repo)],
            "alphred workers": [sys.executable, "-c", ENTRY, "workers", "--repo", str(repo)],
        }
        for command in commands.values():  # warm the file cache and the bytecode
            timed_process(command, tmp)
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                samples[name].append(timed_process(command, tmp))  # not ROOT: ``-c`` puts the cwd first
    bare = median(samples["python -c pass"])
    rows = []
    for name, values in samples.items():
        over = median(values) - bare
        goal = "" if name.startswith("python") else f"+{over:.0f} ms over bare ({verdict(over, GOAL_MS)})"
        rows.append([name, f"{median(values):.0f}", spread(values, 0), goal])
    print(f"\nCLI start-up, median of {runs} runs (ms):\n")
    print(table(rows, ["command", "median ms", "range ms", f"goal (+{GOAL_MS:.0f} ms over bare)"]))


if __name__ == "__main__":
    main()
