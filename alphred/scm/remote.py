"""Remotes: read a remote's URL, pick the pull-request provider from it, and find the hosted repository.

The rules (SPEC §5, Pull requests): an Azure DevOps URL (``dev.azure.com``, ``*.visualstudio.com``) means
``az``; a GitLab host is named so that the preflight can say it is not supported; anything else, local
paths included, means GitHub through ``gh``. The parsing is pure string work.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from alphred.git.command import REPOSITORY_VARIABLES, run_git
from alphred.git.location import repository_dirs

GITHUB = "github"
AZURE = "azure"
GITLAB = "gitlab"
SUPPORTED_PROVIDERS = (GITHUB, AZURE)
"""The providers ``pull_request.provider`` may name."""

_SCP_LIKE = re.compile(r"^(?:(?P<user>[^@/]+)@)?(?P<host>[^:/]+):(?P<path>.*)$")


@dataclass(frozen=True)
class AzureRepository:
    """An Azure DevOps repository: the organization URL, the project and the repository name."""

    organization_url: str
    project: str
    repository: str


def tool_environment(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` for git, gh and az: without repository overrides, never prompting, without colour."""
    clean = {key: value for key, value in env.items() if key not in REPOSITORY_VARIABLES}
    clean.update({"GIT_TERMINAL_PROMPT": "0", "GH_PROMPT_DISABLED": "1", "GH_NO_UPDATE_NOTIFIER": "1"})
    clean.update({"NO_COLOR": "1", "AZURE_CORE_NO_COLOR": "true", "AZURE_CORE_COLLECT_TELEMETRY": "false"})
    clean.setdefault("PATH", os.defpath)
    return clean


def remote_url(repo_root: Path, remote: str, env: Mapping[str, str]) -> str | None:
    """The URL of ``remote`` in the repository at ``repo_root``; None when there is no such remote."""
    if not remote or remote.startswith("-"):
        return None
    result = run_git(
        ("remote", "get-url", remote),
        repo_root,
        tool_environment(env),
        check=False,
        dirs=repository_dirs(repo_root),
    )
    if result.returncode != 0:
        return None
    return result.stdout.decode("utf-8", "replace").strip() or None


def split_url(url: str) -> tuple[str | None, str]:
    """Split a git URL into ``(host, path)``; the host is None for local paths and ``file://`` URLs."""
    text = url.strip()
    if "://" in text:
        parts = urlsplit(text)
        if parts.scheme == "file":
            return None, unquote(parts.path)
        return (parts.hostname or None), unquote(parts.path)
    scp = _SCP_LIKE.match(text)
    # git's rule: ``host:path`` is scp-like when the colon comes before any slash (and is not ``C:\\``)
    if scp is not None and not re.match(r"^[A-Za-z]:[\\/]", text):
        return scp.group("host").lower(), scp.group("path")
    return None, text


def detect_provider(url: str) -> str:
    """``azure`` for Azure DevOps URLs, ``gitlab`` for GitLab hosts, else ``github`` (local paths too)."""
    host, _ = split_url(url)
    if host is None:
        return GITHUB
    host = host.lower()
    if host == "dev.azure.com" or host.endswith(".dev.azure.com") or host.endswith("visualstudio.com"):
        return AZURE
    if host == "gitlab.com" or host.startswith("gitlab."):
        return GITLAB
    return GITHUB


def github_repository(url: str) -> str | None:
    """``HOST/OWNER/REPO`` for ``gh --repo`` when ``url`` names one hosted repository; None otherwise."""
    host, path = split_url(url)
    if host is None:
        return None
    parts = [p for p in path.strip("/").split("/") if p]
    if len(parts) != 2:
        return None
    owner, name = parts[0], parts[1].removesuffix(".git")
    if not owner or not name:
        return None
    return f"{host.lower()}/{owner}/{name}"


def azure_repository(url: str) -> AzureRepository | None:
    """The organization, project and repository of an Azure DevOps URL (HTTPS or SSH); None if not one."""
    host, path = split_url(url)
    if host is None:
        return None
    host = host.lower()
    parts = [p for p in path.strip("/").split("/") if p]
    if host == "dev.azure.com" and len(parts) == 4 and parts[2] == "_git":
        org, project, repo = parts[0], parts[1], parts[3]
        return AzureRepository(f"https://dev.azure.com/{org}", project, repo)
    if host.endswith("dev.azure.com") or host.startswith("vs-ssh."):  # ssh: v3/ORG/PROJECT/REPO
        if len(parts) == 4 and parts[0] == "v3":
            org, project, repo = parts[1], parts[2], parts[3]
            base = f"https://dev.azure.com/{org}" if "dev.azure.com" in host else f"https://{org}.visualstudio.com"
            return AzureRepository(base, project, repo)
        return None
    if host.endswith(".visualstudio.com"):
        if parts[:1] == ["DefaultCollection"]:
            parts = parts[1:]
        if len(parts) == 3 and parts[1] == "_git":
            return AzureRepository(f"https://{host}", parts[0], parts[2])
    return None
