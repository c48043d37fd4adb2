"""The engine's own cost per phase: ``transition`` fed the events of a review loop in process, no runtime.

A phase on the run branch is one ``PhaseCompleted`` transition: the phase completes, routing chooses the next
transition (a guard read on the review, none on the fix), the next phase is entered and started. The loop feeds
the event each ``StartPhase`` asks for and drops the history after each transition, as the runner does. With
``--callgrind`` each figure is instructions (``valgrind --tool=callgrind`` of a fresh interpreter running N and
then 2N phases: the difference over N, so the interpreter's start and the imports cancel out), a figure the
machine's load does not move; without it, the median thread CPU per transition over a few rounds.
``--source OTHER_CHECKOUT`` measures another checkout (the "before") beside this one.

    python benchmarks/engine_transition.py [--phases 2000] [--callgrind] [--source OTHER_CHECKOUT] [--quick]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, subprocess_env, table

LOOP = """\
import sys, time
from alphred.engine import PhaseCompleted, RunStarted, StartPhase, initial_state, transition
from alphred.engine.state import evolve
from alphred.providers import default_registry
from alphred.workflow import load_workflow
phases = int(sys.argv[1])
text = '''\\
alphred: 1
key: review-loop
defaults: {provider: scripted, max_visits: 1000000}
limits: {max_steps: 1000000, max_stalls: 1000000}
phases:
  review:
    prompt: Review the change.
    decisions: [approved, changes_requested]
    script: [{decision: changes_requested}]
    transitions:
      - {to: fix, when: decision == "changes_requested", max: 1000000}
      - to: $end
  fix:
    prompt: "Fix it: {{ phases.review.report }}"
    script: [{report: fixed}]
    transitions:
      - to: review
'''
workflow = load_workflow("loop.yaml", text, providers=default_registry())
state, effects = transition(initial_state(workflow, {}), RunStarted())
times = []
for _ in range(phases):
    start = next(e for e in effects if isinstance(e, StartPhase))
    decision = "changes_requested" if start.phase == "review" else None
    event = PhaseCompleted(start.phase, start.attempt, decision, {"summary": "done"})
    began = time.thread_time_ns()
    state, effects = transition(state, event)
    state = evolve(state, history=())
    times.append(time.thread_time_ns() - began)
times.sort()
print(times[len(times) // 2] / 1000)
"""


# ``python -c`` puts its working directory first on ``sys.path``: run from a checkout, every child imported that
# checkout's ``alphred`` whatever ``PYTHONPATH`` said (both rows measured the same code). The children run in a
# directory that holds no ``alphred``.
NEUTRAL = tempfile.gettempdir()


def instructions(source: Path, phases: int) -> int:
    """Instructions of a fresh interpreter running the loop for ``phases`` phases (``source`` on the path)."""
    env = {**subprocess_env(), "PYTHONHASHSEED": "0"}
    env["PYTHONPATH"] = os.pathsep.join((str(source), env["PYTHONPATH"]))
    out = Path(os.environ.get("TMPDIR", "/tmp")) / f"engine-transition-{os.getpid()}.out"
    args = [sys.executable, "-c", LOOP, str(phases)]
    subprocess.run(args, env=env, capture_output=True, check=True, cwd=NEUTRAL)  # bytecode cached
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *args]
    subprocess.run(command, env=env, capture_output=True, check=True, cwd=NEUTRAL)
    total = next(line for line in out.read_text().splitlines() if line.startswith(("summary:", "totals:")))
    out.unlink()
    return int(total.split()[1])


def cpu_us(source: Path, phases: int) -> float:
    """Median thread CPU (µs) of one transition over ``phases`` phases, in a fresh interpreter."""
    env = subprocess_env()
    env["PYTHONPATH"] = os.pathsep.join((str(source), env["PYTHONPATH"]))
    args = [sys.executable, "-c", LOOP, str(phases)]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=True, cwd=NEUTRAL)
    return float(done.stdout)


def main() -> None:
    """Measure each checkout and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phases", type=int, default=2000, help="phases per loop (callgrind: N and 2N)")
    parser.add_argument("--callgrind", action="store_true", help="count instructions (valgrind) instead of CPU")
    parser.add_argument("--source", help="another Alphred checkout to measure too (the directory holding alphred/)")
    parser.add_argument("--quick", action="store_true", help="smoke mode: 200 phases")
    args = parser.parse_args()
    phases = 200 if args.quick else args.phases
    sources = [ROOT] + ([Path(args.source).resolve()] if args.source else [])
    rows = []
    for source in sources:
        name = "this checkout" if source == ROOT else f"--source {args.source}"
        if args.callgrind:
            per = (instructions(source, 2 * phases) - instructions(source, phases)) / phases
            rows.append([name, f"{per / 1e6:.3f} M"])
        else:
            samples = sorted(cpu_us(source, phases) for _ in range(3))
            rows.append([name, f"{samples[1]:.1f} µs"])
    what = "instructions" if args.callgrind else "thread CPU (median)"
    print(f"\nThe engine's transition per phase (review loop, {phases} phases), {what}:\n")
    print(table(rows, ["checkout", "per phase"]))


if __name__ == "__main__":
    main()
