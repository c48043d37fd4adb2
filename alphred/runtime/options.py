"""How a run executes: the options of ``alphred run`` that reach the runtime, and the retry backoff."""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from dataclasses import field
from typing import Any

from alphred.errors import SettingError
from alphred.git import ResolvedBase
from alphred.lazy import deferred_dataclass
from alphred.runtime.delivery import PullRequestPlan
from alphred.settings import SYSTEM_CLOCK, Clock, seconds_setting


@deferred_dataclass
class RunOptions:
    """How a run executes (the flags of ``alphred run`` that reach the runtime); stored with the run."""

    inputs: Mapping[str, str] = field(default_factory=dict)
    base: str | None = None
    resolved_base: ResolvedBase | None = None  # ``base`` as the command already resolved it (one rev-parse)
    branch: str | None = None
    branch_template: str | None = None  # the registered repository's template, below --branch
    keep_worktree: bool = False
    approve_all: bool = False
    dry_run: bool = False
    dry_run_scope: str = "all"  # "all": agents stubbed, commands said not run; "agents": commands still run
    pull_request: PullRequestPlan | None = None
    pr_branch: bool = False  # check the existing pull request's head out at run start (SPEC §17)
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))  # of the processes it starts
    clock: Clock = SYSTEM_CLOCK  # when a usage limit resets, and waiting for it (SPEC §15)

    def stored(self) -> dict[str, Any]:
        """The part that a later ``resume`` must honour."""
        return {
            "keep_worktree": self.keep_worktree,
            "approve_all": self.approve_all,
            "dry_run": self.dry_run,
            "dry_run_scope": self.dry_run_scope,
            "pull_request": self.pull_request.stored() if self.pull_request else None,
        }


def backoff_seconds(failures: int, retry_after: float | None, environ: Mapping[str, str]) -> float:
    """Exponential backoff with jitter for the ``failures``-th consecutive retryable failure."""
    try:
        base = seconds_setting(environ, "ALPHRED_RETRY_BASE_SECONDS", 2.0)
    except SettingError:
        base = 2.0
    delay = min(base * 2 ** max(failures - 1, 0), 60.0) * random.uniform(0.75, 1.25)
    return float(max(delay, retry_after or 0.0))
