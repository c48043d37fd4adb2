"""A git repository for a test, isolated from the machine's git configuration, and a child's environment."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
IDENTITY = ("-c", "user.name=T", "-c", "user.email=t@example.invalid")
AUTHOR = {
    "GIT_AUTHOR_NAME": "T",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "T",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
}
# What alphred reads from the environment that would make a test depend on the machine it runs on.
ALPHRED_SETTINGS = (
    "ALPHRED_DATABASE_URL",
    "ALPHRED_BRANCH_TEMPLATE",
    "ALPHRED_HOME",
    "ALPHRED_CACHE_DIR",
    "ALPHRED_DB_BUSY_TIMEOUT",
    "ALPHRED_LEASE_TTL",
    "ALPHRED_LEASE_OWNER",
    "ALPHRED_RETRY_BASE_SECONDS",
    "ALPHRED_CRASH_AT",
)


def git(cwd: Path, *args: str, env: Mapping[str, str] | None = None) -> str:
    """Run git in ``cwd`` (failing the test when it fails); its stdout, stripped."""
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout.strip()


def make_repo(
    path: Path, files: Mapping[str, str] | None = None, *, message: str = "init", env: Mapping[str, str] | None = None
) -> Path:
    """A repository at ``path`` on ``main`` with one commit holding ``files`` (an empty commit without any)."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main", env=env)
    for rel, text in (files or {}).items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_text(text)
    git(path, "add", "-A", env=env)
    git(path, *IDENTITY, "commit", "-q", "--allow-empty", "-m", message, env=env)
    return path


def add_origin(repo: Path, origin: Path, *, env: Mapping[str, str] | None = None) -> Path:
    """A bare repository at ``origin``, added as the ``origin`` remote of ``repo``, with ``main`` pushed."""
    git(origin.parent, "init", "-q", "--bare", "-b", "main", str(origin), env=env)
    git(repo, "remote", "add", "origin", str(origin), env=env)
    git(repo, "push", "-q", "origin", "main", env=env)
    return origin


def process_env(home: Path, *, identity: bool = False, drop: tuple[str, ...] = (), **extra: str) -> dict[str, str]:
    """This process's environment for a child: without ``GIT_*``, ``ALPHRED_*`` (nor ``drop``) variables,
    ``HOME`` at ``home``, no global or system git configuration, this checkout first on ``PYTHONPATH``;
    with ``identity`` a git author and committer (alphred itself must commit without one); then ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "ALPHRED_", *drop))}
    env.update(
        HOME=str(home),
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p),
    )
    if identity:
        env.update(AUTHOR)
    env.update(extra)
    return env


def isolate(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """This process as a fresh machine: ``HOME`` at ``home``, no git configuration, identity or ``GIT_*``
    variable, none of alphred's settings."""
    for key in list(os.environ):
        if key.startswith("GIT_") or key == "EMAIL" or key in ALPHRED_SETTINGS:
            monkeypatch.delenv(key)
    home.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
