"""Stall detection (SPEC §15): a visit whose tree and report equal the previous visit's of the same phase is
stalled; ``stalled_visits`` counts them for guards; ``limits.max_stalls`` in a row fail the run ``stalled``."""

from __future__ import annotations

from pathlib import Path

from helpers.cli import cli, run_json, write_workflow


def test_a_loop_that_changes_nothing_fails_stalled_naming_the_phase_and_visits(repo: Path) -> None:
    path = write_workflow(
        repo.parent,
        """\
        phases:
          poll:
            type: command
            run: echo still waiting
            max_visits: 50
            transitions: [{to: poll}]
        """,
    )
    code, obj, err = run_json(repo, path)
    assert code == 1, err
    assert (obj["status"], obj["reason"]) == ("failed", "stalled")
    assert len(obj["steps"]) == 4  # visit 1, then 3 visits equal to the one before: max_stalls (3) in a row
    assert "phase poll stalled: visits 1 to 4 left the same tree and the same report" in err


def test_a_loop_that_changes_the_tree_is_not_stalled(repo: Path) -> None:
    path = write_workflow(
        repo.parent,
        """\
        limits: {max_stalls: 2}
        phases:
          grow:
            type: command
            run: echo line >> log.txt; echo same report
            max_visits: 5
            transitions: [{to: grow}]
        """,
    )
    code, obj, err = run_json(repo, path)
    assert code == 1, err
    assert obj["reason"] == "max_visits" and len(obj["steps"]) == 5


def test_the_report_counts_too_and_stalled_visits_steers_the_guard(repo: Path) -> None:
    path = write_workflow(
        repo.parent,
        """\
        phases:
          count:
            type: command
            run: echo visit {{ visits }}
            max_visits: 6
            transitions: [{to: idle}]
          idle:
            type: command
            run: echo nothing to do
            max_visits: 10
            transitions:
              - {to: $end, when: stalled_visits >= 1}
              - {to: count}
        """,
    )
    code, obj, err = run_json(repo, path)
    assert code == 0, err
    # count's report differs each visit (never stalled); idle's second visit equals its first: guard ends it
    assert [(s["phase"], s["next"]) for s in obj["steps"]] == [
        ("count", "idle"),
        ("idle", "count"),
        ("count", "idle"),
        ("idle", "$end"),
    ]


def test_validate_knows_stalled_visits_and_the_limits(repo: Path) -> None:
    path = write_workflow(
        repo.parent,
        """\
        limits: {max_wait: 2h, max_stalls: 5}
        phases:
          a:
            type: command
            run: "true"
            transitions: [{to: $end, when: stalled_visits > 0}, {to: a}]
        """,
    )
    assert cli("validate", str(path)).exit_code == 0
    bad = write_workflow(
        repo.parent, "limits: {max_wait: forever, max_stalls: 0}\nphases: {a: {type: command, run: x}}\n"
    )
    done = cli("validate", str(bad))
    assert done.exit_code != 0 and "max_wait" in done.output + done.stderr and "max_stalls" in done.output + done.stderr


def test_the_tree_of_a_commit_is_read_without_git_when_loose_and_with_git_when_packed(repo: Path) -> None:
    from helpers.repos import git

    from alphred.git import GitWorktrees, locate_repository

    head, tree = git(repo, "rev-parse", "HEAD").strip(), git(repo, "rev-parse", "HEAD^{tree}").strip()
    worktrees = GitWorktrees(locate_repository(repo))
    assert worktrees._loose_tree(head) == tree  # a commit git just wrote: its loose object, no process
    git(repo, "gc", "-q")
    assert worktrees._loose_tree(head) is None  # packed now
    assert GitWorktrees(locate_repository(repo)).tree_sha(repo, head) == tree  # git answers
    assert worktrees._loose_tree("not-a-sha") is None
