"""The ``next:`` commands of a closing block, of ``alphred status`` and of ``alphred init``.

Every suggestion is a command that works when pasted where the person is: ``Place`` says what it needs
there (``--repo`` when the run's repository is not the one of the current directory, ``--db`` when the
database was named on the command line, ``git -C`` for git); ``engine.allowed_actions`` says which actions
the run allows (no ``retry`` when there is nothing to retry); an input the workflow requires is written as
``-i NAME=<placeholder>``, and the line that follows says which placeholders to fill.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from alphred.engine.actions import Action, allowed_actions

if TYPE_CHECKING:
    from alphred.store import RunRecord, StepRecord
    from alphred.workflow import Workflow

_PASSWORD = "://"


@dataclass(frozen=True)
class Place:
    """What a command pasted where the person is needs to find the run: ``options`` for ``alphred`` (``--repo
    PATH``, ``--db URL``), ``git`` for git (``-C PATH``); both empty in the run's own repository."""

    options: str = ""
    git: str = ""

    def alphred(self, command: str) -> str:
        """``alphred COMMAND`` with this place's options (before a trailing ``# comment``)."""
        text, hash_, comment = command.partition("   #")
        return f"alphred {text}{self.options}" + (f"   #{comment}" if hash_ else "")


def shown_argument(path: Path, cwd: Path) -> str:
    """``path`` as a shell argument: relative when it lies under ``cwd``, absolute otherwise; quoted."""
    try:
        shown = str(path.relative_to(cwd)) or "."
    except ValueError:
        shown = str(path)
    return shlex.quote(shown)


def place_for(repo_path: str | None, db_option: str | None = None, cwd: Path | None = None) -> Place:
    """The place of a person in ``cwd`` (default: the current directory) looking at a run of the repository
    at ``repo_path``; ``db_option`` is the ``--db`` URL given on the command line (not one from the
    environment, which a pasted command finds again)."""
    from alphred.errors import AlphredError
    from alphred.git.location import locate_repository

    here = Path.cwd() if cwd is None else cwd
    options = ""
    git = ""
    if repo_path:
        run_root = Path(repo_path)
        try:
            same = locate_repository(here).root.resolve() == run_root.resolve()
        except (AlphredError, OSError):
            same = False
        if not same:
            shown = shown_argument(run_root, here.resolve())
            options += f" --repo {shown}"
            git = f"-C {shown} "
    if db_option:
        secret = "@" in db_option.partition(_PASSWORD)[2].partition("/")[0]  # user:password@host
        options += " --db " + ("'<your database URL>'" if secret else shlex.quote(db_option))
    return Place(options, git)


def failed_step(steps: Sequence[StepRecord]) -> StepRecord | None:
    """The step that made the run fail: the last failed attempt, else the last one routed to ``$fail``."""
    for step in reversed(steps):
        if step.outcome.value == "failed" or step.next == "$fail":
            return step
    return None


def next_commands(
    record: RunRecord,
    steps: Sequence[StepRecord],
    *,
    holder_alive: bool,
    retryable: bool = True,
    place: Place | None = None,
    child_waits: bool = False,
) -> list[str]:
    """The commands that make sense next for a run in this state (``engine.allowed_actions`` decides which
    actions; ``holder_alive``: a live process holds its lease; ``retryable``: a retry has work to do;
    ``place``: where the person who pastes them is; ``child_waits``: a sub-workflow run of it waits for
    approval, which ``approve``/``reject`` of this run answer, SPEC §13)."""
    at = place or Place()
    n = record.id
    if record.status.value == "completed":
        hints = [at.alphred(f"status {n}")]
        if record.branch and record.base_sha:
            hints.append(f"git {at.git}log --oneline {record.base_sha[:12]}..{shlex.quote(record.branch)}")
        return hints
    allowed = allowed_actions(record.status, record.reason, holder_alive=holder_alive, retryable=retryable)
    if Action.APPROVE in allowed or (child_waits and Action.RESUME in allowed):
        return [at.alphred(f"approve {n}"), at.alphred(f'reject {n} --comment "why"')]
    if Action.RESUME in allowed:
        return [at.alphred(f"resume {n}")]
    if Action.PAUSE in allowed:
        return [at.alphred(f"logs {n} --follow"), at.alphred(f"pause {n}"), at.alphred(f"cancel {n}")]
    if record.status.value == "failed":
        if record.reason == "delivery_failed" and Action.RETRY in allowed:
            return [at.alphred(f"retry {n}   # push and open the pull request again, once the cause is fixed")]
        step = failed_step(steps)
        hints = [at.alphred(f"logs {n} --phase {step.phase}" if step else f"logs {n}")]
        return [*hints, at.alphred(f"retry {n}")] if Action.RETRY in allowed else hints
    return [at.alphred(f"logs {n}")]


def placeholder(name: str, description: str | None) -> str:
    """The value a person must fill in for input ``name``: ``<what to build>`` (its description, else its
    name), safe inside double quotes."""
    words = (description or name).split(":")[0].split(";")[0].strip().rstrip(".")
    if len(words) > 40:
        words = name
    for bad in '"$`\\!':
        words = words.replace(bad, "")
    return f"<{words or name}>"


def run_suggestion(file: str, workflow: Workflow, *, dry_run: bool) -> tuple[str, list[str]]:
    """``alphred run FILE`` with every required input as ``-i NAME="<placeholder>"`` (and ``--dry-run``),
    and the placeholders the person must fill."""
    command = f"alphred run {shlex.quote(file)}" + (" --dry-run" if dry_run else "")
    fills: list[str] = []
    for spec in workflow.inputs:
        if spec.required and spec.default is None:
            value = placeholder(spec.name, spec.description)
            command += f' -i {spec.name}="{value}"'
            fills.append(value)
    return command, fills


def relative_file(path: str, cwd: Path | None = None) -> str:
    """``path`` as the person in ``cwd`` would type it (relative when under it)."""
    here = (Path.cwd() if cwd is None else cwd).resolve()
    absolute = Path(os.path.abspath(path))
    try:
        return str(absolute.relative_to(here))
    except ValueError:
        return str(absolute)
