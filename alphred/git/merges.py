"""Parallel branches in git (SPEC §8): a worktree and branch per lane, and the join's merges.

A lane of run ``R`` started by phase ``K`` works on branch ``<run branch>.<K>`` (sanitised) in the worktree
``.alphred/worktrees/<R>.<K>``, both made from the run branch's head; a later visit ``V`` of the same fan-out
(a loop through it) works in ``<R>.<K>.<V>`` on the next free ``<run branch>.<K>-N``. The join merges each lane's branch
into the run's worktree with ``git merge --no-ff`` and the message ``alphred(<tree-key>): merge <K>``. A
conflict leaves the merge in progress (``MergeOutcome.conflicts``); ``finish_merge`` then stages every
file and commits the merge unless an unmerged path or a conflict marker remains. Every step may be asked
again after a crash: a branch that is already merged is reported merged, a merge still in progress of the
same branch reports its conflicts again, and one a kill cut short without a conflict is made again.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Callable
from pathlib import Path

from alphred.errors import GitError
from alphred.git.branch_names import sanitize_branch_name
from alphred.git.location import read_head, read_ref, registered_gitdir
from alphred.git.worktrees import GitWorktrees, Worktree
from alphred.lazy import deferred_dataclass

_MARKERS = (b"<<<<<<< ", b">>>>>>> ")
_SEPARATOR = b"======="


@deferred_dataclass(frozen=True)
class MergeOutcome:
    """How merging one lane went: ``sha`` of the merge commit (None while conflicted), the conflicted paths."""

    sha: str | None
    conflicts: tuple[str, ...] = ()
    already: bool = False  # the branch was merged before (a repeated request after a crash)


def lane_branch(run_branch: str, phase_key: str) -> str:
    """The git branch of the lane started by ``phase_key``: ``<run branch>.<phase key>``, sanitised."""
    return sanitize_branch_name(f"{run_branch}.{phase_key}")


def merge_message(tree_key: str, phase_key: str) -> str:
    """The join's merge commit message (SPEC §8)."""
    return f"alphred({tree_key}): merge {phase_key}"


class LaneGit:
    """Lane worktrees and merges of the runs of one repository."""

    def __init__(self, worktrees: GitWorktrees) -> None:
        self.worktrees = worktrees

    def lane_path(self, run_id: int, phase_key: str, visit: int = 1) -> Path:
        """Where the worktree of run ``run_id``'s lane ``phase_key`` (fan-out visit ``visit``) lives."""
        name = f"{run_id}.{phase_key}" if visit <= 1 else f"{run_id}.{phase_key}.{visit}"
        return self.worktrees.location.worktrees_dir / name

    def create_lane(self, run_id: int, run_branch: str, phase_key: str, base_sha: str, visit: int = 1) -> Worktree:
        """Create (or reuse) the lane's worktree on its own branch at ``base_sha``.

        A lane branch left at ``base_sha`` without its worktree (a kill inside ``git worktree add``) holds no
        commit of its own: it is made again under its own name rather than beside it as ``-2``.
        """
        path = self.lane_path(run_id, phase_key, visit)
        wanted = lane_branch(run_branch, phase_key)
        common = self.worktrees.location.git_common_dir
        if not _complete(common, path):  # none, or one a kill left half made
            if path.exists():
                self.worktrees.remove(path)
            # the branch's tip read from its ref file (no git process for a new lane); git is asked only for a
            # reftable repository, where the file cannot be read
            tip = read_ref(common, f"refs/heads/{wanted}")
            if tip is None and (common / "reftable").exists():
                with contextlib.suppress(GitError):
                    tip = self._sha(wanted)
            if tip == base_sha:
                with self.worktrees.registry:  # ``branch -D`` reads every worktree's HEAD (``git.registry_lock``)
                    self._git(self.worktrees.location.root, "branch", "-D", wanted, check=False)
        return self.worktrees.create(run_id, wanted, base_sha, path=path, parallel_checkout=True)

    def lane_ref(self, run_id: int, run_branch: str, phase_key: str, visit: int = 1) -> str | None:
        """The git branch of a lane: its worktree's branch, else ``lane_branch`` if it exists, else None."""
        common = self.worktrees.location.git_common_dir
        with contextlib.suppress(OSError, GitError):
            admin = registered_gitdir(common, self.lane_path(run_id, phase_key, visit))
            if admin is not None:
                ref, _ = read_head(admin, common)
                if ref is not None and ref.startswith("refs/heads/"):
                    return ref[len("refs/heads/") :]
        wanted = lane_branch(run_branch, phase_key)
        try:
            self._sha(wanted)
        except GitError:
            return None
        return wanted

    def lane_worktrees(self, run_id: int) -> list[Path]:
        """Every lane worktree directory of run ``run_id`` that exists."""
        directory = self.worktrees.location.worktrees_dir
        return sorted(directory.glob(f"{run_id}.*")) if directory.is_dir() else []

    def remove_lane(self, path: Path) -> None:
        """Remove a lane's worktree (its branch and commits stay); nothing when it is gone already."""
        if path.exists():
            self.worktrees.remove(path)

    def merge(self, worktree: Path, branch: str, message: str) -> MergeOutcome:
        """Merge ``branch`` into ``worktree``'s branch (``--no-ff``); conflicts leave the merge in progress."""
        tip = self._sha(branch)
        in_progress = self._merge_head(worktree)
        if in_progress is not None:
            if in_progress != tip:
                raise GitError(f"another merge is in progress in {worktree}: finish or abort it first")
            conflicts = self.conflicted(worktree)
            if conflicts:
                return MergeOutcome(None, conflicts)
            self._git(worktree, "merge", "--abort")  # a clean merge a kill cut short: made again below
        if self._is_ancestor(tip, worktree):
            return MergeOutcome(self.worktrees.head_sha(worktree), already=True)
        verify = () if self.worktrees.hooks else ("--no-verify",)
        args = ("merge", "--no-ff", "--no-edit", *verify, "--no-gpg-sign", "-m", message, branch)
        result = self._git(worktree, *args, check=False)
        if result.returncode == 0:
            return MergeOutcome(self.worktrees.head_sha(worktree))
        conflicts = self.conflicted(worktree)
        if not conflicts:
            raise GitError(f"`git merge` of {branch} failed: {(result.stderr or result.stdout).decode().strip()}")
        return MergeOutcome(None, conflicts)

    def conflicted(self, worktree: Path) -> tuple[str, ...]:
        """The unmerged paths of ``worktree``, sorted."""
        out = self._git(worktree, "diff", "--name-only", "--diff-filter=U", "-z").stdout.decode("utf-8", "replace")
        return tuple(sorted({path for path in out.split("\0") if path}))

    def finish_merge(
        self, worktree: Path, conflicts: tuple[str, ...], before_commit: Callable[[], None] | None = None
    ) -> tuple[str | None, tuple[str, ...]]:
        """Stage every file; commit the merge when nothing is left unresolved.

        Returns ``(merge sha, ())`` or ``(None, what remains)``: unmerged paths, and paths among
        ``conflicts`` that still hold a conflict marker (the merge then stays in progress).
        ``before_commit`` is called just before the commit (the caller records its intent there).
        """
        if self._merge_head(worktree) is None:
            return self.worktrees.head_sha(worktree), ()  # committed before a crash
        self._git(worktree, "add", "-A")
        remaining = set(self.conflicted(worktree))
        remaining.update(path for path in conflicts if _has_markers(worktree / path))
        if remaining:
            return None, tuple(sorted(remaining))
        if before_commit is not None:
            before_commit()
        verify = () if self.worktrees.hooks else ("--no-verify",)
        self._git(worktree, "commit", "-q", "--no-edit", *verify, "--no-gpg-sign")
        return self.worktrees.head_sha(worktree), ()

    def abort_merge(self, worktree: Path) -> None:
        """Abort a merge in progress (no-op when there is none)."""
        if self._merge_head(worktree) is not None:
            self._git(worktree, "merge", "--abort")

    def merging(self, worktree: Path) -> bool:
        """Whether a merge is in progress in ``worktree``."""
        return self._merge_head(worktree) is not None

    def _merge_head(self, worktree: Path) -> str | None:
        result = self._git(worktree, "rev-parse", "--verify", "--quiet", "MERGE_HEAD", check=False)
        return result.stdout.decode().strip() if result.returncode == 0 else None

    def _sha(self, branch: str) -> str:
        result = self._git(
            self.worktrees.location.root,
            "rev-parse",
            "--verify",
            "--quiet",
            f"refs/heads/{branch}^{{commit}}",
            check=False,
        )
        if result.returncode != 0:
            raise GitError(f"branch {branch} does not exist")
        return result.stdout.decode().strip()

    def _is_ancestor(self, sha: str, worktree: Path) -> bool:
        return self._git(worktree, "merge-base", "--is-ancestor", sha, "HEAD", check=False).returncode == 0

    def _git(self, cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        return self.worktrees.run(cwd, *args, check=check, identity=True)


def _complete(common: Path, worktree: Path) -> bool:
    """Whether ``worktree`` is a worktree ``git worktree add`` finished making."""
    if not (worktree / ".git").exists():
        return False
    admin = registered_gitdir(common, worktree)
    return admin is not None and not (admin / "locked").is_file()


def _has_markers(path: Path) -> bool:
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return False
    return any(line.startswith(_MARKERS) or line.rstrip(b"\r") == _SEPARATOR for line in data.splitlines())
