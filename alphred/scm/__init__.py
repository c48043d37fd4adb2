"""Pull requests through ``gh`` (GitHub) and ``az`` (Azure DevOps): preflight, push, open or find, body."""

from alphred.scm.body import build_pr_body, default_pr_title, run_summary_markdown
from alphred.scm.preflight import ScmTarget, choose_provider, preflight_pull_request, pull_request_base
from alphred.scm.publish import DeliveryRequest, DeliveryResult, deliver_pull_request, open_for, push_for
from alphred.scm.push import push_branch
from alphred.scm.remote import AZURE, GITHUB, SUPPORTED_PROVIDERS, detect_provider, remote_url

__all__ = [
    "AZURE",
    "GITHUB",
    "SUPPORTED_PROVIDERS",
    "DeliveryRequest",
    "DeliveryResult",
    "ScmTarget",
    "build_pr_body",
    "choose_provider",
    "default_pr_title",
    "deliver_pull_request",
    "detect_provider",
    "open_for",
    "preflight_pull_request",
    "pull_request_base",
    "push_branch",
    "push_for",
    "remote_url",
    "run_summary_markdown",
]
