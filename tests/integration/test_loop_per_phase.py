"""Issue 29, the event loop's per-phase work: nothing on the loop grows with the run's history, and what does
not change while a run runs is not rebuilt for each attempt."""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
from helpers.repos import git
from helpers.runs import workflow

from alphred.engine import RunState, StartPhase
from alphred.git import GitWorktrees, locate_repository
from alphred.guards.templates import parse_template
from alphred.operations.start import start_run
from alphred.operations.where import resolve_for_write
from alphred.operations.workspace import Workspace
from alphred.providers import ProviderOptions, ProviderRegistry, default_registry
from alphred.providers.scripted import ScriptedProvider
from alphred.runtime.command_phase import command_environment, template_command
from alphred.runtime.options import RunOptions
from alphred.store import RunRecord, SqlRunStore
from alphred.views import held_lines
from alphred.views.progress import Progress
from alphred.workflow import load_workflow

LOOP = """\
defaults: {provider: scripted, max_visits: 20}
limits: {max_steps: 20, max_stalls: 20}
phases:
  review:
    prompt: Review.
    decisions: [approved, changes_requested]
    script: [{decision: changes_requested, report: please fix}]
    transitions:
      - {to: fix, when: decision == "changes_requested", max: 4}
      - to: $end
  fix:
    prompt: "Fix: {{ phases.review.report }}"
    script: [{report: fixed}]
    transitions: [{to: review}]
"""


def run_loop(repo: Path, progress: Callable[[int], Progress], running: ProviderRegistry | None = None) -> RunRecord:
    """Run ``LOOP`` (9 steps) in process in ``repo`` with ``progress``, its providers from ``running`` (default:
    Alphred's own); its stored record."""
    registry = default_registry()
    loaded = load_workflow(workflow(repo, LOOP), providers=registry)
    location, url = resolve_for_write(str(locate_repository(repo).root), None)
    chosen = running or registry
    with SqlRunStore(url) as store:
        workspace = Workspace(store=store, location=location, registry_for=lambda _w, _d: chosen, progress=progress)
        return start_run(workspace, loaded, RunOptions(), chosen)


class SeenStates(Progress):
    """Keeps, for each attempt started, how many steps the state the runner holds carries in its history."""

    seen: list[int]

    def phase_started(self, effect: StartPhase, kind: str, state: RunState) -> None:
        self.seen.append(len(state.history))


def test_the_loop_keeps_no_step_history(repo: Path) -> None:
    """The steps are rows once persisted: the runner's state does not carry them, so no per-phase copy grows with
    the run (issue 29: a 3,000-visit loop costs per phase what a 300-visit one does)."""
    progress = SeenStates(enabled=False)
    progress.seen = []
    record = run_loop(repo, lambda _run: progress)
    assert record.status.value == "completed" and record.steps == 9
    assert progress.seen == [0] * 9


class Capturing(ScriptedProvider):
    """The scripted provider, keeping the options each attempt gets."""

    seen: ClassVar[list[ProviderOptions]] = []

    def run(self, prompt: str, options: ProviderOptions) -> Any:
        Capturing.seen.append(options)
        return super().run(prompt, options)


def test_provider_options_are_built_once_per_phase_and_carry_each_attempts_own_fields(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a phase alone sets of an attempt's ``ProviderOptions`` is built once per phase object, each attempt's
    own fields set on a copy (issue 29: not a 20-field frozen ``__init__`` per attempt): every attempt still gets
    its number, visit, marker and context, and its phase's settings."""
    made: list[str] = []
    real_init = ProviderOptions.__init__

    def counted(self: ProviderOptions, *args: Any, **kwargs: Any) -> None:
        made.append(kwargs.get("phase", ""))
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(ProviderOptions, "__init__", counted)
    Capturing.seen = []
    record = run_loop(repo, lambda _r: Progress(False), ProviderRegistry({"scripted": Capturing}))
    assert record.status.value == "completed" and record.steps == 9
    assert sorted(made) == ["fix", "review"]  # once per phase object, not once per attempt (9)
    reviews = [o for o in Capturing.seen if o.phase == "review"]
    assert [(o.attempt, o.visit) for o in reviews] == [(n, n) for n in range(1, 6)]
    markers = {o.environment["ALPHRED_ATTEMPT"] for o in Capturing.seen}
    assert len(markers) == 9 and all(o.base_environment is not None for o in Capturing.seen)
    assert all(o.decisions == ("approved", "changes_requested") and o.settings.get("script") for o in reviews)
    fixes = [o for o in Capturing.seen if o.phase == "fix"]
    assert len(fixes) == 4 and all(o.working_directory == fixes[0].working_directory != Path() for o in fixes)
    assert all(any("please fix" in envelope for envelope in o.context) for o in fixes)


class Pipe(io.StringIO):
    """stderr as CI has it (not a terminal), counting its writes."""

    writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


def test_progress_off_a_terminal_is_written_together_and_whole_when_the_run_returns(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``alphred run --json`` in CI: the progress lines of the run's drive go out together (``views.held_lines``),
    not one write to the pipe each; the runner writes what is held as its drive ends, so every line, the last
    too, is there before anything else is written (the closing block). The hold is made longer than any run
    here, so the figure does not depend on the machine's speed: the drive's lines are one write."""
    monkeypatch.setattr(held_lines, "HOLD_SECONDS", 3600.0)
    pipe = Pipe()
    record = run_loop(repo, lambda run_id: Progress(stream=pipe, run_id=run_id))
    lines = pipe.getvalue().splitlines()
    assert record.status.value == "completed" and record.steps == 9
    assert sum("▶" in line for line in lines) == 9 and sum("✓ review attempt" in line for line in lines) == 5
    assert lines[-1].endswith("✓ run completed")
    assert len(lines) == 20 and pipe.writes == 2  # the note before the drive, then the drive's 19 lines at once


def test_a_command_without_placeholders_is_its_text() -> None:
    assert template_command(parse_template("make test && echo done"), {}) == ("make test && echo done", {})


def test_the_command_environment_is_not_copied_when_nothing_is_dropped() -> None:
    environ: dict[str, Any] = {"PATH": "/usr/bin", "HOME": "/home/me"}
    assert command_environment(environ) is environ
    assert command_environment({**environ, "GIT_DIR": "/elsewhere/.git"}) == environ


def test_a_seal_nothing_moved_in_is_reused_and_a_moved_one_is_made_again(repo: Path) -> None:
    """An attempt's seal costs a few ``lstat`` calls when the last one made of its worktree still holds; a
    watched file that changed (the config here) gives a new record, and the old one still reports the change."""
    worktrees = GitWorktrees(locate_repository(repo))
    created = worktrees.create(1, "alphred/wf/1", worktrees.resolve_base(None).sha)
    first = worktrees.seal(created.path)
    (created.path / "a.txt").write_text("a\n")
    worktrees.commit_phase(created.path, "phase")  # Alphred's own commit moves none of what is watched
    assert worktrees.seal(created.path) is first
    git(repo, "config", "core.sshCommand", "true")
    again = worktrees.seal(created.path)
    assert again is not first and first.broken() == ["the repository's git config"] and again.broken() == []
    worktrees.forget(created.path)
    assert worktrees.seal(created.path) is not again  # a forgotten worktree is sealed anew


def test_a_config_rewritten_with_its_size_and_mtime_kept_is_not_hidden_by_a_reused_seal(repo: Path) -> None:
    """Hostile (SPEC §14): an agent rewrites the git config to the same size and puts its mtime back. The seal
    is reused only on unchanged stat data, ctime included (which no agent can set back), so the change is still
    seen, and the next seal is made anew from what is there."""
    worktrees = GitWorktrees(locate_repository(repo))
    created = worktrees.create(1, "alphred/wf/1", worktrees.resolve_base(None).sha)
    first = worktrees.seal(created.path)
    config = repo / ".git" / "config"
    before, kept = config.read_bytes(), config.stat()
    hostile = before.replace(b"[core]", b"[Core]", 1)  # same size, another text
    assert hostile != before and len(hostile) == len(before)
    config.write_bytes(hostile)
    os.utime(config, ns=(kept.st_atime_ns, kept.st_mtime_ns))
    assert config.stat().st_mtime_ns == kept.st_mtime_ns and config.stat().st_size == kept.st_size
    assert first.broken() == ["the repository's git config"]
    again = worktrees.seal(created.path)
    assert again is not first and again.broken() == []
