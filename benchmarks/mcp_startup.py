"""The start-up cost of an MCP server per attempt (issue 25; goal: <= 300 ms for a Python stdio server).

Measured at the command line, as users run Alphred, then in-process as a second figure:

1. ``alphred run`` of one openai phase (the fake model server answers ``finish`` at once) with and without
   an ``mcp:`` stdio server, samples alternating: the added wall time per attempt, for a minimal Python
   stdio server (plain JSON-RPC on stdin/stdout, no package) and for one written with the ``mcp`` package's
   server API (``tests/fixtures/mcp_server.py``: most of its start is importing ``mcp``).
2. In-process: ``McpServers`` start (spawn, ``initialize``, ``tools/list``) and stop of the same two servers,
   after the client's one-time ``import mcp`` (its cost shown apart: once per Alphred process).

    python benchmarks/mcp_startup.py            # ~2 min
    python benchmarks/mcp_startup.py --quick    # a smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, make_repo, median, spread, subprocess_env, verdict

from alphred.providers.mcp_client import McpServers
from alphred.workflow import McpServer

_spec = importlib.util.spec_from_file_location(
    "fake_openai_server", ROOT / "tests" / "fixtures" / "fake_openai_server.py"
)
assert _spec is not None and _spec.loader is not None
fake_server = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fake_server)

GOAL_SECONDS = 0.300
PACKAGE_SERVER = ROOT / "tests" / "fixtures" / "mcp_server.py"
MINIMAL_SERVER = """\
import json, sys
TOOLS = [{"name": "add", "description": "Add", "inputSchema": {"type": "object", "properties": {}}}]
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    method = message.get("method")
    if method == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "minimal", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    else:
        result = {"content": [{"type": "text", "text": "ok"}]}
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
"""

WORKFLOW = """\
alphred: 1
key: mcp-bench
phases:
  work:
    provider: openai
    base_url: {url}
    api_key_env: none
    model: m
    prompt: Finish.
    decisions: [done]
{mcp}"""


def _workflow(url: str, server: Path | None) -> str:
    mcp = ""
    if server is not None:
        mcp = f"    mcp:\n      s: {{command: {json.dumps(sys.executable)}, args: [{json.dumps(str(server))}]}}\n"
    return WORKFLOW.format(url=url, mcp=mcp)


def command_line(samples: int, servers: dict[str, Path], scratch: Path) -> dict[str, list[float]]:
    """Wall seconds of ``alphred run`` per variant (``none``: no MCP server), samples alternating."""
    model = fake_server.FakeOpenAIServer().start()
    model.script("m", [{"calls": [{"name": "finish", "arguments": {"decision": "done", "report": "ok"}}]}])
    env = subprocess_env()
    times: dict[str, list[float]] = {"none": [], **{name: [] for name in servers}}
    try:
        for sample in range(samples):
            for name in times:
                repo = make_repo(scratch / f"repo-{name}-{sample}")
                workflow = scratch / f"{name}.yaml"
                workflow.write_text(_workflow(model.url, servers.get(name)), encoding="utf-8")
                began = time.perf_counter()
                done = subprocess.run(
                    [sys.executable, "-m", "alphred", "run", str(workflow), "--repo", str(repo)],
                    env=env,
                    capture_output=True,
                    text=True,
                )
                times[name].append(time.perf_counter() - began)
                if done.returncode != 0:
                    raise SystemExit(f"alphred run ({name}) failed: {done.stderr}")
    finally:
        model.stop()
    return times


async def _start_stop(server: McpServer, worktree: Path) -> float:
    began = time.perf_counter()
    async with McpServers([server], worktree=worktree, environment=subprocess_env(), server_env={}) as started:
        assert started.tools, "the server offered no tool"
        ready = time.perf_counter() - began
    return ready


def in_process(samples: int, servers: dict[str, Path], worktree: Path) -> tuple[float, dict[str, list[float]]]:
    """(seconds of the client's first ``import mcp``, seconds to start each server per sample)."""
    began = time.perf_counter()
    import mcp
    import mcp.client.stdio  # noqa: F401

    imported = time.perf_counter() - began
    times: dict[str, list[float]] = {name: [] for name in servers}
    for _ in range(samples):
        for name, path in servers.items():
            server = McpServer(name="s", command=sys.executable, args=(str(path),))
            times[name].append(asyncio.run(_start_stop(server, worktree)))
    return imported, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 samples instead of 9")
    samples = 3 if parser.parse_args().quick else 9
    with tempfile.TemporaryDirectory(prefix="alphred-mcp-bench-") as raw:
        scratch = Path(raw)
        minimal = scratch / "minimal_server.py"
        minimal.write_text(MINIMAL_SERVER, encoding="utf-8")
        servers = {"minimal stdio server": minimal, "mcp-package server": PACKAGE_SERVER}
        wall = command_line(samples, servers, scratch)
        base = median(wall["none"])
        print(f"alphred run of one openai phase, {samples} samples each (median, range in s):")
        print(f"  no MCP server:          {base:.3f}  ({spread(wall['none'])})")
        for name in servers:
            added = median(wall[name]) - base
            print(
                f"  + {name:<21} {median(wall[name]):.3f}  ({spread(wall[name])})  added per attempt: "
                f"{added * 1000:.0f} ms  [goal <= {GOAL_SECONDS * 1000:.0f} ms: {verdict(added, GOAL_SECONDS)}]"
            )
        imported, started = in_process(samples, servers, scratch)
        print(
            f"in-process (McpServers: spawn, initialize, tools/list); the client's import mcp: {imported:.3f} s, once"
        )
        for name, values in started.items():
            print(f"  {name:<23} {median(values) * 1000:.0f} ms  ({spread(values, 3)} s)")


if __name__ == "__main__":
    main()
