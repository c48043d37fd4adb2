"""One git worktree per run (SPEC §5, Git): create or reuse it, commit each phase, remove it.

Every command runs either inside the run's worktree or against the shared git directory from the main
working tree's root, and none of them reads or writes the main checkout's files, index or ``HEAD``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import zlib
from collections.abc import Callable
from pathlib import Path

from alphred.errors import GitError, UnbornHeadError, UnknownRefError
from alphred.git.branch_names import sanitize_branch_name
from alphred.git.branch_refs import branches_like
from alphred.git.command import GitDirs, describe_failure, git_environment, run_git
from alphred.git.location import RepoLocation, ensure_alphred_dir, read_head, read_ref, registered_gitdir
from alphred.git.registry_lock import registry_lock
from alphred.git.snapshot import WorktreeSnapshot, take_snapshot, unchanged, watched_files
from alphred.git.tamper import WorktreeSeal, seal_worktree
from alphred.lazy import deferred_dataclass

_Completed = subprocess.CompletedProcess[bytes]
FALLBACK_NAME = "Alphred"
FALLBACK_EMAIL = "alphred@localhost"
# Written to ``worktrees/<id>/locked`` while ``git worktree add`` runs; found later, it marks a worktree
# whose creation was interrupted (its files may be half checked out), which is then discarded.
_INITIALIZING = "alphred: initializing"
_MAX_CHECKOUT_WORKERS = 4  # parallel checkout's processes for one worktree (several are made at once)
_DIFF_ARGS = ("--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", "--numstat", "-p")
# An index file ends with a hash of its content (20 bytes for SHA-1, 32 for SHA-256 repositories).
_INDEX_TRAILER = 32
TRAILER_RUN = "Alphred-Run"
TRAILER_PHASE = "Alphred-Phase"
TRAILER_ATTEMPT = "Alphred-Attempt"


@deferred_dataclass(frozen=True)
class ResolvedBase:
    """The commit a run branches from, and its branch or tag name when it has one."""

    sha: str
    ref_name: str | None


@deferred_dataclass(frozen=True)
class Worktree:
    """A run's worktree: where it is, the branch actually checked out, whether it already existed."""

    path: Path
    branch: str
    reused: bool


@deferred_dataclass(frozen=True)
class CommitResult:
    """A phase's commit: its sha, the commit the phase started from and the diff between the two.

    Binary files are noted (``Binary files a/x and b/x differ``), not inlined.
    """

    sha: str
    parent: str
    diff: str
    files_changed: int
    insertions: int
    deletions: int


def phase_commit_message(
    tree_key: str, phase: str, visit: int, *, run_id: int | None = None, attempt: int | None = None
) -> str:
    """The message of a phase's commit (SPEC §5): ``alphred(<tree-key>): <phase> [visit N]``.

    With ``run_id`` and ``attempt``, git trailers name the run, phase and attempt (``Alphred-Run: 7``,
    ``Alphred-Phase: implement``, ``Alphred-Attempt: 2``): a take-over recognises a commit its attempt made.
    """
    subject = f"alphred({tree_key}): {phase} [visit {visit}]"
    if run_id is None or attempt is None:
        return subject
    return f"{subject}\n\n{TRAILER_RUN}: {run_id}\n{TRAILER_PHASE}: {phase}\n{TRAILER_ATTEMPT}: {attempt}\n"


class GitWorktrees:
    """Run worktrees under ``<root>/.alphred/worktrees/<run-id>`` of one repository.

    Every git call names its git directory and work tree (``GitDirs``): a worktree's git directory is the
    one registered for it in the common directory (``worktrees/<id>/gitdir`` names its ``.git``), never
    the one its ``.git`` file names. ``hooks`` lets Alphred's commits run the repository's hooks
    (``git: {hooks: true}``); they are off otherwise.
    """

    def __init__(self, location: RepoLocation, *, hooks: bool = False) -> None:
        self.location = location
        self.hooks = hooks
        self._env = git_environment()
        self._commit_env: dict[str, str] | None = None
        # worktree -> (HEAD, end of its index file) when its index last held exactly HEAD's tree
        self._index_ends: dict[Path, tuple[str, bytes]] = {}
        # worktree -> the stat data of its entries when it last held exactly HEAD's tree (ignored files apart)
        self._clean: dict[Path, WorktreeSnapshot] = {}
        self._excludes_file: Path | None = None  # ``core.excludesFile``, read with the identity
        self._gitdirs: dict[Path, Path] = {}  # worktree -> its registered git directory
        self._trees: dict[str, str] = {}  # commit -> its tree (stall detection reads one per completed visit)
        # (worktree, branch ref) -> the last seal made of it in this process (``seal``: an unmoved one is reused)
        self._seals: dict[tuple[Path, str | None], WorktreeSeal] = {}
        self.registry = registry_lock(location)  # held by every command that changes it, across processes

    def worktree_path(self, run_id: int) -> Path:
        """Where the worktree of run ``run_id`` lives."""
        return self.location.worktrees_dir / str(run_id)

    def resolve_base(self, ref: str | None = None) -> ResolvedBase:
        """Resolve ``--base`` (default: the main checkout's ``HEAD``) to a commit."""
        if ref is None:  # read from the files (issue 29: no git process at a run's start); git where they say nothing
            head_ref, sha = read_head(self.location.git_common_dir, self.location.git_common_dir)
            sha = sha or self._rev_parse_commit("HEAD")
            if sha is None:
                raise UnbornHeadError(str(self.location.root))
            return ResolvedBase(sha, _short_ref(head_ref) if head_ref else None)
        sha = self._rev_parse_commit(ref) if ref.strip() and not ref.startswith("-") else None
        if sha is None:
            raise UnknownRefError(ref)
        full = self._git("rev-parse", "--symbolic-full-name", ref, check=False).stdout.decode().strip()
        return ResolvedBase(sha, _short_ref(full) if full.startswith("refs/") else None)

    def create(
        self, run_id: int, branch: str, base_sha: str, *, path: Path | None = None, parallel_checkout: bool = False
    ) -> Worktree:
        """Give run ``run_id`` a worktree on a new branch at ``base_sha`` (``-2``, ``-3``... if taken).

        An existing complete worktree of that run on that branch (or a suffixed variant) is reused.
        ``path`` places it elsewhere than the run's own worktree (a parallel branch's, SPEC §8).
        ``parallel_checkout`` writes its files with git's parallel checkout (``_add``).
        """
        path = path or self.worktree_path(run_id)
        self._forget(path)
        branch = sanitize_branch_name(branch)
        existing = self._existing(path, re.compile(re.escape(branch) + r"(-\d+)?"))
        if existing is not None:
            return existing
        failure = ""
        for _ in range(3):  # a concurrent process may take the free name between listing and creating
            candidate = self._free_branch_name(branch)
            failure = self._add(path, "-b", candidate, base_sha, parallel=parallel_checkout) or ""
            if not failure:
                return Worktree(path, candidate, reused=False)
            if not self._branch_exists(candidate):
                break
        raise GitError(failure)

    def reopen(self, run_id: int, branch: str) -> Worktree:
        """Give run ``run_id`` its worktree on its existing ``branch`` again (resume after removal)."""
        path = self.worktree_path(run_id)
        self._forget(path)
        existing = self._existing(path, re.compile(re.escape(branch)))
        if existing is not None:
            return existing
        if not self._branch_exists(branch):
            raise UnknownRefError(branch)
        failure = self._add(path, branch)
        if failure is not None:
            raise GitError(failure)
        return Worktree(path, branch, reused=False)

    def commit_phase(
        self,
        worktree: Path,
        message: str,
        since: str | None = None,
        before_commit: Callable[[], None] | None = None,
    ) -> CommitResult | None:
        """Stage every change (deletions and untracked files, ``.gitignore`` honoured) and commit it.

        Returns None when nothing changed since ``since`` (default: the current ``HEAD``). Passing the
        phase's starting commit as ``since`` also captures commits the agent made itself. Hooks and signing
        are skipped: these are Alphred's bookkeeping commits, and a prompt or a failing hook must not
        stall a run. ``before_commit`` is called once there is something to report, before the commit (the
        caller records its intent there).

        Once a check has seen the worktree holding exactly ``HEAD``'s tree, the next one compares the stat
        data of its entries instead (``git.snapshot``): a phase that changed nothing runs no git process.
        """
        head = self.head_sha(worktree)
        start = since or head
        clean = self._clean.get(worktree) if start == head else None
        if clean is not None and clean.head == head and unchanged(clean):
            return None  # not one entry moved since the worktree last held HEAD's tree: no git process
        self._git("add", "-A", cwd=worktree)
        if start == head and self._index_unchanged(worktree, head):
            self._remember_clean(worktree, head)
            return None  # ``add -A`` left the index as it was when it held HEAD's tree: nothing to commit
        out = self._git("diff", "--cached", *_DIFF_ARGS, cwd=worktree).stdout
        sha = head
        if before_commit is not None and (out.strip() or start != head):
            before_commit()
        if out.strip():
            verify = () if self.hooks else ("--no-verify",)
            args = ("commit", "-q", *verify, "--no-gpg-sign", "--allow-empty-message", "-m", message)
            run_git(args, worktree, self._identity_env(), dirs=self.dirs(worktree))
            sha = self.head_sha(worktree)
        self._remember_index(worktree, sha)
        self._remember_clean(worktree, sha)
        if sha == start:
            return None
        if start != head:  # the phase committed on its own: the diff must cover those commits too
            out = self._git("diff", *_DIFF_ARGS, start, sha, cwd=worktree).stdout
        numstat, _, diff = out.decode("utf-8", "replace").partition("\n\n")
        counts = [line.split("\t", 2) for line in numstat.splitlines()]
        return CommitResult(
            sha=sha,
            parent=start,
            diff=diff,
            files_changed=len(counts),
            insertions=sum(int(c[0]) for c in counts if c[0].isdigit()),
            deletions=sum(int(c[1]) for c in counts if len(c) > 1 and c[1].isdigit()),
        )

    def head_sha(self, worktree: Path) -> str:
        """The commit checked out in ``worktree``."""
        with contextlib.suppress(GitError):
            _, sha = read_head(self._gitdir(worktree), self.location.git_common_dir)
            if sha is not None:
                return sha
        return self._git("rev-parse", "--verify", "HEAD", cwd=worktree).stdout.decode().strip()

    def tree_sha(self, worktree: Path, commit: str) -> str:
        """The tree of ``commit`` (remembered: a visit that changed nothing spawns no git process for it)."""
        tree = self._trees.get(commit)
        if tree is None:  # read once per commit: from its loose object, else from git (a commit's tree never changes)
            tree = self._loose_tree(commit)
            if tree is None:
                tree = self._git("rev-parse", "--verify", f"{commit}^{{tree}}", cwd=worktree).stdout.decode().strip()
            if len(self._trees) > 256:
                self._trees.clear()
            self._trees[commit] = tree
        return tree

    def _loose_tree(self, commit: str) -> str | None:
        """The tree of ``commit`` read from its loose object (a commit git just wrote is one), without a git
        process; None when it is packed or unreadable (then git is asked)."""
        if len(commit) != 40 or any(c not in "0123456789abcdef" for c in commit):
            return None
        path = self.location.git_common_dir / "objects" / commit[:2] / commit[2:]
        try:
            raw = zlib.decompressobj().decompress(path.read_bytes(), 200)
        except (OSError, zlib.error):
            return None
        header, _, body = raw.partition(b"\0")
        if not header.startswith(b"commit ") or not body.startswith(b"tree ") or len(body) < 45:
            return None
        tree = body[5:45].decode("ascii", errors="replace")
        return tree if all(c in "0123456789abcdef" for c in tree) else None

    def remove(self, worktree: Path) -> None:
        """Delete a run's worktree and its registration; its branch (and commits) stay."""
        self._forget(worktree)
        with self.registry:
            result = self._git("worktree", "remove", "--force", "--force", str(worktree), check=False)
            if result.returncode == 0:
                return
            if worktree.exists():  # e.g. a worktree with submodules, which git refuses to remove
                if not worktree.resolve().is_relative_to(self.location.worktrees_dir.resolve()):
                    raise GitError(describe_failure(("worktree", "remove"), result))
                shutil.rmtree(worktree)
            self._git("worktree", "prune")

    def prune(self) -> None:
        """Drop git's registrations of worktrees whose directory is gone (``git worktree prune``)."""
        with self.registry:
            self._git("worktree", "prune")

    def dirs(self, cwd: Path) -> GitDirs:
        """The git directory and work tree of a git call in ``cwd`` (the main working tree or a worktree)."""
        if cwd == self.location.root:
            return GitDirs(self.location.git_common_dir, self.location.root, self.hooks)
        return GitDirs(self._gitdir(cwd), cwd, self.hooks)

    def run(
        self, cwd: Path, *args: str, check: bool = True, identity: bool = False
    ) -> subprocess.CompletedProcess[bytes]:
        """``git ARGS`` in ``cwd`` (a worktree or the main working tree), hardened; ``identity``: for commits."""
        env = self._identity_env() if identity else self._env
        return run_git(args, cwd, env, check=check, dirs=self.dirs(cwd))

    def seal(self, worktree: Path, branch: str | None = None) -> WorktreeSeal:
        """Record the git state an attempt in ``worktree`` must leave as it is (``git.tamper``); with
        ``branch``, its ``HEAD`` must name that branch."""
        ref = f"refs/heads/{branch}" if branch else None
        kept = self._seals.get((worktree, ref))
        if kept is not None and not kept.broken():  # nothing it watches moved since: the same record (lstat only)
            return kept
        common = self.location.git_common_dir
        seal = self._seals[(worktree, ref)] = seal_worktree(
            worktree, self._gitdir(worktree), common, branch_ref=ref, hooks=self.hooks
        )
        return seal

    # -- internals ---------------------------------------------------------------------------------------

    def _gitdir(self, worktree: Path) -> Path:
        """The git directory registered for ``worktree`` (looked up once; its ``.git`` file is not read)."""
        gitdir = self._gitdirs.get(worktree)
        if gitdir is None:
            found = registered_gitdir(self.location.git_common_dir, worktree)
            if found is None:
                raise GitError(f"{worktree} is not a worktree registered in {self.location.git_common_dir}")
            gitdir = self._gitdirs[worktree] = found
        return gitdir

    def forget(self, worktree: Path) -> None:
        """Drop what is remembered of ``worktree`` (its stat snapshot, index; it is being removed, made anew,
        or was tampered with); its registered git directory is looked up again."""
        self._clean.pop(worktree, None)
        self._index_ends.pop(worktree, None)
        self._gitdirs.pop(worktree, None)
        for key in [key for key in self._seals if key[0] == worktree]:
            self._seals.pop(key, None)

    _forget = forget

    def _index_trailer(self, worktree: Path) -> bytes | None:
        """The last bytes of the worktree's index (its content hash), None when unknown or not hashed."""
        try:
            with open(self._gitdir(worktree) / "index", "rb") as handle:
                size = handle.seek(0, 2)
                if size <= _INDEX_TRAILER:
                    return None
                handle.seek(size - _INDEX_TRAILER)
                tail = handle.read(_INDEX_TRAILER)
        except (OSError, GitError):
            return None
        if not tail[-20:].strip(b"\0"):  # ``index.skipHash``: no content hash to compare
            return None
        return size.to_bytes(8, "big") + tail

    def _remember_index(self, worktree: Path, head: str) -> None:
        """Record that the index of ``worktree`` now holds exactly the tree of ``head``."""
        trailer = self._index_trailer(worktree)
        if trailer is None:
            self._index_ends.pop(worktree, None)
        else:
            self._index_ends[worktree] = (head, trailer)

    def _remember_clean(self, worktree: Path, head: str) -> None:
        """Record the stat data of ``worktree``, which now holds exactly the tree of ``head``."""
        try:
            gitdir = self._gitdir(worktree)
        except GitError:
            self._clean.pop(worktree, None)
            return
        snapshot = take_snapshot(worktree, head, gitdir / "index", self._watched_files(gitdir))
        if snapshot is None:
            self._clean.pop(worktree, None)
        else:
            self._clean[worktree] = snapshot

    def _watched_files(self, gitdir: Path) -> list[Path]:
        self._identity_env()  # reads ``core.excludesFile`` too
        return watched_files(self.location.git_common_dir, gitdir, self._excludes_file)

    def _index_unchanged(self, worktree: Path, head: str) -> bool:
        """Whether the index is byte for byte the one recorded for ``head`` (so nothing is staged).

        The index ends with a hash of its whole content, so an equal ending means an equal index. Any
        doubt (no record, another HEAD, an index without hash) answers False: git is asked instead.
        """
        recorded = self._index_ends.get(worktree)
        return recorded is not None and recorded == (head, self._index_trailer(worktree))

    def _git(self, *args: str, cwd: Path | None = None, check: bool = True) -> _Completed:
        return self.run(cwd or self.location.root, *args, check=check)

    def _rev_parse_commit(self, ref: str) -> str | None:
        result = self._git("rev-parse", "--verify", "--quiet", ref + "^{commit}", check=False)
        return result.stdout.decode().strip() if result.returncode == 0 else None

    def _ref_exists(self, ref: str) -> bool:
        """Whether ``ref`` exists, read without spawning git (git is asked for a reftable repository)."""
        common = self.location.git_common_dir
        if (common / "reftable").exists():
            return self._branch_exists(ref[len("refs/heads/") :])
        return read_ref(common, ref) is not None or (common / ref).is_file()

    def _branch_exists(self, branch: str) -> bool:
        result = self._git("rev-parse", "--verify", "--quiet", "refs/heads/" + branch, check=False)
        return result.returncode == 0

    def _existing(self, path: Path, branch_pattern: re.Pattern[str]) -> Worktree | None:
        """Reuse the complete worktree at ``path``, or clear the way for a new one there."""
        if not path.exists():
            self._forget_registration(path)
            return None
        admin = self._admin_dir(path)
        if admin is None:
            if path.is_dir() and not any(path.iterdir()):
                path.rmdir()
                return None
            raise GitError(f"{path} already exists and is not an Alphred worktree: move it away")
        if _is_initializing(admin):
            self.remove(path)
            return None
        head_ref, _ = read_head(admin, self.location.git_common_dir)
        branch = _short_ref(head_ref) if head_ref and head_ref.startswith("refs/heads/") else None
        if branch is None or not branch_pattern.fullmatch(branch):
            raise GitError(f"{path} is a worktree of {branch or 'a detached HEAD'}, not of the run's branch")
        return Worktree(path, branch, reused=True)

    def _admin_dir(self, path: Path) -> Path | None:
        if not (path / ".git").exists():
            return None
        return registered_gitdir(self.location.git_common_dir, path)

    def _forget_registration(self, path: Path) -> None:
        """Drop a registration left behind when the worktree directory was deleted by hand."""
        registry = self.location.git_common_dir / "worktrees"
        target = str(path / ".git")
        for admin in registry.iterdir() if registry.is_dir() else ():
            with contextlib.suppress(OSError):
                if (admin / "gitdir").read_text(encoding="utf-8").strip() == target:
                    if _is_initializing(admin):
                        (admin / "locked").unlink()
                    self.prune()
                    return

    def _free_branch_name(self, branch: str) -> str:
        """The first of ``branch``, ``branch-2``, ``branch-3``... that no local branch blocks."""
        parts = branch.split("/")
        ancestors = {"/".join(parts[:i]) for i in range(1, len(parts))}
        # Only refs that can clash are listed: ``branch``, ``branch-*`` (and what is below them). Ancestors are
        # looked up one by one: a prefix pattern for them would list every run's branch (O(branches)).
        taken = branches_like(self.location.git_common_dir, branch)  # read from the refs files: no git process
        if taken is None:  # a reftable repository, or a refs file that cannot be read
            patterns = [f"refs/heads/{name}" for name in (branch, f"{branch}-*")]
            listed = self._git("for-each-ref", "--format=%(refname)", *patterns).stdout.decode()
            taken = {line[len("refs/heads/") :] for line in listed.splitlines()}
        clash = sorted(name for name in ancestors if self._ref_exists(f"refs/heads/{name}"))
        if clash:
            raise GitError(f"cannot create branch {branch}: the branch {clash[0]} exists (change the template)")
        suffix = 1
        while True:
            candidate = branch if suffix == 1 else f"{branch}-{suffix}"
            if not any(name == candidate or name.startswith(candidate + "/") for name in taken):
                return candidate
            suffix += 1

    def _add(self, path: Path, *target: str, parallel: bool = False) -> str | None:
        """``git worktree add`` while locked as initialising; the failure text, or None on success.

        ``parallel``: the worktree is added ``--no-checkout`` and its files written by ``git reset --hard`` with
        git's parallel checkout (``checkout.workers``; ``worktree add`` runs that reset itself, one file at a
        time): 2-7 times less wall time on 5,000-20,000 files for the same CPU (benchmarks/README.md, issue 24).
        Only ``worktree add`` holds the registry's lock (``registry_lock``): the reset, which writes the files,
        runs beside other worktrees' (a for_each's items are checked out at once). Not with the repository's
        hooks on: ``worktree add`` runs ``post-checkout``, a reset does not. Until the files are written the
        worktree stays locked as initialising: a kill in between leaves one that ``create`` discards.
        """
        ensure_alphred_dir(self.location)
        path.parent.mkdir(parents=True, exist_ok=True)
        deferred = ("--no-checkout",) if parallel and not self.hooks else ()
        workers = min(os.cpu_count() or 1, _MAX_CHECKOUT_WORKERS)
        lock = ("--lock", "--reason", _INITIALIZING)
        args = ("worktree", "add", "--quiet", *deferred, *lock, *target[:-1], str(path))
        with self.registry:
            result = self._git(*args, target[-1], check=False)
        if result.returncode != 0:
            return describe_failure(args, result)
        admin = self._admin_dir(path)
        if deferred:
            checkout = ("-c", f"checkout.workers={workers}", "reset", "--hard", "--quiet", "--no-recurse-submodules")
            self._git(*checkout, cwd=path)  # a failure raises, the worktree left locked: discarded when asked again
        if admin is not None:
            (admin / "locked").unlink(missing_ok=True)
        return None

    def _identity_env(self) -> dict[str, str]:
        """The environment for commits: the configured identity, else ``Alphred <alphred@localhost>``."""
        if self._commit_env is None:
            pattern = r"^(user\.(name|email)|core\.excludesfile)$"
            listed = self._git("config", "--get-regexp", pattern, check=False).stdout
            lines = listed.decode("utf-8", "replace").splitlines()
            configured = {line.split(" ", 1)[0] for line in lines}
            for line in lines:
                if line.startswith("core.excludesfile "):
                    value = line.split(" ", 1)[1]
                    self._excludes_file = Path(value).expanduser() if value.startswith("~") else Path(value)
            extra: dict[str, str] = {}
            for key, role_vars, fallback in (
                ("user.name", ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"), FALLBACK_NAME),
                ("user.email", ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"), FALLBACK_EMAIL),
            ):
                if key not in configured:
                    extra.update({var: fallback for var in role_vars if var not in self._env})
            self._commit_env = {**self._env, **extra}
        return self._commit_env


def _short_ref(ref: str) -> str:
    for prefix in ("refs/heads/", "refs/tags/", "refs/remotes/"):
        if ref.startswith(prefix):
            return ref[len(prefix) :]
    return ref


def _is_initializing(admin: Path) -> bool:
    try:
        return (admin / "locked").read_text(encoding="utf-8").strip() == _INITIALIZING
    except (OSError, UnicodeDecodeError):
        return False
