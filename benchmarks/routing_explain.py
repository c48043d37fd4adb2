"""What storing routing explanations costs (issue 28 item 3): routing with and without the explanation.

In-process only: the explanation is computed by the pure engine at each routing, so its cost is the
difference between ``select_transition`` alone and ``select_transition`` plus ``explain_routing`` on the same
context (median of ``--rounds`` rounds of ``--n`` routings); the stored JSON's size is printed too. A phase
costs tens of milliseconds at the command line (``phase_overhead.py``), so this is the figure that matters.
Usage::

    python benchmarks/routing_explain.py [--n 20000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import time

from common import median

from alphred.engine import PhaseCompleted, RunStarted, initial_state, transition
from alphred.engine.routing import explain_routing, guard_context, select_transition
from alphred.providers import default_registry
from alphred.workflow import load_workflow

WORKFLOW = """\
alphred: 1
key: bench
phases:
  review:
    provider: scripted
    decisions: [approved, changes]
    transitions:
      - to: fix
        when: report.risk == "high" and visits < 3
      - to: review
        when: decision == "changes"
        max: 5
      - to: $end
        when: decision == "approved"
  fix:
    type: command
    run: "true"
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    workflow = load_workflow("bench.yaml", WORKFLOW, providers=default_registry())
    state, _ = transition(initial_state(workflow, {}), RunStarted())
    report = {"risk": "low", "summary": "x" * 2000, "items": list(range(50))}
    state, _ = transition(state, PhaseCompleted("review", 1, decision="changes", report=report))
    phase = workflow.phase("review")

    def plain() -> None:
        context = guard_context(state, workflow, "review")
        select_transition(phase, context, state.edges)

    def explained() -> None:
        context = guard_context(state, workflow, "review")
        chosen = select_transition(phase, context, state.edges)
        explain_routing(phase, context, state.edges, chosen)

    figures = {}
    for name, call in (("without", plain), ("with", explained)):
        rounds = []
        for _ in range(args.rounds):
            started = time.perf_counter()
            for _ in range(args.n):
                call()
            rounds.append((time.perf_counter() - started) / args.n * 1e6)
        figures[name] = median(rounds)
    context = guard_context(state, workflow, "review")
    explanation = explain_routing(phase, context, state.edges, select_transition(phase, context, state.edges))
    stored = json.dumps(list(explanation))
    paths = sum(len(entry.get("reads", ())) for entry in explanation)
    print(f"routing without explanation: {figures['without']:.1f} µs")
    print(f"routing with explanation:    {figures['with']:.1f} µs (+{figures['with'] - figures['without']:.1f} µs)")
    print(f"stored explanation: {len(stored)} bytes ({len(explanation)} transitions, {paths} paths read)")


if __name__ == "__main__":
    main()
