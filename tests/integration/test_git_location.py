"""Finding the repository and its ``.alphred/`` directory (SPEC §5, Where) in real repositories."""

from __future__ import annotations

import fcntl
import subprocess
import threading
from pathlib import Path

import pytest
from helpers.processes import wait_until

from alphred.errors import GitError, NotAGitRepositoryError
from alphred.git import RepoLocation, ensure_alphred_dir, locate_repository

pytestmark = pytest.mark.usefixtures("isolated_git")


def git(cwd: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", *args]
    return subprocess.run(command, cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(path))
    (path / "src").mkdir()
    (path / "src" / "app.py").write_text("print('hi')\n")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "first")
    return path.resolve()


def git_says(cwd: Path) -> RepoLocation:
    common = Path(git(cwd, "rev-parse", "--path-format=absolute", "--git-common-dir")).resolve()
    return RepoLocation(root=common.parent, git_common_dir=common)


@pytest.mark.parametrize("where", [".", "src", "src/app.py"])
def test_locates_from_root_subdirectory_and_file(repo: Path, where: str) -> None:
    location = locate_repository(repo / where)
    assert location == RepoLocation(root=repo, git_common_dir=repo / ".git")
    assert location == git_says(repo)


def test_default_is_the_current_directory(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo / "src")
    assert locate_repository(None).root == repo
    assert locate_repository(str(repo)).root == repo


def test_linked_worktree_points_to_the_main_working_tree(repo: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "side", str(linked))
    location = locate_repository(linked / "src")
    assert location.root == repo
    assert location.git_common_dir == repo / ".git"
    assert location == git_says(linked)


def test_not_a_repository(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(NotAGitRepositoryError) as caught:
        locate_repository(plain)
    assert str(plain) in str(caught.value)
    assert caught.value.code == "NOT_A_GIT_REPOSITORY"


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(NotAGitRepositoryError, match="nowhere"):
        locate_repository(tmp_path / "nowhere")


def test_empty_dot_git_directory_is_not_a_repository(tmp_path: Path) -> None:
    (tmp_path / "fake" / ".git").mkdir(parents=True)
    with pytest.raises(NotAGitRepositoryError):
        locate_repository(tmp_path / "fake")


def test_bare_repository_is_a_clear_error(tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    with pytest.raises(GitError, match="bare repository"):
        locate_repository(bare)


def test_inside_the_git_directory_finds_its_working_tree(repo: Path) -> None:
    assert locate_repository(repo / ".git" / "objects").root == repo


def test_separate_git_dir(tmp_path: Path) -> None:
    work = tmp_path / "work"
    git(tmp_path, "init", "-q", "--separate-git-dir", str(tmp_path / "store"), str(work))
    location = locate_repository(work)
    assert location == RepoLocation(root=work.resolve(), git_common_dir=(tmp_path / "store").resolve())


def test_ensure_alphred_dir_creates_and_excludes_once(repo: Path) -> None:
    location = locate_repository(repo)
    exclude = repo / ".git" / "info" / "exclude"
    exclude.write_text("# comment\n*.tmp")  # no trailing newline
    assert ensure_alphred_dir(location) == repo / ".alphred"
    ensure_alphred_dir(location)
    assert exclude.read_text() == "# comment\n*.tmp\n.alphred/\n"
    (repo / ".alphred" / "alphred.db").write_text("x")
    assert git(repo, "status", "--porcelain", "--ignored=no") == ""


def test_ensure_alphred_dir_respects_an_existing_entry_and_missing_info_dir(repo: Path) -> None:
    info = repo / ".git" / "info"
    for child in info.iterdir():
        child.unlink()
    info.rmdir()
    ensure_alphred_dir(locate_repository(repo))
    assert (info / "exclude").read_text() == ".alphred/\n"
    (info / "exclude").write_text("/.alphred\n")
    ensure_alphred_dir(locate_repository(repo))
    assert (info / "exclude").read_text() == "/.alphred\n"


def blocked_on(path: Path) -> bool:
    """True when someone waits for a lock on ``path`` (a ``->`` line of /proc/locks names its inode)."""
    inode = f":{path.stat().st_ino} "
    return any(
        line.split(":", 1)[-1].lstrip().startswith("->") and inode in line
        for line in Path("/proc/locks").read_text().splitlines()
    )


def test_ensure_alphred_dir_waits_for_another_writer_and_rereads(repo: Path) -> None:
    location = locate_repository(repo)
    exclude = repo / ".git" / "info" / "exclude"
    exclude.write_text("")
    with open(exclude, "a+b") as other:  # another process is in the middle of adding the entry
        fcntl.flock(other.fileno(), fcntl.LOCK_EX)
        waiter = threading.Thread(target=ensure_alphred_dir, args=(location,))
        waiter.start()
        wait_until(lambda: blocked_on(exclude), what="ensure_alphred_dir to wait for the lock")
        assert waiter.is_alive(), "ensure_alphred_dir wrote without taking the lock"
        other.write(b".alphred/\n")
        other.flush()
        fcntl.flock(other.fileno(), fcntl.LOCK_UN)
    waiter.join(timeout=60)
    assert not waiter.is_alive()
    assert exclude.read_text() == ".alphred/\n"


def test_head_and_refs_are_read_as_git_reads_them(repo: Path) -> None:
    """``read_head`` / ``read_ref`` (read with ``os.read``, issue 29) agree with git: a branch, a detached HEAD, a
    symbolic ref longer than one read, a value that is not a sha."""
    from alphred.git.location import read_head, read_ref

    common = repo / ".git"
    sha = git(repo, "rev-parse", "HEAD")
    assert read_head(common, common) == ("refs/heads/main", sha)
    long_name = "refs/heads/" + "/".join(["d" * 200] * 25)  # a HEAD file over 4096 bytes
    (common / "HEAD").write_text(f"ref: {long_name}\n")
    assert read_head(common, common) == (long_name, None)
    (common / "HEAD").write_text(sha + "\n")
    assert read_head(common, common) == (None, sha)
    (common / "HEAD").write_text(sha.upper() + "\n")  # git writes lower case: anything else is left to git
    assert read_head(common, common) == (None, None)
    (common / "refs" / "heads" / "odd").write_text(sha[:-1] + "g\n")
    assert read_ref(common, "refs/heads/odd") is None


def test_a_fifo_in_place_of_a_ref_is_not_waited_on(repo: Path) -> None:
    """An agent may leave a FIFO where a ref or ``HEAD`` was: reading it must not block the run (its read finds
    nothing, so the caller asks git)."""
    import os

    from alphred.git.location import read_head, read_ref

    common = repo / ".git"
    os.mkfifo(common / "refs" / "heads" / "trap")
    assert read_ref(common, "refs/heads/trap") is None
    (common / "HEAD").unlink()
    os.mkfifo(common / "HEAD")
    assert read_head(common, common) == (None, None)
