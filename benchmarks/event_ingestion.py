"""Event ingestion: a provider emits 100,000 small events in one phase; Alphred persists them on SQLite.

Printed: events persisted per second (events / the phase's wall time, from its start to its diagnostics
row: every event is in ``run_node_stream_events`` by then, redacted and sequenced) and memory. Memory is
the process's RSS sampled every 5 ms by a thread: growth = peak during the phase - RSS when it started.
Memory is *flat* when the growth does not scale with the number of events, so the run is repeated with a
fifth of the events and both growths are shown. Each run is a fresh interpreter. Usage::

    python benchmarks/event_ingestion.py [--events 100000] [--runs 3] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

from common import ROOT, make_repo, median, scratch, spread, subprocess_env, table, verdict

GOAL_EVENTS_PER_S = 50_000
FLAT_MB = 32.0  # growth allowed for 5x the events before memory counts as not flat
WORKFLOW = """\
alphred: 1
key: flood
phases:
  flood:
    provider: flood
    prompt: emit
"""


def rss_bytes() -> int:
    """This process's resident set size."""
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class RssSampler(threading.Thread):
    """Samples RSS every 5 ms; ``peak`` since ``reset``."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak = 0
        self.stopped = threading.Event()

    def reset(self) -> int:
        """Start a new peak from now; the current RSS."""
        self.peak = rss_bytes()
        return self.peak

    def run(self) -> None:
        """Sample until stopped."""
        while not self.stopped.wait(0.005):
            self.peak = max(self.peak, rss_bytes())


def run_worker(events: int) -> dict[str, Any]:
    """One run of the flood workflow; rate and memory figures."""
    from alphred.git import locate_repository
    from alphred.operations.start import start_run
    from alphred.operations.where import resolve_for_write
    from alphred.operations.workspace import Workspace
    from alphred.providers import (
        EventType,
        ProviderEvent,
        ProviderOptions,
        ProviderRegistry,
        Readiness,
        default_registry,
    )
    from alphred.providers.base import result_event
    from alphred.runtime.runner import RunOptions
    from alphred.store import SqlRunStore
    from alphred.views.progress import Progress
    from alphred.workflow import load_workflow

    sampler = RssSampler()
    marks: dict[str, float] = {}

    class FloodProvider:
        """Emits ``events`` small assistant events, then its result."""

        name = "flood"

        def check(self) -> Readiness:
            return Readiness(True)

        async def run(self, prompt: str, options: ProviderOptions) -> AsyncIterator[ProviderEvent]:
            for index in range(events):
                yield ProviderEvent(EventType.ASSISTANT, f"token {index} of the stream")
            yield result_event("done", None)

    class ClockedProgress(Progress):
        """Records the phase's start (resetting the RSS peak) and end."""

        def phase_started(self, *args: Any) -> None:
            marks["rss_start"] = sampler.reset()
            marks["start"] = time.perf_counter()

        def step_finished(self, *args: Any) -> None:
            marks["end"] = time.perf_counter()
            marks["rss_peak"] = max(sampler.peak, rss_bytes())

    sampler.start()
    with scratch("events") as tmp:
        repo = make_repo(tmp / "repo")
        (tmp / "flood.yaml").write_text(WORKFLOW)
        workflow = load_workflow(tmp / "flood.yaml", providers=default_registry())
        location, url = resolve_for_write(str(locate_repository(repo).root), None)
        registry = ProviderRegistry({"flood": FloodProvider})
        with SqlRunStore(url) as store:
            workspace = Workspace(
                store=store,
                location=location,
                registry_for=lambda _w, _d: registry,
                progress=lambda run_id: ClockedProgress(enabled=False, run_id=run_id),
            )
            record = start_run(workspace, workflow, RunOptions(), registry)
            stored = len(store.events(record.id))
    sampler.stopped.set()
    assert record.status.value == "completed", (record.status, record.reason)
    assert stored == events + 1, stored
    seconds = marks["end"] - marks["start"]
    return {
        "events": stored,
        "seconds": seconds,
        "events_per_s": stored / seconds,
        "growth_mb": (marks["rss_peak"] - marks["rss_start"]) / 2**20,
        "rss_mb": marks["rss_peak"] / 2**20,
    }


def measure(events: int) -> dict[str, Any]:
    """Run one worker in a fresh interpreter; its JSON result."""
    args = [sys.executable, __file__, "--worker", "--events", str(events)]
    out = subprocess.run(args, capture_output=True, text=True, env=subprocess_env(), cwd=ROOT, check=False)
    if out.returncode != 0:
        raise SystemExit(f"worker failed:\n{out.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    """Run the full and the small flood round-robin; print rates, memory and the verdicts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=100_000, help="events in the phase (default 100,000)")
    parser.add_argument("--runs", type=int, default=3, help="runs per size (medians are reported)")
    parser.add_argument("--quick", action="store_true", help="smoke mode: 10,000 events, 1 run")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(run_worker(args.events)))
        return
    events, runs = (10_000, 1) if args.quick else (args.events, args.runs)
    sizes = (events // 5, events)
    samples: dict[int, list[dict[str, Any]]] = {size: [] for size in sizes}
    for _ in range(runs):
        for size in sizes:
            samples[size].append(measure(size))
    rows = []
    for size, results in samples.items():
        rates = [r["events_per_s"] for r in results]
        growth = median([r["growth_mb"] for r in results])
        peak = median([r["rss_mb"] for r in results])
        rows.append([f"{size:,}", f"{median(rates):,.0f}", spread(rates, 0), f"{growth:.1f}", f"{peak:.0f}"])
    print(f"\nEvent ingestion on SQLite, one phase, median of {runs} run(s):\n")
    print(table(rows, ["events", "events/s", "range", "RSS growth MB", "peak RSS MB"]))
    rate = median([r["events_per_s"] for r in samples[events]])
    small, full = (median([r["growth_mb"] for r in samples[size]]) for size in sizes)
    print(f"\nevents/s at {events:,}: {rate:,.0f} (goal >= {GOAL_EVENTS_PER_S:,}: ", end="")
    print(f"{verdict(rate, GOAL_EVENTS_PER_S, lower_is_better=False)})")
    flat = full - small <= FLAT_MB
    print(f"memory: growth {small:.1f} MB at {sizes[0]:,} events, {full:.1f} MB at {events:,} events ", end="")
    print(f"({'flat: met' if flat else 'grows with the events: MISSED'}; allowed {FLAT_MB:.0f} MB for 5x the events)")


if __name__ == "__main__":
    main()
