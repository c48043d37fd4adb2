"""Issue 29: an attempt's end and the transition that records its outcome share one worker thread hop
(``runtime/joined.py``), and a stop that arrives meanwhile is settled by the claim: it comes before the outcome
(which is then not recorded) or after it (the outcome recorded once, the next attempt interrupted), never both."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.repos import make_repo
from helpers.runs import db

from alphred.engine import RunStarted
from alphred.git import ensure_alphred_dir, locate_repository
from alphred.operations.start import create_run
from alphred.operations.workspace import Workspace
from alphred.providers import default_registry
from alphred.runtime import phase as phase_module
from alphred.runtime.persist import Persister
from alphred.runtime.run_thread import RunThread
from alphred.runtime.runner import Runner, RunOptions
from alphred.store import SqlRunStore
from alphred.store.owners import LeaseOwner
from alphred.views.progress import Progress
from alphred.workflow import load_workflow

PROVIDERS = default_registry()
TWO_COMMANDS = (
    "alphred: 1\nkey: wf\nphases:\n"
    "  a: {type: command, run: 'true', transitions: [{to: b}]}\n"
    "  b: {type: command, run: 'true'}\n"
)


def scripted_loop(visits: int) -> str:
    """One scripted phase that routes back to itself: ``visits`` executions."""
    return (
        f"alphred: 1\nkey: loop\ndefaults: {{provider: scripted, max_visits: {visits + 5}}}\n"
        f"limits: {{max_steps: {visits + 5}, max_stalls: {visits + 5}}}\nphases:\n"
        f"  again:\n    prompt: Again.\n    script: [{{report: again}}]\n"
        f"    transitions: [{{to: again, max: {visits - 1}}}, {{to: $end}}]\n"
    )


def drive(tmp_path: Path, text: str, during: Callable[[Runner], None] = lambda _r: None) -> tuple[Any, Any, list]:
    """Drive a run of ``text`` in process (``during`` sees the runner before it drives): (final state, stored
    record, stored steps)."""
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    repo = make_repo(tmp_path / "repo", env=env)
    path = tmp_path / "wf.yaml"
    path.write_text(text)
    workflow = load_workflow(path, providers=PROVIDERS)
    location = locate_repository(repo)
    ensure_alphred_dir(location)
    with SqlRunStore(f"sqlite:///{location.alphred_dir / 'alphred.db'}") as store:
        workspace = Workspace(store, location, lambda w, d: PROVIDERS, lambda r: Progress(False))
        options = RunOptions(environ=env)
        run_id, worktree, state = create_run(workspace, workflow, options)
        owner = LeaseOwner.current()
        assert store.acquire_lease(run_id, str(owner), 30)
        runner = Runner(store, workflow, run_id, location, PROVIDERS, worktree=worktree, options=options, owner=owner)
        during(runner)
        final = runner.drive(state, [RunStarted()])
        return final, store.get_run(run_id), store.list_steps(run_id)


def interrupt_and_wait(runner: Runner) -> None:
    """From a worker thread: Ctrl+C as the loop sees it (``Runner.interrupt`` on the loop), returning once the
    loop has run it (the attempt's task is cancelled by then; the loop handles that when it likes)."""
    loop = runner.supervisor._loop
    assert loop is not None
    seen = threading.Event()
    loop.call_soon_threadsafe(runner.interrupt)
    loop.call_soon_threadsafe(seen.set)  # callbacks run in order: the interrupt has run when this one has
    seen.wait()


def test_an_unchanged_phase_takes_one_thread_hop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hops: list[str] = []
    real = asyncio.to_thread

    async def counted(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        name = getattr(func, "__name__", type(func).__name__)
        if name not in ("heartbeat", "flush"):  # timers: as many as the machine's load makes the run long
            hops.append(name)
        return await real(func, *args, **kwargs)

    real_call = RunThread.call

    def counted_call(self: RunThread, func: Callable[..., Any], *args: Any) -> Any:  # the run's own thread
        hops.append(getattr(func, "__name__", type(func).__name__))
        return real_call(self, func, *args)

    monkeypatch.setattr(asyncio, "to_thread", counted)
    monkeypatch.setattr(RunThread, "call", counted_call)
    _, short, short_steps = drive(tmp_path / "short", scripted_loop(5))
    short_hops = len(hops)
    _, long, long_steps = drive(tmp_path / "long", scripted_loop(15))
    assert (short.status.value, long.status.value) == ("completed", "completed")
    assert len(long_steps) - len(short_steps) == 10
    # each phase's end and its outcome's transition (with the next attempt's preparation): one hop, not two
    assert (len(hops) - 2 * short_hops) / 10 == 1


def test_an_interrupt_after_the_worker_claimed_the_outcome_comes_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+C while the worker writes ``a``'s outcome: ``a`` is recorded completed once, ``b`` starts
    interrupted (a loop that answered the stop as well would feed ``a`` interrupted on a state it no longer has)."""
    holder: list[Runner] = []
    real = Persister.persist

    def persist(self: Persister, state: Any, effects: Any, *args: Any, **kwargs: Any) -> None:
        if any(getattr(e, "phase", None) == "a" and type(e).__name__ == "RecordStep" for e in effects):
            interrupt_and_wait(holder[0])
        real(self, state, effects, *args, **kwargs)

    monkeypatch.setattr(Persister, "persist", persist)
    final, record, steps = drive(tmp_path, TWO_COMMANDS, holder.append)
    assert (final.status.value, record.status.value, record.reason) == ("paused", "paused", "interrupted")
    assert [(s.phase, s.attempt, s.outcome.value) for s in steps] == [("a", 1, "completed"), ("b", 1, "interrupted")]


def test_an_interrupt_before_the_worker_claims_the_outcome_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+C as ``a`` ends, before its worker looks: ``a`` is recorded interrupted, as without the join."""
    holder: list[Runner] = []
    real = phase_module._ended

    def ended(*args: Any, **kwargs: Any) -> Any:
        interrupt_and_wait(holder[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(phase_module, "_ended", ended)
    final, record, steps = drive(tmp_path, TWO_COMMANDS, holder.append)
    assert (final.status.value, record.status.value, record.reason) == ("paused", "paused", "interrupted")
    assert [(s.phase, s.attempt, s.outcome.value) for s in steps] == [("a", 1, "interrupted")]


def test_the_next_attempt_starts_from_the_git_its_predecessors_end_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The end of an attempt read the head and checked the seal; the next attempt, prepared right after in the
    same worker thread, takes both from it (``recording.ended_git``): one head read a phase (the commit's check),
    not two, and one seal check, not two. Each attempt still starts from the commit before it (its ``start_sha``
    is the previous attempt's commit when that one edited a file, the same commit when it did not)."""
    from alphred.git import GitWorktrees
    from alphred.git.tamper import WorktreeSeal

    counts = {"head": 0, "seal": 0}
    head_sha, broken = GitWorktrees.head_sha, WorktreeSeal.broken

    def counted_head(self: GitWorktrees, worktree: Path) -> str:
        counts["head"] += 1
        return head_sha(self, worktree)

    def counted_broken(self: WorktreeSeal) -> list[str]:
        counts["seal"] += 1
        return broken(self)

    monkeypatch.setattr(GitWorktrees, "head_sha", counted_head)
    monkeypatch.setattr(WorktreeSeal, "broken", counted_broken)
    drive(tmp_path / "short", scripted_loop(5))
    short = dict(counts)
    _, record, steps = drive(tmp_path / "long", scripted_loop(15))
    assert record.status.value == "completed" and len(steps) == 15
    assert (counts["head"] - 2 * short["head"]) / 10 == 1
    assert (counts["seal"] - 2 * short["seal"]) / 10 == 1

    edits = (
        "alphred: 1\nkey: edits\ndefaults: {provider: scripted, max_visits: 10}\n"
        "limits: {max_steps: 10, max_stalls: 10}\nphases:\n  again:\n    prompt: Again.\n    script:\n"
        "      - {report: one, files: {f.txt: '1'}}\n      - {report: two}\n      - {report: three, files: {f.txt: '3'}}\n"
        "      - {report: four}\n    transitions: [{to: again, max: 3}, {to: $end}]\n"
    )
    _, record, steps = drive(tmp_path / "edits", edits)
    assert record.status.value == "completed" and len(steps) == 4
    rows = db(tmp_path / "edits" / "repo").execute("select details from run_node_diagnostics order by id").fetchall()
    details = [json.loads(row[0]) for row in rows]
    assert [("commit" in d) for d in details] == [True, False, True, False]
    assert details[1]["start_sha"] == details[0]["commit"] == details[2]["start_sha"]
    assert details[3]["start_sha"] == details[2]["commit"] != details[0]["commit"]


def test_git_changed_between_an_attempts_end_and_the_next_start_is_caught_and_restored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hostile: something that outlived the attempt (an agent's escaped process) rewrites the repository's git
    config after the attempt's end checked the seal and before the next attempt starts. The next attempt starts
    from the seal its predecessor's end checked (``recording.ended_git``), so its own end finds the change,
    restores the config and fails as tampered; git read again at its start would have sealed the change as
    its starting point and let it stand."""
    evil = "\n[core]\n\tfsmonitor = touch owned\n"
    config = tmp_path / "repo" / ".git" / "config"
    real = Persister.persist
    done: list[bool] = []

    def persist(self: Persister, state: Any, effects: Any, *args: Any, **kwargs: Any) -> None:
        real(self, state, effects, *args, **kwargs)
        if not done and any(type(effect).__name__ == "RecordStep" for effect in effects):
            done.append(True)  # the first attempt's outcome is stored; the next attempt is not prepared yet
            with config.open("a") as file:
                file.write(evil)

    monkeypatch.setattr(Persister, "persist", persist)
    _, record, steps = drive(tmp_path, scripted_loop(3))
    assert done
    assert [step.outcome.value for step in steps][:2] == ["completed", "failed"]
    rows = db(tmp_path / "repo").execute("select details from run_node_diagnostics order by id").fetchall()
    second = json.loads(rows[1][0])
    assert second["tampered"] == ["the repository's git config"]
    assert "fsmonitor" not in config.read_text()  # restored to what the first attempt's seal recorded
    assert record.status.value == "failed"
