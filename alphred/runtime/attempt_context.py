"""What one phase attempt works with (``PhaseContext``), what the runtime measures of it (``AttemptStats``) and
what it hands back to the runner's loop (``Posted``: its events, carrying those measurements)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import Any

from alphred.engine import Event, UpstreamReport
from alphred.git import GitWorktrees
from alphred.git.tamper import WorktreeSeal
from alphred.lazy import deferred_dataclass
from alphred.providers import ProviderEvent, ProviderRegistry
from alphred.redact import Redactor
from alphred.runtime.delivery import PullRequestPlan, PullRequestText
from alphred.runtime.environment import phase_environment
from alphred.runtime.joined import Joined
from alphred.runtime.run_files import RunFiles
from alphred.runtime.run_thread import RunThread
from alphred.settings import SYSTEM_CLOCK, Clock
from alphred.store import SqlRunStore, StoreTransaction
from alphred.workflow import Workflow


@deferred_dataclass
class AttemptStats:
    """What the runtime measured of one attempt (for the diagnostics row)."""

    started: float = field(default_factory=time.monotonic)
    events: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
    child_steps: int = 0  # a workflow phase's: the steps its child run took (SPEC §13)
    message: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    output_tail: str = ""  # the end of a failed command's output, for the progress view (not stored here)
    pause_unread: bool = False  # its outcome's transition reads the run's pause flag (``Runner._pause_unread``)

    @property
    def duration_ms(self) -> int:
        """Milliseconds since the attempt started."""
        return int((time.monotonic() - self.started) * 1000)


@deferred_dataclass(frozen=True)
class Posted:
    """What an attempt hands back to the loop: the events that report it, in order, and what was measured of
    ``attempt`` (``(phase, number)``) for the diagnostics row the engine asks for when it records the step."""

    events: tuple[Event, ...]
    attempt: tuple[str, int] | None = None
    stats: AttemptStats | None = None
    joined: Joined | None = None  # its outcome's transition, recorded by the worker that ended it (``runtime.joined``)

    def stats_of(self, attempt: tuple[str, int]) -> AttemptStats | None:
        """The measurements of ``attempt`` when this post reports it, else None."""
        return self.stats if self.attempt == attempt else None


@deferred_dataclass(frozen=True)
class Prepared:
    """What an attempt needs to know before it starts (``phase.prepare_attempt``): its phase's row id, the
    sequence of its first event, the upstream reports (agent phases), the commit it starts from and the git
    state it must leave as it is (``WorktreeSeal``)."""

    node_id: int
    first: int
    reports: dict[str, UpstreamReport]
    start_sha: str
    seal: WorktreeSeal


@deferred_dataclass
class PhaseContext:
    """Everything a phase attempt needs from the run."""

    store: SqlRunStore
    run_id: int
    workflow: Workflow
    worktree: Path
    worktrees: GitWorktrees
    registry: ProviderRegistry
    redactor: Redactor
    environ: dict[str, str]  # the environment of every process the attempt starts
    on_event: Callable[[str, int, int, ProviderEvent], None] | None = None
    dry_run_commands: bool = False  # --dry-run: command phases print what they would run instead of running it
    # Writes an attempt leaves for the runner: done in the transaction that persists the attempt's outcome
    # (one transaction per phase instead of one per artifact, and artifacts exist only with their outcome).
    pending: list[Callable[[StoreTransaction], object]] = field(default_factory=list)
    # Set when the run is interrupted: providers stop their agent (their ``ProviderOptions.cancel``).
    cancel: asyncio.Event = field(default_factory=asyncio.Event)
    branch: str | None = None  # the parallel branch (its head phase) whose worktree this is; None: the run's own
    clock: Clock = SYSTEM_CLOCK  # what a usage limit's wake_at is reckoned from (SPEC §15)
    files: RunFiles | None = None  # $ALPHRED_ARTIFACTS and $ALPHRED_MEMORY (SPEC §17)
    pull_request: PullRequestPlan | None = None  # how ``type: pull_request``/``ci`` phases reach the PR (SPEC §16)
    describe: PullRequestText | None = None  # writes a pull_request phase's title and body
    # ``environ`` without its secrets, per phase ``env:`` list: built once per run, not once per attempt
    environments: dict[tuple[str, ...], dict[str, str]] = field(default_factory=dict)
    # what a ``type: workflow`` phase needs to run its child run (SPEC §13): ``child_run.ChildHost``
    children: Any = None
    # attempts prepared by the transition that started them (``Runner._persist``), by (phase, attempt)
    prepared: dict[tuple[str, int], Prepared] = field(default_factory=dict)
    # writes the buffered events of its attempts under way every FLUSH_EVERY_SECONDS (``attempt_stream``)
    flusher: Any = None
    # the deadlines of its attempts under way (their phases' timeout and idle_timeout) on one timer
    deadlines: Any = None
    # the run's worker thread for its attempts' ends and its transitions (``run_thread``; set by ``Runner._main``)
    run_thread: RunThread | None = None

    def phase_environ(self, allow: tuple[str, ...]) -> dict[str, str]:
        """``environ`` without its secrets but those in ``allow`` (``environment.phase_environment``), cached:
        the run's environment does not change while it runs. The caller copies it before adding to it."""
        found = self.environments.get(allow)
        if found is None:
            found = self.environments[allow] = phase_environment(self.environ, allow)
        return found

    def template_values(self, values: dict[str, Any]) -> dict[str, Any]:
        """A phase's template values with ``artifacts.dir`` (and ``memory.dir``) added."""
        if self.files is not None:
            values.update(self.files.template_values())
        return values
