"""A workflow with parallel branches validates, but ``run`` refuses it cleanly (SPEC §8 not executable yet)."""

from __future__ import annotations

from pathlib import Path

from test_run_cli import cli, git, repo  # noqa: F401  (the repo fixture)

ROOT = Path(__file__).resolve().parents[2]
PARALLEL = ROOT / "tests" / "fixtures" / "workflows" / "parallel.yaml"


def test_validate_warns_and_run_refuses_before_anything_is_created(repo: Path) -> None:  # noqa: F811
    checked = cli("validate", str(PARALLEL))
    assert checked.exit_code == 0, checked.stderr
    assert "warning: parallel branches (the fan-out of 'plan') are not executable yet" in checked.output
    branches = git(repo, "branch", "--list")
    result = cli("run", str(PARALLEL), "--repo", str(repo), "--json")
    assert result.exit_code == 2
    assert "Error [PARALLEL_NOT_SUPPORTED]: workflow 'parallel' fans out to parallel branches" in result.stderr
    assert result.stdout == ""
    assert git(repo, "branch", "--list") == branches and git(repo, "worktree", "list").count("\n") == 0
    runs = cli("runs", "--json", "--repo", str(repo))
    assert runs.exit_code == 0 and runs.stdout.strip() == "[]"


def test_the_parallel_review_example_validates_and_is_refused(repo: Path) -> None:  # noqa: F811
    example = ROOT / "docs" / "examples" / "parallel-review.yaml"
    checked = cli("validate", str(example))
    assert checked.exit_code == 0 and "not executable yet" in checked.output
    result = cli("run", str(example), "--repo", str(repo), "--dry-run", "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert "Error [PARALLEL_NOT_SUPPORTED]" in result.stderr
