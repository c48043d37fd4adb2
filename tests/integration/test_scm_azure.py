"""Delivering a run as an Azure DevOps pull request: ``az repos pr`` (a fake on PATH), a real push.

The remote's URL is an Azure DevOps URL (it chooses the provider and names the repository) while its push
URL is a local bare repository, so the push is real and offline.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.scm import ScmWorld, git, make_world

from alphred.errors import DeliveryError, ScmNotReadyError
from alphred.scm import (
    DeliveryRequest,
    PullRequestExtras,
    deliver_pull_request,
    open_or_update,
    preflight_pull_request,
)
from alphred.scm.checks import look_at_checks

BRANCH = "alphred/fix-issue/3"
AZURE_URL = "https://acme@dev.azure.com/acme/widgets/_git/widgets"
TARGET = [
    "--organization", "https://dev.azure.com/acme", "--project", "widgets",
    "--repository", "widgets", "--detect", "false",
]  # fmt: skip


@pytest.fixture
def world(tmp_path: Path) -> ScmWorld:
    world = make_world(tmp_path)
    git(world.repo, "remote", "set-url", "origin", AZURE_URL, env=world.env)
    git(world.repo, "remote", "set-url", "--push", "origin", str(world.origin), env=world.env)
    return world


def request(world: ScmWorld, **changes: object) -> DeliveryRequest:
    fields: dict[str, object] = {
        "repo_root": world.repo,
        "branch": BRANCH,
        "base": "main",
        "title": "Fix: -the crash",
        "body": "Fixed.\n",
        "draft": True,
        "env": world.env,
    }
    fields.update(changes)
    return DeliveryRequest(**fields)  # type: ignore[arg-type]


def test_opens_an_azure_devops_pull_request_with_az(world: ScmWorld) -> None:
    sha = world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    result = deliver_pull_request(request(world))
    assert result.provider == "azure" and result.created
    assert result.url == "https://dev.azure.com/acme/widgets/_git/widgets/pullrequest/17"
    assert world.remote_sha(BRANCH) == sha
    listed, created, confirmed = world.calls()
    assert confirmed["argv"] == listed["argv"]  # the new PR is confirmed among the branch's active ones
    assert listed["argv"] == [
        "repos", "pr", "list", "--source-branch", BRANCH, "--status", "active", "--output", "json", *TARGET
    ]  # fmt: skip
    assert created["argv"] == [
        "repos", "pr", "create", "--source-branch", BRANCH, "--target-branch", "main",
        "--title=Fix: -the crash", "--description=Fixed.\n", "--output", "json", "--draft", "true", *TARGET,
    ]  # fmt: skip


def test_an_existing_azure_pull_request_is_reported(world: ScmWorld) -> None:
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    result = deliver_pull_request(request(world, env={**world.env, "FAKE_AZ_EXISTING_PR": "9"}))
    assert (result.url, result.created) == ("https://dev.azure.com/acme/widgets/_git/widgets/pullrequest/9", False)
    assert [c["argv"][2] for c in world.calls()] == ["list", "list"]  # found, then confirmed


def test_a_pull_request_az_does_not_list_afterwards_fails_the_delivery(world: ScmWorld) -> None:
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    with pytest.raises(DeliveryError) as caught:
        deliver_pull_request(request(world, env={**world.env, "FAKE_AZ_FORGET": "1"}))
    assert caught.value.kind == "unconfirmed" and caught.value.code == "DELIVERY_FAILED"
    assert "cannot confirm the pull request https://dev.azure.com/acme/widgets/_git/widgets/pullrequest/17" in str(
        caught.value
    )
    assert [c["argv"][2] for c in world.calls()] == ["list", "create", "list"]


def test_a_long_body_is_cut_to_azure_s_limit(world: ScmWorld) -> None:
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    deliver_pull_request(request(world, body="word " * 2000))
    description = next(a for a in world.calls()[-2]["argv"] if a.startswith("--description="))
    assert 3990 <= len(description) - len("--description=") <= 4000 and "characters cut by alphred" in description


def test_preflight_checks_the_extension_and_the_login(world: ScmWorld) -> None:
    assert preflight_pull_request(world.repo, world.env).provider == "azure"
    assert [c["argv"][:2] for c in world.calls()] == [["extension", "show"], ["account", "show"]]
    with pytest.raises(ScmNotReadyError, match="az login"):
        preflight_pull_request(world.repo, {**world.env, "FAKE_AZ_AUTH": "logged_out"})
    with pytest.raises(ScmNotReadyError, match="az extension add --name azure-devops"):
        preflight_pull_request(world.repo, {**world.env, "FAKE_AZ_EXTENSION": "missing"})
    with pytest.raises(ScmNotReadyError, match="not installed or not on PATH"):
        preflight_pull_request(world.repo, world.without_gh())


def test_a_personal_access_token_replaces_the_login(world: ScmWorld) -> None:
    env = {**world.env, "FAKE_AZ_AUTH": "logged_out", "AZURE_DEVOPS_EXT_PAT": "pat-0123456789"}
    assert preflight_pull_request(world.repo, env).provider == "azure"


def test_the_provider_can_be_forced(tmp_path: Path) -> None:
    world = make_world(tmp_path)  # a local-path remote would mean gh
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    result = deliver_pull_request(request(world, provider="azure"))
    assert result.provider == "azure" and world.calls()[-2]["argv"][:3] == ["repos", "pr", "create"]
    assert "--organization" not in world.calls()[-2]["argv"]  # unknown repository: az detects it itself


def test_a_failing_az_fails_the_delivery(world: ScmWorld) -> None:
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    with pytest.raises(DeliveryError) as caught:
        deliver_pull_request(request(world, env={**world.env, "FAKE_AZ_FAIL": "repos pr list"}))
    assert caught.value.kind == "pull_request" and "TF401179" in str(caught.value)


def test_an_unknown_provider_is_refused(world: ScmWorld) -> None:
    with pytest.raises(ScmNotReadyError, match="unknown pull request provider 'bitbucket'"):
        preflight_pull_request(world.repo, world.env, provider="bitbucket")


def test_a_pull_request_phase_updates_the_open_azure_pull_request(world: ScmWorld) -> None:
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    extras = PullRequestExtras(labels=("bot",), reviewers=("alice@acme.test",))
    first = open_or_update(request(world), extras)
    assert (first.url, first.number, first.head, first.created) == (
        "https://dev.azure.com/acme/widgets/_git/widgets/pullrequest/17", 17, BRANCH, True,
    )  # fmt: skip
    again = open_or_update(request(world, title="Fix: v2", body="Second.\n"), extras)
    assert (again.number, again.created) == (17, False)
    creates = [c["argv"] for c in world.calls() if c["argv"][:3] == ["repos", "pr", "create"]]
    assert len(creates) == 1 and "--labels" in creates[0] and "--reviewers" in creates[0]
    (update,) = [c["argv"] for c in world.calls() if c["argv"][:3] == ["repos", "pr", "update"]]
    assert update[:6] == ["repos", "pr", "update", "--id", "17", "--title=Fix: v2"]
    assert "--description=Second.\n" in update and update[-4:] == [
        "--organization", "https://dev.azure.com/acme", "--detect", "false",
    ]  # fmt: skip


def test_ci_reads_the_pull_requests_policy_evaluations(world: ScmWorld, tmp_path: Path) -> None:
    world.commit_on_branch(BRANCH, {"fix.py": "x = 1\n"})
    deliver_pull_request(request(world))
    build = {"type": {"displayName": "Build"}, "settings": {"displayName": "CI build"}, "isBlocking": True}
    optional = {"type": {"displayName": "Comment requirements"}, "isBlocking": False}
    rounds = [
        [{"status": "running", "configuration": build, "context": {"buildId": 5}}],
        [
            {"status": "rejected", "configuration": build, "context": {"buildId": 6}},
            {"status": "queued", "configuration": optional},
        ],
    ]
    policies = tmp_path / "policies.json"
    policies.write_text(json.dumps(rounds))
    env = {**world.env, "FAKE_AZ_POLICIES": str(policies)}
    running = look_at_checks("azure", world.repo, AZURE_URL, env, BRANCH, required_only=True)
    assert running.pending and running.summary() == "1 pending"
    done = look_at_checks("azure", world.repo, AZURE_URL, env, BRANCH, required_only=True)
    assert not done.pending and done.summary() == "1 failed"
    (failed,) = done.failed
    assert (failed.name, failed.url) == ("CI build", "https://dev.azure.com/acme/widgets/_build/results?buildId=6")
    everything = look_at_checks("azure", world.repo, AZURE_URL, env, BRANCH, required_only=False)
    assert everything.pending and everything.summary() == "1 pending, 1 failed"
    (policy_call, *_) = [c["argv"] for c in world.calls() if c["argv"][:4] == ["repos", "pr", "policy", "list"]]
    assert policy_call[:7] == ["repos", "pr", "policy", "list", "--id", "17", "--output"]
