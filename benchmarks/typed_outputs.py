"""Typed outputs (SPEC §12): what ``output:`` costs.

1. ``alphred validate`` of the generated 10-phase workflow, untyped and with an ``output:`` schema on every
   phase (a typed guard path each), in fresh interpreters as users run it (``jsonschema`` is imported only
   for a file that has a schema): medians of ``--runs`` alternating runs.
2. In process: validating one answer against a schema (``typed_answer``, what every typed attempt pays).

    python benchmarks/typed_outputs.py [--runs 15] [--quick]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from common import generated_workflow, median, scratch, subprocess_env, table

OUTPUT = (
    "    output: {type: object, required: [severity, tasks], properties: {severity: {enum: [low, high]}, "
    "tasks: {type: array, items: {type: object, properties: {title: {type: string}}}}}}\n"
    '    script: [{decision: approved, report: {severity: low, tasks: [{title: "a"}]}}]\n'
)


def typed_workflow(phases: int) -> str:
    """``generated_workflow`` with an ``output:`` on every phase and its first guard reading a typed field."""
    text = generated_workflow(phases)
    text = text.replace('    script: [{decision: approved, report: "ok"}]\n', OUTPUT)
    guard = 'when: decision == "approved" and attempt < 5'
    return text.replace(guard, 'when: report.severity == "low" and attempt < 5')


def cli_ms(path: str) -> float:
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", "from alphred.cli import main; main()", "validate", "-q", path],
        env=subprocess_env(),
        capture_output=True,
        check=False,
    )
    elapsed = (time.perf_counter() - started) * 1000
    if result.returncode != 0:
        raise SystemExit(f"validate failed:\n{result.stderr.decode()[-2000:]}")
    return elapsed


def answer_us(count: int) -> float:
    from alphred.providers import default_registry
    from alphred.runtime.typed_output import typed_answer
    from alphred.workflow import load_workflow

    workflow = load_workflow("typed.yaml", typed_workflow(2), providers=default_registry())
    phase = workflow.phase("p0")
    report = {"severity": "low", "tasks": [{"title": f"task {i}"} for i in range(8)]}
    typed_answer(phase, "approved", report, "")  # warm: jsonschema imported, meta-schema loaded
    started = time.perf_counter()
    for _ in range(count):
        answer = typed_answer(phase, "approved", report, "")
        assert not answer.violations
    return (time.perf_counter() - started) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="smoke mode: 3 runs")
    args = parser.parse_args()
    runs = 3 if args.quick else args.runs
    with scratch("typed") as tmp:
        plain, typed = tmp / "plain.yaml", tmp / "typed.yaml"
        plain.write_text(generated_workflow(10))
        typed.write_text(typed_workflow(10))
        times: dict[str, list[float]] = {"plain": [], "typed": []}
        for _ in range(runs):
            times["plain"].append(cli_ms(str(plain)))
            times["typed"].append(cli_ms(str(typed)))
    untyped, with_output = median(times["plain"]), median(times["typed"])
    rows = [
        ["alphred validate, 10 phases, untyped", f"{untyped:.0f} ms"],
        ["alphred validate, 10 phases, each with output: (typed guards)", f"{with_output:.0f} ms"],
        ["difference (jsonschema import + 10 meta-schema checks)", f"{with_output - untyped:+.0f} ms"],
        ["one answer validated (in process, 8-item list)", f"{answer_us(200 if args.quick else 2000):.0f} µs"],
    ]
    print(table(rows, ["measure", f"median of {runs}"]))


if __name__ == "__main__":
    main()
