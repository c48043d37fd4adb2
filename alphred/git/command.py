"""Run the ``git`` command line: a clean environment, git's own words in every ``GitError``.

Alphred drives git through its command line (worktrees, staging and commits are porcelain operations
either way); spawning ``git`` directly costs ~2 ms a call and nothing at import time.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from alphred.errors import GitError, GitLockedError

_LOCKED = b".lock': File exists"  # git: "fatal: Unable to create '.../index.lock': File exists."

# Variables that would point git at another repository or index than the directory it runs in (they are
# set, for example, when Alphred runs from inside a git hook). Dropping them keeps the user's index safe.
_REPOSITORY_VARIABLES = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
)


def git_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for git processes: the caller's, minus repository overrides, plus ``extra``."""
    env = {key: value for key, value in os.environ.items() if key not in _REPOSITORY_VARIABLES}
    env["GIT_TERMINAL_PROMPT"] = "0"
    if extra:
        env.update(extra)
    return env


def run_git(
    args: Sequence[str], cwd: Path, env: Mapping[str, str], *, check: bool = True
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git ARGS`` in ``cwd``; with ``check``, a non-zero exit raises ``GitError`` with git's stderr."""
    try:
        result = subprocess.run(
            ["git", *args], cwd=cwd, env=env, capture_output=True, stdin=subprocess.DEVNULL, check=False
        )
    except FileNotFoundError as exc:
        if not cwd.is_dir():
            raise GitError(f"directory {cwd} does not exist") from None
        raise GitError("git is not installed or not on PATH") from exc
    if check and result.returncode != 0:
        message = describe_failure(args, result)
        if _LOCKED in result.stderr:
            raise GitLockedError(message)
        raise GitError(message)
    return result


def describe_failure(args: Sequence[str], result: subprocess.CompletedProcess[bytes]) -> str:
    """Say which git command failed and quote what git printed."""
    words = (result.stderr or result.stdout).decode("utf-8", "replace").strip() or "no output"
    return f"`git {' '.join(args[:2])}` failed (exit {result.returncode}): {words}"
