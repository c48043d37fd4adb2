"""Per-phase orchestration overhead: Alphred vs LangGraph (SqliteSaver) vs DBOS (SQLite), same loop.

The loop is a scripted review loop: ``review`` (decision ``changes_requested``) -> ``fix`` -> ``review``...
until the edge cap sends the last ``review`` to ``$end`` (``--phases`` executions in all, 301 by default).

- **Alphred** runs it in-process on SQLite in a scratch git repository (worktree, lease, one SQL
  transaction per engine transition, change detection after each phase: git bookkeeping included).
  Overhead per phase = (time from the first phase's start to the last phase's end - time spent inside the
  provider) / phases: start-up (compile, run creation, ``git worktree add``) and the final worktree removal
  are left out. Two variants: ``no edits`` (the fix phase changes no file: change detection only) and
  ``edits`` (the fix phase writes a file each visit: one commit and one diff artifact per fix).
- **LangGraph**: the same two-node graph with a conditional edge, ``SqliteSaver`` on a file, one
  checkpoint per step; time per step = ``invoke`` wall time / node executions (graph compiled beforehand).
- **DBOS**: one workflow calling ``review`` and ``fix`` as ``@DBOS.step`` functions, N times each (2N
  steps), SQLite system database; time per step = workflow wall time / steps (launched beforehand).

Each system runs in its own fresh interpreter, round-robin, ``--runs`` times; medians are printed with the
ratios.

**At the command line** (``--cli``, the figure users feel): whole processes as a user runs them,
``alphred run loop.yaml --json`` (and with ``-q``) in a fresh scratch repository each time, for an N-visit
loop and a 1-visit loop; per phase = (wall(N) - wall(1)) / (steps(N) - steps(1)), so interpreter start-up,
imports, validation, run creation, ``git worktree add`` and its removal cancel out. The peer runs the same
loop the same way: a whole ``python`` process building the LangGraph graph with ``SqliteSaver`` and invoking
it, N-visit minus 1-visit. Two loops: the scripted review loop above (no edits) and a loop of two command
phases (``run: "true"``; the peer's nodes spawn ``sh -c true`` too). Samples alternate between the systems
(medians of ``--runs``); each process's user + system CPU time is printed beside its wall time.
Usage::

    pip install -r benchmarks/requirements.txt   # the peers (dev-only)
    python benchmarks/phase_overhead.py [--phases 301] [--runs 5] [--quick]          # in-process
    python benchmarks/phase_overhead.py --cli [--cli-phases 151] [--runs 3] [--quick] [--compare OTHER_CHECKOUT]
    python benchmarks/phase_overhead.py --cli --quick   # --json only, 201 vs 1 visit, 3 rounds: under a minute
    python benchmarks/phase_overhead.py --cli --parity  # + LangGraph sync with Alphred's spawn; async, same spawn
    python benchmarks/phase_overhead.py --profile [--cli-phases 151]   # py-spy: top costs per thread
    python benchmarks/phase_overhead.py --callgrind [--quick] [--compare OTHER]   # instructions/phase, and LangGraph
    python benchmarks/phase_overhead.py --callgrind --visits 61 [--compare OTHER]  # steady state: 61 - 11 visits
    python benchmarks/phase_overhead.py --callgrind --visits 61 --progress   # the same, `--json` (progress on)
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import itertools
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, TypedDict

from common import ROOT, make_repo, median, peer_available, scratch, spread, subprocess_env, table, verdict

GOAL_VS_LANGGRAPH = 1.0
GOAL_VS_DBOS = 0.35
STEADY_BASE = 11  # ``--callgrind --visits N``: N minus 11 visits (the first loop-backs' one-time costs in both)


def workflow_yaml(phases: int, edits: bool) -> str:
    """A review loop of ``phases`` executions (rounded up to odd): review, fix, review, ..., review."""
    fixes = max(phases // 2, 1)
    if edits:
        entries = "\n".join(
            f'      - report: "fixed {i}"\n        files: {{fix.txt: "round {i}\\n"}}' for i in range(1, fixes + 1)
        )
    else:
        entries = '      - report: "fixed"'
    return f"""\
alphred: 1
key: review-loop
defaults: {{provider: scripted, max_visits: {phases + 10}}}
limits: {{max_steps: {phases + 10}, max_stalls: {phases + 10}}}  # a no-edit loop is a stall: measured anyway
phases:
  review:
    prompt: Review the change.
    decisions: [approved, changes_requested]
    script:
      - decision: changes_requested
        report: "please fix"
    transitions:
      - to: fix
        when: decision == "changes_requested"
        max: {fixes}
      - to: $end
  fix:
    prompt: "Fix what the review says: {{{{ phases.review.report }}}}"
    script:
{entries}
    transitions:
      - to: review
"""


def command_workflow_yaml(phases: int) -> str:
    """A loop of two command phases (``run: "true"``), ``phases`` executions (rounded up to odd)."""
    rounds = max(phases // 2, 1)
    return f"""\
alphred: 1
key: command-loop
defaults: {{max_visits: {phases + 10}}}
limits: {{max_steps: {phases + 10}, max_stalls: {phases + 10}}}  # a no-edit loop is a stall: measured anyway
phases:
  check:
    type: command
    run: "true"
    transitions:
      - to: tidy
        max: {rounds}
      - to: $end
  tidy:
    type: command
    run: "true"
    transitions:
      - to: check
"""


class Loop(TypedDict):
    """The LangGraph loop's state."""

    reviews: int
    fixes: int
    decision: str
    report: str


# -- workers: each runs in its own interpreter and prints one JSON object ------------------------------


def run_alphred(phases: int, edits: bool) -> dict[str, Any]:
    """One Alphred run of the loop in a scratch repository; timings in seconds."""
    from alphred.git import locate_repository
    from alphred.operations.start import start_run
    from alphred.operations.where import resolve_for_write
    from alphred.operations.workspace import Workspace
    from alphred.providers import ProviderRegistry, default_registry
    from alphred.providers.scripted import ScriptedProvider
    from alphred.runtime.runner import RunOptions
    from alphred.store import SqlRunStore
    from alphred.views.progress import Progress
    from alphred.workflow import load_workflow

    class ClockedProgress(Progress):
        """Records when the first phase starts and when each one finishes."""

        first: float | None = None
        ends: ClassVar[list[float]] = []

        def phase_started(self, *args: Any) -> None:
            if ClockedProgress.first is None:
                ClockedProgress.first = time.perf_counter()

        def step_finished(self, *args: Any) -> None:
            ClockedProgress.ends.append(time.perf_counter())

    inside_provider = [0.0]

    class ClockedScripted(ScriptedProvider):
        """The scripted provider, with the time spent inside it summed up."""

        async def run(self, prompt: str, options: Any) -> Any:
            stream = super().run(prompt, options)
            while True:
                started = time.perf_counter()
                try:
                    event = await anext(stream)
                except StopAsyncIteration:
                    inside_provider[0] += time.perf_counter() - started
                    return
                inside_provider[0] += time.perf_counter() - started
                yield event

    with scratch("overhead") as tmp:
        repo = make_repo(tmp / "repo")
        path = tmp / "loop.yaml"
        path.write_text(workflow_yaml(phases, edits))
        started = time.perf_counter()
        workflow = load_workflow(path, providers=default_registry())
        location, url = resolve_for_write(str(locate_repository(repo).root), None)
        registry = ProviderRegistry({"scripted": ClockedScripted})
        with SqlRunStore(url) as store:
            workspace = Workspace(
                store=store,
                location=location,
                registry_for=lambda _w, _d: registry,
                progress=lambda run_id: ClockedProgress(enabled=False, run_id=run_id),
            )
            record = start_run(workspace, workflow, RunOptions(), registry)
        total = time.perf_counter() - started
    assert record.status.value == "completed", (record.status, record.reason)
    assert ClockedProgress.first is not None
    ends = ClockedProgress.ends
    loop = ends[-1] - ClockedProgress.first
    gaps = [b - a for a, b in itertools.pairwise(ends)]
    third = max(len(gaps) // 3, 1)
    return {
        "steps": record.steps,
        "loop_s": loop,
        "provider_s": inside_provider[0],
        "total_s": total,
        "first_third_ms": median(gaps[:third]) * 1000,
        "last_third_ms": median(gaps[-third:]) * 1000,
    }


def spawn_as_alphred(cwd: Path) -> str:
    """``sh -c true`` spawned with what an Alphred command phase guarantees about its process (``--parity``): the
    phase's working directory, an environment given whole, stdin ``/dev/null``, stdout and stderr read through
    pipes (the output is stored), a session of its own (its process group), and the group killed once the shell
    has exited (nothing it started outlives the phase). What Alphred adds beyond this is its own: the group's
    record in SQL as it starts, the output's redaction, the deadline."""
    process = subprocess.Popen(
        ["sh", "-c", "true"],
        cwd=cwd,
        env=dict(os.environ),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    out, err = process.communicate()
    with contextlib.suppress(ProcessLookupError):  # the group is gone with its shell: nothing left in it
        os.killpg(process.pid, 9)
    if process.returncode != 0:
        raise SystemExit(f"sh -c true exited {process.returncode}")
    return (out + err).decode()


def run_langgraph(
    phases: int, edits: bool, command: bool = False, parity: bool = False, spawn: bool = False
) -> dict[str, Any]:
    """The same loop as a LangGraph graph with the SQLite checkpointer (``command``: each node spawns
    ``sh -c true``, as Alphred's command phases do). ``parity``: with Alphred's guarantees — each step's checkpoint
    committed before the next step starts (``durability="sync"``; LangGraph's default, ``"async"``, writes it while
    the next step runs, which Alphred's crash rule forbids: a phase's outcome is stored before the next phase's
    side effects), and a command spawned as Alphred must (``spawn_as_alphred``). ``spawn``: only the latter, the
    checkpoints left async (LangGraph's default): the two peers' difference is what the overlap saves."""
    import sqlite3

    from langgraph.checkpoint.sqlite import SqliteSaver
    from langgraph.graph import END, START, StateGraph

    fixes = max(phases // 2, 1)

    with scratch("langgraph") as tmp:

        def spawn() -> None:
            if command and (parity or spawn):
                spawn_as_alphred(tmp)
            elif command:
                subprocess.run(["sh", "-c", "true"], check=True)

        def review(state: Loop) -> dict[str, Any]:
            spawn()
            return {"reviews": state["reviews"] + 1, "decision": "changes_requested", "report": "please fix"}

        def fix(state: Loop) -> dict[str, Any]:
            spawn()
            if edits:
                (tmp / "fix.txt").write_text(f"round {state['fixes'] + 1}\n")
            return {"fixes": state["fixes"] + 1, "report": "fixed"}

        def route(state: Loop) -> str:
            return "fix" if state["decision"] == "changes_requested" and state["fixes"] < fixes else END

        builder = StateGraph(Loop)
        builder.add_node("review", review)
        builder.add_node("fix", fix)
        builder.add_edge(START, "review")
        builder.add_conditional_edges("review", route, ["fix", END])
        builder.add_edge("fix", "review")
        connection = sqlite3.connect(tmp / "checkpoints.db", check_same_thread=False)
        graph = builder.compile(checkpointer=SqliteSaver(connection))
        config: Any = {"configurable": {"thread_id": "bench"}, "recursion_limit": phases * 2 + 10}
        started = time.perf_counter()
        durability: Any = {"durability": "sync"} if parity else {}
        final = graph.invoke({"reviews": 0, "fixes": 0, "decision": "", "report": ""}, config, **durability)
        loop = time.perf_counter() - started
        connection.close()
    steps = final["reviews"] + final["fixes"]
    return {"steps": steps, "loop_s": loop, "provider_s": 0.0, "total_s": loop}


def run_dbos(phases: int, edits: bool) -> dict[str, Any]:
    """The same loop as a DBOS workflow of 2N steps on a SQLite system database."""
    import logging

    from dbos import DBOS

    fixes = max(phases // 2, 1)
    with scratch("dbos") as tmp:
        DBOS(config={"name": "bench", "system_database_url": f"sqlite:///{tmp / 'dbos.sqlite'}", "log_level": "ERROR"})
        logging.getLogger("dbos").setLevel(logging.ERROR)

        @DBOS.step()
        def review(round_: int) -> str:
            return "changes_requested"

        @DBOS.step()
        def fix(round_: int) -> str:
            if edits:
                (tmp / "fix.txt").write_text(f"round {round_}\n")
            return "fixed"

        @DBOS.workflow()
        def loop(rounds: int) -> int:
            steps = 0
            for round_ in range(rounds):
                if review(round_) == "changes_requested":
                    fix(round_)
                    steps += 2
            return steps

        DBOS.launch()
        started = time.perf_counter()
        steps = loop(fixes)
        elapsed = time.perf_counter() - started
        DBOS.destroy()
    return {"steps": steps, "loop_s": elapsed, "provider_s": 0.0, "total_s": elapsed}


WORKERS: dict[str, Callable[..., dict[str, Any]]] = {
    "alphred": run_alphred,
    "langgraph": run_langgraph,
    "dbos": run_dbos,
}


SOURCE: list[str] = []  # --source: another checkout of Alphred to measure (before/after figures)


def measure(system: str, phases: int, edits: bool) -> dict[str, Any]:
    """Run one worker in a fresh interpreter; its JSON result."""
    args = [sys.executable, __file__, "--worker", system, "--phases", str(phases)]
    if edits:
        args.append("--edits")
    env = subprocess_env()
    if SOURCE:
        env["PYTHONPATH"] = os.pathsep.join((SOURCE[0], env["PYTHONPATH"]))
    out = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    if out.returncode != 0:
        raise SystemExit(f"{system} worker failed:\n{out.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


# -- at the command line: whole processes, N visits minus 1 visit -------------------------------------------

ENTRY = "from alphred.cli import main; main()"  # what the ``alphred`` console script runs
# Under valgrind a run is ~50x slower, so what runs per second of wall time would run once or more per phase,
# as often as the machine's load makes the run slow: the heartbeat (every 0.5 s, a lease renewal in SQL) and
# an attempt's periodic event flush (every 0.1 s, a write transaction). At full speed neither comes once in
# ~30 phases, so the instruction counts leave both out (and the lease cannot expire meanwhile); else the
# "load-independent" figure moves with the load (9.4 M and 20.8 M per phase for the same code, an hour apart).
# The progress lines held off a terminal (``--progress``: ``views.held_lines``, at most 0.1 s) likewise: at full
# speed one write carries ~60 phases' lines, under valgrind one or two; the hold is made longer than the run (a
# checkout without it is measured as it is).
GRIND_ENTRY = (
    "import alphred.runtime.supervisor as s, alphred.runtime.sink as k\n"
    "s.HEARTBEAT_SECONDS = k.FLUSH_EVERY_SECONDS = 1e9\n"
    "try:\n    import alphred.views.held_lines as h\nexcept ImportError:\n    pass\n"
    "else:\n    h.HOLD_SECONDS = 1e9\n" + ENTRY
)


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cli_alphred(phases: int, command: bool, quiet: bool, source: str | None = None) -> tuple[float, float, int]:
    """``alphred run loop.yaml --json`` in a fresh repository: (wall s, CPU s, steps); ``source``: the
    checkout to run (default: ``--source`` or this one)."""
    with scratch("cli") as tmp:
        repo = make_repo(tmp / "repo")
        path = tmp / "loop.yaml"
        path.write_text(command_workflow_yaml(phases) if command else workflow_yaml(phases, False))
        args = [sys.executable, "-c", ENTRY, "run", str(path), "--json", *(["-q"] if quiet else [])]
        env = subprocess_env()
        if source or SOURCE:
            env["PYTHONPATH"] = os.pathsep.join((source or SOURCE[0], env["PYTHONPATH"]))
        cpu = _child_cpu()
        started = time.perf_counter()
        out = subprocess.run(args, capture_output=True, text=True, env=env, cwd=repo, check=False)
        wall = time.perf_counter() - started
        cpu = _child_cpu() - cpu
    if out.returncode != 0:
        raise SystemExit(f"alphred run failed ({out.returncode}):\n{out.stderr[-3000:]}")
    status = json.loads(out.stdout)
    assert status["status"] == "completed", status
    return wall, cpu, len(status["steps"])


def cli_langgraph(phases: int, command: bool, parity: bool = False, spawn: bool = False) -> tuple[float, float, int]:
    """The LangGraph loop as a whole process: (wall s, CPU s, steps)."""
    args = [sys.executable, __file__, "--worker", "langgraph", "--phases", str(phases)]
    if command:
        args.append("--command")
    if parity:
        args.append("--parity")
    if spawn:
        args.append("--spawn-as-alphred")
    cpu = _child_cpu()
    started = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True, env=subprocess_env(), cwd=ROOT, check=False)
    wall = time.perf_counter() - started
    cpu = _child_cpu() - cpu
    if out.returncode != 0:
        raise SystemExit(f"langgraph worker failed:\n{out.stderr[-3000:]}")
    return wall, cpu, int(json.loads(out.stdout.strip().splitlines()[-1])["steps"])


def resolved(values: list[float]) -> bool:
    """Whether per-phase samples resolve a figure: every sample positive and their spread smaller than their
    median (a 1-visit run's jitter larger than the N-visit run's extra work gives noise, not a figure)."""
    middle = median(values)
    return middle > 0 and min(values) > 0 and max(values) - min(values) < middle


def ratio_line(name: str, mine: tuple[list[float], list[float]], peer: tuple[list[float], list[float]]) -> str:
    """``name / LangGraph`` with the wall and the CPU ratio, each with its verdict; a peer figure the samples
    do not resolve (negative, or noise larger than the figure) gives no ratio and never ``met``."""
    parts = []
    for what, own, other in (("wall", mine[0], peer[0]), ("CPU", mine[1], peer[1])):
        if not resolved(other):
            parts.append(f"{what}: peer not resolved ({median(other):.2f} ms, {spread(other)}: noise; more rounds)")
            continue
        ratio = median(own) / median(other)
        sure = "" if resolved(own) else ", own figure noisy"
        parts.append(f"{what} {ratio:.2f}x (goal <= {GOAL_VS_LANGGRAPH}x: {verdict(ratio, GOAL_VS_LANGGRAPH)}{sure})")
    return f"{name} / LangGraph: " + "; ".join(parts)


PARITY = "LangGraph + SqliteSaver, Alphred's guarantees"  # ``--parity``: each loop's second peer
SPAWNED = "LangGraph + SqliteSaver, async, spawned as Alphred"  # ``--parity``: the command loop's third peer


def cli_main(phases: int, runs: int, compare: str | None = None, quick: bool = False, parity: bool = False) -> None:
    """The command-line figures: every system's N-visit and 1-visit process alternating, ``runs`` rounds;
    ``compare``: another checkout measured in the same rounds (before/after figures).

    Per phase = (N-visit run - 1-visit run) / extra steps, paired within a round (same load), median of the
    rounds; the ratio to LangGraph is printed for wall and CPU time, or "not resolved" when the peer's
    samples are noise. ``quick``: ``--json`` only (not ``--json -q`` too), one warm-up per checkout. ``parity``:
    each loop's peer a second time with Alphred's guarantees (``run_langgraph``'s ``parity``)."""
    systems: list[tuple[str, Callable[[int], tuple[float, float, int]]]] = []
    for command in (False, True):
        loop = "command loop" if command else "scripted loop"
        for flags, quiet in (("--json", False),) if quick else (("--json", False), ("--json -q", True)):
            run = functools.partial(cli_alphred, command=command, quiet=quiet)
            systems.append((f"alphred run {flags} ({loop})", run))
            if compare:
                before = functools.partial(cli_alphred, command=command, quiet=quiet, source=compare)
                systems.append((f"alphred@compare run {flags} ({loop})", before))
        if peer_available("langgraph"):
            systems.append((f"LangGraph + SqliteSaver ({loop})", functools.partial(cli_langgraph, command=command)))
            if parity:
                peer = functools.partial(cli_langgraph, command=command, parity=True)
                systems.append((f"{PARITY} ({loop})", peer))
                if command:  # the same spawn with LangGraph's async checkpoints: what the overlap saves
                    systems.append((f"{SPAWNED} ({loop})", functools.partial(cli_langgraph, command=True, spawn=True)))
    if not peer_available("langgraph"):
        print("note: langgraph not installed (pip install -r benchmarks/requirements.txt); no peer figure")
    began = time.perf_counter()
    load = os.getloadavg()
    for _, measure_one in systems[:3] if quick else systems:  # warm the file cache and the bytecode
        measure_one(1)
    long: dict[str, list[tuple[float, float, int]]] = {name: [] for name, _ in systems}
    short: dict[str, list[tuple[float, float, int]]] = {name: [] for name, _ in systems}
    for round_ in range(runs):
        order = systems if round_ % 2 == 0 else systems[::-1]  # no system always follows the same one
        for name, measure_one in order:
            if round_ % 2 == 0:
                long[name].append(measure_one(phases))
                short[name].append(measure_one(1))
            else:
                short[name].append(measure_one(1))
                long[name].append(measure_one(phases))
    samples: dict[str, tuple[list[float], list[float]]] = {}
    rows = []
    for name, _ in systems:
        steps = long[name][0][2] - short[name][0][2]
        walls = [(a[0] - b[0]) / steps * 1000 for a, b in zip(long[name], short[name], strict=True)]
        cpus = [(a[1] - b[1]) / steps * 1000 for a, b in zip(long[name], short[name], strict=True)]
        samples[name] = (walls, cpus)
        one = median([b[0] for b in short[name]]) * 1000
        rows.append(
            [name, steps, f"{median(walls):.2f}", spread(walls), f"{median(cpus):.2f}", spread(cpus), f"{one:.0f}"]
        )
    after = os.getloadavg()
    print(f"\nPer phase at the command line: {phases}-visit run minus 1-visit run, paired per round, median of")
    print(f"{runs} round(s); load average {load[0]:.2f} at the start, {after[0]:.2f} at the end; ", end="")
    print(f"{time.perf_counter() - began:.0f} s in all:\n")
    header = ["system", "steps", "ms/phase", "range", "CPU ms/phase", "CPU range", "1-visit run ms"]
    print(table(rows, header))
    print()
    for name in samples:
        if name.startswith("alphred"):  # this checkout and --compare, each against the peer
            loop = name[name.index("(") :]
            peer = f"LangGraph + SqliteSaver {loop}"
            if peer in samples:
                print(ratio_line(name, samples[name], samples[peer]))
            if f"{PARITY} {loop}" in samples:
                print(ratio_line(name, samples[name], samples[f"{PARITY} {loop}"]).replace("LangGraph", PARITY, 1))
    overlap_line(samples)


def overlap_line(samples: dict[str, tuple[list[float], list[float]]]) -> None:
    """With ``--parity``: how much LangGraph's async checkpoint saves a command phase (the same spawn, sync minus
    async: the write it hides behind the next node's shell, which Alphred's crash rule does not allow), beside
    Alphred's excess over the async peer."""
    sync, spawned = f"{PARITY} (command loop)", f"{SPAWNED} (command loop)"
    if sync not in samples or spawned not in samples:
        return
    if not (resolved(samples[sync][0]) and resolved(samples[spawned][0])):
        print("\nLangGraph's async checkpoint saves: not resolved (a peer's samples are noise; more rounds)")
        return
    saved = median(samples[sync][0]) - median(samples[spawned][0])
    print(f"\nLangGraph's async checkpoint saves {saved:.2f} ms a command phase (sync minus async, the same spawn)")
    for name, (walls, _) in samples.items():
        if name.startswith("alphred") and name.endswith("(command loop)"):
            excess = median(walls) - median(samples[spawned][0])
            beyond = excess - saved
            print(f"{name}: {excess:+.2f} ms over the async peer, same spawn ({beyond:+.2f} ms beyond the overlap)")


def cli_profile(phases: int, command: bool, top: int = 25) -> None:
    """py-spy (every thread, idle waits left out) over one N-visit ``alphred run --json -q`` of the scripted
    loop (``command``: the command loop): the top inclusive costs on the event loop's thread and on the
    worker threads, in % of samples."""
    import collections
    import shutil

    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    with scratch("profile") as tmp:
        repo = make_repo(tmp / "repo")
        path = tmp / "loop.yaml"
        path.write_text(command_workflow_yaml(phases) if command else workflow_yaml(phases, False))
        out = tmp / "spy.txt"
        args = [spy, "record", "-r", "500", "-f", "raw", "-o", str(out), "--", sys.executable, "-c", ENTRY]
        args += ["run", str(path), "--json", "-q"]
        done = subprocess.run(args, capture_output=True, text=True, env=subprocess_env(), cwd=repo, check=False)
        if done.returncode != 0:
            raise SystemExit(f"py-spy failed:\n{done.stderr[-3000:]}")
        lines = out.read_text().splitlines()
    print(f"\n== {'command' if command else 'scripted'} loop, {phases} visits ==")
    idle = ("thread.py:81)", "selectors.py:468)")  # a worker thread waiting for work, the loop waiting for I/O
    for title, marker in (("event loop thread", "Runner.run (asyncio"), ("worker threads", "_WorkItem.run")):
        inclusive: collections.Counter[str] = collections.Counter()
        total = 0
        for line in lines:
            stack, _, count = line.rpartition(" ")
            frames = stack.split(";")
            if not count.isdigit() or marker not in stack or frames[-1].endswith(idle):
                continue
            total += int(count)
            for frame in set(frames):
                inclusive[frame] += int(count)
        print(f"\n{title}: {total} samples at 500 Hz (inclusive share, top {top}; frames in every sample left out)")
        for frame, count in [(f, c) for f, c in inclusive.most_common() if c < total * 0.99][:top]:
            print(f"  {count / max(total, 1) * 100:5.1f}%  {frame}")


def _grind(
    args: list[str], env: dict[str, str], cwd: Path, what: str, between: Callable[[], object] = lambda: None
) -> tuple[int, str]:
    """(instructions, stdout) of ``args`` under ``valgrind --tool=callgrind``: the process and its threads;
    the children it spawns are not followed, so not counted. Run once beforehand (bytecode cached), then
    ``between``."""
    import re

    subprocess.run(args, capture_output=True, env=env, cwd=cwd, check=True)
    between()
    with scratch("callgrind-out") as tmp:
        grind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp / 'cg.out'}", *args]
        done = subprocess.run(grind, capture_output=True, text=True, env=env, cwd=cwd, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{what} failed under valgrind:\n{done.stderr[-3000:]}")
    return int(re.findall(r"Collected : (\d+)", done.stderr)[-1]), done.stdout


def _alphred_instructions(visits: int, command: bool, source: str | None, quiet: bool = True) -> tuple[int, int]:
    """(instructions, steps) of one ``alphred run --json -q`` of the loop in a fresh repository (``quiet`` False:
    ``--json`` alone, the progress lines on stderr, a pipe)."""
    with scratch("callgrind") as tmp:
        repo = make_repo(tmp / "repo")
        path = tmp / "loop.yaml"
        path.write_text(command_workflow_yaml(visits) if command else workflow_yaml(visits, False))
        env = subprocess_env() | {"ALPHRED_LEASE_TTL": "86400"}
        if source:
            env["PYTHONPATH"] = os.pathsep.join((source, env["PYTHONPATH"]))
        args = [sys.executable, "-c", GRIND_ENTRY, "run", str(path), "--json", *(["-q"] if quiet else [])]
        again = functools.partial(path.write_text, path.read_text().replace("key: ", "key: again-", 1))
        count, out = _grind(args, env, repo, f"alphred, {visits} visits", again)
    return count, len(json.loads(out)["steps"])


def _langgraph_instructions(visits: int, command: bool, parity: bool = False) -> tuple[int, int]:
    """(instructions, steps) of one LangGraph + SqliteSaver worker process of the same loop."""
    args = [sys.executable, __file__, "--worker", "langgraph", "--phases", str(visits)]
    args += ["--command"] if command else []
    args += ["--parity"] if parity else []
    count, out = _grind(args, subprocess_env(), ROOT, f"langgraph, {visits} visits")
    return count, int(json.loads(out.strip().splitlines()[-1])["steps"])


def cli_instructions(
    phases: int, compare: str | None = None, base: int = 1, quiet: bool = True, parity: bool = False
) -> None:
    """Instructions per phase, a figure the machine's load does not move: ``valgrind --tool=callgrind`` over
    ``alphred run --json -q`` (the process and its threads, the heartbeat left out: ``GRIND_ENTRY``; its
    children, the command's shell, not counted),
    N-visit minus ``base``-visit run, bytecode cached (each run once beforehand); both loops, ``compare``'s
    checkout beside this one, and LangGraph + SqliteSaver's worker the same way (its ``sh -c true``
    children not counted either), with the ratio.

    ``base`` 1 keeps in the figure what the first loop-back costs once (modules loaded, classes made at their
    first instance); ``base`` 11 (``--visits``) leaves it out: the steady cost of a phase in a long loop.
    ``quiet`` False (``--progress``): ``alphred run --json``, its progress lines on stderr (a pipe)."""
    import shutil

    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    checkouts = [("this checkout", None)] + ([("compare", compare)] if compare else [])
    peer = peer_available("langgraph")
    if not peer:
        print("note: langgraph not installed (pip install -r benchmarks/requirements.txt); no peer figure")
    rows = []
    ratios = []
    for command in (False, True):
        loop = "command loop" if command else "scripted loop"
        flags = "--json -q" if quiet else "--json"
        measured: list[tuple[str, Callable[[int], tuple[int, int]]]] = [
            (
                f"alphred run {flags} ({loop}), {label}",
                functools.partial(_alphred_instructions, command=command, source=source, quiet=quiet),
            )
            for label, source in checkouts
        ]
        if peer:
            measured.append(
                (f"LangGraph + SqliteSaver ({loop})", functools.partial(_langgraph_instructions, command=command))
            )
            if parity:
                grind = functools.partial(_langgraph_instructions, command=command, parity=True)
                measured.append((f"{PARITY} ({loop})", grind))
        per: dict[str, float] = {}
        for name, count in measured:
            (long_i, long_s), (short_i, short_s) = count(phases), count(base)
            per[name] = (long_i - short_i) / (long_s - short_s) / 1e6
            rows.append([name, long_s - short_s, f"{per[name]:.2f}"])
        if peer:
            other = per[f"LangGraph + SqliteSaver ({loop})"]
            for name in per:
                if name.startswith("alphred"):
                    ratio = per[name] / other
                    goal = f"goal <= {GOAL_VS_LANGGRAPH}x: {verdict(ratio, GOAL_VS_LANGGRAPH)}"
                    ratios.append(f"{name} / LangGraph: {ratio:.2f}x ({goal})")
                    if f"{PARITY} ({loop})" in per:
                        ratios.append(f"{name} / {PARITY}: {per[name] / per[f'{PARITY} ({loop})']:.2f}x")
    print(f"\nInstructions per phase (callgrind, {phases}-visit minus {base}-visit run, children not counted):\n")
    print(table(rows, ["system", "steps", "M instructions/phase"]))
    if ratios:
        print()
        print("\n".join(ratios))


def per_step_ms(result: dict[str, Any]) -> float:
    """Orchestration overhead per step in milliseconds."""
    return float((result["loop_s"] - result["provider_s"]) / result["steps"] * 1000)


def main() -> None:
    """Parse arguments, run every system round-robin, print the table and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phases", type=int, default=301, help="phase executions per run (default 301)")
    parser.add_argument("--runs", type=int, default=5, help="runs per system (medians are reported)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="in-process: 41 phases, 1 run; --cli: --json only, 201 vs 1 visit, 3 rounds (< 1 min)",
    )
    parser.add_argument("--worker", choices=sorted(WORKERS), help=argparse.SUPPRESS)
    parser.add_argument("--edits", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--command", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--spawn-as-alphred", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--parity",
        action="store_true",
        help="with --cli/--callgrind: a second peer per loop with Alphred's guarantees: each checkpoint committed "
        "before the next step (durability='sync'), commands spawned as Alphred's must (pipes, own session, working "
        "directory, environment, the group killed after the exit)",
    )
    parser.add_argument("--cli", action="store_true", help="measure whole `alphred run` processes (the CLI figure)")
    parser.add_argument("--cli-phases", type=int, default=151, help="visits of the long CLI run (default 151)")
    parser.add_argument("--profile", action="store_true", help="py-spy over one CLI run: top costs per thread")
    parser.add_argument("--callgrind", action="store_true", help="instructions per phase (valgrind), both loops")
    parser.add_argument(
        "--visits",
        type=int,
        help=f"with --callgrind: the steady per-phase figure, VISITS-visit minus {STEADY_BASE}-visit runs (e.g. 61)",
    )
    parser.add_argument(
        "--progress", action="store_true", help="with --callgrind: `alphred run --json` (progress on a pipe), not -q"
    )
    parser.add_argument("--compare", help="with --cli: another Alphred checkout measured in the same rounds")
    parser.add_argument("--source", help="another Alphred checkout to measure (the directory holding alphred/)")
    args = parser.parse_args()
    if args.source:
        SOURCE.append(os.path.abspath(args.source))
    if args.worker:
        extra = ({"command": True} if args.command else {}) | ({"parity": True} if args.parity else {})
        extra |= {"spawn": True} if args.spawn_as_alphred else {}
        print(json.dumps(WORKERS[args.worker](args.phases, args.edits, **extra)))
        return
    if args.profile:
        for command in (False, True):
            cli_profile(41 if args.quick else args.cli_phases, command)
        return
    if args.callgrind:
        compare = os.path.abspath(args.compare) if args.compare else None
        quiet = not args.progress
        if args.visits:  # the steady state: the one-time costs of the first loop-backs are in both runs
            cli_instructions(args.visits, compare, base=STEADY_BASE, quiet=quiet, parity=args.parity)
        else:
            cli_instructions(11 if args.quick else 21, compare, quiet=quiet, parity=args.parity)
        return
    if args.cli:
        compare = os.path.abspath(args.compare) if args.compare else None
        shape = (201, 3) if args.quick else (args.cli_phases, args.runs)
        cli_main(*shape, compare=compare, quick=args.quick, parity=args.parity)
        return
    phases, runs = (41, 1) if args.quick else (args.phases, args.runs)
    variants = [("alphred", False, "Alphred (no edits: change detection only)")]
    variants.append(("alphred", True, "Alphred (fix edits a file: 1 commit per fix)"))
    for peer, label in (("langgraph", "LangGraph + SqliteSaver"), ("dbos", "DBOS on SQLite (2N steps)")):
        if peer_available(peer):
            variants.append((peer, False, label))
        else:
            print(f"note: {peer} not installed (pip install -r benchmarks/requirements.txt); skipped")
    samples: dict[str, list[dict[str, Any]]] = {label: [] for _, _, label in variants}
    for _ in range(runs):
        for system, edits, label in variants:
            samples[label].append(measure(system, phases, edits))
    medians = {label: median([per_step_ms(r) for r in results]) for label, results in samples.items()}
    rows = []
    for label, results in samples.items():
        times = [per_step_ms(r) for r in results]
        provider = median([r["provider_s"] * 1000 / r["steps"] for r in results])
        total = median([r["total_s"] for r in results])
        rows.append(
            [label, results[0]["steps"], f"{medians[label]:.2f}", spread(times), f"{provider:.3f}", f"{total:.2f}"]
        )
    print(f"\nPer-step orchestration overhead, {phases} phases, median of {runs} run(s):\n")
    print(table(rows, ["system", "steps", "ms/step", "range", "provider ms/step", "run s"]))
    print()
    for label, results in samples.items():
        if "first_third_ms" in results[0]:
            first = median([r["first_third_ms"] for r in results])
            last = median([r["last_third_ms"] for r in results])
            print(f"{label}: {first:.2f} ms/step over the first third of the loop, {last:.2f} over the last")
    print()
    for alphred_label in (v[2] for v in variants if v[0] == "alphred"):
        for peer_label, goal in (
            ("LangGraph + SqliteSaver", GOAL_VS_LANGGRAPH),
            ("DBOS on SQLite (2N steps)", GOAL_VS_DBOS),
        ):
            if peer_label in medians:
                ratio = medians[alphred_label] / medians[peer_label]
                print(f"{alphred_label} / {peer_label}: {ratio:.2f}x (goal <= {goal}x: {verdict(ratio, goal)})")


if __name__ == "__main__":
    main()
