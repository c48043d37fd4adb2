"""Deliver a completed run: push its branch, then open its pull request (or find the one already open)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from alphred.errors import DeliveryError, ScmNotReadyError
from alphred.git.command import run_git
from alphred.git.location import repository_dirs
from alphred.scm.extras import PullRequestExtras
from alphred.scm.preflight import PullRequestHost, choose_provider, pull_request_host
from alphred.scm.push import push_branch
from alphred.scm.remote import remote_url, tool_environment


@dataclass(frozen=True)
class DeliveryRequest:
    """Everything needed to deliver one run as a pull request."""

    repo_root: Path  # the root of the main working tree (the run's branch is in its refs)
    branch: str  # the run's branch, pushed under the same name
    base: str  # the PR's base branch (see ``pull_request_base``)
    title: str
    body: str
    remote: str = "origin"
    draft: bool = False
    provider: str | None = None  # "github" | "azure"; None: chosen from the remote URL
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))


@dataclass(frozen=True)
class DeliveryResult:
    """The pull request of a delivered run; ``created`` is False when it already existed."""

    url: str
    created: bool
    provider: str


def deliver_pull_request(request: DeliveryRequest) -> DeliveryResult:
    """Push the branch (never forced), open its PR or find the open one, confirm it; raise ``DeliveryError``."""
    push_for(request)
    return open_for(request)


def push_for(request: DeliveryRequest) -> None:
    """Delivery step one: check there is something to deliver and push the branch (safe to repeat)."""
    _provider(request)
    _check_commits(request)
    push_branch(request.repo_root, request.remote, request.branch, request.env)


def open_for(request: DeliveryRequest) -> DeliveryResult:
    """Delivery step two: report the branch's open PR, else open it (so a repeated step opens no second PR),
    then confirm that it exists for the branch (SPEC §9) before the run may complete."""
    provider, host, pr_url, created = _find_or_create(request, None)
    confirmed = host.confirm(request.branch, pr_url)  # SPEC §9: the PR must exist for the branch first
    return DeliveryResult(confirmed, created=created, provider=provider)


@dataclass(frozen=True)
class PhasePullRequest:
    """The pull request a ``type: pull_request`` phase opened or updated (its report, SPEC §16)."""

    url: str
    number: int | None
    head: str
    created: bool

    def report(self) -> dict[str, object]:
        """``{url, number, head}``."""
        return {"url": self.url, "number": self.number, "head": self.head}


def has_commits(request: DeliveryRequest) -> bool:
    """False when the branch has no commit on top of the base (nothing to deliver); else True."""
    try:
        _check_commits(request)
    except DeliveryError as exc:
        if exc.kind == "no_commits":
            return False
        raise
    return True


def open_or_update(request: DeliveryRequest, extra: PullRequestExtras) -> PhasePullRequest:
    """Push the branch, then update its open pull request (title, body, labels, reviewers) or open it.

    Safe to repeat at any point: the push of the same commits changes nothing, and the open pull request of
    the branch is looked up before one is created, so a kill between ``create`` and recording its URL leaves
    one pull request that the next attempt finds and updates.
    """
    push_for(request)
    branch = request.branch
    _, host, pr_url, created = _find_or_create(request, extra)
    if not created:
        host.update(branch, pr_url, request.title, request.body, extra)
    confirmed = host.confirm(branch, pr_url)
    return PhasePullRequest(confirmed, host.number(branch, confirmed), branch, created)


def _find_or_create(
    request: DeliveryRequest, extra: PullRequestExtras | None
) -> tuple[str, PullRequestHost, str, bool]:
    """The provider, its host, and the branch's open pull request (found, else created): ``created`` says which.

    The open pull request is looked up before one is created, so a repeated call opens no second one."""
    url, provider = _provider(request)
    host = pull_request_host(provider, request.repo_root, url, request.env)
    pr_url = host.find_open(request.branch)
    if pr_url is not None:
        return provider, host, pr_url, False
    pr_url, created = host.create(request.branch, request.base, request.title, request.body, request.draft, extra)
    return provider, host, pr_url, created


def _provider(request: DeliveryRequest) -> tuple[str, str]:
    """The remote's URL and the PR provider, or DeliveryError."""
    url = remote_url(request.repo_root, request.remote, request.env)
    if url is None:
        raise DeliveryError(
            "no_remote",
            f"cannot push: the repository has no remote named '{request.remote}' "
            f"(add it with `git remote add {request.remote} URL`, or pass --remote NAME)",
            branch=request.branch,
            remote=request.remote,
        )
    try:
        return url, choose_provider(request.provider, url)
    except ScmNotReadyError as exc:
        raise DeliveryError("pull_request", exc.message, branch=request.branch, remote=request.remote) from None


def _check_commits(request: DeliveryRequest) -> None:
    """Fail early, before pushing, when the branch is missing or has nothing on top of the base."""
    env = tool_environment(request.env)
    dirs = repository_dirs(request.repo_root)
    head = f"refs/heads/{request.branch}"
    if (
        run_git(("rev-parse", "--verify", "--quiet", head), request.repo_root, env, check=False, dirs=dirs).returncode
        != 0
    ):
        raise DeliveryError("push", f"the branch {request.branch} does not exist", branch=request.branch)
    for base in (f"refs/remotes/{request.remote}/{request.base}", f"refs/heads/{request.base}"):
        probe = run_git(("rev-parse", "--verify", "--quiet", base), request.repo_root, env, check=False, dirs=dirs)
        if probe.returncode != 0:
            continue
        counted = run_git(("rev-list", "--count", f"{base}..{head}"), request.repo_root, env, check=False, dirs=dirs)
        if counted.returncode == 0 and counted.stdout.strip() == b"0":
            raise DeliveryError(
                "no_commits",
                f"the branch {request.branch} has no commits on top of {request.base}: "
                "there is nothing to open a pull request for",
                branch=request.branch,
                remote=request.remote,
            )
        return
