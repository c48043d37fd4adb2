"""Pull requests through ``gh`` (GitHub) and ``az`` (Azure DevOps): preflight, push, open or find, body."""

from alphred.scm.body import build_pr_body, default_pr_title, run_summary_markdown
from alphred.scm.extras import PullRequestExtras
from alphred.scm.preflight import ScmTarget, choose_provider, preflight_pull_request, pull_request_base
from alphred.scm.publish import (
    DeliveryRequest,
    DeliveryResult,
    PhasePullRequest,
    deliver_pull_request,
    has_commits,
    open_for,
    open_or_update,
    push_for,
)
from alphred.scm.push import push_branch
from alphred.scm.remote import AZURE, GITHUB, SUPPORTED_PROVIDERS, detect_provider, remote_url

__all__ = [
    "AZURE",
    "GITHUB",
    "SUPPORTED_PROVIDERS",
    "DeliveryRequest",
    "DeliveryResult",
    "PhasePullRequest",
    "PullRequestExtras",
    "ScmTarget",
    "build_pr_body",
    "choose_provider",
    "default_pr_title",
    "deliver_pull_request",
    "detect_provider",
    "has_commits",
    "open_for",
    "open_or_update",
    "preflight_pull_request",
    "pull_request_base",
    "push_branch",
    "push_for",
    "remote_url",
    "run_summary_markdown",
]
