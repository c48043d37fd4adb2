"""Validation at scale: ``alphred validate`` on a generated 1,000-phase workflow (goal <= 1 s).

The figure is the wall time of the whole command in a fresh interpreter (start-up included), median of
``--runs``. To show where the time goes, one in-process run is split into YAML composition (``compose``),
building the model (``build``, guards parsed) and the graph checks (``check_graph``). Usage::

    python benchmarks/validate_scale.py [--phases 1000] [--runs 3] [--quick]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from common import ROOT, generated_workflow, median, scratch, spread, subprocess_env, table, verdict

GOAL_S = 1.0
ENTRY = "from alphred.cli import main; main()"


def command_seconds(path: Path) -> float:
    """Wall time of ``alphred validate PATH`` in a fresh interpreter (it must succeed)."""
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", ENTRY, "validate", str(path)], cwd=ROOT, env=subprocess_env(), capture_output=True
    )
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"validate failed ({result.returncode}):\n{result.stderr.decode()[-2000:]}")
    return elapsed


def stages(path: Path) -> dict[str, float]:
    """Seconds spent in each stage of one in-process validation."""
    import alphred.workflow.load as load
    from alphred.providers import default_registry
    from alphred.workflow import check_workflow

    spent: dict[str, float] = {"compose": 0.0, "check_graph": 0.0}

    def clocked(name: str, func: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - started

        return call

    originals = (load.compose, load.check_graph)
    load.compose, load.check_graph = clocked("compose", load.compose), clocked("check_graph", load.check_graph)
    try:
        started = time.perf_counter()
        workflow, diagnostics = check_workflow(path, providers=default_registry())
        total = time.perf_counter() - started
    finally:
        load.compose, load.check_graph = originals
    assert workflow is not None and not diagnostics, [d.format() for d in diagnostics][:5]
    spent["build"] = total - spent["compose"] - spent["check_graph"]
    spent["total"] = total
    return spent


def main() -> None:
    """Generate the workflow, time the command, print the figure and the stage split."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phases", type=int, default=1000, help="phases in the generated workflow")
    parser.add_argument("--runs", type=int, default=3, help="runs (the median is reported)")
    parser.add_argument("--quick", action="store_true", help="smoke mode: 100 phases, 1 run")
    args = parser.parse_args()
    phases, runs = (100, 1) if args.quick else (args.phases, args.runs)
    with scratch("validate") as tmp:
        path = tmp / "generated.yaml"
        path.write_text(generated_workflow(phases))
        lines = path.read_text().count("\n")
        times = [command_seconds(path) for _ in range(runs)]
        split = stages(path)
    figure = median(times)
    print(f"\n`alphred validate` on a generated {phases}-phase workflow ({lines} lines), {runs} run(s):\n")
    rows = [[f"alphred validate ({phases} phases)", f"{figure:.2f}", spread(times), verdict(figure, GOAL_S)]]
    print(table(rows, ["command", "median s", "range s", f"goal <= {GOAL_S:.0f} s"]))
    print("\nIn-process split of one validation (s):\n")
    print(table([[name, f"{seconds:.3f}"] for name, seconds in split.items()], ["stage", "seconds"]))


if __name__ == "__main__":
    main()
