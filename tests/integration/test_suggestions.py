"""Every ``next:`` command Alphred prints works when pasted where the person is (issue 28, item 1).

Real runs of every bundled template (``alphred init``, then the command it suggests) and of the failure
scenarios (a failed command, ``$fail``, an approval gate, a run in another directory, ``--db`` given on the
command line); each closing block's and ``alphred status``'s ``next:`` commands are run as printed, in a
shell, from the directory the person was in: none may exit 2 (invalid input). Alternatives (approve or
reject) each get a fresh run of their own.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.processes import run_alphred
from helpers.scm import ScmWorld, make_world

pytestmark = pytest.mark.slow  # dozens of alphred processes

TEMPLATES = [
    "demo",
    "design-implement-review",
    "fix-issue",
    "fix-until-green",
    "parallel-review",
    "plan-parallel",
    "ralph-loop",
    "review-only",
]
FAILING = """\
alphred: 1
key: red
phases:
  tests:
    type: command
    run: "echo 'FAILED test_x'; exit 3"
"""
TO_FAIL = """\
alphred: 1
key: tofail
phases:
  check:
    type: command
    run: "true"
    transitions:
      - to: $fail
"""
GATED = """\
alphred: 1
key: gated
inputs:
  what: {required: true}
phases:
  write:
    provider: scripted
    script: [{report: "Wrote it.", files: {gate.txt: "x\\n"}}]
    transitions: [{to: gate}]
  gate:
    type: approval
    message: Ship {{ inputs.what }}?
    transitions:
      - to: $end
        when: decision == "approved"
      - to: $fail
"""


def suggestions(output: str) -> list[str]:
    """The commands of every ``next:`` line of ``output`` (``a · b`` is two commands)."""
    found: list[str] = []
    for line in output.splitlines():
        _, marker, rest = line.partition("next: ")
        if marker:
            found += [part.strip() for part in rest.split(" · ") if part.strip()]
    return found


def paste(world: ScmWorld, command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` run by a shell in ``cwd``, ``alphred`` being this checkout's."""
    assert command.startswith(("alphred ", "git ")), command
    if command.startswith("alphred "):
        command = f"{shlex.quote(sys.executable)} -m {command}"
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=world.env, capture_output=True, text=True, timeout=300, check=False
    )


def assert_runnable(world: ScmWorld, output: str, cwd: Path, *, expect: int | None = None) -> list[str]:
    """Run every suggestion of ``output`` in ``cwd``; none exits 2. Returns them."""
    commands = suggestions(output)
    if expect is not None:
        assert len(commands) == expect, output
    for command in commands:
        result = paste(world, command, cwd)
        assert result.returncode != 2, f"{command!r} exited 2 in {cwd}:\n{result.stderr}\nafter:\n{output}"
    return commands


def alphred(world: ScmWorld, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_alphred(*args, env=world.env, cwd=cwd or world.repo)


@pytest.fixture
def world(tmp_path: Path) -> ScmWorld:
    return make_world(tmp_path)


@pytest.mark.parametrize("template", TEMPLATES)
def test_init_suggests_a_run_that_works_and_so_does_its_closing_block(world: ScmWorld, template: str) -> None:
    written = alphred(world, "init", "-t", template)
    assert written.returncode == 0, written.stderr
    (command,) = suggestions(written.stderr)
    if template != "demo":  # every required input is there, as a placeholder the person is told to fill
        assert "--dry-run" in command
    for placeholder in re.findall(r'"(<[^>]+>)"', command):
        assert f"replace {placeholder}" in written.stderr or placeholder in written.stderr.split("replace")[-1]
    ran = paste(world, command, world.repo)
    assert ran.returncode != 2, ran.stderr
    if ran.returncode == 4:  # waiting at a gate: approve and reject exclude each other

        def waiting() -> str:
            return paste(world, command, world.repo).stderr + alphred(world, "status").stdout

        _each_alternative(world, waiting, world.repo)
        return
    status = alphred(world, "status")
    assert_runnable(world, ran.stderr + status.stdout, world.repo)


def _each_alternative(world: ScmWorld, make: Callable[[], str], cwd: Path) -> None:
    """Run suggestion ``i`` of a fresh ``make()`` output, for every ``i`` (alternatives exclude each other)."""
    first = suggestions(make())
    assert len(first) >= 2
    for index in range(len(first)):
        command = first[index] if index == 0 else suggestions(make())[index]
        result = paste(world, command, cwd)
        assert result.returncode != 2, f"{command!r} exited 2:\n{result.stderr}"


def test_a_run_waiting_for_approval_suggests_approve_and_reject_both_runnable(world: ScmWorld) -> None:
    (world.root / "gated.yaml").write_text(GATED)

    def waiting() -> str:
        ran = alphred(world, "run", str(world.root / "gated.yaml"), "-i", "what=it")
        assert ran.returncode == 4, ran.stderr
        return ran.stderr

    def status() -> str:
        waiting()
        shown = alphred(world, "status").stdout
        assert "approve" in shown
        return shown

    _each_alternative(world, waiting, world.repo)
    _each_alternative(world, status, world.repo)


@pytest.mark.quick
def test_failed_runs_suggest_only_what_works(world: ScmWorld) -> None:
    (world.root / "red.yaml").write_text(FAILING)
    (world.root / "tofail.yaml").write_text(TO_FAIL)
    failed = alphred(world, "run", str(world.root / "red.yaml"))
    assert failed.returncode == 1
    assert "retry" in failed.stderr
    assert_runnable(world, failed.stderr, world.repo, expect=2)
    routed = alphred(world, "run", str(world.root / "tofail.yaml"))
    assert routed.returncode == 1
    commands = assert_runnable(world, routed.stderr, world.repo)
    assert not any("retry" in c for c in commands), commands  # nothing to retry after $fail
    status = alphred(world, "status")
    assert_runnable(world, status.stdout, world.repo)


def test_a_run_in_another_directory_suggests_commands_with_repo(world: ScmWorld) -> None:
    elsewhere = world.root / "elsewhere"
    elsewhere.mkdir()
    assert alphred(world, "init", "-t", "demo", cwd=elsewhere).returncode == 0
    ran = alphred(world, "run", "demo.yaml", "--repo", str(world.repo), cwd=elsewhere)
    assert ran.returncode == 0, ran.stderr
    commands = assert_runnable(world, ran.stderr, elsewhere, expect=2)
    assert all("--repo" in c or " -C " in c for c in commands), commands
    status = alphred(world, "status", "1", "--repo", str(world.repo), cwd=elsewhere)
    assert_runnable(world, status.stdout, elsewhere)
    failed_file = world.root / "red.yaml"
    failed_file.write_text(FAILING)
    failed = alphred(world, "run", str(failed_file), "--repo", str(world.repo), cwd=elsewhere)
    assert failed.returncode == 1
    assert_runnable(world, failed.stderr, elsewhere, expect=2)


def test_a_database_named_on_the_command_line_is_named_in_the_suggestions(world: ScmWorld) -> None:
    url = f"sqlite:///{world.root / 'runs.db'}"
    (world.root / "red.yaml").write_text(FAILING)
    failed = alphred(world, "run", str(world.root / "red.yaml"), "--db", url)
    assert failed.returncode == 1
    commands = assert_runnable(world, failed.stderr, world.repo, expect=2)
    assert all("--db" in c for c in commands), commands


def test_a_missing_file_with_repo_says_which_path_it_looked_at(world: ScmWorld) -> None:
    elsewhere = world.root / "elsewhere"
    elsewhere.mkdir()
    (world.repo / "demo.yaml").write_text("alphred: 1\nkey: x\nphases: {a: {type: command, run: 'true'}}\n")
    result = alphred(world, "run", "demo.yaml", "--repo", "../repo", cwd=elsewhere)
    assert result.returncode == 2
    assert f"looked at {elsewhere / 'demo.yaml'}" in result.stderr
    assert "did you mean ../repo/demo.yaml?" in result.stderr


FLAKY = """\
alphred: 1
key: flaky
phases:
  tests:
    type: command
    max_retries: 1
    run: "if [ -e once ]; then echo passed; else touch once; echo OLD-FAILURE-OUTPUT; exit 1; fi"
"""


def test_a_completed_run_does_not_show_an_earlier_failed_attempts_output(world: ScmWorld) -> None:
    (world.root / "flaky.yaml").write_text(FLAKY)
    ran = alphred(world, "run", str(world.root / "flaky.yaml"))
    assert ran.returncode == 0, ran.stderr
    closing = ran.stderr[ran.stderr.index("✓ run 1 completed ·") :]
    assert "OLD-FAILURE-OUTPUT" not in closing and "failed" not in closing


def test_status_of_a_pending_run_shows_no_branch_and_no_duration(world: ScmWorld) -> None:
    (world.root / "red.yaml").write_text(FAILING)
    submitted = alphred(world, "submit", str(world.root / "red.yaml"))
    assert submitted.returncode == 0, submitted.stderr
    shown = alphred(world, "status").stdout
    assert "not started yet" in shown and "branch None" not in shown and "took" not in shown
