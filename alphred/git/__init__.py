"""Git for runs (SPEC §5): locate the repository, name branches, one worktree per run, phase commits.

Importing this package spawns nothing and imports no git library: ``locate_repository`` reads the
repository layout in pure Python, and worktree operations run the ``git`` command line when called.
"""

from alphred.git.branch_names import (
    BRANCH_TEMPLATE_ENV,
    BRANCH_TOKENS,
    DEFAULT_BRANCH_TEMPLATE,
    FALLBACK_BRANCH,
    branch_tokens,
    choose_branch_template,
    render_branch_name,
    sanitize_branch_name,
)
from alphred.git.location import RepoLocation, ensure_alphred_dir, locate_repository
from alphred.git.worktrees import CommitResult, GitWorktrees, ResolvedBase, Worktree, phase_commit_message

__all__ = [
    "BRANCH_TEMPLATE_ENV",
    "BRANCH_TOKENS",
    "DEFAULT_BRANCH_TEMPLATE",
    "FALLBACK_BRANCH",
    "CommitResult",
    "GitWorktrees",
    "RepoLocation",
    "ResolvedBase",
    "Worktree",
    "branch_tokens",
    "choose_branch_template",
    "ensure_alphred_dir",
    "locate_repository",
    "phase_commit_message",
    "render_branch_name",
    "sanitize_branch_name",
]
