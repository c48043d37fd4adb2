"""What ``alphred run`` loads and spawns on its way to the first step (issue 29, item 4: run start).

The figures are in ``benchmarks/run_start.py``; these tests keep the start path free of what it no longer
needs: the PostgreSQL dialect on a SQLite run, and the pull-request package for a run that opens no pull request.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.processes import modules_imported
from helpers.runs import alphred, base_env, workflow

from alphred.errors import GitError, GitLockedError
from alphred.git.command import git_environment, run_git

ONE = """\
phases:
  say:
    type: command
    run: echo hello
"""


def test_a_sqlite_run_never_imports_the_postgresql_dialect(repo: Path) -> None:
    wf = workflow(repo, ONE)
    code, loaded = modules_imported(
        ["run", str(wf), "--quiet"], ["sqlalchemy.dialects.postgresql"],
        env=base_env(repo.parent), cwd=repo,
    )  # fmt: skip
    assert code == 0
    assert loaded == []
    runs = alphred(repo, "runs", "--json")
    assert '"status": "completed"' in runs.stdout


def test_the_start_path_does_not_load_the_pull_request_package() -> None:
    """The modules ``alphred run`` imports before its first step, and the plan of a run without a pull
    request, leave ``alphred.scm`` alone (it is loaded where a pull request is opened)."""
    probe = (
        "import sys\n"
        "import alphred.cli.run_cmds, alphred.operations.ci_wait, alphred.operations.start\n"
        "import alphred.operations.registration, alphred.views.pull_request\n"
        "from pathlib import Path\n"
        "from alphred.runtime.delivery import plan_pull_request\n"
        "from alphred.providers import default_registry\n"
        "from alphred.workflow import load_workflow\n"
        "text = 'alphred: 1\\nkey: w\\nphases:\\n  a: {type: command, run: echo}\\n'\n"
        "wf = load_workflow('w.yaml', text, providers=default_registry())\n"
        "plan = plan_pull_request(wf, Path('.'), {}, pr=None, remote=None, draft=False, run_base_ref=None,"
        " dry_run=False)\n"
        "print(plan, 'alphred.scm' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None", "False"]


def test_run_git_quotes_git_and_returns_its_output(repo: Path) -> None:
    env = git_environment()
    found = run_git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], repo, env)
    assert found.returncode == 0 and len(found.stdout.strip()) in (40, 64) and found.stdout.endswith(b"\n")
    missing = run_git(["rev-parse", "--verify", "no-such-ref"], repo, env, check=False)
    assert missing.returncode == 128 and missing.stdout == b""
    assert missing.stderr.startswith(b"fatal: ") and not missing.stderr.endswith(b"\n")
    with pytest.raises(GitError) as caught:
        run_git(["rev-parse", "--verify", "no-such-ref"], repo, env)
    assert not isinstance(caught.value, GitLockedError)
    assert str(caught.value.message).startswith("`git rev-parse --verify` failed (exit 128): fatal: ")


def test_run_git_speaks_english_and_keeps_hooks_off(repo: Path, tmp_path: Path) -> None:
    """``LANGUAGE=C``/``LC_ALL=C`` reach git unless the caller sets them, and a repository's hooks never
    run (``core.hooksPath=/dev/null``)."""
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    marker = tmp_path / "hook-ran"
    (hooks / "pre-commit").write_text(f"#!/bin/sh\ntouch {marker}\n")
    (hooks / "pre-commit").chmod(0o755)
    env = {k: v for k, v in git_environment().items() if k not in ("LC_ALL", "LANGUAGE")}
    (repo / "x.txt").write_text("x\n")
    run_git(["add", "x.txt"], repo, env)
    identity = {
        f"GIT_{role}_{part}": value
        for role in ("AUTHOR", "COMMITTER")
        for part, value in (("NAME", "a"), ("EMAIL", "a@b"))
    }
    run_git(["commit", "-q", "-m", "x"], repo, {**env, **identity})
    assert not marker.exists()
    said = run_git(["-c", "alias.loc=!echo $LC_ALL/$LANGUAGE", "loc"], repo, env)
    assert said.stdout.strip() == b"C/C"
    kept = run_git(["-c", "alias.loc=!echo $LC_ALL", "loc"], repo, {**env, "LC_ALL": "C.UTF-8"})
    assert kept.stdout.strip() == b"C.UTF-8"


def test_run_git_without_git_is_a_git_error(repo: Path, tmp_path: Path) -> None:
    env = {**git_environment(), "PATH": str(tmp_path)}
    with pytest.raises(GitError, match="git is not installed or not on PATH"):
        run_git(["status"], repo, env)
    assert os.environ.get("PATH") != str(tmp_path)  # the process's own PATH is left alone
