"""The web view under a long run and many open streams, measured against a real ``alphred ui`` process.

Fills a SQLite database with one run of ``--steps`` steps (the demo workflow's three phases in a loop: a
diagnostics row, a routing decision and a report per step, a diff every third) and 50 short runs, starts
``python -m alphred ui --db URL --port 0`` (``--source DIR`` measures another checkout: its ``alphred/`` goes
first on ``PYTHONPATH``), then prints:

- the run page of the long run: bytes and median time;
- one live update of that page: one step is appended to the database while the page's stream is open; the
  bytes the stream sends for it, plus the bytes of what the page then fetches (the whole page before this
  change; ``/runs/ID/live`` after it);
- ``GET /api/runs``: median latency with 0, 64 and 500 live streams open (a server with the 64-stream cap
  refuses the rest with 503).

Usage::

    python benchmarks/ui_live.py [--steps 20000] [--runs 11] [--quick] [--source OTHER_CHECKOUT]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from common import ROOT, median, scratch, subprocess_env, table
from ui import demo_tree

TOKEN_HEADER = "Authorization"


def fill(url: str, steps: int) -> int:
    """One run of ``steps`` steps and 50 short runs; returns the long run's id."""
    from sqlalchemy import insert, select

    from alphred.store import SqlRunStore
    from alphred.store.history import ARTIFACTS, DIAGNOSTICS, ROUTING
    from alphred.store.runs import NODES, RUNS

    store = SqlRunStore(url)
    tree_id, tree_nodes = demo_tree(store)
    started = datetime(2026, 1, 1, tzinfo=UTC)
    order = ["implement", "check", "review"]
    diff = "diff --git a/hello.py b/hello.py\n--- a/hello.py\n+++ b/hello.py\n@@ -1 +1 @@\n-print('a')\n+print('b')\n"
    with store.transaction() as tx:
        conn = tx.connection
        rows = []
        for index in range(51):
            count = steps if index == 0 else 6
            rows.append(
                {
                    "tree_id": tree_id, "status": "running" if index == 0 else "completed", "inputs": {},
                    "branch": f"alphred/demo/{index + 1}", "base_sha": "a" * 40, "tokens": count * 10,
                    "cost_usd": 0.0, "steps": count, "created_at": started + timedelta(minutes=index),
                    "started_at": started + timedelta(minutes=index), "updated_at": started,
                }
            )  # fmt: skip
        conn.execute(insert(RUNS), rows)
        run_ids = [row[0] for row in conn.execute(select(RUNS.c.id).order_by(RUNS.c.id))]
        conn.execute(
            insert(NODES),
            [
                {
                    "run_id": run_id, "tree_node_id": node.id, "node_key": node.node_key,
                    "sequence_index": node.sequence_index, "status": "completed", "attempt": 1, "visits": 1,
                    "tokens": 0, "cost_usd": 0.0, "updated_at": started,
                }
                for run_id in run_ids
                for node in tree_nodes
            ],
        )  # fmt: skip
        found = conn.execute(select(NODES.c.id, NODES.c.run_id, NODES.c.node_key))
        nodes = {(r.run_id, r.node_key): r.id for r in found}
        for run_id in run_ids:
            count = steps if run_id == run_ids[0] else 6
            diagnostics, routes, artifacts = [], [], []
            for step in range(count):
                key = order[step % 3]
                common = {
                    "run_id": run_id, "run_node_id": nodes[(run_id, key)], "attempt": step // 3 + 1,
                    "created_at": started + timedelta(seconds=step),
                }  # fmt: skip
                diagnostics.append({**common, "outcome": "completed", "duration_ms": 900, "tokens": 10})
                routes.append({**common, "target": order[(step + 1) % 3], "decision": "changes_requested"})
                report = f"report of step {step}"
                artifacts.append({**common, "kind": "report", "content_text": report, "sha256": "0" * 64})
                if key == "implement":
                    artifacts.append({**common, "kind": "diff", "content_text": diff, "sha256": "0" * 64})
            conn.execute(insert(DIAGNOSTICS), diagnostics)
            conn.execute(insert(ROUTING), routes)
            conn.execute(insert(ARTIFACTS), artifacts)
    store.close()
    return run_ids[0]


def add_step(url: str, run_id: int, number: int) -> None:
    """Append one step to the run (as a phase finishing would): a diagnostics row, a route, the counters."""
    from sqlalchemy import insert, select, update

    from alphred.store import SqlRunStore
    from alphred.store.history import DIAGNOSTICS, ROUTING
    from alphred.store.runs import NODES, RUNS

    store = SqlRunStore(url)
    with store.transaction() as tx:
        conn = tx.connection
        node = conn.execute(select(NODES.c.id).where(NODES.c.run_id == run_id, NODES.c.node_key == "check")).scalar()
        common = {"run_id": run_id, "run_node_id": node, "attempt": 100_000 + number, "created_at": datetime.now(UTC)}
        conn.execute(insert(DIAGNOSTICS), [{**common, "outcome": "completed", "duration_ms": 5, "tokens": 1}])
        conn.execute(insert(ROUTING), [{**common, "target": "review"}])
        conn.execute(update(RUNS).where(RUNS.c.id == run_id).values(steps=RUNS.c.steps + 1, tokens=RUNS.c.tokens + 1))
    store.close()


def start_server(url: str, source: str | None) -> tuple[subprocess.Popen[str], str, str]:
    """``alphred ui`` on a free port; returns the process, its base URL and its token."""
    env = subprocess_env()
    if source:
        env["PYTHONPATH"] = os.pathsep.join((source, env["PYTHONPATH"]))
    argv = [sys.executable, "-m", "alphred", "ui", "--db", url, "--port", "0"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    base, _, token = line.partition("/?token=")
    return process, base, token


def sse_sizes(response: Any) -> Iterator[tuple[str, int]]:
    """``(event name, bytes)`` of each message of an open SSE response, as they arrive."""
    event, size = "", 0
    for line in response.iter_lines():
        size += len(line.encode()) + 1
        if line.startswith("event: "):
            event = line[7:]
        if not line:
            if event:
                yield event, size
            event, size = "", 0


def update_cost(client: Any, url: str, run_id: int, steps: int) -> int:
    """Bytes the run's stream sends (besides provider events) for one new step."""
    sent = 0
    with client.stream("GET", f"/runs/{run_id}/stream?after=0&steps={steps}") as response:
        messages = sse_sizes(response)
        next(size for event, size in messages if event == "status")  # the state when the page opened
        add_step(url, run_id, 1)
        for event, size in messages:
            if event != "event":
                sent += size
            if event == "status":
                return sent
    raise RuntimeError("the stream ended before the update")


def timed_get(client: Any, path: str, runs: int) -> tuple[float, int]:
    """Median milliseconds of ``runs`` GETs of ``path``, and the answer's size in bytes."""
    samples, size = [], 0
    for _ in range(runs):
        began = time.perf_counter()
        response = client.get(path)
        samples.append((time.perf_counter() - began) * 1000)
        size = len(response.content)
    return median(samples), size


def main() -> None:
    """Fill, serve, measure; print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=20_000, help="steps of the long run")
    parser.add_argument("--runs", type=int, default=11, help="requests per timed figure (medians are reported)")
    parser.add_argument("--quick", action="store_true", help="smoke mode: 2,000 steps, 3 requests, 80 streams")
    parser.add_argument("--source", help="another Alphred checkout to measure (the directory holding alphred/)")
    args = parser.parse_args()
    crowds = [0, 64, 500]
    if args.quick:
        args.steps, args.runs, crowds = 2_000, 3, [0, 64, 80]
    import httpx

    source = os.path.abspath(args.source) if args.source else None
    with scratch("ui-live") as tmp:
        url = f"sqlite:///{Path(tmp) / 'alphred.db'}"
        run_id = fill(url, args.steps)
        process, base, token = start_server(url, source)
        limits = httpx.Limits(max_connections=max(crowds) + 20, max_keepalive_connections=20)
        headers = {TOKEN_HEADER: f"Bearer {token}"}
        try:
            with httpx.Client(base_url=base, headers=headers, timeout=300, limits=limits) as client:
                while client.get("/healthz").status_code != 200:
                    time.sleep(0.1)
                page_ms, page_bytes = timed_get(client, f"/runs/{run_id}", args.runs)
                html = client.get(f"/runs/{run_id}").text
                new_ui = client.get(f"/runs/{run_id}/live?steps={args.steps}").status_code == 200
                sent = update_cost(client, url, run_id, args.steps)
                time.sleep(2)  # the server notices the closed stream at its next poll and frees its slot
                if new_ui:  # what ui.js asks for: the rows after its last one, reports only if newer
                    artifact = re.search(r'data-artifact="(\d+)"', html)
                    columns = re.search(r'data-columns="(\d\d)"', html)
                    have = artifact.group(1) if artifact else "0"
                    flags = columns.group(1) if columns else "00"
                    refetch = f"/runs/{run_id}/live?steps={args.steps}&artifact={have}&columns={flags}"
                    fetched = len(client.get(refetch).content)
                else:
                    fetched = len(client.get(f"/runs/{run_id}").content)  # the old script reloaded the page
                latency = []
                for crowd in crowds:
                    with ExitStack() as crowded:
                        answers = [crowded.enter_context(client.stream("GET", "/runs/stream")) for _ in range(crowd)]
                        accepted = sum(1 for a in answers if a.status_code == 200)
                        time.sleep(2)  # let every stream reach its polling pace
                        ms, _size = timed_get(client, "/api/runs", args.runs)
                    latency.append([f"{crowd} streams asked ({accepted} served)", f"{ms:.1f}"])
        finally:
            process.terminate()
            process.wait(timeout=30)
    who = source or str(ROOT)
    print(f"\nalphred ui from {who}; one run of {args.steps:,} steps (+50 short runs), SQLite\n")
    print(
        table(
            [
                ["run page: size", f"{page_bytes / 1e6:.2f} MB"],
                ["run page: median time", f"{page_ms:.0f} ms"],
                ["one live update: sent by the stream", f"{sent / 1e3:.1f} kB"],
                ["one live update: fetched by the page", f"{fetched / 1e3:.1f} kB"],
                ["one live update: total", f"{(sent + fetched) / 1e6:.3f} MB"],
            ],
            ["figure", "value"],
        )
    )
    print()
    print(table(latency, ["GET /api/runs while", f"median ms ({args.runs} requests)"]))


if __name__ == "__main__":
    main()
