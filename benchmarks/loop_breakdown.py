"""Where a phase's instructions go, per thread and per function: ``alphred run --json -q`` under callgrind.

Callgrind sees C functions only: Python code is one interpreter loop. So each measured Python function is
called through a C function of the standard library that nothing else on the path uses (``functools.reduce``,
``itertools.starmap`` ...): that C function's inclusive cost, read from the thread's own profile
(``--separate-threads=yes``), is the Python function's. The loop (the same scripted and command loops as
``phase_overhead.py --callgrind``, timers left out the same way) runs N visits and 1 visit; per phase =
(N − 1) / (steps(N) − steps(1)). Each thread's total is printed beside them: thread 1 is the event loop, the
others are the worker threads of ``asyncio.to_thread``. A trampoline whose call count is not the Python
wrapper's own (something else used that C function) is flagged.

Usage::

    python benchmarks/loop_breakdown.py [--quick | --visits 61] [--source OTHER_CHECKOUT] [--loop scripted|command|both]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from common import make_repo, scratch, subprocess_env, table
from phase_overhead import ENTRY, command_workflow_yaml, workflow_yaml

# (label, module, attribute path, the C function it is called through), per set; in a set, two functions called
# through the same C function never nest in each other.
_LOOP_SIDE = (
    ("engine transition", "alphred.runtime.recording", "transition", "functools_reduce"),
    ("EventSink.add (redact, row, forward)", "alphred.runtime.sink", "EventSink.add", "starmap_next"),
    ("events_for (values, options, stream made)", "alphred.runtime.phase", "events_for", "sys_call_tracing"),
    ("run_in_executor (a hop, loop side)", "asyncio.base_events", "BaseEventLoop.run_in_executor", "dropwhile_next"),
)
STORE = ("Persister.persist (the store transaction)", "alphred.runtime.persist", "Persister.persist")
SETS = {
    "summary": (
        *_LOOP_SIDE,
        ("RunObservers.persisted", "alphred.views.observers", "RunObservers.persisted", "_operator_call"),
        (*STORE, "accumulate_next"),
        ("seal_preparation (git seal, head)", "alphred.runtime.recording", "seal_preparation", "calliter_iternext"),
        ("_ended (files, seal check, complete)", "alphred.runtime.phase", "_ended", "methodcaller_call"),
        ("read_result (the verdict)", "alphred.runtime.outcome", "read_result", "keyobject_richcompare"),
    ),
    "loop": (
        *_LOOP_SIDE,
        ("AttemptRoom()", "alphred.runtime.room", "AttemptRoom.__init__", "_operator_call"),
        ("ProviderOptions()", "alphred.providers.base", "ProviderOptions.__init__", "accumulate_next"),
        ("build_context", "alphred.runtime.attempt_stream", "build_context", "calliter_iternext"),
        ("PeriodicFlush()", "alphred.runtime.attempt_stream", "PeriodicFlush.__init__", "methodcaller_call"),
        ("_redact_metadata", "alphred.runtime.sink", "_redact_metadata", "keyobject_richcompare"),
    ),
    "workers": (
        ("WorktreeSeal.broken", "alphred.git.tamper", "WorktreeSeal.broken", "functools_reduce"),
        ("RunFiles.store", "alphred.runtime.run_files", "RunFiles.store", "starmap_next"),
        ("complete_attempt", "alphred.runtime.outcome", "complete_attempt", "sys_call_tracing"),
        ("GitWorktrees.commit_phase", "alphred.git", "GitWorktrees.commit_phase", "dropwhile_next"),
        ("GitWorktrees.tree_sha", "alphred.git", "GitWorktrees.tree_sha", "_operator_call"),
        ("GitWorktrees.seal", "alphred.git", "GitWorktrees.seal", "accumulate_next"),
        ("GitWorktrees.head_sha", "alphred.git", "GitWorktrees.head_sha", "calliter_iternext"),
        ("phase_commit_message", "alphred.runtime.outcome", "phase_commit_message", "methodcaller_call"),
        (*STORE, "keyobject_richcompare"),
    ),
}
MEASURED = SETS["summary"]

# Installed before the CLI runs: every function of MEASURED replaced by a wrapper that calls it through its C
# function; the wrappers count their calls (written to $LOOP_BREAKDOWN_CALLS at exit).
PATCH = r"""
import atexit, collections, functools, importlib, itertools, json, operator, os, sys
import alphred.runtime.supervisor as s, alphred.runtime.sink as k
s.HEARTBEAT_SECONDS = k.FLUSH_EVERY_SECONDS = 1e9  # before the measured modules import them by name
_calls = collections.Counter()
def _through(c, f):
    def call(*a, **k):
        _calls[c] += 1
        box = []
        if c == "functools_reduce":
            return functools.reduce(lambda acc, _: f(*a, **k), (None,), None)
        if c == "starmap_next":
            return next(itertools.starmap(lambda: f(*a, **k), ((),)))
        if c == "sys_call_tracing":
            return sys.call_tracing(lambda: f(*a, **k), ())
        if c == "_operator_call":
            return operator.call(lambda: f(*a, **k))
        if c == "dropwhile_next":
            next(itertools.dropwhile(lambda _: box.append(f(*a, **k)), (None,)))
        elif c == "accumulate_next":
            list(itertools.accumulate((None, None), lambda x, y: box.append(f(*a, **k))))
        elif c == "calliter_iternext":
            return next(iter(lambda: f(*a, **k), box))
        elif c == "methodcaller_call":
            return operator.methodcaller("__call__")(lambda: f(*a, **k))
        elif c == "keyobject_richcompare":
            key = functools.cmp_to_key(lambda x, y: box.append(f(*a, **k)) or 0)
            key(0) < key(0)
        return box[0]
    return functools.wraps(f)(call)
for _module, _path, _c in json.loads(os.environ["LOOP_BREAKDOWN"]):
    _owner = importlib.import_module(_module)
    *_outer, _name = _path.split(".")
    for _part in _outer:
        _owner = getattr(_owner, _part)
    setattr(_owner, _name, _through(_c, getattr(_owner, _name)))
atexit.register(lambda: open(os.environ["LOOP_BREAKDOWN_CALLS"], "w").write(json.dumps(_calls)))
"""


def parse_profile(path: Path) -> tuple[int, dict[str, int], dict[str, int]]:
    """(total instructions, inclusive instructions and call counts per called C function) of one callgrind
    profile file (one thread): the cost lines that follow each ``calls=`` line, summed per called function."""
    names: dict[str, str] = {}
    inclusive: dict[str, int] = defaultdict(int)
    calls: dict[str, int] = defaultdict(int)
    total = 0
    called: str | None = None
    after_calls = False
    name_line = re.compile(r"^(c?fn)=\((\d+)\)(?: (.*))?$")
    for line in path.read_text(errors="replace").splitlines():
        if after_calls:
            parts = line.split()
            if called is not None and len(parts) >= 2:
                inclusive[called] += int(parts[-1])
            after_calls = False
            continue
        match = name_line.match(line)
        if match:
            kind, ident, name = match.groups()
            if name:
                names[ident] = name
            if kind == "cfn":
                called = names.get(ident, ident)
            continue
        if line.startswith("calls="):
            count = int(line[6:].split()[0])
            if called is not None:
                calls[called] += count
            after_calls = True
        elif line.startswith(("summary:", "totals:")):
            total = max(total, int(line.split()[1]))
    return total, dict(inclusive), dict(calls)


def grind(visits: int, command: bool, source: str | None) -> tuple[int, list[tuple[int, dict[str, int]]], dict]:
    """(steps, [(thread total, inclusive per trampoline)] per thread, wrapper call counts) of one run."""
    with scratch("breakdown") as tmp:
        repo = make_repo(tmp / "repo")
        path = tmp / "loop.yaml"
        path.write_text(command_workflow_yaml(visits) if command else workflow_yaml(visits, False))
        env = subprocess_env() | {"ALPHRED_LEASE_TTL": "86400"}
        env["LOOP_BREAKDOWN"] = json.dumps([[module, attr, c] for _, module, attr, c in MEASURED])
        env["LOOP_BREAKDOWN_CALLS"] = str(tmp / "calls.json")
        if source:
            env["PYTHONPATH"] = os.pathsep.join((source, env["PYTHONPATH"]))
        args = [sys.executable, "-c", PATCH + ENTRY, "run", str(path), "--json", "-q"]
        subprocess.run(args, capture_output=True, env=env, cwd=repo, check=True)  # bytecode cached
        path.write_text(path.read_text().replace("key: ", "key: again-", 1))
        out_file = tmp / "cg.out"
        grind_args = ["valgrind", "--tool=callgrind", "--separate-threads=yes", f"--callgrind-out-file={out_file}"]
        done = subprocess.run([*grind_args, *args], capture_output=True, text=True, env=env, cwd=repo, check=False)
        if done.returncode != 0:
            raise SystemExit(f"alphred failed under valgrind:\n{done.stderr[-3000:]}")
        threads = []
        trampolines = {c for *_, c in MEASURED}
        for profile in sorted(tmp.glob("cg.out-*"), key=lambda p: int(p.name.rsplit("-", 1)[1])):
            total, inclusive, counted = parse_profile(profile)
            threads.append(
                (
                    total,
                    {c: inclusive.get(c, 0) for c in trampolines}
                    | {f"calls:{c}": counted.get(c, 0) for c in trampolines},
                )
            )
        wrapper_calls = json.loads((tmp / "calls.json").read_text())
    return len(json.loads(done.stdout)["steps"]), threads, wrapper_calls


def breakdown(visits: int, command: bool, source: str | None, base: int = 1) -> list[list[object]]:
    """Rows: per phase, each thread group's total and each measured function's inclusive instructions
    (``visits``-visit minus ``base``-visit run)."""
    (long_steps, long_threads, long_calls), (short_steps, short_threads, short_calls) = (
        grind(visits, command, source),
        grind(base, command, source),
    )
    steps = long_steps - short_steps

    def per_phase(long: float, short: float) -> str:
        return f"{(long - short) / steps / 1e6:.3f}"

    def group(threads: list[tuple[int, dict[str, int]]], loop: bool, key: str | None = None) -> int:
        chosen = threads[:1] if loop else threads[1:]
        return sum(t[0] if key is None else t[1].get(key, 0) for t in chosen)

    rows: list[list[object]] = []
    for loop_thread, where in ((True, "loop thread"), (False, "worker threads")):
        rows.append(
            [
                where,
                "(thread total)",
                per_phase(group(long_threads, loop_thread), group(short_threads, loop_thread)),
                "",
            ]
        )
        for label, _, _, c in MEASURED:
            long_i, short_i = group(long_threads, loop_thread, c), group(short_threads, loop_thread, c)
            if long_i == short_i == 0:
                continue
            seen = group(long_threads, loop_thread, f"calls:{c}") + group(short_threads, loop_thread, f"calls:{c}")
            other = group(long_threads, not loop_thread, f"calls:{c}") + group(
                short_threads, not loop_thread, f"calls:{c}"
            )
            own = (long_calls.get(c, 0) + short_calls.get(c, 0)) * (3 if c == "accumulate_next" else 1)
            flag = "" if seen + other == own else f"  (C calls {seen + other} != wrapper calls {own})"
            per_call = (long_calls.get(c, 0) - short_calls.get(c, 0)) / steps
            rows.append([where, label + flag, per_phase(long_i, short_i), f"{per_call:.2f}"])
    return rows


def main() -> None:
    """Print the per-thread, per-function table for each loop."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="11 visits instead of 21")
    parser.add_argument("--visits", type=int, help="the steady state: VISITS-visit minus 11-visit runs (e.g. 61)")
    parser.add_argument("--source", help="another Alphred checkout to measure (the directory holding alphred/)")
    parser.add_argument("--loop", choices=("scripted", "command", "both"), default="both")
    parser.add_argument("--set", choices=sorted(SETS), default="summary", help="which functions are measured")
    args = parser.parse_args()
    global MEASURED
    MEASURED = SETS[args.set]
    source = os.path.abspath(args.source) if args.source else None
    visits, base = (args.visits, 11) if args.visits else (11 if args.quick else 21, 1)
    for command in (False, True):
        if args.loop != "both" and (args.loop == "command") != command:
            continue
        name = "command loop" if command else "scripted loop"
        print(f"\n{name}: instructions per phase (M), callgrind, {visits}-visit minus {base}-visit run, inclusive:\n")
        rows = breakdown(visits, command, source, base)
        print(table(rows, ["thread", "function", "M instr/phase", "calls/phase"]))


if __name__ == "__main__":
    main()
