"""Every sanitised branch name is one that the real ``git check-ref-format --branch`` accepts."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alphred.git import render_branch_name, sanitize_branch_name


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    # Inside a repository `--branch` also expands `@` and `@{-1}`, the strictest place to check.
    path = tmp_path_factory.mktemp("refcheck")
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True, env=_env(path))
    yield path


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return {**env, "HOME": str(home), "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git_accepts(repo: Path, name: str) -> bool:
    result = subprocess.run(
        ["git", "check-ref-format", "--branch", name], cwd=repo, env=_env(repo), capture_output=True
    )
    return result.returncode == 0 and result.stdout.decode().strip() == name


_NASTY = st.text(alphabet=st.sampled_from([*"ab/.-@{}~^:?*[\\ \t_lockHEAD", "é", "\x00", "\x7f"]))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=40), _NASTY))
def test_git_accepts_every_sanitised_name(repo: Path, raw: str) -> None:
    name = sanitize_branch_name(raw)
    assert git_accepts(repo, name), name
    assert sanitize_branch_name(name) == name


@pytest.mark.parametrize(
    "template", ["alphred/{tree-key}/{run-id}", "{issue-id}", "--{date}..lock", "@{tree-key}/HEAD"]
)
def test_git_accepts_rendered_templates(repo: Path, template: str) -> None:
    tokens = {"tree-key": "wf", "run-id": "9", "issue-id": "~weird: issue?", "date": "2025-01-01"}
    assert git_accepts(repo, render_branch_name(template, tokens))


def test_the_checker_rejects_bad_names(repo: Path) -> None:
    for bad in ("a..b", "-x", "x.lock", "a b", "HEAD", "a/", "a@{1}"):
        assert not git_accepts(repo, bad), bad
