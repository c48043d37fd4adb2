"""A command's own path, in process: ``run_command("true")`` from spawn to its ``result`` event, and the CPU it costs.

What a command phase adds over a scripted one is mostly here: the shell's spawn, its two pipes read by the event
loop, and noticing its exit. Each sample is a fresh interpreter that runs the command ``--commands`` times one
after the other and prints the median, mean and 90th percentile of the wall time per command, its CPU time
(this process; the shell's own is not counted) and how often the shell was not yet reaped when both of its
pipes had closed (``late``: the moment a poll of the exit pays an interval; a pidfd does not). With
``--compare DIR`` another checkout (the directory holding ``alphred/``) runs in the same rounds, alternating.
Beside them, the floor: the same shell spawned as LangGraph's command node spawns it (``subprocess.run``,
blocking, no pipes, the process's own environment), in this checkout's interpreters after its commands.

    python benchmarks/command_exit.py [--rounds 5] [--commands 300] [--compare /tmp/main-checkout]
    python benchmarks/command_exit.py --timeline [--phases 201] [--rounds 5] [--compare DIR]  # see command_timeline.py
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import command_timeline
from common import ROOT, median, spread, subprocess_env

WORKER = """
import asyncio, json, os, subprocess, sys, time
from pathlib import Path
import alphred.runtime.command_phase as cp

late = 0

def both_closed():  # the second stream to close: is the shell reaped yet?
    global late
    if PROCESS[0] is not None and PROCESS[0].returncode is None:
        try:  # not reaped here (WNOWAIT): the command's own way of noticing the exit is what is measured
            exited = os.waitid(os.P_PID, PROCESS[0].pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            exited = True
        late += exited is None

if hasattr(cp, "_pump"):  # a checkout whose pipes are read by a task each (before command_output.py)
    real_pump = cp._pump

    async def pump(stream, name, queue):
        await real_pump(stream, name, queue)
        pump.closed += 1
        if pump.closed == 2:
            both_closed()

    cp._pump = pump
else:
    import alphred.runtime.command_output as co
    real_read = co.CommandOutput._read

    def pump(self, fd):
        was_open = self.open
        real_read(self, fd)
        if was_open and not self.open:
            both_closed()

    co.CommandOutput._read = pump

PROCESS = [None]
real_popen = cp.subprocess.Popen

class Popen(real_popen):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        PROCESS[0] = self

cp.subprocess.Popen = Popen

async def main(count):
    walls = []
    cpu = time.process_time()
    for _ in range(count):
        pump.closed = 0
        started = time.perf_counter()
        async for _event in cp.run_command("true", Path(".")):
            pass
        walls.append(time.perf_counter() - started)
    cpu = time.process_time() - cpu
    figures = {"command": summary(walls, cpu, count) | {"late": late / count}}
    if FLOOR:  # the same shell spawned as LangGraph's command node does: blocking, no pipes, no environment given
        walls = []
        cpu = time.process_time()
        for _ in range(count):
            started = time.perf_counter()
            subprocess.run(["sh", "-c", "true"], check=True)
            walls.append(time.perf_counter() - started)
        figures["floor"] = summary(walls, time.process_time() - cpu, count)
    print(json.dumps(figures))

def summary(walls, cpu, count):
    walls.sort()
    return {
        "median": walls[count // 2] * 1000, "mean": sum(walls) / count * 1000, "p90": walls[int(count * 0.9)] * 1000,
        "cpu": cpu / count * 1000,
    }

FLOOR = len(sys.argv) > 2

asyncio.run(main(int(sys.argv[1])))
"""


def sample(source: Path, commands: int, floor: bool = False) -> dict[str, dict[str, float]]:
    """One fresh interpreter running ``commands`` commands with the Alphred of ``source`` (``floor``: then as many
    ``subprocess.run(["sh", "-c", "true"])``, the spawn LangGraph's command node pays)."""
    env = subprocess_env()
    env["PYTHONPATH"] = os.pathsep.join((str(source), env["PYTHONPATH"]))
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(commands), *(["floor"] if floor else [])],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        # ``python -c`` puts its working directory first on ``sys.path``: run from a checkout, the child would
        # import that checkout's ``alphred`` whatever ``PYTHONPATH`` says (``--compare`` measured one code twice)
        cwd=tempfile.gettempdir(),
    )
    if done.returncode != 0:
        raise SystemExit(f"worker failed:\n{done.stderr[-3000:]}")
    figures: dict[str, dict[str, float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    """Alternate the checkouts for ``--rounds`` rounds; print each one's medians over the rounds."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="samples per checkout (default 5)")
    parser.add_argument("--commands", type=int, default=300, help="commands per sample (default 300)")
    parser.add_argument("--compare", help="another checkout (the directory holding alphred/), same rounds")
    parser.add_argument("--quick", action="store_true", help="2 rounds of 100 commands")
    parser.add_argument("--timeline", action="store_true", help="a whole run's command phases, step by step instead")
    parser.add_argument("--phases", type=int, default=201, help="with --timeline: command phases per run")
    args = parser.parse_args()
    rounds, commands = (2, 100) if args.quick else (args.rounds, args.commands)
    checkouts = [("this checkout", ROOT)] + ([("--compare", Path(args.compare).resolve())] if args.compare else [])
    if args.timeline:  # the steps of a command phase in ``alphred run``, timestamped (``command_timeline.py``)
        command_timeline.report(checkouts, 41 if args.quick else args.phases, 1 if args.quick else rounds)
        return
    results: dict[str, list[dict[str, float]]] = {name: [] for name, _ in checkouts}
    results["the spawn alone (LangGraph's way)"] = []
    load = os.getloadavg()[0]
    for round_ in range(rounds):
        for name, source in checkouts if round_ % 2 == 0 else reversed(checkouts):
            figures = sample(source, commands, floor=name == "this checkout")
            results[name].append(figures["command"])
            if "floor" in figures:
                results["the spawn alone (LangGraph's way)"].append(figures["floor"] | {"late": 0.0})
    print(f"run_command('true'), {commands} commands per sample, {rounds} rounds; load average {load:.2f} at the")
    print(f"start, {os.getloadavg()[0]:.2f} at the end (medians over the rounds; ranges min..max). The spawn alone:")
    print('subprocess.run(["sh", "-c", "true"]) in the same interpreter, blocking, no pipes, no environment given.\n')
    print("| checkout | wall median ms | wall mean ms | wall p90 ms | CPU ms/command | late reaps |")
    print("|---|---|---|---|---|---|")
    for name, samples in results.items():
        row = [median([s[key] for s in samples]) for key in ("median", "mean", "p90", "cpu", "late")]
        cpu = [s["cpu"] for s in samples]
        print(
            f"| {name} | {row[0]:.2f} | {row[1]:.2f} | {row[2]:.2f} | {row[3]:.3f} ({spread(cpu, 3)}) | "
            f"{row[4] * 100:.0f} % |"
        )


if __name__ == "__main__":
    main()
