"""CLI start-up: ``alphred --help``, ``validate`` (every bundled template, a file using the costly features,
a generated 10-phase file) and the read commands ``status``, ``runs``, ``logs`` and ``workers``.

Each command runs in a fresh interpreter the way the console script does (``from alphred.cli import main;
main()``), ``--runs`` times, alternating with the bare interpreter (``python -c pass``). Printed: medians
and the time over the bare interpreter, which is what the goal (<= 150 ms, issues 28 and 29) bounds, and the
worst bundled template; the read commands run on a repository holding one finished run. ``--instructions``
adds a load-independent figure: each command's instruction count under ``valgrind --tool=callgrind``
(bytecode cached, one run each). ``validate_features.yaml`` uses typed ``output:``, guards, ``mcp:``,
``sandbox:``, ``for_each``, ``checks:`` and the claude, codex and openai providers. Usage::

    python benchmarks/cli_startup.py [--runs 21] [--quick] [--instructions] [--source OTHER_CHECKOUT]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from common import ROOT, generated_workflow, make_repo, median, scratch, spread, subprocess_env, table, verdict

GOAL_MS = 150.0
SOURCE: list[str] = []  # --source: another checkout of Alphred to measure (before/after figures)
HERE = Path(__file__).resolve().parent
FEATURES = HERE / "validate_features.yaml"
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


def bundled_templates() -> dict[str, Path]:
    """Every bundled workflow (``alphred/templates``, ``workflows``), one per distinct content, by name."""
    found: dict[str, Path] = {}
    seen: set[bytes] = set()
    for path in sorted([*(ROOT / "alphred" / "templates").glob("*.yaml"), *(ROOT / "workflows").glob("*.yaml")]):
        if path.read_bytes() not in seen:
            seen.add(path.read_bytes())
            found[f"{path.parent.name}/{path.name}"] = path
    return found


def instructions(args: list[str], cwd: Path) -> int:
    """Instructions one process executed (``valgrind --tool=callgrind``, bytecode cached by a run before)."""
    timed_process(args, cwd)
    out = cwd / "callgrind.out"
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *args]
    subprocess.run(command, cwd=cwd, env=child_env(), capture_output=True, check=True)
    total = next(line for line in out.read_text().splitlines() if line.startswith(("summary:", "totals:")))
    out.unlink()
    return int(total.split()[1])


def main() -> None:
    """Time the bare interpreter and both commands round-robin; print medians and the verdicts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="runs per command (medians are reported)")
    parser.add_argument("--quick", action="store_true", help="smoke mode: 3 runs")
    parser.add_argument("--instructions", action="store_true", help="also count instructions (valgrind)")
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
            "alphred validate validate_features.yaml": [sys.executable, "-c", ENTRY, "validate", str(FEATURES)],
            **{
                f"alphred validate {name}": [sys.executable, "-c", ENTRY, "validate", str(template)]
                for name, template in bundled_templates().items()
            },
            "alphred status 1": [sys.executable, "-c", ENTRY, "status", "1", "--repo", str(repo)],
            "alphred runs": [sys.executable, "-c", ENTRY, "runs", "--repo", str(repo)],
            "alphred logs 1": [sys.executable, "-c", ENTRY, "logs", "1", "--repo", str(repo)],
            "alphred workers": [sys.executable, "-c", ENTRY, "workers", "--repo", str(repo)],
        }
        for command in commands.values():  # warm the file cache and the bytecode
            timed_process(command, tmp)
        counts: dict[str, int] = {}
        if args.instructions and shutil.which("valgrind"):
            counts = {name: instructions(command, tmp) for name, command in commands.items()}
        samples: dict[str, list[float]] = {name: [] for name in commands}
        load = os.getloadavg()[0]
        for _ in range(runs):
            for name, command in commands.items():
                samples[name].append(timed_process(command, tmp))  # not ROOT: ``-c`` puts the cwd first
        load = max(load, os.getloadavg()[0])
    bare = median(samples["python -c pass"])
    rows = []
    for name, values in samples.items():
        over = median(values) - bare
        goal = "" if name.startswith("python") else f"+{over:.0f} ms over bare ({verdict(over, GOAL_MS)})"
        row = [name, f"{median(values):.0f}", spread(values, 0), goal]
        if counts:
            over_bare = counts[name] - counts["python -c pass"]
            row.append(
                f"{counts[name] / 1e6:.1f} M" + ("" if name.startswith("python") else f" (+{over_bare / 1e6:.1f} M)")
            )
        rows.append(row)
    header = ["command", "median ms", "range ms", f"goal: <= {GOAL_MS:.0f} ms over bare"]
    print(f"\nCLI start-up, median of {runs} runs (ms), load average up to {load:.1f}:\n")
    print(table(rows, header + (["instructions (over bare)"] if counts else [])))
    templates = {name: values for name, values in samples.items() if name.endswith(tuple(bundled_templates()))}
    worst = max(templates, key=lambda name: median(templates[name]))
    over = median(templates[worst]) - bare
    print(
        f"\nworst bundled template: {worst}, +{over:.0f} ms over bare"
        f" (goal <= {GOAL_MS:.0f} ms over bare: {verdict(over, GOAL_MS)})"
    )


if __name__ == "__main__":
    main()
