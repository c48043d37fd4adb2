"""GitHub pull requests through the ``gh`` command line.

``gh pr create --head BRANCH --base BASE --title T --body-file F [--draft]``, run in the repository; when
the remote URL names a hosted repository, ``--repo HOST/OWNER/REPO`` points ``gh`` at it (so ``--remote``
other than ``origin`` works), otherwise ``gh`` picks the repository from the git remotes itself.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path

from alphred.errors import DeliveryError, ScmNotReadyError
from alphred.scm.body import GITHUB_BODY_LIMIT, cut_text
from alphred.scm.extras import PullRequestExtras
from alphred.scm.remote import github_repository, split_url
from alphred.scm.tool import ToolResult, run_tool

_URL = re.compile(r"https?://\S+")
_INSTALL_FIX = "install the GitHub CLI (https://cli.github.com), then `gh auth login` or set GH_TOKEN; or pass --no-pr"


class GitHubPullRequests:
    """Open or find the pull request of a branch on GitHub with ``gh``."""

    name = "github"

    def __init__(self, repo_root: Path, remote_url: str, env: Mapping[str, str]) -> None:
        self.repo_root = repo_root
        self.env = env
        self.repository = github_repository(remote_url)
        host, _ = split_url(remote_url)
        self.host = host if self.repository is not None else None

    def check(self) -> None:
        """Preflight: ``gh`` is on PATH and ``gh auth status`` succeeds, else ``ScmNotReadyError``."""
        args = ["gh", "auth", "status"]
        if self.host:
            args += ["--hostname", self.host]
        result = run_tool(args, self.repo_root, self.env, timeout=60)
        if result.problem == "missing":
            raise ScmNotReadyError("gh (the GitHub CLI) is not installed or not on PATH", _INSTALL_FIX)
        if not result.ok:
            where = f" to {self.host}" if self.host else ""
            raise ScmNotReadyError(
                f"gh is not logged in{where} ({_first_line(result.words)})",
                "run `gh auth login` (or set GH_TOKEN, e.g. to ${{ github.token }} in Actions); or pass --no-pr",
            )

    def find_open(self, branch: str) -> str | None:
        """The URL of the open pull request whose head is ``branch``, or None."""
        args = ["gh", "pr", "list", "--head", branch, "--state", "open", "--json", "url", "--limit", "1"]
        result = self._gh(args, branch, "look for an existing pull request")
        try:
            listed = json.loads(result.stdout or "[]")
        except ValueError:
            raise self._failure(branch, "look for an existing pull request", result, "unreadable output") from None
        if isinstance(listed, list) and listed and isinstance(listed[0], dict) and listed[0].get("url"):
            return str(listed[0]["url"])
        return None

    def confirm(self, branch: str, url: str) -> str:
        """Check that a pull request for ``branch`` exists (``gh pr view BRANCH``); its URL, else DeliveryError."""
        args = ["gh", "pr", "view", branch, "--json", "url,state,headRefName"]
        result = self._run(args)
        if not result.ok:
            raise _unconfirmed(branch, url, f"`gh pr view {branch}` found none: {_first_line(result.words)}")
        try:
            found = json.loads(result.stdout)
        except ValueError:
            found = None
        if not isinstance(found, dict) or not isinstance(found.get("url"), str):
            raise _unconfirmed(branch, url, f"`gh pr view {branch}` answered {_first_line(result.stdout)}")
        if found.get("headRefName") != branch:
            raise _unconfirmed(branch, url, f"the pull request gh found has head {found.get('headRefName')!r}")
        if found.get("state") not in ("OPEN", "MERGED"):
            raise _unconfirmed(branch, url, f"the pull request {found['url']} is {found.get('state')}")
        return str(found["url"])

    def number(self, branch: str, url: str) -> int | None:
        """The number of the pull request at ``url`` (its last path segment on GitHub)."""
        tail = url.rstrip("/").rsplit("/", 1)[-1]
        return int(tail) if tail.isdigit() else None

    def update(self, branch: str, url: str, title: str, body: str, extra: PullRequestExtras) -> None:
        """Refresh the title and body of the open pull request of ``branch`` (and add labels/reviewers)."""
        with tempfile.TemporaryDirectory(prefix="alphred-pr-") as scratch:
            body_file = Path(scratch) / "body.md"
            body_file.write_text(cut_text(body, GITHUB_BODY_LIMIT), encoding="utf-8")
            args = ["gh", "pr", "edit", url, f"--title={title}", "--body-file", str(body_file)]
            args += [f"--add-label={label}" for label in extra.labels]
            args += [f"--add-reviewer={name}" for name in extra.reviewers]
            self._gh(args, branch, "update the pull request")

    def create(
        self, branch: str, base: str, title: str, body: str, draft: bool, extra: PullRequestExtras | None = None
    ) -> tuple[str, bool]:
        """Open the pull request; ``(url, True)``, or ``(url, False)`` when one already existed."""
        with tempfile.TemporaryDirectory(prefix="alphred-pr-") as scratch:
            body_file = Path(scratch) / "body.md"
            body_file.write_text(cut_text(body, GITHUB_BODY_LIMIT), encoding="utf-8")
            args = ["gh", "pr", "create", "--head", branch, "--base", base, f"--title={title}"]
            args += ["--body-file", str(body_file)]
            if draft:
                args.append("--draft")
            if extra is not None:
                args += [f"--label={label}" for label in extra.labels]
                args += [f"--reviewer={name}" for name in extra.reviewers]
            result = self._run(args)
        if result.ok:
            urls = _URL.findall(result.stdout)
            if urls:
                return urls[-1], True
            raise self._failure(branch, "open the pull request", result, "gh printed no pull request URL")
        if "already exists" in result.words:
            urls = _URL.findall(result.words)
            if urls:
                return urls[-1], False
        raise self._failure(branch, "open the pull request", result)

    def _gh(self, args: list[str], branch: str, action: str) -> ToolResult:
        result = self._run(args)
        if not result.ok:
            raise self._failure(branch, action, result)
        return result

    def _run(self, args: list[str]) -> ToolResult:
        if self.repository is not None:
            args = [*args, "--repo", self.repository]
        return run_tool(args, self.repo_root, self.env)

    def _failure(self, branch: str, action: str, result: ToolResult, why: str | None = None) -> DeliveryError:
        if result.problem == "missing":
            detail = f"cannot {action}: gh is not installed or not on PATH ({_INSTALL_FIX})"
        else:
            detail = f"cannot {action} with gh: {why or 'gh failed'}\n{result.words}"
        return DeliveryError("pull_request", detail, branch=branch)


def _unconfirmed(branch: str, url: str, why: str) -> DeliveryError:
    return DeliveryError("unconfirmed", f"cannot confirm the pull request {url} for the branch: {why}", branch=branch)


def _first_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return "; ".join(lines[:2]) if lines else "no output"
