"""One thread hop and back, as a phase's end takes it: ``asyncio.to_thread`` against the run's own thread
(``alphred.runtime.run_thread.RunThread``), alternating in one interpreter.

Per hop: from the hand-over on the event loop to the call running in the worker (``there``), from the call's end
to the awaiting coroutine going on (``back``), and the process's CPU per hop and back (both threads). Median and
25th percentile of ``--hops`` hops a round; ``--rounds`` rounds alternate the two ways. Latencies are the
scheduler's under load: quote the load average printed with them.

    python benchmarks/thread_hop.py [--hops 3000] [--rounds 4] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from collections.abc import Awaitable, Callable

from common import median  # (it puts this checkout on sys.path)

from alphred.runtime.run_thread import RunThread


def _work(handed: int) -> tuple[int, int]:
    return time.perf_counter_ns() - handed, time.perf_counter_ns()


async def _hops(count: int, hop: Callable[..., Awaitable[tuple[int, int]]]) -> tuple[list[int], list[int]]:
    there, back = [], []
    for _ in range(count):
        latency, ended = await hop(_work, time.perf_counter_ns())
        back.append(time.perf_counter_ns() - ended)
        there.append(latency)
        await asyncio.sleep(0)
    return there, back


async def _to_thread(count: int) -> tuple[list[int], list[int]]:
    return await _hops(count, asyncio.to_thread)


async def _run_thread(count: int) -> tuple[list[int], list[int]]:
    run_thread = RunThread()
    try:
        return await _hops(count, run_thread.call)
    finally:
        run_thread.close()


def _quartile(values: list[int]) -> float:
    return sorted(values)[len(values) // 4] / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hops", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--quick", action="store_true", help="300 hops, 2 rounds")
    args = parser.parse_args()
    hops, rounds = (300, 2) if args.quick else (args.hops, args.rounds)
    found: dict[str, tuple[list[int], list[int], list[float]]] = {}
    load = os.getloadavg()[0]
    for round_ in range(rounds):
        ways = [("asyncio.to_thread", _to_thread), ("RunThread.call", _run_thread)]
        for name, way in ways if round_ % 2 == 0 else reversed(ways):
            cpu = time.process_time()
            there, back = asyncio.run(way(hops))
            spent = found.setdefault(name, ([], [], []))
            spent[0].extend(there)
            spent[1].extend(back)
            spent[2].append((time.process_time() - cpu) / hops * 1e6)
    print(f"One hop and back ({hops} hops x {rounds} rounds; load {load:.2f} -> {os.getloadavg()[0]:.2f}), µs:\n")
    print("| way | there, median / 25th pct | back, median / 25th pct | CPU per hop and back |")
    print("|---|---|---|---|")
    for name, (there, back, cpu) in found.items():
        print(
            f"| {name} | {median(there) / 1000:.1f} / {_quartile(there):.1f} "
            f"| {median(back) / 1000:.1f} / {_quartile(back):.1f} | {median(cpu):.1f} |"
        )


if __name__ == "__main__":
    main()
