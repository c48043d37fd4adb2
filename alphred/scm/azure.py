"""Azure DevOps pull requests through ``az repos pr`` (the ``azure-devops`` extension of the Azure CLI).

The organization, project and repository come from the remote URL when it is an Azure DevOps URL (so the
right repository is used whatever the CLI's defaults); otherwise ``az`` detects them from the checkout.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from alphred.errors import DeliveryError, ScmNotReadyError
from alphred.scm.body import cut_text
from alphred.scm.extras import PullRequestExtras
from alphred.scm.remote import azure_repository
from alphred.scm.tool import ToolResult, run_tool

AZURE_BODY_LIMIT = 4000  # Azure DevOps rejects longer pull request descriptions
_PAT_VARIABLE = "AZURE_DEVOPS_EXT_PAT"
_INSTALL_FIX = (
    "install the Azure CLI (https://aka.ms/azcli) and `az extension add --name azure-devops`, then `az login` "
    f"or set {_PAT_VARIABLE}; or pass --no-pr"
)


class AzurePullRequests:
    """Open or find the pull request of a branch on Azure DevOps with ``az repos pr``."""

    name = "azure"

    def __init__(self, repo_root: Path, remote_url: str, env: Mapping[str, str]) -> None:
        self.repo_root = repo_root
        self.env = env
        self.target = azure_repository(remote_url)

    def check(self) -> None:
        """Preflight: ``az`` with the ``azure-devops`` extension, logged in (or a PAT), else ScmNotReadyError."""
        extension = run_tool(["az", "extension", "show", "--name", "azure-devops", "--output", "none"], *self._at())
        if extension.problem == "missing":
            raise ScmNotReadyError("az (the Azure CLI) is not installed or not on PATH", _INSTALL_FIX)
        if not extension.ok:
            raise ScmNotReadyError(
                "the azure-devops extension of the Azure CLI is not installed",
                "run `az extension add --name azure-devops`; or pass --no-pr",
            )
        if self.env.get(_PAT_VARIABLE):
            return
        account = run_tool(["az", "account", "show", "--output", "none"], *self._at())
        if not account.ok:
            raise ScmNotReadyError(
                f"az is not logged in ({account.words.splitlines()[0]})",
                f"run `az login` or set {_PAT_VARIABLE} to a personal access token; or pass --no-pr",
            )

    def find_open(self, branch: str) -> str | None:
        """The URL of the active pull request from ``branch``, or None."""
        listed = self._active(branch, "look for an existing pull request")
        return listed[0] if listed else None

    def confirm(self, branch: str, url: str) -> str:
        """Check that ``url`` is among the active pull requests from ``branch`` (``az repos pr list``)."""
        listed = self._active(branch, "confirm the pull request")
        if url in listed:
            return url
        found = f"only {', '.join(listed)}" if listed else "none"
        detail = f"cannot confirm the pull request {url}: az lists {found} for the branch"
        raise DeliveryError("unconfirmed", detail, branch=branch)

    def _active(self, branch: str, action: str) -> list[str]:
        args = ["az", "repos", "pr", "list", "--source-branch", branch, "--status", "active", "--output", "json"]
        result = self._run(args)
        if not result.ok:
            raise self._failure(branch, action, result)
        try:
            listed = json.loads(result.stdout or "[]")
        except ValueError:
            raise self._failure(branch, action, result) from None
        urls = [self._url(pr) for pr in listed if isinstance(pr, dict)] if isinstance(listed, list) else []
        return [url for url in urls if url is not None]

    def number(self, branch: str, url: str) -> int | None:
        """The pull request id at the end of ``url`` (``.../pullrequest/N``)."""
        tail = url.rstrip("/").rsplit("/", 1)[-1]
        return int(tail) if tail.isdigit() else None

    def update(self, branch: str, url: str, title: str, body: str, extra: PullRequestExtras) -> None:
        """Refresh the title and description of the pull request at ``url`` (``az repos pr update``)."""
        number = self.number(branch, url)
        if number is None:
            raise DeliveryError("pull_request", f"cannot read the pull request id of {url}", branch=branch)
        args = ["az", "repos", "pr", "update", "--id", str(number), f"--title={title}"]
        args += [f"--description={cut_text(body, AZURE_BODY_LIMIT)}", "--output", "json"]
        result = self.run_by_id(args)
        if not result.ok:
            raise self._failure(branch, "update the pull request", result)
        if extra.reviewers:
            args = ["az", "repos", "pr", "reviewer", "add", "--id", str(number), "--reviewers", *extra.reviewers]
            added = self.run_by_id([*args, "--output", "none"])
            if not added.ok:
                raise self._failure(branch, "add reviewers", added)

    def create(
        self, branch: str, base: str, title: str, body: str, draft: bool, extra: PullRequestExtras | None = None
    ) -> tuple[str, bool]:
        """Open the pull request; ``(url, True)``, or ``(url, False)`` when one already existed."""
        args = ["az", "repos", "pr", "create", "--source-branch", branch, "--target-branch", base]
        args += [f"--title={title}", f"--description={cut_text(body, AZURE_BODY_LIMIT)}", "--output", "json"]
        if draft:
            args += ["--draft", "true"]
        if extra is not None and extra.labels:
            args += ["--labels", *extra.labels]
        if extra is not None and extra.reviewers:
            args += ["--reviewers", *extra.reviewers]
        result = self._run(args)
        if not result.ok:
            if "already exists" in result.words.lower():
                existing = self.find_open(branch)
                if existing is not None:
                    return existing, False
            raise self._failure(branch, "open the pull request", result)
        try:
            created = json.loads(result.stdout)
        except ValueError:
            raise self._failure(branch, "open the pull request", result) from None
        url = self._url(created) if isinstance(created, dict) else None
        if url is None:
            raise self._failure(branch, "open the pull request", result)
        return url, True

    def _at(self) -> tuple[Path, Mapping[str, str]]:
        return self.repo_root, self.env

    def _run(self, args: list[str]) -> ToolResult:
        if self.target is not None:
            t = self.target
            args = [*args, "--organization", t.organization_url, "--project", t.project]
            args += ["--repository", t.repository, "--detect", "false"]
        return run_tool(args, self.repo_root, self.env)

    def build_url(self, build_id: int) -> str:
        """The web page of an Azure Pipelines build of this repository's project ('' when unknown)."""
        if self.target is None:
            return ""
        return f"{self.target.organization_url}/{quote(self.target.project)}/_build/results?buildId={build_id}"

    def run_by_id(self, args: list[str]) -> ToolResult:
        """``az repos pr`` commands addressed by id take the organization only (no project or repository)."""
        if self.target is not None:
            args = [*args, "--organization", self.target.organization_url, "--detect", "false"]
        return run_tool(args, self.repo_root, self.env)

    def _url(self, pr: Mapping[str, Any]) -> str | None:
        number = pr.get("pullRequestId")
        if number is None:
            return None
        repository = pr.get("repository") if isinstance(pr.get("repository"), dict) else {}
        web = repository.get("webUrl") if isinstance(repository, dict) else None
        if not web and self.target is not None:
            t = self.target
            web = f"{t.organization_url}/{quote(t.project)}/_git/{quote(t.repository)}"
        return f"{web}/pullrequest/{number}" if web else None

    def _failure(self, branch: str, action: str, result: ToolResult) -> DeliveryError:
        if result.problem == "missing":
            detail = f"cannot {action}: az is not installed or not on PATH ({_INSTALL_FIX})"
        else:
            detail = f"cannot {action} with az: {result.words}"
        return DeliveryError("pull_request", detail, branch=branch)
