"""Run ``git`` through GitPython's command interface: a clean environment, git's own words in every error.

GitPython (imported on first use only: ``--help``, ``validate``, ``status`` and ``runs`` never load it)
runs the real ``git`` binary, so ``.gitattributes`` filters and eol rules behave exactly as in git; its
``GitCommandError`` is mapped onto Alphred's error tree (``GitError``, ``GitLockedError``). Commits are
never written through its pure-Python index (slower than git and blind to ``eol=lf``).

Alphred's git is not the agent's to steer (SPEC §14): every call names the git directory (and work tree)
Alphred recorded (``GitDirs``), so a ``.git`` file an agent rewrote is never followed, and runs with
``HARDENING``: repository hooks off (unless the workflow opts in with ``git: {hooks: true}``), no
``core.fsmonitor`` command.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from alphred.errors import GitError, GitLockedError
from alphred.lazy import deferred_dataclass

_LOCKED = b".lock': File exists"  # git: "fatal: Unable to create '.../index.lock': File exists."

# Configuration that would make Alphred's own git run a command of the repository's choosing. Passed with
# ``-c`` (the highest precedence) on every call. ``diff`` calls add ``--no-ext-diff``/``--no-textconv``.
# The rest of the command-running configuration (filters, merge drivers, ``core.sshCommand``, credential
# helpers, ``include``) is the user's own: the tamper check (``git.tamper``) fails an attempt that changed
# the repository's config or the worktree's, before Alphred's git reads it.
HARDENING = ("-c", "core.fsmonitor=false")
NO_HOOKS = ("-c", "core.hooksPath=/dev/null")


@deferred_dataclass(frozen=True)
class GitDirs:
    """Where a git call works: the git directory and the work tree Alphred recorded (never read from a
    ``.git`` file an agent could have rewritten); ``hooks`` runs the repository's hooks (``git: {hooks:
    true}``)."""

    git_dir: Path
    work_tree: Path | None = None
    hooks: bool = False

    def options(self) -> tuple[str, ...]:
        """The options naming this git directory and work tree, with the hardening configuration."""
        named: tuple[str, ...] = ("--git-dir", str(self.git_dir))
        if self.work_tree is not None:
            named += ("--work-tree", str(self.work_tree))
        return (
            *HARDENING,
            *(() if self.hooks else NO_HOOKS),
            *named,
        )  # git: "fatal: Unable to create '.../index.lock': File exists."


# Variables that would point git at another repository or index than the directory it runs in (they are
# set, for example, when Alphred runs from inside a git hook). Dropping them keeps the user's index safe.
REPOSITORY_VARIABLES = (
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
    env = {key: value for key, value in os.environ.items() if key not in REPOSITORY_VARIABLES}
    env["GIT_TERMINAL_PROMPT"] = "0"
    if extra:
        env.update(extra)
    return env


def load_gitpython() -> None:
    """Import GitPython now (``run_git`` imports it on its first call; its import runs ``git version``): for a
    caller that has other modules imported on a thread while git runs, so that the two never import at once."""
    import git.cmd  # noqa: F401


def run_git(
    args: Sequence[str], cwd: Path, env: Mapping[str, str], *, check: bool = True, dirs: GitDirs | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git ARGS`` in ``cwd``; with ``check``, a non-zero exit raises ``GitError`` with git's stderr.

    ``dirs`` names the git directory and work tree (every call on a repository Alphred works in passes them);
    without it git finds the repository from ``cwd`` (a clone, a remote probe). Hooks are off either way
    unless ``dirs.hooks``; the rest of ``HARDENING`` always applies.
    """
    options = dirs.options() if dirs is not None else (*HARDENING, *NO_HOOKS)
    from git.cmd import Git
    from git.exc import GitCommandError, GitCommandNotFound

    _drop_repository_variables()
    if not cwd.is_dir():
        raise GitError(f"directory {cwd} does not exist")
    try:
        status, out, err = Git(str(cwd)).execute(
            ["git", *options, *args],
            with_extended_output=True,
            with_exceptions=check,
            stdout_as_string=False,
            strip_newline_in_stdout=False,
            istream=subprocess.DEVNULL,
            env=dict(env),
        )
    except GitCommandNotFound as exc:
        raise GitError("git is not installed or not on PATH") from exc
    except GitCommandError as exc:
        raise _mapped(args, exc) from None
    return subprocess.CompletedProcess(["git", *args], status, bytes(out), str(err).encode())


def _mapped(args: Sequence[str], exc: Any) -> GitError:
    """A GitCommandError as the error Alphred raises: lock contention apart, with git's own words."""
    words = (_text(exc.stderr) or _text(exc.stdout)).strip() or "no output"
    message = f"`git {' '.join(args[:2])}` failed (exit {exc.status}): {words}"
    return GitLockedError(message) if _LOCKED.decode() in words else GitError(message)


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    text = str(value or "")
    for prefix in ("\n  stderr: '", "\n  stdout: '"):  # how GitCommandError quotes git's output
        if text.startswith(prefix) and text.endswith("'"):
            return text[len(prefix) : -1]
    return text


def _drop_repository_variables() -> None:
    """Remove GIT_DIR & co. from this process's environment: GitPython starts every git from it (and the
    commands a run starts must not aim at another repository either)."""
    for name in REPOSITORY_VARIABLES:
        if name in os.environ:
            os.environ.pop(name, None)


def describe_failure(args: Sequence[str], result: subprocess.CompletedProcess[bytes]) -> str:
    """Say which git command failed and quote what git printed."""
    words = (result.stderr or result.stdout).decode("utf-8", "replace").strip() or "no output"
    return f"`git {' '.join(args[:2])}` failed (exit {result.returncode}): {words}"
