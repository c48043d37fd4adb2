"""The cost of keeping run artifacts (issue 30, SPEC §17): storing 50 MB of ``$ALPHRED_ARTIFACTS`` with the run.

Measured at the command line, as users run Alphred: a whole ``alphred run`` process per sample, with a
one-phase workflow whose command copies a prepared tree (text and binary files) into
``$ALPHRED_ARTIFACTS`` — or, for the baseline, into a directory Alphred does not store. The cost of storing
is (median with artifacts - median baseline); samples alternate. The peak RSS of the ``alphred run``
process is read for each size: storing reads, redacts and writes in pieces of about 1 MiB, so it should
not grow with the artifacts' size (0, 50 and 200 MB). A second figure, in-process: ``RunFiles.store`` alone
on the same tree (first store, then an unchanged tree), its peak of traced Python memory.

Goal: 50 MB stored in under 2 s; memory flat.

    python benchmarks/artifacts.py            # ~3 min
    python benchmarks/artifacts.py --quick    # a smoke run
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import ROOT, subprocess_env

MB = 1_000_000


def prepare_tree(target: Path, total: int) -> Path:
    """About ``total`` bytes: text files of 1 MB (log-like lines) and one binary file of a fifth of the total."""
    target.mkdir(parents=True, exist_ok=True)
    rng = random.Random(30)
    binary = total // 5
    (target / "data.bin").write_bytes(rng.randbytes(binary))
    left = total - binary
    line = "2026-11-26 01:00:00 INFO step {n:>8} tried approach {k} on module alphred/runtime/phase.py\n"
    number = 0
    while left > 0:
        size = min(MB, left)
        lines, length = [], 0
        while length < size:
            text = line.format(n=length, k=rng.randint(0, 99))
            lines.append(text)
            length += len(text)
        (target / f"notes/part-{number:03}.log").parent.mkdir(exist_ok=True)
        (target / f"notes/part-{number:03}.log").write_text("".join(lines)[:size])
        left -= size
        number += 1
    return target


def workflow(path: Path, source: Path, store: bool, limit: int) -> Path:
    destination = '"$ALPHRED_ARTIFACTS"' if store else f'"{path.parent / "elsewhere"}"'
    command = f'rm -rf {destination}/*; mkdir -p {destination} && cp -r "{source}/." {destination}/'
    path.write_text(
        "\n".join(
            [
                "alphred: 1",
                "key: bench",
                f"limits: {{max_artifact_bytes: {limit}}}",
                "phases:",
                "  copy:",
                "    type: command",
                f"    run: {json.dumps(command)}",
            ]
        )
        + "\n"
    )
    return path


_MEASURE = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter(); done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
    "elapsed = time.perf_counter() - t\n"
    "if done.returncode: sys.exit(done.stderr[-2000:])\n"
    "print(elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def run_once(repo: Path, wf: Path, env: dict[str, str]) -> tuple[float, float]:
    """Seconds and peak RSS (MB) of one ``alphred run`` process."""
    argv = [sys.executable, "-m", "alphred", "run", str(wf), "--repo", str(repo), "--quiet"]
    done = subprocess.run([sys.executable, "-c", _MEASURE, *argv], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"alphred run failed: {done.stderr[-2000:]}")
    seconds, rss = done.stdout.split()
    return float(seconds), int(rss) / 1024


def make_repo(base: Path, env: dict[str, str]) -> Path:
    repo = base / "repo"
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, env=env, check=True)
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "init"], cwd=repo, env=env, check=True)
    return repo


def in_process(source: Path, base: Path) -> None:
    """``RunFiles.store`` on the tree, in this process: first store, unchanged store, traced peak."""
    from alphred.redact import Redactor
    from alphred.runtime.run_files import RunFiles
    from alphred.store import SqlRunStore
    from alphred.workflow.model import Phase, PhaseType, Workflow

    store = SqlRunStore(f"sqlite:///{base / 'inproc.db'}")
    phase = Phase(key="copy", type=PhaseType.COMMAND, sequence_index=0, run="true")
    tree_id, _ = store.compile(Workflow(key="bench", phases=(phase,), start="copy"))
    run_id = store.create_run(tree_id, repo_path=str(base))
    files = RunFiles(run_id, base / "runs" / str(run_id), 10**10)
    files.make()
    subprocess.run(["cp", "-r", f"{source}/.", str(files.areas["artifacts"])], check=True)
    redactor = Redactor(os.environ)
    tracemalloc.start()
    started = time.perf_counter()
    files.store(store, redactor)
    first = time.perf_counter() - started
    _size, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    started = time.perf_counter()
    files.store(store, redactor)
    again = time.perf_counter() - started
    store.close()
    print(f"  in-process RunFiles.store: first {first:.2f} s, unchanged tree {again * 1000:.1f} ms")
    print(f"  traced Python memory peak during the first store: {peak / MB:.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: 5 MB, one sample each")
    parser.add_argument("--samples", type=int, default=5, help="samples of each variant (default 5)")
    args = parser.parse_args()
    sizes = [5 * MB] if args.quick else [50 * MB, 200 * MB]
    samples = 1 if args.quick else args.samples
    env = subprocess_env()
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="B",
        GIT_AUTHOR_EMAIL="b@example.invalid",
        GIT_COMMITTER_NAME="B",
        GIT_COMMITTER_EMAIL="b@example.invalid",
    )
    with tempfile.TemporaryDirectory(prefix="alphred-bench-artifacts-") as scratch:
        base = Path(scratch)
        env["HOME"] = str(base)
        repo = make_repo(base, env)
        print(f"alphred run, one command phase copying a tree into $ALPHRED_ARTIFACTS ({samples} samples each)")
        for total in sizes:
            source = prepare_tree(base / f"source-{total}", total)
            limit = total * 2
            stored = workflow(base / "stored.yaml", source, True, limit)
            plain = workflow(base / "plain.yaml", source, False, limit)
            with_times, plain_times, with_rss, plain_rss = [], [], [], []
            for _ in range(samples):
                seconds, rss = run_once(repo, plain, env)
                plain_times.append(seconds)
                plain_rss.append(rss)
                seconds, rss = run_once(repo, stored, env)
                with_times.append(seconds)
                with_rss.append(rss)
            cost = statistics.median(with_times) - statistics.median(plain_times)
            print(
                f"  {total / MB:>4.0f} MB: run {statistics.median(with_times):.2f} s "
                f"(baseline {statistics.median(plain_times):.2f} s), storing costs {cost:.2f} s "
                f"(goal < 2 s{' for 50 MB' if total != 50 * MB else ''}); peak RSS {max(with_rss):.0f} MB "
                f"(baseline {max(plain_rss):.0f} MB)"
            )
        in_process(source, base)
        print(f"  (measured from {ROOT})")


if __name__ == "__main__":
    main()
