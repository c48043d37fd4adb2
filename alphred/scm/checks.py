"""The checks of a pull request (SPEC §16): ``gh pr checks --json`` on GitHub, the pull request's policy
evaluations (``az repos pr policy list``) on Azure DevOps, and the tail of a failed GitHub Actions job's log
(``gh run view RUN --log-failed``)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alphred.errors import DeliveryError
from alphred.scm.azure import AzurePullRequests
from alphred.scm.github import GitHubPullRequests
from alphred.scm.remote import AZURE
from alphred.scm.tool import ToolResult, run_tool

PASS, FAIL, PENDING, SKIPPING, CANCEL = "pass", "fail", "pending", "skipping", "cancel"
LOG_TAIL_CHARS = 4000  # of one failed check's log
MAX_LOGS = 5  # failed checks whose logs are fetched (the others are listed without)
_ACTIONS_RUN = re.compile(r"/actions/runs/(\d+)(?:/job/(\d+))?")
_AZURE_BUCKETS = {
    "approved": PASS,
    "notApplicable": SKIPPING,
    "rejected": FAIL,
    "broken": FAIL,
    "running": PENDING,
    "queued": PENDING,
}


@dataclass(frozen=True)
class PullRequestCheck:
    """One check of the pull request: its name, bucket (pass, fail, pending, skipping, cancel) and link."""

    name: str
    bucket: str
    url: str

    @property
    def failed(self) -> bool:
        """A failed or cancelled check."""
        return self.bucket in (FAIL, CANCEL)


@dataclass(frozen=True)
class ChecksLook:
    """What one look at the pull request's checks found (``found``: False when none is reported yet)."""

    checks: tuple[PullRequestCheck, ...]

    @property
    def pending(self) -> bool:
        """Some check has not finished (or none is reported yet)."""
        return not self.checks or any(check.bucket == PENDING for check in self.checks)

    @property
    def failed(self) -> list[PullRequestCheck]:
        """The failed and cancelled checks."""
        return [check for check in self.checks if check.failed]

    def summary(self) -> str:
        """``2 passed, 1 pending, 1 failed`` (``no checks reported yet``)."""
        if not self.checks:
            return "no checks reported yet"
        counts: dict[str, int] = {}
        for check in self.checks:
            counts[check.bucket] = counts.get(check.bucket, 0) + 1
        words = {PASS: "passed", FAIL: "failed", PENDING: "pending", SKIPPING: "skipped", CANCEL: "cancelled"}
        return ", ".join(f"{counts[b]} {words[b]}" for b in (PASS, PENDING, FAIL, CANCEL, SKIPPING) if b in counts)


def look_at_checks(
    provider: str,
    repo_root: Path,
    remote_url: str,
    env: Mapping[str, str],
    branch: str,
    *,
    required_only: bool,
    pull: str | None = None,
) -> ChecksLook:
    """The checks of the open pull request of ``branch`` now (on GitHub, of the pull request at URL ``pull``
    when given: a fork's head branch name is no unique selector); DeliveryError when the tool fails."""
    if provider == AZURE:
        return _azure_checks(AzurePullRequests(repo_root, remote_url, env), branch, required_only)
    host = GitHubPullRequests(repo_root, remote_url, env)
    args = ["gh", "pr", "checks", pull or branch, "--json", "name,state,bucket,link,workflow"]
    if required_only:
        args.append("--required")
    result = _gh(host, args)
    listed = _json(result.stdout)
    if not isinstance(listed, list):  # exit 1 with "no checks reported", or a real failure
        if "no checks reported" in result.words or "no required checks reported" in result.words:
            return ChecksLook(())
        raise _failure(branch, "read the pull request's checks", result)
    checks = [_github_check(item) for item in listed if isinstance(item, dict)]
    return ChecksLook(tuple(checks))


def failed_log_tail(repo_root: Path, remote_url: str, env: Mapping[str, str], check: PullRequestCheck) -> str:
    """The last LOG_TAIL_CHARS of a failed GitHub Actions check's log, or '' (not an Actions run, no log)."""
    found = _ACTIONS_RUN.search(check.url)
    if found is None:
        return ""
    host = GitHubPullRequests(repo_root, remote_url, env)
    args = ["gh", "run", "view", found.group(1), "--log-failed"]
    if found.group(2):
        args += ["--job", found.group(2)]
    result = _gh(host, args)
    if not result.ok:
        return ""
    text = result.stdout.rstrip("\n")
    return text if len(text) <= LOG_TAIL_CHARS else "…" + text[-(LOG_TAIL_CHARS - 1) :]


def _gh(host: GitHubPullRequests, args: list[str]) -> ToolResult:
    if host.repository is not None:
        args = [*args, "--repo", host.repository]
    return run_tool(args, host.repo_root, host.env)


def _github_check(item: Mapping[str, Any]) -> PullRequestCheck:
    name = str(item.get("name") or "check")
    workflow = item.get("workflow")
    if isinstance(workflow, str) and workflow and workflow != name:
        name = f"{workflow} / {name}"
    bucket = str(item.get("bucket") or PENDING).lower()
    return PullRequestCheck(name, bucket if bucket in _BUCKETS else PENDING, str(item.get("link") or ""))


_BUCKETS = (PASS, FAIL, PENDING, SKIPPING, CANCEL)


def _azure_checks(host: AzurePullRequests, branch: str, required_only: bool) -> ChecksLook:
    url = host.find_open(branch)
    number = host.number(branch, url) if url is not None else None
    if number is None:
        raise DeliveryError("pull_request", f"no active pull request of {branch} to wait for", branch=branch)
    args = ["az", "repos", "pr", "policy", "list", "--id", str(number), "--output", "json"]
    result = host.run_by_id(args)
    listed = _json(result.stdout) if result.ok else None
    if not isinstance(listed, list):
        raise _failure(branch, "read the pull request's policy evaluations", result)
    checks = []
    for item in listed:
        if not isinstance(item, dict):
            continue
        configuration = _mapping(item.get("configuration"))
        if required_only and configuration.get("isBlocking") is False:
            continue
        settings, kind = _mapping(configuration.get("settings")), _mapping(configuration.get("type"))
        name = str(settings.get("displayName") or kind.get("displayName") or "policy")
        build = _mapping(item.get("context")).get("buildId")
        link = host.build_url(build) if isinstance(build, int) else ""
        checks.append(PullRequestCheck(name, _AZURE_BUCKETS.get(str(item.get("status")), PENDING), link))
    return ChecksLook(tuple(checks))


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _json(text: str) -> Any:
    try:
        return json.loads(text or "null")
    except ValueError:
        return None


def _failure(branch: str, action: str, result: ToolResult) -> DeliveryError:
    return DeliveryError("pull_request", f"cannot {action}: {result.words}", branch=branch)
