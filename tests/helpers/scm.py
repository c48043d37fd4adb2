"""Test support for pull requests: a repository with a local bare ``origin``, fake ``gh``/``az`` on PATH."""

from __future__ import annotations

import json
import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from helpers.repos import IDENTITY, add_origin, git, make_repo, process_env

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GIT = shutil.which("git") or "/usr/bin/git"
__all__ = ["ScmWorld", "git", "install_fake", "make_world", "parse_outputs", "phase_reports"]


def install_fake(bin_dir: Path, name: str) -> Path:
    """Put ``tests/fixtures/fake_<name>.py`` on ``bin_dir`` as the executable ``name``."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    target = bin_dir / name
    target.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FIXTURES / f"fake_{name}.py"}" "$@"\n')
    target.chmod(0o755)
    return target


@dataclass
class ScmWorld:
    """A repository (``main`` pushed to a bare ``origin``), a bin dir with fakes, and the environment."""

    root: Path
    repo: Path
    origin: Path
    bin: Path
    log: Path
    env: dict[str, str] = field(default_factory=dict)

    def calls(self) -> list[dict[str, Any]]:
        """Every recorded call of the fakes, in order."""
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def commit_on_branch(self, branch: str, files: dict[str, str], start: str = "main") -> str:
        """Create ``branch`` at ``start`` with one commit adding ``files`` (the checkout is left alone)."""
        worktree = self.root / f"wt-{branch.replace('/', '-')}"
        git(self.repo, "worktree", "add", "-q", "-b", branch, str(worktree), start, env=self.env)
        for name, text in files.items():
            (worktree / name).write_text(text)
        git(worktree, "add", "-A", env=self.env)
        git(worktree, *IDENTITY, "commit", "-q", "-m", f"on {branch}", env=self.env)
        sha = git(worktree, "rev-parse", "HEAD", env=self.env)
        git(self.repo, "worktree", "remove", "--force", str(worktree), env=self.env)
        return sha

    def remote_sha(self, branch: str, remote: Path | None = None) -> str | None:
        """The commit of ``branch`` in the bare repository (``origin`` by default), or None."""
        ref = f"refs/heads/{branch}"
        out = git(remote or self.origin, "for-each-ref", "--format=%(objectname)", ref, env=self.env)
        return out or None

    def without_gh(self) -> dict[str, str]:
        """The environment with a PATH that holds git but no gh/az."""
        only_git = self.root / "bin-git-only"
        only_git.mkdir(exist_ok=True)
        if not (only_git / "git").exists():
            (only_git / "git").symlink_to(GIT)
        return {**self.env, "PATH": str(only_git)}


def make_world(tmp_path: Path, *, with_origin: bool = True) -> ScmWorld:
    """Build an ``ScmWorld`` in ``tmp_path``: HOME and git config isolated, fake gh and az installed."""
    home = tmp_path / "home"
    home.mkdir()
    bin_dir = tmp_path / "bin"
    install_fake(bin_dir, "gh")
    install_fake(bin_dir, "az")
    log = tmp_path / "scm-calls.jsonl"
    env = process_env(home, drop=("FAKE_", "GH_", "GITHUB_", "AZURE_"), FAKE_GH_LOG=str(log), FAKE_AZ_LOG=str(log))
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', os.defpath)}"
    repo = make_repo(tmp_path / "repo", {"README.md": "# project\n"}, env=env)
    origin = tmp_path / "origin.git"
    if with_origin:
        add_origin(repo, origin, env=env)
    return ScmWorld(tmp_path, repo, origin, bin_dir, log, env)


def parse_outputs(text: str) -> dict[str, str]:
    """Read GitHub's ``name<<DELIMITER`` output file format."""
    values: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        name, _, delimiter = line.partition("<<")
        body = []
        for value in lines:
            if value == delimiter:
                break
            body.append(value)
        values[name] = "\n".join(body)
    return values


def phase_reports(repo: Path, run_id: int, phase: str) -> list[Any]:
    """The stored structured reports of ``phase`` in run ``run_id`` (the repository's SQLite file), by attempt."""
    import sqlite3

    with sqlite3.connect(repo / ".alphred" / "alphred.db") as db:
        rows = db.execute(
            "SELECT a.content_json FROM phase_artifacts a JOIN run_nodes n ON n.id = a.run_node_id "
            "WHERE a.run_id = ? AND n.node_key = ? AND a.kind = 'report' ORDER BY a.attempt",
            (run_id, phase),
        ).fetchall()
    return [json.loads(row[0]) for row in rows]
