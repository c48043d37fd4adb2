"""One worktree per run (SPEC §5, Git) against real repositories: create, reuse, commit, remove."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from alphred.errors import GitError, UnbornHeadError, UnknownRefError
from alphred.git import GitWorktrees, ResolvedBase, Worktree, locate_repository, phase_commit_message

pytestmark = pytest.mark.usefixtures("isolated_git")


def git(cwd: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", *args]
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}  # a test's `git status` must not refresh the index
    result = subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True, text=True)
    return result.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "repo"
    git(tmp_path, "init", "-q", "-b", "main", str(path))
    (path / "README.md").write_text("hello\n")
    (path / "old.txt").write_text("old\n")
    (path / ".gitignore").write_text("*.log\n")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "first")
    return path.resolve()


@pytest.fixture
def worktrees(repo: Path) -> GitWorktrees:
    return GitWorktrees(locate_repository(repo))


def new_worktree(worktrees: GitWorktrees, run_id: int = 1) -> Worktree:
    base = worktrees.resolve_base(None)
    return worktrees.create(run_id, f"alphred/wf/{run_id}", base.sha)


def test_resolve_base_defaults_to_the_main_checkout(repo: Path, worktrees: GitWorktrees) -> None:
    assert worktrees.resolve_base(None) == ResolvedBase(git(repo, "rev-parse", "HEAD"), "main")
    git(repo, "checkout", "-q", "--detach")
    assert worktrees.resolve_base(None) == ResolvedBase(git(repo, "rev-parse", "HEAD"), None)


def test_resolve_base_names(repo: Path, worktrees: GitWorktrees) -> None:
    head = git(repo, "rev-parse", "HEAD")
    git(repo, "tag", "-a", "v1", "-m", "tag")  # annotated: must still resolve to the commit
    assert worktrees.resolve_base("main") == ResolvedBase(head, "main")
    assert worktrees.resolve_base("v1") == ResolvedBase(head, "v1")
    assert worktrees.resolve_base(head[:10]) == ResolvedBase(head, None)


@pytest.mark.parametrize("ref", ["nope", "", "--all", "main..main", "HEAD:README.md"])
def test_unknown_base(worktrees: GitWorktrees, ref: str) -> None:
    with pytest.raises(UnknownRefError) as caught:
        worktrees.resolve_base(ref)
    assert caught.value.code == "UNKNOWN_REF"


def test_unborn_head(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "-b", "main", str(tmp_path / "empty"))
    with pytest.raises(UnbornHeadError, match="no commits"):
        GitWorktrees(locate_repository(tmp_path / "empty")).resolve_base(None)


def test_create_checks_out_base_on_a_new_branch(repo: Path, worktrees: GitWorktrees) -> None:
    created = new_worktree(worktrees, 7)
    assert created == Worktree(repo / ".alphred" / "worktrees" / "7", "alphred/wf/7", reused=False)
    assert (created.path / "README.md").read_text() == "hello\n"
    assert git(created.path, "rev-parse", "--abbrev-ref", "HEAD") == "alphred/wf/7"
    assert worktrees.head_sha(created.path) == git(repo, "rev-parse", "HEAD")
    assert git(repo, "status", "--porcelain") == ""  # .alphred/ is excluded
    assert locate_repository(created.path).root == repo
    assert "alphred: initializing" not in git(repo, "worktree", "list", "--porcelain")


def test_create_reuses_the_runs_worktree(worktrees: GitWorktrees) -> None:
    first = new_worktree(worktrees, 3)
    (first.path / "work.txt").write_text("in progress\n")
    again = new_worktree(worktrees, 3)
    assert again == Worktree(first.path, first.branch, reused=True)
    assert (again.path / "work.txt").read_text() == "in progress\n"


def test_branch_collision_gets_a_suffix(repo: Path, worktrees: GitWorktrees) -> None:
    git(repo, "branch", "alphred/wf/1")
    git(repo, "branch", "alphred/wf/1-2")
    base = worktrees.resolve_base(None).sha
    assert worktrees.create(1, "alphred/wf/1", base).branch == "alphred/wf/1-3"
    assert worktrees.create(2, "alphred/wf/1", base).branch == "alphred/wf/1-4"
    git(repo, "branch", "taken/deeper")
    assert worktrees.create(3, "taken", base).branch == "taken-2"


def test_branch_under_an_existing_branch_is_a_clear_error(repo: Path, worktrees: GitWorktrees) -> None:
    git(repo, "branch", "alphred")
    with pytest.raises(GitError, match="branch alphred exists"):
        new_worktree(worktrees)


def test_create_from_a_bad_base_creates_nothing(repo: Path, worktrees: GitWorktrees) -> None:
    with pytest.raises(GitError, match="worktree add"):
        worktrees.create(1, "alphred/wf/1", "0" * 40)
    assert git(repo, "branch", "--list", "alphred/*") == ""
    assert not worktrees.worktree_path(1).exists()


def test_branch_name_is_sanitised(worktrees: GitWorktrees) -> None:
    created = worktrees.create(4, "my branch..x.lock", worktrees.resolve_base(None).sha)
    assert created.branch == "my-branch.x"


def test_existing_directory_is_never_clobbered(repo: Path, worktrees: GitWorktrees) -> None:
    path = worktrees.worktree_path(5)
    path.mkdir(parents=True)
    (path / "precious.txt").write_text("mine")
    with pytest.raises(GitError, match="already exists"):
        new_worktree(worktrees, 5)
    assert (path / "precious.txt").read_text() == "mine"
    (path / "precious.txt").unlink()  # an empty directory is fine
    assert new_worktree(worktrees, 5).reused is False


def test_worktree_of_another_branch_is_not_reused(worktrees: GitWorktrees) -> None:
    new_worktree(worktrees, 6)
    with pytest.raises(GitError, match="not of the run's branch"):
        worktrees.create(6, "other/name", worktrees.resolve_base(None).sha)


def test_interrupted_creation_is_discarded(repo: Path, worktrees: GitWorktrees) -> None:
    path = worktrees.worktree_path(8)
    locked = ("--lock", "--reason", "alphred: initializing")
    git(repo, "worktree", "add", "-q", *locked, "-b", "alphred/wf/8", str(path))
    (path / "README.md").unlink()  # killed half-way through the checkout
    created = new_worktree(worktrees, 8)
    assert created.reused is False
    assert (created.path / "README.md").read_text() == "hello\n"
    assert worktrees.commit_phase(created.path, "nothing") is None


def test_directory_deleted_by_hand_is_recreated(repo: Path, worktrees: GitWorktrees) -> None:
    created = new_worktree(worktrees, 9)
    subprocess.run(["rm", "-rf", str(created.path)], check=True)
    again = worktrees.create(9, "alphred/wf/9", worktrees.resolve_base(None).sha)
    assert again.reused is False
    assert (again.path / "README.md").exists()


def test_commit_phase_stages_everything(repo: Path, worktrees: GitWorktrees) -> None:
    created = new_worktree(worktrees)
    base = worktrees.head_sha(created.path)
    (created.path / "README.md").write_text("hello\nworld\n")
    (created.path / "old.txt").unlink()
    (created.path / "new").mkdir()
    (created.path / "new" / "file.py").write_text("x = 1\n")
    (created.path / "image.bin").write_bytes(b"\x00\x01\x02")
    (created.path / "debug.log").write_text("ignored\n")
    result = worktrees.commit_phase(created.path, phase_commit_message("wf", "implement", 1))
    assert result is not None
    assert result.parent == base
    assert result.sha == git(created.path, "rev-parse", "HEAD") == worktrees.head_sha(created.path)
    assert (result.files_changed, result.insertions, result.deletions) == (4, 2, 1)
    assert git(created.path, "show", "--name-status", "--format=", "HEAD").splitlines() == [
        "M\tREADME.md",
        "A\timage.bin",
        "A\tnew/file.py",
        "D\told.txt",
    ]
    assert "+world" in result.diff
    assert "deleted file mode" in result.diff
    assert "Binary files /dev/null and b/image.bin differ" in result.diff
    assert result.diff == git(created.path, "show", "--format=", "--no-color", "HEAD") + "\n"
    assert git(created.path, "log", "-1", "--format=%s") == "alphred(wf): implement [visit 1]"
    assert git(created.path, "status", "--porcelain") == ""


def test_commit_phase_without_changes_returns_none(worktrees: GitWorktrees) -> None:
    created = new_worktree(worktrees)
    before = worktrees.head_sha(created.path)
    assert worktrees.commit_phase(created.path, "nothing") is None
    (created.path / "debug.log").write_text("ignored files are not changes\n")
    assert worktrees.commit_phase(created.path, "nothing") is None
    (created.path / "a.txt").write_text("a\n")
    assert worktrees.commit_phase(created.path, "one") is not None
    assert worktrees.commit_phase(created.path, "again") is None
    assert git(created.path, "rev-list", "--count", f"{before}..HEAD") == "1"


def test_commit_phase_since_covers_commits_the_agent_made(worktrees: GitWorktrees) -> None:
    created = new_worktree(worktrees)
    start = worktrees.head_sha(created.path)
    (created.path / "agent.txt").write_text("committed by the agent\n")
    git(created.path, "add", "agent.txt")
    git(created.path, "commit", "-q", "-m", "agent's own commit")
    agent_head = worktrees.head_sha(created.path)
    only_agent = worktrees.commit_phase(created.path, "phase", since=start)
    assert only_agent is not None
    assert (only_agent.sha, only_agent.parent, only_agent.files_changed) == (agent_head, start, 1)
    assert "+committed by the agent" in only_agent.diff
    (created.path / "later.txt").write_text("left uncommitted\n")
    both = worktrees.commit_phase(created.path, "phase", since=start)
    assert both is not None
    assert both.sha != agent_head
    assert git(created.path, "rev-parse", "HEAD^") == agent_head
    assert (both.parent, both.files_changed) == (start, 2)
    assert worktrees.commit_phase(created.path, "phase", since=both.sha) is None


def test_commits_work_without_any_identity(worktrees: GitWorktrees) -> None:
    created = new_worktree(worktrees)
    (created.path / "a.txt").write_text("a\n")
    assert worktrees.commit_phase(created.path, "phase") is not None
    who = git(created.path, "log", "-1", "--format=%an <%ae>|%cn <%ce>")
    assert who == "Alphred <alphred@localhost>|Alphred <alphred@localhost>"


def test_commits_use_the_configured_identity(repo: Path) -> None:
    git(repo, "config", "user.name", "Repo Owner")
    git(repo, "config", "user.email", "owner@example.com")
    worktrees = GitWorktrees(locate_repository(repo))
    created = new_worktree(worktrees)
    (created.path / "a.txt").write_text("a\n")
    worktrees.commit_phase(created.path, "phase")
    assert git(created.path, "log", "-1", "--format=%an <%ae>") == "Repo Owner <owner@example.com>"


def test_commits_use_the_identity_from_the_environment(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Ci Bot")
    worktrees = GitWorktrees(locate_repository(repo))
    created = new_worktree(worktrees)
    (created.path / "a.txt").write_text("a\n")
    worktrees.commit_phase(created.path, "phase")
    assert git(created.path, "log", "-1", "--format=%an <%ae>|%cn") == "Ci Bot <alphred@localhost>|Alphred"


def test_head_sha_reads_packed_refs(repo: Path, worktrees: GitWorktrees) -> None:
    created = new_worktree(worktrees)
    (created.path / "a.txt").write_text("a\n")
    result = worktrees.commit_phase(created.path, "phase")
    git(repo, "pack-refs", "--all")
    assert not (repo / ".git" / "refs" / "heads" / "alphred" / "wf" / "1").exists()
    assert result is not None
    assert worktrees.head_sha(created.path) == result.sha


def test_remove_keeps_the_branch_and_reopen_restores_it(repo: Path, worktrees: GitWorktrees) -> None:
    created = new_worktree(worktrees)
    (created.path / "a.txt").write_text("a\n")
    result = worktrees.commit_phase(created.path, "phase")
    assert result is not None
    worktrees.remove(created.path)
    assert not created.path.exists()
    assert str(created.path) not in git(repo, "worktree", "list")
    assert git(repo, "rev-parse", "refs/heads/alphred/wf/1") == result.sha
    reopened = worktrees.reopen(1, created.branch)
    assert reopened == Worktree(created.path, created.branch, reused=False)
    assert (reopened.path / "a.txt").read_text() == "a\n"
    assert worktrees.reopen(1, created.branch).reused is True


def test_reopen_unknown_branch(worktrees: GitWorktrees) -> None:
    with pytest.raises(UnknownRefError):
        worktrees.reopen(1, "alphred/none/1")


def test_remove_after_the_directory_was_deleted(repo: Path, worktrees: GitWorktrees) -> None:
    created = new_worktree(worktrees)
    subprocess.run(["rm", "-rf", str(created.path)], check=True)
    worktrees.remove(created.path)
    assert git(repo, "worktree", "list", "--porcelain").count("worktree ") == 1


def snapshot(repo: Path) -> dict[str, bytes]:
    """Every file of the user's checkout outside .alphred/, plus the index and HEAD, byte for byte."""
    files = {
        str(path.relative_to(repo)): path.read_bytes()
        for path in sorted(repo.rglob("*"))
        if path.is_file() and path.relative_to(repo).parts[0] not in {".git", ".alphred"}
    }
    for name in ("index", "HEAD"):
        files[f".git/{name}"] = (repo / ".git" / name).read_bytes()
    return files


def test_the_users_checkout_is_never_touched(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git(repo, "checkout", "-q", "-b", "my-feature")
    (repo / "README.md").write_text("hello\nuncommitted edit\n")
    (repo / "staged.txt").write_text("staged\n")
    git(repo, "add", "staged.txt")
    (repo / "untracked.txt").write_text("untracked\n")
    before = snapshot(repo)
    status = git(repo, "status", "--porcelain")
    # As when Alphred runs from a git hook: these would aim git at the user's index.
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(repo / ".git" / "index"))
    worktrees = GitWorktrees(locate_repository(repo))
    created = worktrees.create(1, "alphred/wf/1", worktrees.resolve_base("main").sha)
    (created.path / "README.md").write_text("agent edit\n")
    (created.path / "old.txt").unlink()
    assert worktrees.commit_phase(created.path, "phase") is not None
    worktrees.remove(created.path)
    monkeypatch.delenv("GIT_DIR", raising=False)  # alphred drops them from its own environment
    monkeypatch.delenv("GIT_INDEX_FILE", raising=False)
    assert snapshot(repo) == before
    assert git(repo, "status", "--porcelain") == status
    assert git(repo, "symbolic-ref", "--short", "HEAD") == "my-feature"
