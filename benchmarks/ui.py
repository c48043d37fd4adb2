"""Web view latency on a big database: 10,000 runs and 1,000,000 events (SQLite), over real HTTP.

Fills a fresh database with bulk inserts (runs of the demo workflow: three phases, six steps, a report and a
diff each; 1,000,000 provider events: one run holds 100,000 of them, the others share the rest), serves it
with ``alphred ui``'s app on uvicorn in this process, and times each page ``--runs`` times with httpx
(medians and 95th percentiles; the goal is < 200 ms). Usage::

    python benchmarks/ui.py [--runs 21] [--runs-count 10000] [--events 1000000] [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from common import ROOT, median, scratch, table, verdict

GOAL_MS = 200.0
BIG_RUN_EVENTS = 100_000


def demo_tree(store: Any) -> tuple[int, list[Any]]:
    """The demo workflow compiled into ``store``: its tree id and its phases' rows (id, node_key, sequence)."""
    from sqlalchemy import select

    from alphred.providers import default_registry
    from alphred.store.runs import TREE_NODES
    from alphred.workflow import load_workflow

    demo = ROOT / "workflows" / "demo.yaml"
    workflow = load_workflow(str(demo), demo.read_text(), providers=default_registry())
    tree_id, _ = store.compile(workflow)
    with store.reading() as tx:
        found = tx.connection.execute(
            select(TREE_NODES.c.id, TREE_NODES.c.node_key, TREE_NODES.c.sequence_index).where(
                TREE_NODES.c.tree_id == tree_id
            )
        ).all()
    return tree_id, list(found)


def fill(url: str, runs: int, events: int) -> tuple[int, int]:
    """Create ``runs`` runs and ``events`` events; return (a typical run id, the run with the most events)."""
    from sqlalchemy import insert, select

    from alphred.store import SqlRunStore
    from alphred.store.history import ARTIFACTS, DIAGNOSTICS, ROUTING
    from alphred.store.runs import NODES, RUNS

    store = SqlRunStore(url)
    tree_id, tree_nodes = demo_tree(store)
    started = datetime(2026, 1, 1, tzinfo=UTC)
    statuses = ["completed"] * 6 + ["failed", "cancelled", "paused", "running"]
    diff = (
        "diff --git a/hello.py b/hello.py\n--- a/hello.py\n+++ b/hello.py\n@@ -1 +1 @@\n-print('draft')\n+print('hi')\n"
    )
    with store.transaction() as tx:
        conn = tx.connection
        run_rows = []
        for i in range(runs):
            at = started + timedelta(minutes=i)
            status = statuses[i % len(statuses)]
            run_rows.append(
                {
                    "tree_id": tree_id, "status": status, "reason": "awaiting_approval" if status == "paused" else None,
                    "inputs": {"greeting": f"hello {i}"}, "branch": f"alphred/demo/{i + 1}", "base_sha": "a" * 40,
                    "head_sha": "b" * 40, "tokens": 1000 + i, "cost_usd": 0.01, "steps": 6, "created_at": at,
                    "started_at": at, "completed_at": at + timedelta(seconds=42), "updated_at": at,
                }
            )  # fmt: skip
        conn.execute(insert(RUNS), run_rows)
        run_ids = [row[0] for row in conn.execute(select(RUNS.c.id).order_by(RUNS.c.id))]
        node_rows = [
            {
                "run_id": run_id, "tree_node_id": node.id, "node_key": node.node_key,
                "sequence_index": node.sequence_index, "status": "completed", "attempt": 2, "visits": 2,
                "tokens": 300, "cost_usd": 0.0, "updated_at": started,
            }
            for run_id in run_ids
            for node in tree_nodes
        ]  # fmt: skip
        conn.execute(insert(NODES), node_rows)
        found = conn.execute(select(NODES.c.id, NODES.c.run_id, NODES.c.node_key))
        nodes = {(r.run_id, r.node_key): r.id for r in found}
        order = ["implement", "check", "review"] * 2
        diagnostics, routes, artifacts = [], [], []
        for run_id in run_ids:
            for step, key in enumerate(order):
                attempt = step // 3 + 1
                node_id = nodes[(run_id, key)]
                common = {"run_id": run_id, "run_node_id": node_id, "attempt": attempt, "created_at": started}
                diagnostics.append(
                    {**common, "outcome": "completed", "duration_ms": 1200, "tokens": 150, "event_count": 5}
                )
                routes.append({**common, "target": order[step + 1] if step < 5 else "$end"})
                if key == "implement":
                    artifacts.append({**common, "kind": "diff", "content_text": diff, "sha256": "0" * 64})
                artifacts.append({**common, "kind": "report", "content_text": f"report {step}", "sha256": "0" * 64})
        conn.execute(insert(DIAGNOSTICS), diagnostics)
        conn.execute(insert(ROUTING), routes)
        conn.execute(insert(ARTIFACTS), artifacts)
    big = run_ids[len(run_ids) // 2]
    typical = run_ids[-3]
    per_run = max((events - BIG_RUN_EVENTS) // max(len(run_ids) - 1, 1), 1)
    batch: list[dict[str, Any]] = []
    written = 0

    def flush() -> None:
        with store.transaction() as tx:
            tx.append_events(batch)
        batch.clear()

    for run_id in run_ids:
        count = BIG_RUN_EVENTS if run_id == big else per_run
        node_id = nodes[(run_id, "implement")]
        for sequence in range(1, count + 1):
            batch.append(
                {
                    "workflow_run_id": run_id, "run_node_id": node_id, "attempt": 1, "sequence": sequence,
                    "event_type": "assistant" if sequence % 3 else "tool_result", "timestamp": started,
                    "content": f"event {sequence} of run {run_id}: some text the agent said", "metadata": None,
                }
            )  # fmt: skip
            written += 1
            if len(batch) >= 50_000:
                flush()
            if written >= events:
                break
        if written >= events:
            break
    if batch:
        flush()
    store.close()
    return typical, big


def serve(url: str) -> tuple[Any, Any, threading.Thread, str]:
    """The web view on uvicorn in a thread of this process; returns (server, app, thread, base URL)."""
    import uvicorn

    from alphred.ui.app import UiSettings, create_app
    from alphred.ui.server import bind

    app = create_app(UiSettings(db_url=url, token="bench"))
    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    return server, app, thread, f"http://127.0.0.1:{sock.getsockname()[1]}"


def main() -> None:
    """Fill, serve, time every page; print a table with medians, p95 and the verdicts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="requests per page (medians are reported)")
    parser.add_argument("--runs-count", type=int, default=10_000, help="runs in the database")
    parser.add_argument("--events", type=int, default=1_000_000, help="events in the database")
    parser.add_argument("--quick", action="store_true", help="smoke mode: 300 runs, 120,000 events, 3 requests")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.runs_count, args.events = 3, 300, 120_000
    import httpx

    with scratch("ui") as tmp:
        url = f"sqlite:///{Path(tmp) / 'alphred.db'}"
        began = time.perf_counter()
        typical, big = fill(url, args.runs_count, args.events)
        print(f"filled {args.runs_count:,} runs and {args.events:,} events in {time.perf_counter() - began:.1f} s")
        server, app, thread, base = serve(url)
        typical_events = (args.events - BIG_RUN_EVENTS) // max(args.runs_count - 1, 1)
        pages = {
            "runs list (/)": "/",
            "runs list, status filter": "/?status=failed",
            "runs list, page 100 (?before=N)": f"/?before={max(args.runs_count - 99 * 50, args.runs_count // 2)}",
            f"run page, typical run ({typical_events} events)": f"/runs/{typical}",
            f"run page, run with {BIG_RUN_EVENTS:,} events": f"/runs/{big}",
            "GET /api/runs": "/api/runs",
            f"GET /api/runs/{{id}} ({BIG_RUN_EVENTS:,}-event run)": f"/api/runs/{big}",
            "GET /api/runs/{id}/events?after=N (1,000 events)": f"/api/runs/{big}/events?after=0",
        }
        rows = []
        try:
            with httpx.Client(base_url=base, timeout=60, headers={"Authorization": "Bearer bench"}) as client:
                for name, path in pages.items():
                    assert client.get(path).status_code == 200, path  # warm
                    samples = []
                    for _ in range(args.runs):
                        started = time.perf_counter()
                        response = client.get(path)
                        samples.append((time.perf_counter() - started) * 1000)
                        assert response.status_code == 200
                    p95 = statistics.quantiles(samples, n=20)[-1] if len(samples) >= 2 else samples[0]
                    rows.append([name, f"{median(samples):.1f}", f"{p95:.1f}", verdict(median(samples), GOAL_MS)])
        finally:
            server.should_exit = True
            thread.join(timeout=10)
            app.state.data.close()
    print(f"\nWeb view latency over HTTP, {args.runs} requests per page (ms):\n")
    print(table(rows, ["page", "median ms", "p95 ms", f"goal < {GOAL_MS:.0f} ms"]))


if __name__ == "__main__":
    main()
