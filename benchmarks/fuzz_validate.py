"""Long fuzzing of ``alphred validate``: the suite's fuzz test (tests/unit/test_fuzz_validate.py) with many
more, freshly random examples. Prints the number of examples and the time taken; exits non-zero on the
first crash, hang (10 s per example) or memory blow-up (200 MB peak), with hypothesis' minimal example.

    python benchmarks/fuzz_validate.py [--examples 20000] [--deadline 10] [--quick]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=20_000, help="examples per fuzz test (3 tests)")
    parser.add_argument("--quick", action="store_true", help="smoke mode: 200 examples per test")
    parser.add_argument("--deadline", type=float, default=10.0, help="seconds one example may take (a hang)")
    args = parser.parse_args()
    examples = 200 if args.quick else args.examples
    env = {
        **os.environ,
        "ALPHRED_FUZZ_EXAMPLES": str(examples),
        "ALPHRED_FUZZ_RANDOM": "1",
        "ALPHRED_FUZZ_DEADLINE_SECONDS": str(args.deadline),
    }
    started = time.perf_counter()
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "tests/unit/test_fuzz_validate.py"]
    result = subprocess.run(command, cwd=ROOT, env=env, check=False)
    elapsed = time.perf_counter() - started
    print(
        f"\nfuzz_validate: {3 * examples} examples in {elapsed:.1f} s ({3 * examples / elapsed:.0f}/s): "
        f"{'no crash, hang or blow-up' if result.returncode == 0 else 'FAILED (see above)'}"
    )
    return result.returncode


if __name__ == "__main__":
    raise SystemExit(main())
