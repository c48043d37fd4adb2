"""Before a run that will open a pull request starts: the remote, the base and the provider's CLI and login.

Everything here raises ``ScmNotReadyError`` (exit 2) with the fix, so that a run never does its work only
to find at the end that it cannot deliver it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from alphred.errors import ScmNotReadyError
from alphred.scm.azure import AzurePullRequests
from alphred.scm.extras import PullRequestExtras
from alphred.scm.github import GitHubPullRequests
from alphred.scm.remote import AZURE, GITHUB, GITLAB, SUPPORTED_PROVIDERS, detect_provider, remote_url


class PullRequestHost(Protocol):
    """A pull request provider (``gh`` or ``az``) bound to one repository and remote."""

    name: str

    def check(self) -> None:
        """Raise ScmNotReadyError when the CLI is missing or not logged in."""
        ...

    def find_open(self, branch: str) -> str | None:
        """The URL of the open pull request of ``branch``, or None."""
        ...

    def create(
        self, branch: str, base: str, title: str, body: str, draft: bool, extra: PullRequestExtras | None = None
    ) -> tuple[str, bool]:
        """Open the pull request: ``(url, created)``."""
        ...

    def update(self, branch: str, url: str, title: str, body: str, extra: PullRequestExtras) -> None:
        """Refresh the title and body of the open pull request ``url`` of ``branch``."""
        ...

    def number(self, branch: str, url: str) -> int | None:
        """The number of the pull request ``url``."""
        ...

    def confirm(self, branch: str, url: str) -> str:
        """Check that the pull request ``url`` exists for ``branch``; its URL, else DeliveryError (``unconfirmed``)."""
        ...


@dataclass(frozen=True)
class ScmTarget:
    """Where a run's pull request goes: the remote, its URL and the provider."""

    remote: str
    url: str
    provider: str  # "github" | "azure"


def choose_provider(override: str | None, url: str) -> str:
    """``pull_request.provider`` when given, else the provider the remote URL points at."""
    if override:
        if override not in SUPPORTED_PROVIDERS:
            raise ScmNotReadyError(
                f"unknown pull request provider '{override}'", f"use one of {', '.join(SUPPORTED_PROVIDERS)}"
            )
        return override
    detected = detect_provider(url)
    if detected == GITLAB:
        raise ScmNotReadyError(
            f"the remote {url} is on GitLab, for which Alphred cannot open merge requests",
            "pass --no-pr and open the merge request with `git push -o merge_request.create` (see docs/ci.md), "
            "or set pull_request.provider: github if the remote is a GitHub server",
        )
    return detected


def pull_request_host(provider: str, repo_root: Path, url: str, env: Mapping[str, str]) -> PullRequestHost:
    """The ``gh`` or ``az`` adapter for ``provider``."""
    if provider == AZURE:
        return AzurePullRequests(repo_root, url, env)
    if provider == GITHUB:
        return GitHubPullRequests(repo_root, url, env)
    listed = ", ".join(SUPPORTED_PROVIDERS)
    raise ScmNotReadyError(f"unknown pull request provider '{provider}'", f"use one of {listed}")


def pull_request_base(configured: str | None, run_base_ref: str | None, remote: str = "origin") -> str:
    """The PR's base branch: ``pull_request.base`` if set, else the branch the run started from."""
    if configured and configured.strip():
        return configured.strip()
    if run_base_ref:
        return run_base_ref.removeprefix(f"{remote}/")
    raise ScmNotReadyError(
        "the run does not start from a branch, so the pull request has no base branch",
        "set `base:` in the workflow's pull_request block, or start the run from a branch (--base BRANCH)",
    )


def preflight_pull_request(
    repo_root: Path, env: Mapping[str, str], *, remote: str = "origin", provider: str | None = None
) -> ScmTarget:
    """Check that a pull request can be opened from ``repo_root`` through ``remote``; raise ScmNotReadyError."""
    url = remote_url(repo_root, remote, env)
    if url is None:
        raise ScmNotReadyError(
            f"the repository {repo_root} has no remote named '{remote}' to push the run's branch to",
            f"add it with `git remote add {remote} URL`, pass --remote NAME, or pass --no-pr",
        )
    chosen = choose_provider(provider, url)
    pull_request_host(chosen, repo_root, url, env).check()
    return ScmTarget(remote, url, chosen)
