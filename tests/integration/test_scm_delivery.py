"""Delivering a run as a GitHub pull request: a real push to a local bare ``origin``, a fake ``gh`` on PATH."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.scm import ScmWorld, git, make_world

from alphred.errors import DeliveryError, ScmNotReadyError
from alphred.scm import DeliveryRequest, deliver_pull_request, preflight_pull_request

BRANCH = "alphred/fix-issue/7"


@pytest.fixture
def world(tmp_path: Path) -> ScmWorld:
    return make_world(tmp_path)


def request(world: ScmWorld, **changes: object) -> DeliveryRequest:
    fields: dict[str, object] = {
        "repo_root": world.repo,
        "branch": BRANCH,
        "base": "main",
        "title": "Fix: the crash",
        "body": "## Report\n\nFixed it.\n",
        "draft": True,
        "env": world.env,
    }
    fields.update(changes)
    return DeliveryRequest(**fields)  # type: ignore[arg-type]


def test_pushes_the_branch_then_opens_the_pull_request_with_gh(world: ScmWorld) -> None:
    sha = world.commit_on_branch(BRANCH, {"fix.py": "print('fixed')\n"})
    result = deliver_pull_request(request(world))
    assert (result.url, result.created, result.provider) == ("https://github.com/acme/widgets/pull/42", True, "github")
    assert world.remote_sha(BRANCH) == sha
    listed, created, confirmed = world.calls()
    assert listed["argv"][:4] == ["pr", "list", "--head", BRANCH]
    assert confirmed["argv"] == ["pr", "view", BRANCH, "--json", "url,state,headRefName"]
    argv = created["argv"]
    assert argv[:7] == ["pr", "create", "--head", BRANCH, "--base", "main", "--title=Fix: the crash"]
    assert argv[7] == "--body-file" and argv[9:] == ["--draft"]
    assert created["body"] == "## Report\n\nFixed it.\n"
    assert created["cwd"] == str(world.repo)
    assert "--repo" not in argv  # a local-path remote: gh finds the repository itself


def test_not_a_draft_without_the_flag(world: ScmWorld) -> None:
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    deliver_pull_request(request(world, draft=False))
    assert "--draft" not in world.calls()[-2]["argv"]


def test_an_existing_pull_request_is_reported_instead_of_a_new_one(world: ScmWorld) -> None:
    sha = world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    url = "https://github.com/acme/widgets/pull/5"
    result = deliver_pull_request(request(world, env={**world.env, "FAKE_GH_EXISTING_PR": url}))
    assert (result.url, result.created) == (url, False)
    assert world.remote_sha(BRANCH) == sha  # the new commits still reach the open pull request
    assert [c["argv"][:2] for c in world.calls()] == [["pr", "list"], ["pr", "view"]]


def test_a_pull_request_gh_cannot_find_afterwards_fails_the_delivery(world: ScmWorld) -> None:
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    with pytest.raises(DeliveryError) as caught:
        deliver_pull_request(request(world, env={**world.env, "FAKE_GH_FORGET": "1"}))
    assert caught.value.kind == "unconfirmed" and caught.value.exit_code == 1
    message = str(caught.value)
    assert "cannot confirm the pull request https://github.com/acme/widgets/pull/42" in message
    assert f'no pull requests found for branch "{BRANCH}"' in message and f"the branch {BRANCH} is kept" in message
    assert [c["argv"][:2] for c in world.calls()] == [["pr", "list"], ["pr", "create"], ["pr", "view"]]


def test_a_closed_pull_request_is_not_a_delivery(world: ScmWorld) -> None:
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    url = "https://github.com/acme/widgets/pull/5"
    env = {**world.env, "FAKE_GH_EXISTING_PR": url, "FAKE_GH_PR_STATE": "CLOSED"}
    with pytest.raises(DeliveryError) as caught:
        deliver_pull_request(request(world, env=env))
    assert caught.value.kind == "unconfirmed" and f"the pull request {url} is CLOSED" in str(caught.value)


def test_a_pull_request_opened_meanwhile_is_reported_too(world: ScmWorld) -> None:
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    url = "https://github.com/acme/widgets/pull/6"
    result = deliver_pull_request(request(world, env={**world.env, "FAKE_GH_CREATE_EXISTS": url}))
    assert (result.url, result.created) == (url, False)


def test_no_remote_fails_clearly_before_anything_is_pushed(tmp_path: Path) -> None:
    world = make_world(tmp_path, with_origin=False)
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    with pytest.raises(DeliveryError) as caught:
        deliver_pull_request(request(world))
    assert caught.value.kind == "no_remote" and caught.value.exit_code == 1
    assert "no remote named 'origin'" in str(caught.value) and f"the branch {BRANCH} is kept" in str(caught.value)
    assert world.calls() == []
    with pytest.raises(ScmNotReadyError) as preflight:
        preflight_pull_request(world.repo, world.env)
    assert preflight.value.exit_code == 2 and "git remote add origin URL" in str(preflight.value)


def test_a_branch_with_other_history_on_the_remote_is_never_overwritten(world: ScmWorld) -> None:
    theirs = world.commit_on_branch("theirs", {"other.txt": "someone else's work\n"})
    git(world.repo, "push", "-q", "origin", f"theirs:{BRANCH}", env=world.env)
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    with pytest.raises(DeliveryError) as caught:
        deliver_pull_request(request(world))
    assert caught.value.kind == "push_rejected"
    assert "never force-pushes" in str(caught.value) and "--branch NAME" in str(caught.value)
    assert world.remote_sha(BRANCH) == theirs
    assert world.calls() == []  # no pull request for a branch that was not pushed


def test_a_branch_already_on_the_remote_is_fast_forwarded(world: ScmWorld) -> None:
    first = world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    git(world.repo, "push", "-q", "origin", BRANCH, env=world.env)
    worktree = world.root / "more"
    git(world.repo, "worktree", "add", "-q", str(worktree), BRANCH, env=world.env)
    (worktree / "fix.py").write_text("x = 2\n")
    git(worktree, "-c", "user.name=T", "-c", "user.email=t@e.invalid", "commit", "-qam", "more", env=world.env)
    second = git(worktree, "rev-parse", "HEAD", env=world.env)
    assert second != first
    assert deliver_pull_request(request(world)).created
    assert world.remote_sha(BRANCH) == second


def test_a_remote_that_rejects_the_push_fails_the_delivery(world: ScmWorld) -> None:
    hook = world.origin / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'branch protection: pushes to alphred/* are not allowed' >&2\nexit 1\n")
    hook.chmod(0o755)
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    with pytest.raises(DeliveryError) as caught:
        deliver_pull_request(request(world))
    assert caught.value.kind == "push_rejected"
    assert "the remote refused the branch" in str(caught.value)
    assert "pushes to alphred/* are not allowed" in str(caught.value)  # git's (and the hook's) own words
    assert world.remote_sha(BRANCH) is None and world.calls() == []


def test_a_branch_without_commits_is_not_pushed(world: ScmWorld) -> None:
    git(world.repo, "branch", BRANCH, "main", env=world.env)
    with pytest.raises(DeliveryError) as caught:
        deliver_pull_request(request(world))
    assert caught.value.kind == "no_commits" and "nothing to open a pull request for" in str(caught.value)
    assert world.remote_sha(BRANCH) is None


def test_a_missing_branch_is_reported(world: ScmWorld) -> None:
    with pytest.raises(DeliveryError, match="does not exist"):
        deliver_pull_request(request(world))


def test_gh_missing_is_found_by_the_preflight_with_the_fix(world: ScmWorld) -> None:
    with pytest.raises(ScmNotReadyError) as caught:
        preflight_pull_request(world.repo, world.without_gh())
    assert caught.value.exit_code == 2 and caught.value.code == "SCM_NOT_READY"
    assert "not installed" in str(caught.value) and "https://cli.github.com" in str(caught.value)


def test_gh_missing_at_delivery_fails_after_the_push(world: ScmWorld) -> None:
    sha = world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    with pytest.raises(DeliveryError) as caught:
        deliver_pull_request(request(world, env=world.without_gh()))
    assert caught.value.kind == "pull_request" and "gh is not installed" in str(caught.value)
    assert world.remote_sha(BRANCH) == sha


def test_gh_logged_out_is_found_by_the_preflight(world: ScmWorld) -> None:
    with pytest.raises(ScmNotReadyError) as caught:
        preflight_pull_request(world.repo, {**world.env, "FAKE_GH_AUTH": "logged_out"})
    message = str(caught.value)
    assert "gh is not logged in" in message and "gh auth login" in message and "GH_TOKEN" in message
    assert world.calls()[-1]["argv"] == ["auth", "status"]


def test_preflight_passes_and_names_the_target(world: ScmWorld) -> None:
    target = preflight_pull_request(world.repo, world.env)
    assert (target.remote, target.url, target.provider) == ("origin", str(world.origin), "github")


def test_a_failing_gh_pr_create_fails_with_gh_s_words(world: ScmWorld) -> None:
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    env = {**world.env, "FAKE_GH_FAIL": "pr create", "FAKE_GH_FAIL_MESSAGE": "GraphQL: Resource not accessible"}
    with pytest.raises(DeliveryError) as caught:
        deliver_pull_request(request(world, env=env))
    assert caught.value.kind == "pull_request" and "Resource not accessible" in str(caught.value)


def test_a_base_missing_on_the_remote_fails_with_gh_s_words(world: ScmWorld) -> None:
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    with pytest.raises(DeliveryError, match="Base ref must be a branch"):
        deliver_pull_request(request(world, base="release"))


def test_another_remote_and_a_github_url_give_gh_the_repository(world: ScmWorld) -> None:
    upstream = world.root / "upstream.git"
    git(world.root, "init", "-q", "--bare", "-b", "main", str(upstream), env=world.env)
    git(world.repo, "remote", "add", "upstream", "https://github.com/acme/widgets.git", env=world.env)
    git(world.repo, "remote", "set-url", "--push", "upstream", str(upstream), env=world.env)
    git(world.repo, "push", "-q", "upstream", "main", env=world.env)
    sha = world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    env = {**world.env, "FAKE_GH_REMOTE": "upstream"}
    assert preflight_pull_request(world.repo, env, remote="upstream").provider == "github"
    assert world.calls()[-1]["argv"] == ["auth", "status", "--hostname", "github.com"]
    deliver_pull_request(request(world, remote="upstream", env=env))
    assert world.remote_sha(BRANCH, upstream) == sha and world.remote_sha(BRANCH) is None
    assert world.calls()[-1]["argv"][-2:] == ["--repo", "github.com/acme/widgets"]


def test_a_gitlab_remote_is_refused_by_the_preflight(world: ScmWorld) -> None:
    git(world.repo, "remote", "set-url", "origin", "git@gitlab.com:acme/widgets.git", env=world.env)
    with pytest.raises(ScmNotReadyError, match="GitLab"):
        preflight_pull_request(world.repo, world.env)
    assert preflight_pull_request(world.repo, world.env, provider="github").provider == "github"


def test_an_authentication_failure_says_so(world: ScmWorld) -> None:
    # git's ``ext::`` transport runs a command instead of contacting a server: here, one that answers
    # exactly like an HTTPS remote refusing the credentials.
    script = world.root / "deny.sh"
    script.write_text(
        "#!/bin/sh\necho 'remote: Invalid username or password.' >&2\n"
        "echo 'fatal: Authentication failed for https://example.invalid/acme/widgets.git/' >&2\nexit 128\n"
    )
    script.chmod(0o755)
    git(world.repo, "config", "protocol.ext.allow", "always", env=world.env)
    git(world.repo, "remote", "set-url", "origin", f"ext::{script}", env=world.env)
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    with pytest.raises(DeliveryError) as caught:
        deliver_pull_request(request(world))
    assert caught.value.kind == "auth"
    assert "authentication failed" in str(caught.value) and "Invalid username or password" in str(caught.value)
    assert world.calls() == []


def test_an_unreachable_remote_says_so(world: ScmWorld) -> None:
    git(world.repo, "remote", "set-url", "origin", str(world.root / "gone.git"), env=world.env)
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    with pytest.raises(DeliveryError) as caught:
        deliver_pull_request(request(world))
    assert caught.value.kind == "push" and "cannot be reached or does not exist" in str(caught.value)
