"""Where a command phase's wall time goes: one ``alphred run loop.yaml --json -q`` of the command loop, timestamped.

The run (the command loop of ``phase_overhead.py``: two ``run: "true"`` phases in turn) executes in a fresh
interpreter with probes around the steps of a command phase: the spawn (``Popen``), the group's record in the
run's recording thread (``add_process``, from the start time's read to its commit), each pipe's end, the exit
seen (the pidfd), the group killed, the worker thread's end of the attempt (its start, the look for a commit,
the engine's transition, the outcome's write transaction, its end), the loop taking the outcome, the next
attempt's start and its spawn.
Per phase, each step's time since the spawn started; printed as the median and the 25th percentile over the
steady phases (the first 10 left out). Beside them, each thread's context switches per phase over the run
(``/proc``: voluntary ones are waits for the GIL, a queue or the disk; involuntary ones preemptions), a count that
shows the threads' contention where the load hides it in the times. Under load the medians are the
scheduler's; the 25th percentile is closer to what an idle machine shows. Run through ``command_exit.py
--timeline`` (``--compare DIR``: another checkout in the same rounds, alternating).

    python benchmarks/command_exit.py --timeline [--phases 201] [--rounds 5] [--compare /tmp/main-checkout]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from common import make_repo, median, scratch, subprocess_env
from phase_overhead import command_workflow_yaml

WORKER = r"""
import contextlib, json, os, subprocess, sys, threading, time
STEPS = []
def mark(what):
    STEPS.append((time.perf_counter_ns(), threading.current_thread().name, what))

import alphred.runtime.command_phase as cp
import alphred.runtime.command_output as co
import alphred.store.sql_store as ss

class Popen(subprocess.Popen):
    def __init__(self, *args, **kwargs):
        mark("spawn")
        super().__init__(*args, **kwargs)
        mark("spawned")

cp.subprocess = type(sys)("subprocess_probed")
cp.subprocess.__dict__.update(subprocess.__dict__)
cp.subprocess.Popen = Popen
real_read = co.CommandOutput._read
def read(self, fd):
    was_open = self.open
    real_read(self, fd)
    if self.open < was_open:
        mark("pipe end")
co.CommandOutput._read = read
real_check = co.ExitWatch._check
def check(self):
    real_check(self)
    if self.exited.done():
        mark("exit seen")
co.ExitWatch._check = check
real_kill = cp._kill_leftovers
def kill(process):
    mark("group killed")
    real_kill(process)
cp._kill_leftovers = kill
real_add = ss.SqlRunStore.add_process
def add(self, *args, **kwargs):
    mark("record committing")  # the start time is read before: the call's arguments
    try:
        return real_add(self, *args, **kwargs)
    finally:
        mark("record committed")
ss.SqlRunStore.add_process = add
real_transaction = ss.SqlRunStore.transaction
@contextlib.contextmanager
def transaction(self):
    recording = threading.current_thread().name.startswith("alphred-groups")
    if not recording:
        mark("outcome transaction")
    with real_transaction(self) as tx:
        yield tx
    if not recording:
        mark("outcome committed")
ss.SqlRunStore.transaction = transaction
import alphred.runtime.phase as ph, alphred.runtime.recording as rc, alphred.runtime.runner as rr
import alphred.git.worktrees as gw
def probe_before(owner, name, what):
    real = getattr(owner, name)
    def probed(*args, **kwargs):
        mark(what)
        return real(*args, **kwargs)
    setattr(owner, name, probed)
def probe_after(owner, name, what):
    real = getattr(owner, name)
    def probed(*args, **kwargs):
        try:
            return real(*args, **kwargs)
        finally:
            mark(what)
    setattr(owner, name, probed)
probe_before(ph, "_ended", "end hop runs")  # the worker thread starts the attempt's end
probe_after(gw.GitWorktrees, "commit_phase", "commit looked")
probe_before(rc, "advance", "engine transition")
probe_after(rc.Recording, "_persist_and_prepare", "worker done")
probe_before(rr.Runner, "_joined", "loop takes it")
probe_before(rr, "run_attempt", "next attempt starts")

def switches():  # (voluntary, involuntary) context switches of the calling thread so far
    fields = dict(line.split(":\t", 1) for line in open(f"/proc/self/task/{threading.get_native_id()}/status"))
    return int(fields["voluntary_ctxt_switches"]), int(fields["nonvoluntary_ctxt_switches"])
SWITCHES = {}
real_run = threading.Thread.run
def thread_run(self):  # each thread's switches at its end, summed by what it is (the recording thread, workers)
    try:
        real_run(self)
    finally:
        kind = "recording thread" if self.name.startswith("alphred-groups") else "worker threads"
        voluntary, involuntary = switches()
        total = SWITCHES.setdefault(kind, [0, 0])
        total[0] += voluntary
        total[1] += involuntary
threading.Thread.run = thread_run

from alphred.cli import main
sys.argv = ["alphred", "run", sys.argv[1], "--json", "-q"]
with contextlib.suppress(SystemExit), contextlib.redirect_stdout(open(os.devnull, "w")):
    main()
SWITCHES["loop thread"] = list(switches())
print(json.dumps({"steps": STEPS, "switches": SWITCHES}))
"""

STEPS = (
    "spawned",
    "record committing",
    "record committed",
    "pipe end",
    "pipe end (2)",
    "exit seen",
    "group killed",
    "end hop runs",
    "commit looked",
    "engine transition",
    "outcome transaction",
    "outcome committed",
    "worker done",
    "loop takes it",
    "next attempt starts",
    "next spawn",
)


def phases_of(steps: list[tuple[int, str, str]], skip: int = 10) -> list[dict[str, float]]:
    """Per steady command phase (spawn to spawn): each step's first time since the spawn, in ms."""
    starts = [index for index, (_, _, what) in enumerate(steps) if what == "spawn"]
    phases = []
    for begin, end in zip(starts[skip:-1], starts[skip + 1 :], strict=False):
        origin = steps[begin][0]
        seen: dict[str, float] = {}
        for stamp, _, what in steps[begin + 1 : end]:
            name = what if what not in seen else f"{what} (2)"
            seen.setdefault(name, (stamp - origin) / 1e6)
        seen["next spawn"] = (steps[end][0] - origin) / 1e6
        phases.append(seen)
    return phases


def sample(source: Path, phases: int) -> tuple[list[dict[str, float]], dict[str, list[int]]]:
    """One run of the command loop of ``phases`` phases with the Alphred of ``source``, in a fresh interpreter: its
    steady phases' steps, and each kind of thread's (voluntary, involuntary) context switches over the run."""
    with scratch("timeline") as tmp:
        repo = make_repo(tmp / "repo")
        loop = tmp / "loop.yaml"
        loop.write_text(command_workflow_yaml(phases))
        env = subprocess_env()
        env["PYTHONPATH"] = os.pathsep.join((str(source), env["PYTHONPATH"]))
        done = subprocess.run(
            [sys.executable, "-c", WORKER, str(loop)], capture_output=True, text=True, env=env, cwd=repo, check=False
        )
    if done.returncode != 0:
        raise SystemExit(f"worker failed:\n{done.stderr[-3000:]}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return phases_of(found["steps"]), found["switches"]


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(len(ordered) * q), len(ordered) - 1)]


def report(checkouts: list[tuple[str, Path]], phases: int, rounds: int) -> None:
    """Run each checkout's command loop ``rounds`` times, alternating; print each step's median and quartile."""
    found: dict[str, list[dict[str, float]]] = {name: [] for name, _ in checkouts}
    switched: dict[str, list[dict[str, list[int]]]] = {name: [] for name, _ in checkouts}
    load = os.getloadavg()[0]
    for round_ in range(rounds):
        for name, source in checkouts if round_ % 2 == 0 else reversed(checkouts):
            steps, switches = sample(source, phases)
            found[name].extend(steps)
            switched[name].append(switches)
    print(f"A steady command phase's steps, ms since its spawn started ({phases} phases a run, {rounds} rounds;")
    print(f"load average {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end): median / 25th percentile\n")
    names = list(found)
    print("| step | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for step in STEPS:
        cells = []
        for name in names:
            values = [phase[step] for phase in found[name] if step in phase]
            cells.append(f"{median(values):.3f} / {quantile(values, 0.25):.3f}" if values else "-")
        print(f"| {step} | " + " | ".join(cells) + " |")
    print(f"\nContext switches per phase, voluntary / involuntary (a whole run's over its {phases} phases; median of")
    print("the rounds): a thread that waits for the GIL, a queue or the disk switches voluntarily; one preempted by")
    print("another (a thread it woke, the shell) involuntarily.\n")
    print("| thread | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for kind in ("loop thread", "recording thread", "worker threads"):
        cells = []
        for name in names:
            counts = [runs[kind] for runs in switched[name] if kind in runs]
            cells.append(
                f"{median([c[0] / phases for c in counts]):.2f} / {median([c[1] / phases for c in counts]):.2f}"
                if counts
                else "-"
            )
        print(f"| {kind} | " + " | ".join(cells) + " |")
