"""The ``openai`` provider against the fake OpenAI-compatible server: import cost, first-event latency, turn cost.

Figures (each a median of interleaved runs):
- import: ``python -c "import openai"`` against ``python -c pass`` in fresh interpreters;
- first event: ``provider.run(...)`` to its first event (the SDK already imported), and to its first
  ``assistant`` event (one streamed model response), against one bare HTTP request to the same fake;
- per turn: a 20-turn tool loop (``list_files`` each turn) on each API, in ms per turn, against the bare request.

Usage::

    python benchmarks/openai_provider.py [--runs 10] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import ROOT, median, subprocess_env

from alphred.providers.base import EventType, ProviderOptions
from alphred.providers.openai import OpenAIProvider

_spec = importlib.util.spec_from_file_location(
    "fake_openai_server", ROOT / "tests" / "fixtures" / "fake_openai_server.py"
)
assert _spec is not None and _spec.loader is not None
fake_server = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fake_server)

TURNS = 20


def _fresh(code: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=subprocess_env())
    return time.perf_counter() - started


def _bare_request(url: str) -> float:
    host, port = url.removeprefix("http://").split("/")[0].split(":")
    body = json.dumps({"model": "bare", "input": "hi"})
    started = time.perf_counter()
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    connection.request("POST", "/v1/responses", body, {"Content-Type": "application/json"})
    connection.getresponse().read()
    connection.close()
    return time.perf_counter() - started


async def _first_events(server: Any, cwd: Path) -> tuple[float, float]:
    server.script("first", [{"text": "hello", "calls": [{"name": "finish", "arguments": {"decision": "approved"}}]}])
    options = ProviderOptions(
        working_directory=cwd,
        phase="bench",
        attempt=1,
        model="first",
        decisions=("approved",),
        settings={"base_url": server.url, "api_key_env": "none"},
    )
    started = time.perf_counter()
    first = assistant = 0.0
    async for event in OpenAIProvider().run("hi", options):
        now = time.perf_counter() - started
        first = first or now
        if event.type is EventType.ASSISTANT and not assistant:
            assistant = now
    return first, assistant


async def _loop(server: Any, cwd: Path, api: str) -> float:
    model = f"loop-{api}"
    finish = {"calls": [{"name": "finish", "arguments": {"decision": "approved", "report": "ok"}}]}
    server.script(model, [{"calls": [{"name": "list_files", "arguments": {}}]}] * (TURNS - 1) + [finish])
    options = ProviderOptions(
        working_directory=cwd,
        phase="bench",
        attempt=1,
        model=model,
        decisions=("approved",),
        settings={"base_url": server.url, "api": api, "api_key_env": "none", "max_turns": TURNS},
    )
    started = time.perf_counter()
    async for _ in OpenAIProvider().run("hi", options):
        pass
    return (time.perf_counter() - started) / TURNS


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 runs")
    args = parser.parse_args()
    runs = 2 if args.quick else args.runs
    pairs = [(_fresh("pass"), _fresh("import openai")) for _ in range(runs)]
    bare_start, with_sdk = median([p for p, _ in pairs]), median([o for _, o in pairs])
    added = (with_sdk - bare_start) * 1000
    print(
        f"import openai           {with_sdk * 1000:7.1f} ms  (python -c pass {bare_start * 1000:.1f} ms, +{added:.1f})"
    )
    server = fake_server.FakeOpenAIServer().start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            cwd = Path(tmp)
            cold = asyncio.run(_first_events(server, cwd))[0]
            samples = [(_bare_request(server.url), asyncio.run(_first_events(server, cwd))) for _ in range(runs)]
            bare = median([b for b, _ in samples])
            print(f"first event, cold       {cold * 1000:7.1f} ms  (SDK import included)")
            print(f"first event, warm       {median([f for _, (f, _) in samples]) * 1000:7.1f} ms")
            assistant = median([a for _, (_, a) in samples])
            print(f"first assistant event   {assistant * 1000:7.1f} ms  (bare request {bare * 1000:.1f} ms)")
            for api in ("responses", "chat"):
                per_turn = median([asyncio.run(_loop(server, cwd, api)) for _ in range(max(runs // 2, 1))])
                print(f"per turn ({api:<9})    {per_turn * 1000:7.1f} ms  (bare request {bare * 1000:.1f} ms)")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
