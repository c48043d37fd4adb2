"""Parallel branches in git (SPEC §8) against real repositories: lane worktrees, --no-ff merges, conflicts."""

from __future__ import annotations

import os
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from alphred.git import GitWorktrees, locate_repository, phase_commit_message
from alphred.git.merges import LaneGit, lane_branch, merge_message

pytestmark = pytest.mark.usefixtures("isolated_git")


def git(cwd: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", *args]
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}
    return subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def setup(tmp_path: Path) -> tuple[GitWorktrees, LaneGit, Path, str]:
    path = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(path))
    (path / "shared.txt").write_text("one\ntwo\nthree\n")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "first")
    worktrees = GitWorktrees(locate_repository(path.resolve()))
    base = worktrees.resolve_base()
    run = worktrees.create(7, "alphred/wf/7", base.sha)
    return worktrees, LaneGit(worktrees), run.path, run.branch


def commit_in_lane(worktrees: GitWorktrees, lane: Path, name: str, text: str, phase: str) -> None:
    (lane / name).write_text(text)
    assert worktrees.commit_phase(lane, phase_commit_message("wf", phase, 1)) is not None


def test_each_lane_gets_its_branch_and_worktree_and_merges_are_no_ff_in_order(
    setup: tuple[GitWorktrees, LaneGit, Path, str],
) -> None:
    worktrees, lanes, run, branch = setup
    head = worktrees.head_sha(run)
    backend = lanes.create_lane(7, branch, "backend", head)
    frontend = lanes.create_lane(7, branch, "frontend", head)
    assert backend.branch == "alphred/wf/7.backend" == lane_branch(branch, "backend")
    assert backend.path == lanes.lane_path(7, "backend") and backend.path.name == "7.backend"
    assert lanes.create_lane(7, branch, "backend", head).reused
    commit_in_lane(worktrees, backend.path, "api.py", "api\n", "backend")
    commit_in_lane(worktrees, frontend.path, "ui.js", "ui\n", "frontend")
    first = lanes.merge(run, backend.branch, merge_message("wf", "backend"))
    second = lanes.merge(run, frontend.branch, merge_message("wf", "frontend"))
    assert first.sha and second.sha and not first.conflicts and not second.conflicts
    log = git(run, "log", "--format=%s|%P", "-3").splitlines()
    assert log[0].startswith("alphred(wf): merge frontend|") and len(log[0].split("|")[1].split()) == 2
    assert log[1].startswith("alphred(wf): merge backend|") and len(log[1].split("|")[1].split()) == 2
    assert (run / "api.py").read_text() == "api\n" and (run / "ui.js").read_text() == "ui\n"
    again = lanes.merge(run, backend.branch, merge_message("wf", "backend"))  # asked again after a crash
    assert again.already and again.sha == second.sha
    worktrees.remove(backend.path)
    assert not backend.path.exists() and git(run, "rev-parse", backend.branch)  # the branch stays


def test_a_conflict_stays_in_progress_and_is_committed_once_resolved(
    setup: tuple[GitWorktrees, LaneGit, Path, str],
) -> None:
    worktrees, lanes, run, branch = setup
    head = worktrees.head_sha(run)
    a = lanes.create_lane(7, branch, "a", head)
    b = lanes.create_lane(7, branch, "b", head)
    commit_in_lane(worktrees, a.path, "shared.txt", "one\nA\nthree\n", "a")
    commit_in_lane(worktrees, b.path, "shared.txt", "one\nB\nthree\n", "b")
    assert lanes.merge(run, a.branch, merge_message("wf", "a")).sha
    conflicted = lanes.merge(run, b.branch, merge_message("wf", "b"))
    assert conflicted.sha is None and conflicted.conflicts == ("shared.txt",)
    assert "<<<<<<< " in (run / "shared.txt").read_text()
    assert lanes.merge(run, b.branch, merge_message("wf", "b")).conflicts == ("shared.txt",)  # asked again
    # a resolver that leaves the markers: nothing is committed, the merge stays in progress
    assert lanes.finish_merge(run, conflicted.conflicts) == (None, ("shared.txt",))
    (run / "shared.txt").write_text("one\nA and B\nthree\n")
    sha, remaining = lanes.finish_merge(run, conflicted.conflicts)
    assert remaining == () and sha == worktrees.head_sha(run)
    assert git(run, "log", "-1", "--format=%s") == "alphred(wf): merge b"
    assert len(git(run, "log", "-1", "--format=%P").split()) == 2
    assert lanes.finish_merge(run, conflicted.conflicts) == (sha, ())  # asked again after a crash


def test_abort_leaves_the_run_branch_as_it_was(setup: tuple[GitWorktrees, LaneGit, Path, str]) -> None:
    worktrees, lanes, run, branch = setup
    head = worktrees.head_sha(run)
    a = lanes.create_lane(7, branch, "a", head)
    commit_in_lane(worktrees, a.path, "shared.txt", "x\n", "a")
    (run / "shared.txt").write_text("y\n")
    worktrees.commit_phase(run, "run side")
    before = worktrees.head_sha(run)
    assert lanes.merge(run, a.branch, "m").conflicts == ("shared.txt",)
    lanes.abort_merge(run)
    lanes.abort_merge(run)
    assert worktrees.head_sha(run) == before and (run / "shared.txt").read_text() == "y\n"
    assert git(run, "rev-parse", a.branch)


def test_a_clean_merge_cut_short_by_a_kill_is_made_again(setup: tuple[GitWorktrees, LaneGit, Path, str]) -> None:
    """A kill inside a clean ``git merge`` can leave MERGE_HEAD without a conflict: asked again, the merge is
    made (found by the parallel soak: the run stayed ``running``, its next merge refused forever)."""
    worktrees, lanes, run, branch = setup
    head = worktrees.head_sha(run)
    a = lanes.create_lane(7, branch, "a", head)
    b = lanes.create_lane(7, branch, "b", head)
    commit_in_lane(worktrees, a.path, "a.txt", "a\n", "a")
    commit_in_lane(worktrees, b.path, "b.txt", "b\n", "b")
    git(run, "merge", "--no-ff", "--no-commit", a.branch)  # what the kill leaves: merge in progress, no conflict
    assert lanes.merging(run) and lanes.conflicted(run) == ()
    first = lanes.merge(run, a.branch, merge_message("wf", "a"))
    assert first.sha is not None and first.sha == worktrees.head_sha(run) and not first.conflicts
    assert not lanes.merging(run)
    second = lanes.merge(run, b.branch, merge_message("wf", "b"))
    assert second.sha is not None
    log = git(run, "log", "--first-parent", "--format=%s", "-2").splitlines()
    assert log == ["alphred(wf): merge b", "alphred(wf): merge a"]


@pytest.mark.parametrize("left", ["registered, nothing checked out", "checkout cut short"])
def test_a_lane_worktree_a_kill_left_half_made_is_made_again_on_its_own_branch(
    setup: tuple[GitWorktrees, LaneGit, Path, str], left: str
) -> None:
    """A kill while an item's worktree is being made (SPEC §13) leaves it registered and locked as initialising,
    with some or none of its files; asked again (resume), the lane is made anew, complete, on the same branch."""
    worktrees, lanes, run, branch = setup
    (run / "more").mkdir()
    for index in range(30):
        (run / "more" / f"f{index}.txt").write_text(f"{index}\n")
    worktrees.commit_phase(run, phase_commit_message("wf", "plan", 1))
    head = worktrees.head_sha(run)
    path, wanted = lanes.lane_path(7, "implement-0"), lane_branch(branch, "implement-0")
    locked = ("--lock", "--reason", "alphred: initializing")
    git(run, "worktree", "add", "-q", "--no-checkout", *locked, "-b", wanted, str(path), head)
    if left == "checkout cut short":
        git(path, "read-tree", "HEAD")
        git(path, "checkout-index", "-a", "-f")
        for index in range(10, 30):
            (path / "more" / f"f{index}.txt").unlink()
    made = lanes.create_lane(7, branch, "implement-0", head)
    assert not made.reused and made.path == path and made.branch == wanted  # not "-2" beside the left-over
    assert git(path, "status", "--porcelain", "--untracked-files=all") == ""
    assert sorted(p.name for p in (path / "more").iterdir()) == sorted(f"f{i}.txt" for i in range(30))
    assert worktrees.head_sha(path) == head and git(run, "branch", "--list", f"{wanted}-*") == ""
    assert "alphred: initializing" not in git(run, "worktree", "list", "--porcelain")


def test_lanes_made_at_once_from_threads_are_each_whole(setup: tuple[GitWorktrees, LaneGit, Path, str]) -> None:
    """A for_each's item worktrees are made at once (SPEC §13). ``git worktree add``, ``remove``, ``prune`` and
    ``branch -D`` read every entry of git's worktree registry and die on one another is still writing
    (``failed to read .../commondir``), so they run one at a time; the checkouts overlap. Half the lanes are
    left half made by a kill first, so their repair (remove, prune, ``branch -D``) runs among the others."""
    worktrees, lanes, run, branch = setup
    head = worktrees.head_sha(run)
    locked = ("--lock", "--reason", "alphred: initializing")
    for index in range(0, 12, 2):
        wanted, path = lane_branch(branch, f"implement-{index}"), lanes.lane_path(7, f"implement-{index}")
        git(run, "worktree", "add", "-q", "--no-checkout", *locked, "-b", wanted, str(path), head)
    start = threading.Barrier(12)

    def make(index: int) -> Path:
        start.wait()  # every thread asks at the same moment
        return lanes.create_lane(7, branch, f"implement-{index}", head).path

    with ThreadPoolExecutor(max_workers=12) as pool:
        paths = list(pool.map(make, range(12)))
    listed = git(run, "worktree", "list", "--porcelain")
    for index, path in enumerate(paths):
        assert path == lanes.lane_path(7, f"implement-{index}") and f"worktree {path}\n" in listed
        assert git(path, "symbolic-ref", "--short", "HEAD") == lane_branch(branch, f"implement-{index}")
        assert git(path, "status", "--porcelain", "--untracked-files=all") == "" and (path / "shared.txt").is_file()
    assert "initializing" not in listed and git(run, "worktree", "prune", "-n", "-v") == ""
    assert git(run, "branch", "--list", f"{branch}.implement-*-*") == ""  # none made beside a left-over as "-2"
