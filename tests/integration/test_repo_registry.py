"""The repository registry: ``alphred repo add|list|remove`` and ``run --repo NAME``'s resolution and clone."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers.scm import ScmWorld, git, make_world

import alphred.cli.repo_cmds  # noqa: F401  (registers `alphred repo` until the CLI package imports it)
from alphred.cli import app
from alphred.errors import RepositoryCloneError, RepositoryRegistryError, UnknownRepositoryError
from alphred.operations.registration import (
    alphred_home,
    registered_branch_template,
    registration_for,
    registry_db_url,
    resolve_registered_repo,
)


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ScmWorld:
    world = make_world(tmp_path)
    world.env["ALPHRED_HOME"] = str(tmp_path / "alphred-home")
    for key in ("ALPHRED_DATABASE_URL", "ALPHRED_HOME", "HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"):
        monkeypatch.delenv(key, raising=False)
    for key in ("ALPHRED_HOME", "HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"):
        monkeypatch.setenv(key, world.env[key])
    return world


def repo_cli(*args: str) -> Result:
    return CliRunner().invoke(app, ["repo", *args])


def listed(*args: str) -> list[dict[str, object]]:
    result = repo_cli("list", "--json", *args)
    assert result.exit_code == 0, result.stderr
    return list(json.loads(result.stdout))


def home(world: ScmWorld) -> Path:
    return Path(world.env["ALPHRED_HOME"])


def test_add_list_remove_a_local_repository(world: ScmWorld) -> None:
    (world.repo / "sub").mkdir()
    result = repo_cli("add", "widgets", str(world.repo / "sub"), "--branch-template", "bot/{tree-key}-{run-id}")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "" and f"registered repository widgets: {world.repo}" in result.stderr
    (entry,) = listed()
    assert {k: entry[k] for k in ("name", "path", "remote_url", "branch_template", "clone_status")} == {
        "name": "widgets", "path": str(world.repo), "remote_url": None,
        "branch_template": "bot/{tree-key}-{run-id}", "clone_status": "cloned",
    }  # fmt: skip
    text = repo_cli("list")
    assert text.stdout.split() == ["widgets", str(world.repo), "branch", "bot/{tree-key}-{run-id}"]
    assert (home(world) / "alphred.db").is_file()  # the user-level database
    assert resolve_registered_repo("widgets", world.env) == (world.repo, "bot/{tree-key}-{run-id}")
    assert registered_branch_template(world.repo, world.env) == "bot/{tree-key}-{run-id}"
    removed = repo_cli("remove", "widgets")
    assert removed.exit_code == 0 and "removed repository widgets" in removed.stderr
    assert listed() == [] and (world.repo / ".git").is_dir()


def test_list_without_a_registry_creates_nothing(world: ScmWorld) -> None:
    assert listed() == []
    result = repo_cli("list")
    assert result.exit_code == 0 and result.stdout == "" and "no repositories registered" in result.stderr
    assert not home(world).exists()


def test_bad_input_is_a_clear_usage_error(world: ScmWorld) -> None:
    assert repo_cli("add", "widgets", str(world.repo)).exit_code == 0
    cases = [
        (("add", "widgets", str(world.repo)), "REPOSITORY_EXISTS", "already registered"),
        (("add", "../evil", str(world.repo)), "REPOSITORY_REGISTRY", "invalid repository name"),
        (("add", "other", str(world.root / "nowhere")), "REPOSITORY_REGISTRY", "neither an existing directory"),
        (("add", "other", str(world.root / "home")), "NOT_A_GIT_REPOSITORY", "not inside a git repository"),
        (("remove", "gadgets"), "UNKNOWN_REPOSITORY", "registered: widgets"),
    ]
    for args, code, words in cases:
        result = repo_cli(*args)
        assert result.exit_code == 2, args
        assert result.stderr.startswith(f"Error [{code}]: ") and words in result.stderr, result.stderr
    assert [e["name"] for e in listed()] == ["widgets"]


def test_a_url_is_cloned_on_first_use_and_refreshed_later(world: ScmWorld) -> None:
    assert repo_cli("add", "remote-widgets", f"file://{world.origin}").exit_code == 0
    (entry,) = listed()
    assert (entry["clone_status"], entry["path"]) == ("pending", None)
    path, template = resolve_registered_repo("remote-widgets", world.env)
    assert path == home(world) / "repos" / "remote-widgets" and template is None
    assert (path / "README.md").read_text() == "# project\n"
    (entry,) = listed()
    assert (entry["clone_status"], entry["path"]) == ("cloned", str(path))
    # a new commit on the remote reaches the clone on the next use
    sha = world.commit_on_branch("next", {"new.txt": "new\n"})
    git(world.repo, "push", "-q", "origin", f"{sha}:refs/heads/main", env=world.env)
    assert resolve_registered_repo("remote-widgets", world.env).path == path
    assert git(path, "rev-parse", "HEAD", env=world.env) == sha
    assert registered_branch_template(path, world.env) is None


def test_a_bare_repository_path_is_registered_as_a_url(world: ScmWorld) -> None:
    assert registration_for(str(world.origin)) == (None, str(world.origin.resolve()))
    assert registration_for("git@github.com:acme/widgets.git") == (None, "git@github.com:acme/widgets.git")
    assert registration_for(str(world.repo)) == (str(world.repo), None)


def test_a_failed_clone_is_recorded_and_retried(world: ScmWorld) -> None:
    missing = world.root / "later.git"
    assert repo_cli("add", "later", f"file://{missing}").exit_code == 0
    warnings: list[str] = []
    with pytest.raises(RepositoryCloneError) as caught:
        resolve_registered_repo("later", world.env, warn=warnings.append)
    assert caught.value.exit_code == 2 and "cannot clone repository 'later'" in str(caught.value)
    assert listed()[0]["clone_status"] == "failed"
    assert not (home(world) / "repos" / "later").exists()
    git(world.root, "clone", "-q", "--bare", str(world.origin), str(missing), env=world.env)
    path, _ = resolve_registered_repo("later", world.env)
    assert (path / "README.md").is_file() and listed()[0]["clone_status"] == "cloned"


def test_resolving_an_unknown_name(world: ScmWorld) -> None:
    with pytest.raises(UnknownRepositoryError, match="neither a directory nor a registered repository"):
        resolve_registered_repo("gadgets", world.env)  # no registry at all
    assert not home(world).exists()
    assert repo_cli("add", "widgets", str(world.repo)).exit_code == 0
    with pytest.raises(UnknownRepositoryError, match=r"registered: widgets"):
        resolve_registered_repo("gadgets", world.env)


def test_a_registered_path_that_vanished_is_reported(world: ScmWorld) -> None:
    assert repo_cli("add", "widgets", str(world.repo)).exit_code == 0
    (world.repo / ".git").rename(world.root / "moved.git")
    with pytest.raises(RepositoryRegistryError, match="no longer a git repository"):
        resolve_registered_repo("widgets", world.env)


def test_the_registry_database_can_be_chosen(world: ScmWorld) -> None:
    url = f"sqlite:///{world.root / 'shared.db'}"
    assert repo_cli("add", "widgets", str(world.repo), "--db", url).exit_code == 0
    assert listed() == [] and [e["name"] for e in listed("--db", url)] == ["widgets"]
    assert resolve_registered_repo("widgets", world.env, db=url).path == world.repo
    assert registry_db_url({"ALPHRED_DATABASE_URL": url}) == url
    rows = sqlite3.connect(world.root / "shared.db").execute("SELECT name, clone_status FROM repositories").fetchall()
    assert rows == [("widgets", "cloned")]


def test_alphred_home_defaults_to_the_home_directory() -> None:
    assert alphred_home({"HOME": "/home/ada"}) == Path("/home/ada/.alphred")
    assert alphred_home({"HOME": "/home/ada", "ALPHRED_HOME": "/data/alphred"}) == Path("/data/alphred")
    assert registry_db_url({"HOME": "/home/ada"}) == "sqlite:////home/ada/.alphred/alphred.db"
