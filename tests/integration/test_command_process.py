"""Command phases: a clean git environment, no child outliving its command, output of any line length."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers.cli import write_workflow
from helpers.processes import wait_gone
from helpers.repos import git

from alphred.cli import app
from alphred.errors import CommandTimeoutError
from alphred.providers import groups
from alphred.providers.base import EventType, ProviderEvent
from alphred.runtime.command_phase import MAX_LINE_CHARS, run_command


def collect(script: str, cwd: Path) -> list[ProviderEvent]:
    async def drain() -> list[ProviderEvent]:
        return [event async for event in run_command(script, cwd, timeout=120)]

    return asyncio.run(drain())


def outputs(events: list[ProviderEvent]) -> list[str]:
    return [e.content for e in events if e.type is EventType.TOOL_RESULT]


def test_a_background_child_holding_stdout_neither_holds_the_phase_nor_outlives_it(tmp_path: Path) -> None:
    # The child keeps stdout open for 60 s, then leaves a mark: the command's end was not held for it (the mark
    # would be there), and the child was killed with the command (it would still run, then leave the mark).
    events = collect("(sleep 60; echo late > late.txt) & echo $!", tmp_path)
    assert not (tmp_path / "late.txt").exists()
    pid = int(outputs(events)[0])
    assert events[-1].metadata["exit_code"] == 0
    assert wait_gone(pid)
    assert not (tmp_path / "late.txt").exists()


def test_a_detached_child_with_redirected_output_is_killed_with_the_command(tmp_path: Path) -> None:
    events = collect("(sleep 60; echo late > late.txt) > /dev/null 2>&1 & echo $!", tmp_path)
    pid = int(outputs(events)[0])
    assert wait_gone(pid)
    assert not (tmp_path / "late.txt").exists()


def timers_while(script: str, cwd: Path) -> tuple[list[ProviderEvent], list[float]]:
    """The events of ``script`` (no timeout) and the delay of every timer the event loop was asked for."""
    delays: list[float] = []

    async def drain() -> list[ProviderEvent]:
        loop = asyncio.get_running_loop()
        call_at = loop.call_at

        def recorded(when: float, *args: Any, **kwargs: Any) -> asyncio.TimerHandle:
            delays.append(when - loop.time())
            return call_at(when, *args, **kwargs)

        loop.call_at = recorded  # type: ignore[method-assign]
        return [event async for event in run_command(script, cwd)]

    return asyncio.run(drain()), delays


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="no pidfd on this system")
def test_the_shells_exit_wakes_the_loop_without_a_poll(tmp_path: Path) -> None:
    # The exit is read from a pidfd: no poll's timer runs while the command does (main looked every 10 ms, and
    # a shell reaped a moment after its pipes closed cost a whole interval); the only timer is the 2 s bound
    # on reading what a child holding stdout may still write. That child is cut short all the same.
    events, delays = timers_while("echo one; (sleep 60; echo late > late.txt) & echo two", tmp_path)
    assert outputs(events)[:2] == ["one", "two"]
    assert events[-1].metadata["exit_code"] == 0
    assert all(delay > 1.0 for delay in delays)
    assert not (tmp_path / "late.txt").exists()


def test_without_a_pidfd_the_shells_exit_is_polled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(pid: int, flags: int = 0) -> int:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(os, "pidfd_open", missing, raising=False)
    events, delays = timers_while("(sleep 60; echo late > late.txt) & echo $!; exit 3", tmp_path)
    assert events[-1].metadata["exit_code"] == 3
    assert delays and min(delays) <= 0.011  # the poll's first look
    assert wait_gone(int(outputs(events)[0]))
    assert not (tmp_path / "late.txt").exists()


def test_a_shell_that_closes_its_output_first_is_waited_for_and_its_exit_code_kept(tmp_path: Path) -> None:
    # Both pipes end while the shell still runs: its exit wakes the same wait as a line does (a missed wake
    # would end in the timeout instead of the exit code).
    async def drain() -> list[ProviderEvent]:
        script = "echo before; exec >&- 2>&-; sleep 0.3; exit 4"
        return [event async for event in run_command(script, tmp_path, timeout=30)]

    events = asyncio.run(drain())
    assert outputs(events) == ["before"]
    assert events[-1].metadata["exit_code"] == 4


def test_a_shell_that_closes_its_output_and_runs_on_times_out_and_its_group_is_killed(tmp_path: Path) -> None:
    seen: list[ProviderEvent] = []

    async def drain() -> None:
        async for event in run_command("echo $$; exec >&- 2>&-; sleep 60", tmp_path, timeout=0.5):
            seen.append(event)

    with pytest.raises(CommandTimeoutError):
        asyncio.run(drain())
    assert wait_gone(int(outputs(seen)[0]))


def test_the_shell_starts_before_its_tool_use_is_said_and_a_consumer_that_stops_there_leaves_no_process(
    tmp_path: Path,
) -> None:
    # The tool_use event's handling runs while the shell execs (off the spawn's path): the group exists when it is
    # said, and closing the stream at that event kills it.
    async def first_event_then_stop() -> tuple[ProviderEvent, set[int]]:
        before = set(groups.ACTIVE)
        stream = run_command("sleep 60", tmp_path, timeout=120)
        event = await anext(stream)
        started = set(groups.ACTIVE) - before
        await stream.aclose()
        return event, started

    event, started = asyncio.run(first_event_then_stop())
    assert event.type is EventType.TOOL_USE and event.content == "sleep 60"
    assert len(started) == 1
    (pgid,) = started
    assert pgid not in groups.ACTIVE
    assert wait_gone(pgid)


def test_a_command_that_cannot_start_still_says_what_was_tried_first(tmp_path: Path) -> None:
    seen: list[ProviderEvent] = []

    async def drain() -> None:
        async for event in run_command("true", tmp_path / "missing", timeout=30):
            seen.append(event)

    with pytest.raises(FileNotFoundError):
        asyncio.run(drain())
    assert [event.type for event in seen] == [EventType.TOOL_USE]
    assert seen[0].metadata["cwd"] == str(tmp_path / "missing")


def test_a_long_line_is_cut_with_a_marker_and_the_output_after_it_is_kept(tmp_path: Path) -> None:
    events = collect("python3 -c \"print('x' * 100000)\"; echo AFTER", tmp_path)
    lines = outputs(events)
    assert lines[0] == "x" * MAX_LINE_CHARS
    assert lines[1] == f"[... {100000 - MAX_LINE_CHARS} more characters of this line cut by alphred]"
    assert lines[2] == "AFTER"
    assert events[-1].content.rstrip().endswith("AFTER")


def test_a_50_mb_line_without_newline_finishes_with_a_bounded_report(tmp_path: Path) -> None:
    events = collect("head -c 50000000 /dev/zero | tr '\\0' y", tmp_path)
    lines = outputs(events)
    assert lines[0] == "y" * MAX_LINE_CHARS
    assert lines[-1] == f"[... {50_000_000 - MAX_LINE_CHARS} more characters of this line cut by alphred]"
    assert len(events[-1].content) < 20_000
    assert events[-1].metadata["exit_code"] == 0


def test_output_split_across_reads_keeps_its_lines_and_characters(tmp_path: Path) -> None:
    script = "printf 'a\\303'; sleep 0.1; printf '\\251b\\nsecond'"
    assert outputs(collect(script, tmp_path)) == ["a\u00e9b", "second"]


def test_a_commit_in_a_command_phase_never_lands_on_the_users_branch_inside_a_git_hook(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user_head = git(repo, "rev-parse", "HEAD")
    workflow = write_workflow(
        tmp_path,
        """\
        phases:
          change:
            type: command
            run: echo x > f.txt && git add f.txt && git -c user.name=T -c user.email=t@x.invalid commit -qm hook
        """,
    )
    # As inside a git hook: the variables point at the user's repository and index
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(repo))
    monkeypatch.setenv("GIT_INDEX_FILE", str(repo / ".git" / "index"))
    result = CliRunner().invoke(app, ["run", str(workflow), "--repo", str(repo), "--keep-worktree", "--json"])
    status = json.loads(result.stdout)
    assert status["status"] == "completed", result.stderr
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(name, raising=False)  # the run already dropped them from its own environment
    assert git(repo, "rev-parse", "main") == user_head
    assert git(repo, "status", "--porcelain") == ""
    assert not (repo / "f.txt").exists()
    assert git(Path(status["worktree"]), "log", "-1", "--format=%s") == "hook"
    assert os.path.exists(Path(status["worktree"]) / "f.txt")
