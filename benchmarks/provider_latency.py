"""First-event latency each agent adapter adds, measured offline with the test fakes.

For each adapter: the time from calling ``provider.run(...)`` to its first event, against the time the bare
fake process takes to print its first line when driven directly (the baseline). The difference is what the
adapter (SDK import, option building, protocol handshake, event mapping) adds. Usage::

    PYTHONPATH=. python benchmarks/provider_latency.py [--runs 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from alphred.providers.base import ProviderOptions  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"


def _wrapper(directory: Path, name: str, script: Path) -> Path:
    path = directory / name
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{script}" "$@"\n')
    path.chmod(0o755)
    return path


def _bare_claude(cli: Path, cwd: Path) -> float:
    """Spawn the fake CLI, do the initialize + user handshake by hand, wait for its first line."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [str(cli), "--output-format", "stream-json"], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(
        json.dumps({"type": "control_request", "request_id": "r1", "request": {"subtype": "initialize"}}) + "\n"
    )
    process.stdin.write(json.dumps({"type": "user", "message": {"role": "user", "content": "hi"}}) + "\n")
    process.stdin.flush()
    process.stdout.readline()  # the control_response
    process.stdout.readline()  # the first message: system init
    elapsed = time.perf_counter() - started
    process.stdin.close()
    process.wait()
    return elapsed


def _bare_codex(binary: Path, cwd: Path) -> float:
    started = time.perf_counter()
    process = subprocess.Popen(
        [str(binary), "exec", "--json", "-C", str(cwd), "--", "hi"],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    process.stdout.readline()
    elapsed = time.perf_counter() - started
    process.wait()
    return elapsed


async def _first_event(provider: object, cwd: Path) -> float:
    options = ProviderOptions(working_directory=cwd, phase="bench", attempt=1, decisions=("approved",))
    started = time.perf_counter()
    stream = provider.run("hi", options)  # type: ignore[attr-defined]
    await anext(stream)
    elapsed = time.perf_counter() - started
    async for _ in stream:  # drain: the session ends normally
        pass
    return elapsed


def _report(name: str, bare: list[float], adapter: list[float], cold: float | None = None) -> None:
    def ms(values: list[float]) -> str:
        ordered = sorted(values)
        p90 = ordered[max(int(len(ordered) * 0.9) - 1, 0)]
        return f"median {statistics.median(values) * 1000:7.1f} ms  p90 {p90 * 1000:7.1f} ms"

    added = statistics.median(adapter) - statistics.median(bare)
    print(f"{name:<7} bare fake       {ms(bare)}")
    print(f"{name:<7} through adapter {ms(adapter)}")
    if cold is not None:
        print(f"{name:<7} first run (SDK import included) {cold * 1000:7.1f} ms")
    print(f"{name:<7} adapter adds    {added * 1000:7.1f} ms (median, warm)")


def main() -> None:
    """Measure and print the first-event latency of the claude and codex adapters with the fakes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    os.environ.update({"IS_SANDBOX": "1", "FAKE_CLAUDE_SCENARIO": "ok", "FAKE_CODEX_SCENARIO": "ok"})
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        cwd = scratch / "worktree"
        cwd.mkdir()
        claude_cli = _wrapper(scratch, "claude", FIXTURES / "fake_claude_cli.py")
        codex_bin = _wrapper(scratch, "codex", FIXTURES / "fake_codex.py")

        from alphred.providers.claude import ClaudeProvider
        from alphred.providers.codex import CodexProvider

        claude, codex = ClaudeProvider(str(claude_cli)), CodexProvider(str(codex_bin))
        cold = asyncio.run(_first_event(claude, cwd))
        pairs = [(_bare_claude(claude_cli, cwd), asyncio.run(_first_event(claude, cwd))) for _ in range(runs)]
        _report("claude", [b for b, _ in pairs], [a for _, a in pairs], cold)  # interleaved: load drifts cancel
        pairs = [(_bare_codex(codex_bin, cwd), asyncio.run(_first_event(codex, cwd))) for _ in range(runs)]
        _report("codex", [b for b, _ in pairs], [a for _, a in pairs])


if __name__ == "__main__":
    main()
