"""The branch name of a new run, as the command line decides it: precedence, CI ids, ``{issue-id}``."""

from __future__ import annotations

import re


def run_branch_template(
    branch: str | None, repo_template: str | None, environ: dict[str, str], inputs: dict[str, str]
) -> str:
    """The branch template of a new run, with ``{issue-id}`` filled in from the inputs.

    Precedence: ``--branch``, the repository's template, ``ALPHRED_BRANCH_TEMPLATE``, then (in CI, with
    ``GITHUB_RUN_ID`` or ``CI_JOB_ID`` set) ``alphred/{tree-key}/{run-id}-<ci id>`` so that two jobs, each
    with a fresh database, never pick the same name; else ``alphred/{tree-key}/{run-id}``.
    """
    from alphred.git import choose_branch_template
    from alphred.git.branch_names import BRANCH_TEMPLATE_ENV

    fallback = None if (environ.get(BRANCH_TEMPLATE_ENV) or "").strip() else ci_branch_template(environ)
    template = choose_branch_template(branch, repo_template or fallback, environ)
    issue = issue_id(inputs)
    return template.replace("{issue-id}", issue) if issue else template


def ci_branch_template(environ: dict[str, str]) -> str | None:
    """The default branch template in CI: the CI run's id keeps jobs with fresh databases apart."""
    github = environ.get("GITHUB_RUN_ID", "").strip()
    if github:
        attempt = environ.get("GITHUB_RUN_ATTEMPT", "").strip()
        suffix = f"-{attempt}" if attempt and attempt != "1" else ""
        return f"alphred/{{tree-key}}/{{run-id}}-gh{github}{suffix}"
    gitlab = environ.get("CI_JOB_ID", "").strip()
    if gitlab:
        return f"alphred/{{tree-key}}/{{run-id}}-ci{gitlab}"
    return None


def issue_id(inputs: dict[str, str]) -> str:
    """``{issue-id}`` of a branch template: the input ``issue_id``, else ``issue``, when it is a number
    (``#12`` and an issue URL ending in ``/12`` count); "" otherwise."""
    for name in ("issue_id", "issue"):
        value = str(inputs.get(name, "")).strip()
        match = re.fullmatch(r"#?(\d+)|\S*/issues/(\d+)/?", value)
        if match:
            return match.group(1) or match.group(2)
    return ""
