"""Process groups are recorded with the run and attempt that started them, also when several runs share one
worker process (``worker --concurrency N``: one runner per thread, one listener per runner)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from alphred.engine import StartPhase
from alphred.providers import groups
from alphred.runtime.attempts import Attempts
from alphred.views.progress import Progress


class FakeStore:
    """Records ``add_process`` calls: ``(run_id, phase, attempt, pgid)``."""

    def __init__(self) -> None:
        self.recorded: list[tuple[int, str, int, int]] = []
        self.lock = threading.Lock()

    def add_process(self, run_id: int, phase: str, attempt: int, host: str, pgid: int, started: Any) -> None:
        with self.lock:
            self.recorded.append((run_id, phase, attempt, pgid))


def test_each_runner_records_only_the_groups_its_own_attempts_start() -> None:
    store = FakeStore()
    ready = threading.Barrier(2)

    def runner(run_id: int, pgid: int) -> None:
        async def main() -> None:
            attempts = Attempts(store, run_id, Progress(enabled=False), {})  # type: ignore[arg-type]
            attempts.loop = asyncio.get_running_loop()
            stop = groups.listen(attempts.record_group)
            try:
                with attempts.under_way(StartPhase(f"phase{run_id}", 1, 1)):
                    await asyncio.to_thread(ready.wait)  # both runs have an attempt under way
                    groups.register(pgid)  # as run_command does, inside the attempt's task
                    await asyncio.to_thread(ready.wait)  # both registered before either stops listening
                await attempts.recorded()
            finally:
                stop()
                groups.unregister(pgid)

        asyncio.run(main())

    threads = [threading.Thread(target=runner, args=(run_id, 990000 + run_id)) for run_id in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(store.recorded) == [(1, "phase1", 1, 990001), (2, "phase2", 1, 990002)]
