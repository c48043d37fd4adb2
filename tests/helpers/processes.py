"""Child processes: ``alphred`` as one, liveness, waiting on a condition, children released at once.

Nothing here synchronises on time: a wait polls a condition and fails the test only after a generous
deadline, and children meant to race are held at a barrier (their stdin) until every one of them is ready.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def run_alphred(
    *args: str, env: Mapping[str, str], cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``python -m alphred ARGS`` to its end (``timeout`` only guards against a hang); its output captured."""
    return subprocess.run(
        [sys.executable, "-m", "alphred", *args],
        cwd=cwd,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def spawn_alphred(*args: str, env: Mapping[str, str], cwd: Path | None = None) -> subprocess.Popen[str]:
    """``python -m alphred ARGS`` started in a session of its own (so its group can be killed), output piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "alphred", *args],
        cwd=cwd,
        env=dict(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def kill_group(process: subprocess.Popen[str]) -> None:
    """SIGKILL the process's group (a crash, as far as alphred can tell) and collect what it wrote."""
    with contextlib.suppress(ProcessLookupError):  # the group already ended on its own: nothing left to kill
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=30)


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its reaper counts as dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] not in "ZX"


def wait_until(
    check: Callable[[], T],
    timeout: float = 60.0,
    what: str = "the condition",
    ignore: tuple[type[BaseException], ...] = (),
) -> T:
    """Poll ``check`` until it returns something true and return that; fail the test after ``timeout`` seconds.

    The deadline is generous on purpose: it only turns a hang into a failure, it never measures speed.
    Exceptions of the ``ignore`` types count as "not yet" (a database still being created, say).
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = check()
        except ignore:
            pass
        else:
            if value:
                return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.05)


def wait_gone(pid: int, timeout: float = 60.0) -> bool:
    """True once ``pid`` no longer runs; fails the test when it still runs after ``timeout`` seconds."""
    return wait_until(lambda: not alive(pid), timeout, f"process {pid} to end")


_BARRIER = "import sys\nprint('ready', flush=True)\nsys.stdin.readline()\n"


def start_together(
    setup: str, race: str, argvs: Sequence[Sequence[str]], *, env: Mapping[str, str], timeout: float = 120
) -> list[tuple[int, str, str]]:
    """Run one Python child per entry of ``argvs`` (its ``sys.argv[1:]``): each runs ``setup``, says it is ready
    and waits; once every child is ready all are released at once to run ``race``. Returns each child's exit
    code, stdout (after its "ready" line) and stderr, in order."""
    code = f"{setup}\n{_BARRIER}{race}\n"
    children = [
        subprocess.Popen(
            [sys.executable, "-c", code, *argv],
            env=dict(env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for argv in argvs
    ]
    try:
        for child in children:
            assert child.stdout is not None
            said = child.stdout.readline()  # blocks until this child is ready (or has died)
            if said != "ready\n":
                _, err = child.communicate(timeout=timeout)
                raise AssertionError(f"a child failed before the start: {said!r} {err}")
        for child in children:  # the barrier: every child is waiting on its stdin
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        outputs = [child.communicate(timeout=timeout) for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.communicate()
    return [(child.returncode, out, err) for child, (out, err) in zip(children, outputs, strict=True)]


_PROBE = """\
import json, runpy, sys
modules, sys.argv = json.loads(sys.argv[1]), ["alphred", *sys.argv[2:]]
code = 0
try:
    runpy.run_module("alphred", run_name="__main__")
except SystemExit as exit:
    code = exit.code
print(json.dumps({"exit": code, "loaded": [m for m in modules if m in sys.modules]}))
"""


def modules_imported(
    args: Sequence[str], modules: Sequence[str], *, env: Mapping[str, str], cwd: Path | None = None
) -> tuple[object, list[str]]:
    """Run ``alphred ARGS`` in a fresh Python: its exit code, and which of ``modules`` it imported."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(list(modules)), *args],
        cwd=cwd,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.strip(), (args, done.stderr)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return found["exit"], found["loaded"]
