"""The floor of a run's start, part by part (issue 29, item 4): what no start with the design card's packages
can go below, and whether any of it could be avoided or hidden behind git.

``run_start.py --floor`` measures the floor whole: a fresh interpreter importing what the first provider call
cannot do without (``asyncio``, ``sqlite3``, ``click``, ``yaml``, SQLAlchemy with its SQLite dialect,
GitPython), then ``git worktree add`` through GitPython. This script breaks it down:

- **Parts**: the floor's script cut after each of its lines (``python -c pass``, + ``import sqlite3``,
  + ``click``... + ``asyncio``, + ``git worktree add``), each prefix a fresh interpreter; a part's cost is its
  prefix's minus the previous one's.
  Instructions (``valgrind --tool=callgrind``, bytecode cached, hash seed fixed; the ``git`` children GitPython
  spawns not counted) are the load-independent figure; CPU time (user + system of the process and of its
  ``git`` children, ``getrusage``) and wall are medians over ``--runs`` rounds, every prefix once a round
  (interleaved, so a burst of load on the shared machine falls on all of them alike).
- **importtime**: ``python -X importtime`` of the floor's imports, the median self and cumulative time of each
  top-level import, and the costliest modules by self time.
- **git**: ``git worktree add`` as a plain process against the same through GitPython's ``Git.execute``
  (GitPython imported), in one process, interleaved: what GitPython adds to the call itself.
- **asyncio**: whether its start-up could overlap with git: ``import sqlalchemy`` imports ``asyncio`` itself
  (``sqlalchemy.util.concurrency``), before the intent's SQL can be written, so the ``asyncio`` part shows what
  the module adds after SQLAlchemy (nothing) and nothing of the floor is left to run while git checks out.

- **module files** (``--module-files``): whether Alphred's own part of the start costs its wall by the number
  of files it loads or by their bytes. A fresh interpreter imports the floor's packages, then the ~150 modules
  of Alphred a run's start loads (``START_MODULES`` and what they import), timed alone (wall, user and system
  CPU, minor page faults, ``getrusage``): from the checkout (a ``.pyc`` file each: a stat of the source, an
  open, reads), from one zip of the same ``.pyc`` files (``zipimport``: one open), and from one file of their
  code objects read once (a finder of its own: no file-system call a module). Same bytecode, same
  unmarshalling, same module bodies: the difference is the per-file cost. It also counts the ``mmap`` of
  16 KiB (CPython 3.11's frame stack growing by a chunk, freed at once on return: a deep call chain that
  oscillates across a chunk's end maps and unmaps one per call) with ``strace`` when it is installed.

Usage::

    python benchmarks/start_floor.py [--runs 15] [--quick] [--no-instructions] [--module-files]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

from common import git, make_repo, median, scratch, spread, subprocess_env, table

BRANCH = "bench-floor"
# The floor's lines (run_start.FLOOR), each with the label of what it adds: a module two parts share counts
# in the first. ``asyncio`` comes last of the imports (its cost is what it adds to the rest) as in a start,
# whose event loop begins after the store and git.
PARTS = (
    ("interpreter (python -c pass)", "import sys, time"),
    ("sqlite3", "import sqlite3"),
    ("click", "import click"),
    ("yaml", "import yaml"),
    ("sqlalchemy", "import sqlalchemy"),
    ("sqlalchemy.dialects.sqlite", "import sqlalchemy.dialects.sqlite"),
    ("git (GitPython; its import runs `git version`)", "import git\nfrom git.cmd import Git"),
    ("asyncio (what it adds: ssl, selectors, its own modules)", "import asyncio"),
    (
        "git worktree add through Git.execute",
        'Git(sys.argv[1]).execute(["git", "worktree", "add", "--quiet", "-b", sys.argv[2], sys.argv[3], "HEAD"])',
    ),
)
# Whether ``import sqlalchemy`` alone loads asyncio (and ssl): the floor's ``import asyncio`` then adds nothing.
ASYNCIO_FIRST = """\
import sys
import sqlalchemy
print(", ".join(name for name in ("asyncio", "ssl", "concurrent.futures") if name in sys.modules) or "none")
"""
# In one process: ``git worktree add`` plainly and through GitPython, alternately; prints wall and CPU ms.
GIT_CALLS = """\
import os, resource, subprocess, sys, time
from git.cmd import Git
repo, target, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
def cpu():
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return (own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime) * 1000
def clean():
    subprocess.run(["git", "worktree", "remove", "--force", "--force", target], cwd=repo, check=True)
    subprocess.run(["git", "branch", "-q", "-D", "bench-floor"], cwd=repo, check=True)
add = ["git", "worktree", "add", "--quiet", "-b", "bench-floor", target, "HEAD"]
for _ in range(runs):
    for kind in ("plain", "gitpython"):
        c, t = cpu(), time.perf_counter()
        if kind == "plain":
            subprocess.run(add, cwd=repo, check=True, stdin=subprocess.DEVNULL)
        else:
            Git(repo).execute(add, istream=subprocess.DEVNULL)
        print(kind, (time.perf_counter() - t) * 1000, cpu() - c)
        clean()
"""


# The modules ``alphred run`` imports itself on its way to the first provider call (run_cmds.run, start_run's,
# the scripted provider); they load the ~150 modules of a start.
START_MODULES = (
    "alphred.cli.run_cmds", "alphred.cli.inputs", "alphred.operations.ci_wait", "alphred.operations.start",
    "alphred.operations.where", "alphred.operations.registration", "alphred.operations.branch_choice",
    "alphred.runtime.delivery", "alphred.store.sql_store", "alphred.store.sqlite_store", "alphred.providers.scripted",
    "alphred.runtime.runner",  # imported while git worktree add runs (operations.start.DRIVE_MODULES)
)  # fmt: skip
# The child of ``--module-files``: the floor's imports, then Alphred's modules from ``sys.argv[1]``'s source
# ("files": the checkout on PYTHONPATH; "zip": a zip of the .pyc files; "blob": one marshalled file).
MODULE_FILES = """\
import importlib, importlib.abc, importlib.machinery, marshal, resource, sys, time, zipimport
import sqlite3, click, yaml, sqlalchemy, sqlalchemy.dialects.sqlite, git, asyncio
from git.cmd import Git
kind, where, names = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
class Blob(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, path, root):
        with open(path, "rb") as f:
            self.codes = marshal.loads(f.read())  # name -> (is package, marshalled code)
        self.root = root
    def find_spec(self, name, path=None, target=None):
        found = self.codes.get(name)
        if found is None:
            return None
        origin = self.root + "/" + name.replace(".", "/") + ("/__init__.py" if found[0] else ".py")
        spec = importlib.machinery.ModuleSpec(name, self, origin=origin, is_package=found[0])
        spec.has_location = True
        if found[0]:
            spec.submodule_search_locations = [origin.rsplit("/", 1)[0]]
        return spec
    def create_module(self, spec):
        return None
    def exec_module(self, module):
        module.__file__ = module.__spec__.origin
        exec(marshal.loads(self.codes[module.__name__][1]), module.__dict__)
if kind == "zip":
    sys.path.insert(0, where)
elif kind == "blob":
    sys.meta_path.insert(0, Blob(where, sys.argv[4]))
usage, started = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
for name in names:
    importlib.import_module(name)
wall = (time.perf_counter() - started) * 1000
after = resource.getrusage(resource.RUSAGE_SELF)
own = sum(1 for name in sys.modules if name.startswith("alphred"))
print(wall, (after.ru_utime - usage.ru_utime) * 1000, (after.ru_stime - usage.ru_stime) * 1000,
      after.ru_minflt - usage.ru_minflt, own)
"""


def module_sources(tmp: Path) -> tuple[Path, Path]:
    """A zip of the .pyc of every Alphred module (stored, not compressed) and one file of their code objects,
    from this checkout (compiled here)."""
    import marshal
    import zipfile

    root = Path(__file__).resolve().parent.parent
    archive, blob = tmp / "alphred.zip", tmp / "alphred.codes"
    codes: dict[str, tuple[bool, bytes]] = {}
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as out:
        for source in sorted((root / "alphred").rglob("*.py")):
            relative = source.relative_to(root)
            code = compile(source.read_bytes(), str(source), "exec", dont_inherit=True)
            data = marshal.dumps(code)
            header = importlib.util.MAGIC_NUMBER + b"\0" * 12  # unchecked: no source in the zip
            out.writestr(str(relative.with_suffix(".pyc")), header + data)
            package = source.name == "__init__.py"
            name = ".".join((relative.parent if package else relative.with_suffix("")).parts)
            codes[name] = (package, data)
        for data_file in sorted((root / "alphred").rglob("*")):
            if data_file.is_file() and data_file.suffix not in (".py", ".pyc"):
                out.write(data_file, str(data_file.relative_to(root)))
    blob.write_bytes(marshal.dumps(codes))
    return archive, blob


def module_file_rows(runs: int, tmp: Path) -> tuple[list[list[str]], list[list[str]]]:
    """Median wall, user, system ms and page faults of importing the start's Alphred modules, from the
    checkout, one zip and one file, in ``runs`` interleaved rounds; and the 16 KiB ``mmap`` counts of a start."""
    archive, blob = module_sources(tmp)
    root = str(Path(__file__).resolve().parent.parent)
    kinds = {"files (the checkout)": ("files", root), "one zip": ("zip", str(archive)), "one file": ("blob", str(blob))}
    names = ",".join(START_MODULES)
    found: dict[str, list[list[float]]] = {kind: [] for kind in kinds}
    for round_ in range(runs + 1):
        for label, (kind, where) in kinds.items():
            env = subprocess_env()
            if kind != "files":
                env["PYTHONPATH"] = os.pathsep.join(p for p in env["PYTHONPATH"].split(os.pathsep) if p != root)
            args = [sys.executable, "-c", MODULE_FILES, kind, where, names, root + "/alphred/.."]
            done = subprocess.run(args, env=env, capture_output=True, text=True, check=True, cwd=tmp)
            if round_:  # the first round writes the bytecode caches
                found[label].append([float(value) for value in done.stdout.split()])
    rows = []
    for label, samples in found.items():
        columns = list(zip(*samples, strict=True))
        rows.append(
            [label, f"{median(list(columns[0])):.1f} ({spread(list(columns[0]), 1)})"]
            + [f"{median(list(column)):.1f}" for column in columns[1:4]]
            + [f"{int(columns[4][0])}"]
        )
    maps: list[list[str]] = []
    if shutil.which("strace"):
        from run_start import DRIVER, FLOOR, WORKFLOW, alphred_start_ms_cleanup

        repo = make_repo(tmp / "repo-maps", files=3)
        workflow = tmp / "start.yaml"
        workflow.write_text(WORKFLOW)
        target = tmp / "maps-floor"
        processes = {
            "the floor (imports + git worktree add)": [FLOOR, str(repo), BRANCH, str(target)],
            "alphred run -> first provider call": [DRIVER, "run", str(workflow), "--quiet"],
        }
        for round_ in range(2):  # the first round makes the database and writes the bytecode caches
            for label, args in processes.items():
                trace = tmp / "strace.out"
                command = ["strace", "-o", str(trace), sys.executable, "-c", *args]
                subprocess.run(command, env=subprocess_env(), cwd=repo, check=True, capture_output=True)
                clean(repo, target)
                alphred_start_ms_cleanup(repo)
                text = trace.read_text()
                if round_:
                    maps.append([label, str(text.count("mmap(NULL, 16384,")), str(text.count("\n"))])
    return rows, maps


def prefix(count: int) -> str:
    """The floor's script up to (and with) its ``count``-th part."""
    return "\n".join(line for _, line in PARTS[:count]) + "\n"


def run_sample(script: str, repo: Path, target: Path) -> tuple[float, float]:
    """(wall ms, CPU ms of the process and its children) of ``python -c script REPO BRANCH TARGET``; removes
    the worktree the script made, if any."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    started = time.perf_counter()
    args = [sys.executable, "-c", script, str(repo), BRANCH, str(target)]
    subprocess.run(args, cwd=repo, env=subprocess_env(), check=True, capture_output=True)
    wall = (time.perf_counter() - started) * 1000
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    clean(repo, target)
    return wall, (usage.ru_utime + usage.ru_stime - cpu) * 1000


def clean(repo: Path, target: Path) -> None:
    """Remove the floor's worktree and branch from ``repo`` if a sample made them."""
    if target.exists():
        git(["worktree", "remove", "--force", "--force", str(target)], repo)
    if git(["branch", "--list", BRANCH], repo).strip():
        git(["branch", "-q", "-D", BRANCH], repo)


def instructions(script: str, repo: Path, target: Path) -> int:
    """Instructions of ``python -c script`` (callgrind; its children not followed), after an unmeasured run."""
    run_sample(script, repo, target)
    out = repo.parent / "callgrind.floor"
    env = {**subprocess_env(), "PYTHONHASHSEED": "0"}
    args = [sys.executable, "-c", script, str(repo), BRANCH, str(target)]
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        check=True,
    )
    clean(repo, target)
    total = next(line for line in out.read_text().splitlines() if line.startswith(("summary:", "totals:")))
    out.unlink()
    return int(total.split()[1])


def part_rows(repo: Path, runs: int, count_instructions: bool) -> list[list[str]]:
    """One row a part: its instructions, median CPU and wall (ms) over ``runs`` interleaved rounds."""
    target = repo.parent / "floor-target"
    scripts = [prefix(count) for count in range(1, len(PARTS) + 1)]
    counts = [instructions(script, repo, target) for script in scripts] if count_instructions else []
    samples: list[list[tuple[float, float]]] = [[] for _ in scripts]
    for _ in range(runs):
        for index, script in enumerate(scripts):
            samples[index].append(run_sample(script, repo, target))
    rows = []
    for index, (label, _) in enumerate(PARTS):
        walls, cpus = [s[0] for s in samples[index]], [s[1] for s in samples[index]]
        before_wall = median([s[0] for s in samples[index - 1]]) if index else 0.0
        before_cpu = median([s[1] for s in samples[index - 1]]) if index else 0.0
        count = f"{(counts[index] - (counts[index - 1] if index else 0)) / 1e6:,.1f}" if counts else "-"
        rows.append(
            [
                label,
                count,
                f"{median(cpus) - before_cpu:.1f}",
                f"{median(walls) - before_wall:.1f}",
                f"{median(walls):.0f} ({spread(walls, 0)})",
            ]
        )
    if counts:
        rows.append(["floor (all parts)", f"{counts[-1] / 1e6:,.1f}", "", "", ""])
    return rows


_IMPORTTIME = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def importtime_rows(runs: int) -> tuple[list[list[str]], list[list[str]]]:
    """Median self and cumulative µs of each top-level import of the floor (``-X importtime``, ``runs``
    processes), and the ten costliest modules by self time."""
    script = "\n".join(line for _, line in PARTS[:-1])
    top: dict[str, list[tuple[int, int]]] = {}
    selfs: dict[str, list[int]] = {}
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", script],
            env=subprocess_env(),
            capture_output=True,
            text=True,
            check=True,
        )
        for match in _IMPORTTIME.finditer(done.stderr):
            own, cumulative, indent, name = int(match[1]), int(match[2]), len(match[3]), match[4]
            selfs.setdefault(name, []).append(own)
            if indent == 1:
                top.setdefault(name, []).append((own, cumulative))
    floor = {"sqlite3", "click", "yaml", "sqlalchemy", "sqlalchemy.dialects.sqlite", "git", "asyncio"}
    rest = [name for name in top if name not in floor]  # the interpreter's own start (site, encodings...)
    top["(interpreter start: " + ", ".join(rest[:3]) + "...)"] = [
        (sum(top[name][run][0] for name in rest), sum(top[name][run][1] for name in rest)) for run in range(runs)
    ]
    for name in rest:
        del top[name]
    tops = sorted(top.items(), key=lambda item: -median([c for _, c in item[1]]))
    first = [
        [name, f"{median([c for _, c in v]) / 1000:.1f}", f"{median([s for s, _ in v]) / 1000:.1f}"] for name, v in tops
    ]
    costly = sorted(selfs.items(), key=lambda item: -median(item[1]))[:10]
    second = [[name, f"{median(values) / 1000:.1f}"] for name, values in costly]
    return first, second


def git_rows(repo: Path, runs: int) -> list[list[str]]:
    """Median wall and CPU (ms) of ``git worktree add``, plainly and through ``Git.execute``, in one process."""
    target = repo.parent / "floor-git"
    done = subprocess.run(
        [sys.executable, "-c", GIT_CALLS, str(repo), str(target), str(runs)],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, list[tuple[float, float]]] = {}
    for line in done.stdout.splitlines():
        kind, wall, cpu = line.split()
        found.setdefault(kind, []).append((float(wall), float(cpu)))
    return [
        [
            kind,
            f"{median([w for w, _ in values]):.1f} ({spread([w for w, _ in values], 1)})",
            f"{median([c for _, c in values]):.1f}",
        ]
        for kind, values in found.items()
    ]


def main() -> None:
    """Generate the repositories, measure each breakdown, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="interleaved rounds (medians are reported)")
    parser.add_argument("--quick", action="store_true", help="smoke mode: 5 rounds")
    parser.add_argument("--no-instructions", action="store_true", help="skip the callgrind counts")
    parser.add_argument(
        "--module-files",
        action="store_true",
        help="only the probe: Alphred's start modules from files, a zip, one file",
    )
    args = parser.parse_args()
    if args.module_files:
        with scratch("floor") as tmp:
            rows, maps = module_file_rows(5 if args.quick else args.runs, tmp)
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        print(f"\nImporting the start's Alphred modules after the floor's (median ms); load average {load}:\n")
        print(table(rows, ["from", "wall ms (range)", "user ms", "system ms", "minor faults", "alphred modules"]))
        if maps:
            print("\n16 KiB mmaps (frame stack chunks) and system calls of the main process (strace, no threads):\n")
            print(table(maps, ["process", "16 KiB mmaps", "system calls"]))
        return
    runs = 5 if args.quick else args.runs
    count = not args.no_instructions and shutil.which("valgrind") is not None
    with scratch("floor") as tmp:
        small = make_repo(tmp / "repo-3", files=3)
        parts = part_rows(small, runs, count)
        imports, costly = importtime_rows(runs)
        calls = git_rows(small, runs)
        asyncio_done = subprocess.run(
            [sys.executable, "-c", ASYNCIO_FIRST], env=subprocess_env(), capture_output=True, text=True, check=True
        )
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"\nThe floor part by part (small repository), {runs} interleaved rounds; load average {load}:\n")
    header = ["part", "M instructions", "CPU ms (median)", "wall ms (median)", "prefix wall ms (range)"]
    print(table(parts, header))
    print("\npython -X importtime of the floor's imports (top-level imports, median ms):\n")
    print(table(imports, ["import", "cumulative ms", "self ms"]))
    print("\nCostliest modules by self time (median ms):\n")
    print(table(costly, ["module", "self ms"]))
    print("\ngit worktree add in one process, plain and through GitPython (median ms):\n")
    print(table(calls, ["call", "wall ms (range)", "CPU ms (with git's)"]))
    print(f"\nImported by `import sqlalchemy` before any line of the floor names them: {asyncio_done.stdout.strip()}")


if __name__ == "__main__":
    main()
