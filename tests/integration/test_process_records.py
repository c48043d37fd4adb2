"""The process groups' record (``run_processes``) and what a take-over finds without it: every group is recorded
as it starts, in the run's recording thread (a quick command's too), and while it is not recorded yet, a take-over
finds it through the marked process that leads it (the command's shell)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from helpers.processes import alive, wait_gone, wait_until

from alphred.engine import StartPhase
from alphred.providers import groups
from alphred.runtime.attempts import Attempts
from alphred.runtime.command_output import QUEUED_LINES, CommandOutput
from alphred.runtime.orphans import MARKER, kill_leftovers
from alphred.store import SqlRunStore
from alphred.views.progress import Progress


class FakeStore:
    """Records ``add_process`` calls: ``(phase, attempt, pgid)``."""

    def __init__(self) -> None:
        self.recorded: list[tuple[str, int, int]] = []
        self.lock = threading.Lock()

    def add_process(self, run_id: int, phase: str, attempt: int, host: str, pgid: int, started: Any) -> None:
        with self.lock:
            self.recorded.append((phase, attempt, pgid))


def recorded_by(body: Callable[[Attempts, FakeStore], Awaitable[None]]) -> list[tuple[str, int, int]]:
    """The groups a run's ``Attempts`` (listening to the registry as the supervisor has it) records while
    ``body`` runs on its loop; ``Attempts.recorded`` is awaited after it."""
    store = FakeStore()

    async def main() -> None:
        attempts = Attempts(store, 1, Progress(enabled=False), {})  # type: ignore[arg-type]
        attempts.loop = asyncio.get_running_loop()
        stop = groups.listen(attempts.record_group)
        try:
            await body(attempts, store)
            await attempts.recorded()
        finally:
            stop()

    asyncio.run(main())
    return store.recorded


def test_every_group_is_recorded_as_it_starts_a_quick_one_too() -> None:
    async def body(attempts: Attempts, store: FakeStore) -> None:
        with attempts.under_way(StartPhase("work", 1, 1)):
            groups.register(990104)
            groups.register(990105)
            groups.unregister(990104)  # written all the same: the write was handed over at the start
            groups.unregister(990105)

    assert recorded_by(body) == [("work", 1, 990104), ("work", 1, 990105)]


def test_a_group_registered_from_another_thread_is_recorded_for_the_attempt_under_way() -> None:
    async def body(attempts: Attempts, store: FakeStore) -> None:
        with attempts.under_way(StartPhase("check", 3, 2)):
            await asyncio.to_thread(groups.register, 990106)  # the attempt's context goes with to_thread
            groups.unregister(990106)

    assert recorded_by(body) == [("check", 3, 990106)]


def test_a_take_over_kills_an_unrecorded_group_through_its_marked_leader(sqlite_url: str, tmp_path: Path) -> None:
    # The shell carries the dead owner's mark and leads its group; its child dropped the mark (``env -i``) and
    # no row names the group: the child is found through the group of its marked leader (main left it running).
    pid_file = tmp_path / "child.pid"
    shell = subprocess.Popen(
        ["sh", "-c", f"env -i sleep 300 & echo $! > {pid_file}; wait"],
        env={**os.environ, MARKER: "dead-owner"},
        start_new_session=True,
    )
    try:
        wait_until(lambda: pid_file.exists() and pid_file.read_text().strip(), what="the child's pid")
        child = int(pid_file.read_text())
        assert alive(child)
        with SqlRunStore(sqlite_url) as store:
            assert store.processes(1) == []
            assert kill_leftovers(store, 1, "dead-owner") >= 1
        assert wait_gone(child)
        assert shell.wait(timeout=60) == -9
    finally:
        if shell.poll() is None:
            os.killpg(shell.pid, 9)
            shell.wait()


def test_output_waiting_to_be_taken_pauses_the_reading_and_taking_it_resumes() -> None:
    # Back-pressure: past QUEUED_LINES lines read and not taken, the pipes are not read (the command blocks on
    # its writes); every line arrives all the same once they are taken.
    lines = 200_000  # ~2.5 MB: far more than a pipe and a read's chunk hold

    async def main() -> tuple[int, int]:
        writer = subprocess.Popen(
            [sys.executable, "-c", f"for i in range({lines}): print(f'line-{{i}}')"], stdout=subprocess.PIPE
        )
        output = CommandOutput(asyncio.get_running_loop(), (writer.stdout,))
        try:
            # the loop reads while this waits in a thread (``wait`` returns at once while a line waits: awaiting
            # it in a loop that takes nothing would never let the loop read; a first read of fewer lines than
            # QUEUED_LINES, on a quiet machine, spun here for ever)
            await asyncio.to_thread(wait_until, lambda: not output.open or len(output.lines) >= QUEUED_LINES)
            await asyncio.to_thread(wait_until, lambda: writer.poll() is not None or _blocked(writer.pid))
            most = len(output.lines)
            taken = 0
            while output.open or output.lines:
                if output.lines:
                    assert output.take()[1] == f"line-{taken}\n"
                    taken += 1
                else:
                    await output.wait(None)
            return most, taken
        finally:
            output.close()
            writer.wait()

    most, taken = asyncio.run(main())
    assert taken == lines
    assert most < lines  # not everything was read ahead: the reading paused


def _blocked(pid: int) -> bool:
    """The process sleeps in a write to a full pipe (its kernel wait channel says so)."""
    try:
        return "pipe" in Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return False


def test_a_groups_start_time_is_the_kernels_and_empty_for_a_process_that_is_gone() -> None:
    # What a take-over compares against ``/proc`` again (a reused pid is another process): field 22 of its stat
    from alphred.store.owners import process_start_time

    child = subprocess.Popen(["sleep", "30"])
    try:
        stat = Path(f"/proc/{child.pid}/stat").read_text()
        assert process_start_time(child.pid) == stat[stat.rfind(")") + 2 :].split()[19]
    finally:
        child.kill()
        child.wait()
    assert process_start_time(child.pid) == ""
