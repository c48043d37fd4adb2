"""The process groups' record (``run_processes``) and what a take-over finds without it: a group is recorded
once it has lived ``RECORD_AFTER_SECONDS`` (one killed before is not: nothing of it is left to find), and while
it is not recorded yet, a take-over finds it through the marked process that leads it (the command's shell)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.processes import alive, wait_gone, wait_until

from alphred.engine import StartPhase
from alphred.providers import groups
from alphred.runtime import attempts as attempts_module
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
        stop = groups.listen(attempts.record_group, attempts.group_ended)
        try:
            await body(attempts, store)
            await attempts.recorded()
        finally:
            stop()

    asyncio.run(main())
    return store.recorded


def test_a_group_killed_before_it_lived_long_enough_is_not_recorded_and_one_living_on_is() -> None:
    async def body(attempts: Attempts, store: FakeStore) -> None:
        with attempts.under_way(StartPhase("work", 1, 1)):
            groups.register(990101)  # a quick command: killed (unregistered) at once
            groups.register(990102)  # a long one: still running
            groups.unregister(990101)
            try:
                await asyncio.to_thread(wait_until, lambda: store.recorded, 60.0, "the long group's record")
            finally:
                groups.unregister(990102)

    assert recorded_by(body) == [("work", 1, 990102)]


def test_a_group_still_running_when_the_run_stops_watching_is_recorded_then() -> None:
    async def body(attempts: Attempts, store: FakeStore) -> None:
        with attempts.under_way(StartPhase("work", 2, 1)):
            groups.register(990103)
        assert store.recorded == []  # not lived RECORD_AFTER_SECONDS yet

    try:
        assert recorded_by(body) == [("work", 2, 990103)]
    finally:
        groups.unregister(990103)


def test_with_no_delay_a_group_is_recorded_as_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(attempts_module, "RECORD_AFTER_SECONDS", 0.0)

    async def body(attempts: Attempts, store: FakeStore) -> None:
        with attempts.under_way(StartPhase("work", 1, 1)):
            groups.register(990104)
            groups.unregister(990104)  # written all the same: the write was handed over at the start

    assert recorded_by(body) == [("work", 1, 990104)]


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
            while output.open and len(output.lines) < QUEUED_LINES:
                await output.wait(None)
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
