"""Repository identity (SPEC §10) and where a worker executes a run: one of its ``--repo``s or a cached clone.

A repository is identified by its ``origin`` URL and its root commit (the oldest commit without parent
reachable from HEAD). A worker uses a ``--repo`` of the same repository; otherwise it clones the recorded
URL into ``$ALPHRED_CACHE_DIR`` (default ``~/.cache/alphred/repos``). Every clone is made and fetched under a
lock file of its own, so a worker's concurrent runs (and several workers on one machine) share it safely.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from alphred.errors import GitError, RepositoryCloneError
from alphred.git import RepoLocation, locate_repository
from alphred.git.command import describe_failure, git_environment, run_git
from alphred.git.location import locked_file
from alphred.lazy import deferred_dataclass

CACHE_VARIABLE = "ALPHRED_CACHE_DIR"


@deferred_dataclass(frozen=True)
class Identity:
    """What names a repository across machines."""

    url: str | None
    root: str | None


def identity(root: Path) -> Identity:
    """The ``origin`` URL (None without one) and root commit (None on an unborn HEAD) of ``root``."""
    git_env = git_environment()
    url = run_git(["remote", "get-url", "origin"], root, git_env, check=False)
    roots = run_git(["rev-list", "--max-parents=0", "HEAD"], root, git_env, check=False)
    commits = roots.stdout.decode().split() if roots.returncode == 0 else []
    return Identity(
        url.stdout.decode().strip() or None if url.returncode == 0 else None,
        commits[-1] if commits else None,
    )


def normal_url(url: str | None) -> str | None:
    """``url`` compared loosely: no trailing slash or ``.git``, a local path resolved."""
    if not url:
        return None
    text = url.strip().rstrip("/")
    if "://" not in text and not re.match(r"^[^/]+@[^:]+:", text) and os.path.isabs(text):
        text = os.path.realpath(text)  # a local path: symlinks resolved
    return text.removesuffix(".git")


def same_repository(mine: Identity, url: str | None, root: str | None) -> bool:
    """True when a repository with identity ``mine`` is the one recorded as (``url``, ``root``)."""
    if url and normal_url(mine.url) == normal_url(url):
        return True
    return bool(root) and mine.root == root


def cache_dir(environ: Mapping[str, str]) -> Path:
    """``$ALPHRED_CACHE_DIR``, else ``~/.cache/alphred/repos``."""
    configured = environ.get(CACHE_VARIABLE, "").strip()
    if configured:
        return Path(configured).expanduser()
    home = environ.get("HOME", "").strip()
    return (Path(home) if home else Path.home()) / ".cache" / "alphred" / "repos"


def _clone_name(url: str) -> str:
    tail = re.sub(r"[^A-Za-z0-9._-]+", "-", url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git"))[:40] or "repo"
    return f"{tail}-{hashlib.sha256(url.encode()).hexdigest()[:12]}"


def _has_commit(root: Path, sha: str) -> bool:
    found = run_git(["cat-file", "-e", f"{sha}^{{commit}}"], root, git_environment(), check=False)
    return found.returncode == 0


def ensure_commit(location: RepoLocation, sha: str | None) -> None:
    """Fetch ``origin`` into the repository until it has commit ``sha`` (under the clone's lock)."""
    root = location.root
    if not sha or _has_commit(root, sha):
        return
    with locked_file(location.git_common_dir / "alphred-fetch.lock"):
        if _has_commit(root, sha):
            return
        git_env = git_environment()
        run_git(["fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*"], root, git_env, check=False)
        if not _has_commit(root, sha):
            run_git(["fetch", "-q", "origin", sha], root, git_env, check=False)
    if not _has_commit(root, sha):
        raise GitError(f"commit {sha} is not in {root} nor in its origin")


def cached_clone(url: str, environ: Mapping[str, str]) -> Path:
    """A clone of ``url`` in the cache directory, made once (under a lock) and reused."""
    base = cache_dir(environ)
    base.mkdir(parents=True, exist_ok=True)
    target = base / _clone_name(url)
    with locked_file(base / f"{target.name}.lock"):
        if (target / ".git").is_dir():
            return target
        partial = base / f"{target.name}.partial"
        if partial.exists():
            import shutil

            shutil.rmtree(partial)
        result = run_git(["clone", "-q", "--", url, str(partial)], base, git_environment(), check=False)
        if result.returncode != 0:
            raise RepositoryCloneError(target.name, url, describe_failure(["clone", url], result))
        partial.rename(target)  # a clone is usable only once complete
    return target


class RepoChooser:
    """Chooses where a worker executes each run: a ``--repo`` of the same repository, else a cached clone."""

    def __init__(self, repos: Sequence[Path], environ: Mapping[str, str]) -> None:
        self.environ = dict(environ)
        self.known: list[tuple[RepoLocation, Identity]] = []
        for path in repos:
            location = locate_repository(path)
            self.known.append((location, identity(location.root)))

    def local(self, url: str | None, root: str | None, path: str | None) -> RepoLocation | None:
        """The worker's own repository for a run recorded with this identity (or, for a run made by
        ``alphred run`` without identity, this path); None when it has none."""
        for location, mine in self.known:
            if same_repository(mine, url, root):
                return location
            if not url and not root and path and Path(path).resolve() == location.root.resolve():
                return location
        return None

    def can_take(self, url: str | None, root: str | None, path: str | None) -> bool:
        """True when this worker can get the run's repository at all."""
        return self.local(url, root, path) is not None or bool(url)

    def location_for(self, url: str | None, root: str | None, path: str | None, base_sha: str | None) -> RepoLocation:
        """The repository to execute the run in, holding its base commit (blocking: git)."""
        location = self.local(url, root, path)
        if location is None:
            if not url:
                raise GitError("the run records no origin URL and this worker has no clone of its repository")
            location = locate_repository(cached_clone(url, self.environ))
        ensure_commit(location, base_sha)
        return location
