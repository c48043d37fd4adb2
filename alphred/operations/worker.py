"""``alphred worker`` (SPEC §10): claim queued and abandoned runs from a shared database and finish them.

The main thread claims (one short transaction per claim, ``SqlRunStore.claim_run``) and dispatches each
run to a thread of its own, up to ``concurrency`` at once; each run's ``Runner`` keeps its leases renewed
on its own event loop. When nothing is claimable the worker waits on one event, set by a finished run, a
signal, its poll interval or (PostgreSQL) a ``NOTIFY`` from a submit: it never spins and never lists runs.
SIGTERM/SIGINT: stop claiming, interrupt the active phases (recorded interrupted, leases released, so
another worker resumes them at once), exit within ``grace`` seconds.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from alphred.errors import AlphredError, RunBusyError
from alphred.git import RepoLocation
from alphred.operations.clones import RepoChooser
from alphred.operations.continuing import continue_run
from alphred.operations.requests import end_orphaned_children
from alphred.operations.submit import requested_action
from alphred.operations.takers import WORKFLOW_LABEL, workflow_allowed
from alphred.operations.workspace import Workspace
from alphred.runtime.cleanup import finish_cleanups
from alphred.runtime.runner import Runner
from alphred.settings import SYSTEM_CLOCK
from alphred.store import Candidate, SqlRunStore
from alphred.store.owners import LeaseOwner, lease_free, lease_ttl
from alphred.views.waits import clock_time


@dataclass
class WorkerStats:
    """What one worker did."""

    finished: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)


@dataclass
class WorkerOptions:
    """How a worker runs (the flags of ``alphred worker``)."""

    concurrency: int = 1
    labels: Sequence[str] = ()
    poll_seconds: float = 5.0
    once: bool = False
    max_runs: int | None = None
    grace: float = 30.0
    allow_workflows: Sequence[str] = ()  # globs over tree keys; empty: every workflow


def offered_providers() -> list[str]:
    """Every registered provider whose preflight passes on this machine."""
    from alphred.providers import default_registry

    registry = default_registry()
    offered = []
    for name in registry.names:
        with contextlib.suppress(Exception):  # a broken plugin is simply not offered
            if registry.resolve(name).check().ready:
                offered.append(name)
    return offered


class Worker:
    """One worker process: its registration, its claims, its running runs."""

    def __init__(
        self,
        store: SqlRunStore,
        chooser: RepoChooser,
        make_workspace: Callable[[RepoLocation], Workspace],
        options: WorkerOptions,
        capabilities: Sequence[str],
        say: Callable[[str], None],
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.store = store
        self.chooser = chooser
        self.make_workspace = make_workspace
        self.options = options
        self.capabilities = sorted({*capabilities, *(WORKFLOW_LABEL + g for g in options.allow_workflows)})
        self.say = say
        self.owner = LeaseOwner.current()
        self.id = str(self.owner)
        self.host = socket.gethostname()
        self.stats = WorkerStats()
        self.stopping = threading.Event()
        self._wake = threading.Event()
        self._sleep = sleep
        self._lock = threading.Lock()
        self._active: dict[int, threading.Thread] = {}
        self._runners: dict[int, Runner] = {}
        self._excluded: set[int] = set()
        self._claimed = 0
        self.clock = SYSTEM_CLOCK  # when a provider's usage limit resets (SPEC §15)
        self.paused: dict[str, float] = {}  # provider -> wake_at: no claim of a run that needs it until then

    # -- the loop ---------------------------------------------------------------------------------------

    def run(self) -> WorkerStats:
        """Work until stopped (``once``: until nothing claimable is left; ``max_runs``: that many claims)."""
        self.store.register_worker(self.id, self.host, os.getpid(), self.capabilities)
        helpers = [threading.Thread(target=self._beat, name="alphred-worker-heartbeat", daemon=True)]
        if self.store.notifies:
            helpers.append(threading.Thread(target=self._listen, name="alphred-worker-listen", daemon=True))
        for helper in helpers:
            helper.start()
        try:
            self._loop()
        finally:
            self.stopping.set()
            self._wait_for_runs()
            with contextlib.suppress(AlphredError):
                self.store.unregister_worker(self.id)
        return self.stats

    def _loop(self) -> None:
        while not self.stopping.is_set():
            self._wake.clear()
            orphans = bool(self.store.orphaned_child_ids())  # a kill between a parent's end and its children's
            for location, _ in self.chooser.known:
                for run_id in finish_cleanups(self.store, location):
                    self.say(f"run {run_id}: worktree removed (pending cleanup)")
                if orphans:  # SPEC §13: each repository's are ended by its own workspace
                    for run_id in end_orphaned_children(self.make_workspace(location)):
                        self.say(f"run {run_id}: cancelled (its parent run has ended)")
            claimed = self._fill()
            if self.options.once and not claimed and not self._active:
                return
            if self._budget_spent() and not self._active:
                return
            if not claimed:
                self._wait()
                if not self.options.once:
                    self._excluded.clear()  # a run that failed to continue is tried again after a wait
            elif len(self._active) >= self.options.concurrency or self._budget_spent():
                self._wake.wait(self.options.poll_seconds)  # until a run ends

    def _budget_spent(self) -> bool:
        return self.options.max_runs is not None and self._claimed >= self.options.max_runs

    def _fill(self) -> bool:
        """Claim runs while a slot is free; True when at least one was claimed."""
        self._wake_providers()
        claimed = False
        while len(self._active) < self.options.concurrency and not self.stopping.is_set() and not self._budget_spent():
            candidate = self.store.claim_run(self.host, self.id, lease_ttl(), self._accept)
            if candidate is None:
                break
            claimed = True
            self._claimed += 1
            thread = threading.Thread(
                target=self._execute, args=(candidate,), name=f"alphred-run-{candidate.id}", daemon=True
            )
            with self._lock:
                self._active[candidate.id] = thread
            thread.start()
        return claimed

    def _accept(self, candidate: Candidate) -> bool:
        if candidate.id in self._excluded or candidate.id in self._active:
            return False
        if any(provider in self.paused for provider in candidate.requires):
            return False  # a provider it needs waits out a usage limit on this worker (SPEC §15)
        if not set(candidate.requires) <= set(self.capabilities):
            return False
        if not workflow_allowed(candidate.tree_key, self.capabilities):
            return False
        if not self.chooser.can_take(candidate.repo_url, candidate.repo_root, candidate.repo_path):
            return False
        return lease_free(candidate.lease_owner, candidate.lease_expires_at)

    def _wait(self) -> None:
        if self._sleep is not None and not self._active:
            self._sleep(self.options.poll_seconds)
            return
        self._wake.wait(self.options.poll_seconds)

    # -- one run ----------------------------------------------------------------------------------------

    def _execute(self, candidate: Candidate) -> None:
        run_id = candidate.id
        try:
            self._continue(candidate)
        except RunBusyError:
            self.stats.skipped.append(run_id)
        except AlphredError as exc:
            self.stats.failed[run_id] = f"{exc.code}: {exc}"
            self._excluded.add(run_id)
            self.say(f"run {run_id}: {exc.code}: {exc}")
            with contextlib.suppress(AlphredError):
                self.store.release_lease(run_id, self.id)
        except Exception as exc:  # never lose the worker to one run: say it, release the run
            self.stats.failed[run_id] = f"{type(exc).__name__}: {exc}"
            self._excluded.add(run_id)
            self.say(f"run {run_id}: unexpected {type(exc).__name__}: {exc}")
            with contextlib.suppress(Exception):
                self.store.release_lease(run_id, self.id)
        finally:
            with self._lock:
                self._active.pop(run_id, None)
                self._runners.pop(run_id, None)
            self._wake.set()

    def _continue(self, candidate: Candidate) -> None:
        run_id = candidate.id
        record = self.store.get_run(run_id)
        chosen = requested_action(record)
        if chosen is None:  # a stale request on a run that must wait: drop it, give the run back
            self.store.update_run(run_id, request=None)
            self.store.release_lease(run_id, self.id)
            self._excluded.add(run_id)
            return
        action, comment = chosen
        location = self.chooser.location_for(record.repo_url, record.repo_root, record.repo_path, record.base_sha)
        workspace = self.make_workspace(location)
        workspace.waits = False  # a usage limit: the run goes back to the queue until its wake_at (SPEC §15)
        workspace.on_runner = lambda runner: self._track(run_id, runner)
        note = comment if action in ("approve", "reject") else None
        final = continue_run(
            workspace, run_id, action, comment=note, owner=self.owner, taken_from=candidate.lease_owner
        )
        if record.request is not None:
            with contextlib.suppress(AlphredError):
                self.store.update_run(run_id, request=None)
        if final.status.value == "paused" and final.reason == "usage_limit" and final.wake_at is not None:
            self._pause_provider(run_id, final.wake_at.timestamp())
        if final.status.value == "paused" and final.reason == "interrupted" and self.stopping.is_set():
            self.say(f"run {run_id}: interrupted (left to the other workers)")
            return
        self.stats.finished.append(run_id)
        reason = f" ({final.reason})" if final.reason else ""
        self.say(f"run {run_id}: {final.status.value}{reason}")

    def _pause_provider(self, run_id: int, wake_at: float) -> None:
        """A run hit its provider's usage limit: this worker claims no run needing that provider until
        ``wake_at`` (runs of other providers go on); ``alphred workers`` shows it."""
        steps = self.store.list_steps(run_id)
        provider = next((s.provider for s in reversed(steps) if s.reason == "usage_limit" and s.provider), None)
        if provider is None:
            return
        with self._lock:
            self.paused[provider] = max(wake_at, self.paused.get(provider, wake_at))
        self.say(f"provider {provider}: usage limit, no claims for it on this worker until {clock_time(wake_at)}")
        self._store_pauses()

    def _wake_providers(self) -> None:
        """Forget the pauses whose wake_at has passed."""
        now = self.clock.now()
        with self._lock:
            woken = [p for p, wake in self.paused.items() if wake <= now]
            for provider in woken:
                del self.paused[provider]
        if woken:
            self._store_pauses()

    def _store_pauses(self) -> None:
        with self._lock:
            shown = {p: datetime.fromtimestamp(w, UTC).isoformat() for p, w in sorted(self.paused.items())}
        with contextlib.suppress(AlphredError):
            self.store.set_worker_paused(self.id, shown)

    def _track(self, run_id: int, runner: Runner) -> None:
        with self._lock:
            self._runners[run_id] = runner
        if self.stopping.is_set():
            runner.interrupt_threadsafe()

    # -- stopping -----------------------------------------------------------------------------------------

    def stop(self) -> None:
        """Stop claiming and interrupt every active run (from a signal handler: only sets flags)."""
        self.stopping.set()
        with self._lock:
            runners = list(self._runners.values())
        for runner in runners:
            runner.interrupt_threadsafe()
        self._wake.set()

    def _wait_for_runs(self) -> None:
        deadline = self.options.grace
        start = datetime.now(UTC)
        while True:
            with self._lock:
                threads = list(self._active.values())
            if not threads:
                return
            left = deadline - (datetime.now(UTC) - start).total_seconds()
            if left <= 0:
                self.say(f"grace of {self.options.grace:g}s over: {len(threads)} run(s) left to lease expiry")
                return
            threads[0].join(left)

    def still_running(self) -> bool:
        """True when runs are still active (after ``run`` returned: the grace ran out)."""
        with self._lock:
            return bool(self._active)

    # -- helpers ----------------------------------------------------------------------------------------

    def _beat(self) -> None:
        interval = max(min(lease_ttl() / 3, 10.0), 0.2)
        while not self.stopping.wait(interval):
            with contextlib.suppress(AlphredError, Exception):
                self.store.beat_worker(self.id)

    def _listen(self) -> None:
        """Wake the loop on each notification of a submit; on any failure, polling alone goes on."""
        try:
            with self.store.notifications() as channel:
                while not self.stopping.is_set():
                    if channel.wait_for_notify(0.5):
                        self._wake.set()
        except Exception as exc:  # pragma: no cover - a lost listener connection: fall back to polling
            self.say(f"LISTEN failed ({type(exc).__name__}: {exc}); polling every {self.options.poll_seconds:g}s")


def work(
    workspace: Workspace,
    *,
    once: bool,
    poll_seconds: float,
    say: Callable[[str], None],
    max_runs: int | None = None,
    sleep: Callable[[float], None] | None = None,
) -> WorkerStats:
    """A worker on ``workspace``'s repository alone (the runs of this repository that nobody executes)."""
    chooser = RepoChooser([workspace.location.root], os.environ)
    options = WorkerOptions(once=once, poll_seconds=poll_seconds, max_runs=max_runs)

    def make_workspace(location: RepoLocation) -> Workspace:
        return Workspace(workspace.store, location, workspace.registry_for, workspace.progress, workspace.events)

    worker = Worker(workspace.store, chooser, make_workspace, options, offered_providers(), say, sleep)
    return worker.run()


__all__ = ["Worker", "WorkerOptions", "WorkerStats", "offered_providers", "work"]
