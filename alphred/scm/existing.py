"""A pull request that already exists (SPEC §17): find it, fetch its head branch, push the run's commits to it.

``find_existing`` asks ``gh pr view REF`` (a number or URL) for the pull request's head branch, head commit
and whether it comes from a fork. ``fetch_head`` brings the head branch's commit from the remote (into
``refs/alphred/pr-heads/<branch>``: no local branch is touched). ``push_to_head`` pushes a commit to the
head branch with a plain ``git push`` (never forced: a head that moved meanwhile refuses it), and pushes
nothing when the remote already holds that commit, so a repeated push after a kill is no second push.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from alphred.errors import DeliveryError
from alphred.git.command import run_git
from alphred.git.location import repository_dirs
from alphred.scm.push import classify_push_failure
from alphred.scm.remote import tool_environment
from alphred.scm.tool import run_tool

_REF = re.compile(r"(?:[0-9]{1,9}|https://[^\s]{1,500}/pull/[0-9]{1,9}/?)")
_FIELDS = "number,url,headRefName,headRefOid,isCrossRepository,state"


@dataclass(frozen=True)
class ExistingPullRequest:
    """An open pull request the run works on."""

    url: str
    number: int
    head: str  # its head branch
    head_sha: str  # the head branch's commit on the remote
    fork: bool  # its head branch lives in another repository


def find_existing(repo_root: Path, ref: str, env: Mapping[str, str]) -> ExistingPullRequest:
    """The open pull request ``ref`` (a number or a URL); DeliveryError when it is none of those or not open."""
    wanted = ref.strip().lstrip("#")
    if not _REF.fullmatch(wanted):
        raise DeliveryError("pull_request", f"existing: {ref[:80]!r} is not a pull request number or URL", branch="")
    result = run_tool(["gh", "pr", "view", wanted, "--json", _FIELDS], repo_root, env)
    if not result.ok:
        raise DeliveryError("pull_request", f"cannot find pull request {wanted}: {result.words[:500]}", branch="")
    try:
        found = json.loads(result.stdout)
        pull = ExistingPullRequest(
            str(found["url"]),
            int(found["number"]),
            str(found["headRefName"]),
            str(found.get("headRefOid") or ""),
            bool(found.get("isCrossRepository")),
        )
    except (ValueError, KeyError, TypeError):
        raise DeliveryError(
            "pull_request", f"gh pr view {wanted} answered {result.stdout[:200]!r}", branch=""
        ) from None
    if str(found.get("state", "OPEN")).upper() != "OPEN":
        state = str(found.get("state")).lower()
        raise DeliveryError("pull_request", f"pull request {pull.url} is {state}, not open", branch=pull.head)
    return pull


def fetch_head(repo_root: Path, remote: str, branch: str, env: Mapping[str, str]) -> str:
    """Fetch the pull request's head branch from ``remote``; return its commit."""
    local = f"refs/alphred/pr-heads/{branch}"
    result = run_git(
        ("fetch", "--no-tags", "--quiet", remote, f"+refs/heads/{branch}:{local}"),
        repo_root,
        tool_environment(env),
        check=False,
        dirs=repository_dirs(repo_root),
    )
    if result.returncode != 0:
        words = (result.stderr or b"").decode("utf-8", "replace").strip()
        raise DeliveryError("push", f"cannot fetch {branch} from {remote}: {words[:500]}", branch=branch, remote=remote)
    sha = run_git(("rev-parse", local), repo_root, tool_environment(env), dirs=repository_dirs(repo_root))
    return sha.stdout.decode().strip()


def push_to_head(repo_root: Path, remote: str, sha: str, branch: str, env: Mapping[str, str]) -> bool:
    """Push commit ``sha`` to ``branch`` on ``remote`` (never forced); False when the remote already holds it."""
    listed = run_git(
        ("ls-remote", "--heads", remote, f"refs/heads/{branch}"),
        repo_root,
        tool_environment(env),
        check=False,
        dirs=repository_dirs(repo_root),
    )
    if listed.returncode == 0 and listed.stdout.decode().split()[:1] == [sha]:
        return False
    result = run_git(
        ("push", "--porcelain", remote, f"{sha}:refs/heads/{branch}"),
        repo_root,
        tool_environment(env),
        check=False,
        dirs=repository_dirs(repo_root),
    )
    if result.returncode != 0:
        words = ((result.stdout or b"") + (result.stderr or b"")).decode("utf-8", "replace").strip()
        kind, explanation = classify_push_failure(words)
        raise DeliveryError(kind, f"cannot push to {branch} on {remote}: {explanation}\n{words}", branch=branch)
    return True
