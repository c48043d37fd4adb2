"""The user-level repository registry: where it lives, what ``repo add`` stores, ``run --repo NAME``.

The registry is the ``repositories`` table of a user-level database: ``--db`` / ``ALPHRED_DATABASE_URL``
when given, else SQLite at ``$ALPHRED_HOME/alphred.db`` (``ALPHRED_HOME`` defaults to ``~/.alphred``). A
repository registered by URL is cloned into ``$ALPHRED_HOME/repos/<name>`` on first use; the clone is
refreshed with ``git pull --ff-only`` on later uses (a failed refresh is a warning, not an error).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from alphred.errors import GitError, RepositoryCloneError, RepositoryRegistryError, UnknownRepositoryError
from alphred.git import locate_repository
from alphred.git.command import describe_failure, run_git
from alphred.git.location import locked_file
from alphred.store import SqlRunStore

if TYPE_CHECKING:
    from alphred.store import RepositoryRecord

HOME_VARIABLE = "ALPHRED_HOME"
DB_VARIABLE = "ALPHRED_DATABASE_URL"
REPOS_DIR = "repos"
_SCP_LIKE = re.compile(r"^(?:[^@/\s]+@)?[^:/\s]+:[^\s]")


class ResolvedRepository(NamedTuple):
    """A registered repository ready to run in: its working tree and its branch template (or None)."""

    path: Path
    branch_template: str | None


def alphred_home(env: Mapping[str, str]) -> Path:
    """``$ALPHRED_HOME``, else ``~/.alphred`` (``~`` from ``HOME`` in ``env``)."""
    configured = env.get(HOME_VARIABLE, "").strip()
    if configured:
        return Path(configured).expanduser()
    home = env.get("HOME", "").strip()
    return (Path(home) if home else Path.home()) / ".alphred"


def registry_db_url(env: Mapping[str, str], db: str | None = None) -> str:
    """The registry's database URL: ``db``, else ``ALPHRED_DATABASE_URL``, else the user-level SQLite file."""
    return db or env.get(DB_VARIABLE, "").strip() or f"sqlite:///{alphred_home(env) / 'alphred.db'}"


def looks_like_url(text: str) -> bool:
    """True for ``scheme://...`` and scp-like ``[user@]host:path`` (git's remote syntax)."""
    return "://" in text or (bool(_SCP_LIKE.match(text)) and not re.match(r"^[A-Za-z]:[\\/]", text))


def registration_for(location: str) -> tuple[str | None, str | None]:
    """``(path, url)`` for ``repo add``: a working tree is a path, a URL or a bare repository is a URL."""
    candidate = Path(location).expanduser()
    if candidate.exists():
        resolved = candidate.resolve()
        if _is_bare(resolved):
            return None, str(resolved)
        return str(locate_repository(resolved).root), None
    if looks_like_url(location):
        return None, location
    raise RepositoryRegistryError(f"{location} is neither an existing directory nor a git URL")


def resolve_registered_repo(
    name: str,
    env: Mapping[str, str],
    db: str | None = None,
    warn: Callable[[str], None] | None = None,
) -> ResolvedRepository:
    """The working tree of the repository registered as ``name``, cloning its URL on first use."""
    store = SqlRunStore.open_existing(registry_db_url(env, db))
    if store is None:
        raise UnknownRepositoryError(name, (), as_path=True)
    with store:
        with store.reading() as tx:
            record = tx.get_repository(name)
            known = [r.name for r in tx.list_repositories()] if record is None else []
        if record is None:
            raise UnknownRepositoryError(name, known, as_path=True)
        if record.remote_url is None:
            path = Path(record.path or "")
            if not (path / ".git").exists():
                raise RepositoryRegistryError(
                    f"the repository '{name}' was registered at {path}, which is no longer a git repository "
                    f"(`alphred repo remove {name}` and add it again)"
                )
            return ResolvedRepository(path, record.branch_template)
        return ResolvedRepository(_ensure_clone(store, record, env, warn), record.branch_template)


def registered_branch_template(root: Path, env: Mapping[str, str], db: str | None = None) -> str | None:
    """The ``branch_template`` of the registered repository at ``root``, if any; creates nothing."""
    record = registered_at(root, env, db)
    return None if record is None else record.branch_template


def registered_at(root: Path, env: Mapping[str, str], db: str | None = None) -> RepositoryRecord | None:
    """The registered repository whose working tree is ``root``, if any; creates nothing."""
    store = SqlRunStore.open_existing(registry_db_url(env, db))
    if store is None:
        return None
    with store:
        return store.find_repository_by_path(str(root.resolve()))


def _ensure_clone(
    store: SqlRunStore, record: RepositoryRecord, env: Mapping[str, str], warn: Callable[[str], None] | None
) -> Path:
    """Clone ``record``'s URL once (under a lock, tracked in ``clone_status``); refresh an existing clone."""
    assert record.remote_url is not None
    repos = alphred_home(env) / REPOS_DIR
    repos.mkdir(parents=True, exist_ok=True)
    target = Path(record.path) if record.path else repos / record.name
    from alphred.scm.remote import tool_environment  # here: `alphred run` only looks the template up

    git_env = tool_environment(env)
    with locked_file(repos / f".{record.name}.lock"):
        current = store.get_repository(record.name) or record
        if current.clone_status == "cloned" and (target / ".git").exists():
            _refresh(target, git_env, warn)
            return target
        if target.exists() and not (target / ".git").exists():
            if any(target.iterdir()):
                raise RepositoryCloneError(record.name, record.remote_url, f"{target} exists and is not a clone")
            target.rmdir()
        if not target.exists():
            _clone(store, record.name, record.remote_url, target, git_env)
        store.set_clone_status(record.name, "cloned", path=str(target))
    return target


def _clone(store: SqlRunStore, name: str, url: str, target: Path, env: Mapping[str, str]) -> None:
    store.set_clone_status(name, "cloning")
    scratch = target.with_name(f".{target.name}.clone-{os.getpid()}")
    shutil.rmtree(scratch, ignore_errors=True)
    args = ("clone", "--quiet", "--", url, str(scratch))
    try:
        result = run_git(args, target.parent, env, check=False)
        failure = None if result.returncode == 0 else describe_failure(args, result)
    except GitError as exc:
        failure = exc.message
    if failure is None:
        scratch.rename(target)
        return
    shutil.rmtree(scratch, ignore_errors=True)
    store.set_clone_status(name, "failed")
    raise RepositoryCloneError(name, url, failure)


def _refresh(target: Path, env: Mapping[str, str], warn: Callable[[str], None] | None) -> None:
    args = ("pull", "--ff-only", "--quiet")
    result = run_git(args, target, env, check=False)
    if result.returncode != 0 and warn is not None:
        warn(f"could not update the clone {target} ({describe_failure(args, result)}); running from its HEAD")


def _is_bare(path: Path) -> bool:
    return path.is_dir() and (path / "HEAD").is_file() and (path / "objects").is_dir() and not (path / ".git").exists()
