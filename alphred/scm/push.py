"""Push a run's branch to a remote: ``git push REMOTE refs/heads/B:refs/heads/B``, never forced.

A branch that already exists on the remote is updated only when the push is a fast-forward (the usual
case when a run is delivered again). When the remote branch has other history, the push is rejected and
the run fails with that reason: Alphred never force-pushes and never overwrites someone else's commits.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from alphred.errors import DeliveryError
from alphred.git.command import run_git
from alphred.git.location import repository_dirs
from alphred.scm.remote import remote_url, tool_environment

_REJECTED = ("[rejected]", "[remote rejected]", "non-fast-forward", "fetch first", "stale info")
_AUTH = (
    "authentication failed",
    "permission denied",
    "could not read username",
    "could not read password",
    "terminal prompts disabled",
    "access denied",
    "the requested url returned error: 403",
    "the requested url returned error: 401",
    "invalid username or password",
    "host key verification failed",
    "write access to repository not granted",
    " denied to ",
)
_UNREACHABLE = ("does not appear to be a git repository", "could not resolve host", "repository not found")


def push_branch(repo_root: Path, remote: str, branch: str, env: Mapping[str, str]) -> None:
    """Push ``branch`` to the branch of the same name on ``remote``; raise ``DeliveryError`` on failure."""
    url = remote_url(repo_root, remote, env)
    if url is None:
        raise DeliveryError(
            "no_remote",
            f"cannot push: the repository has no remote named '{remote}' "
            f"(add it with `git remote add {remote} URL`, or pass --remote NAME)",
            branch=branch,
            remote=remote,
        )
    refspec = f"refs/heads/{branch}:refs/heads/{branch}"
    result = run_git(
        ("push", "--porcelain", remote, refspec),
        repo_root,
        tool_environment(env),
        check=False,
        dirs=repository_dirs(repo_root),
    )
    if result.returncode == 0:
        return
    words = _output(result.stdout, result.stderr)
    kind, explanation = classify_push_failure(words)
    raise DeliveryError(
        kind,
        f"cannot push branch {branch} to {remote} ({url}): {explanation}\n{words}",
        branch=branch,
        remote=remote,
    )


def classify_push_failure(output: str) -> tuple[str, str]:
    """Name a failed push's cause from git's output: ``(kind, explanation)``."""
    lowered = output.lower()
    if any(marker in lowered for marker in _REJECTED):
        if "[remote rejected]" in lowered:
            return "push_rejected", "the remote refused the branch (a hook or a branch protection rule)"
        return (
            "push_rejected",
            "the remote already has this branch with other commits; Alphred never force-pushes "
            "(delete or rename the remote branch, or run again with --branch NAME)",
        )
    if any(marker in lowered for marker in _AUTH):
        return "auth", "authentication failed (check the credentials git uses for this remote, e.g. GH_TOKEN)"
    if any(marker in lowered for marker in _UNREACHABLE):
        return "push", "the remote repository cannot be reached or does not exist"
    return "push", "git push failed"


def _output(stdout: bytes, stderr: bytes) -> str:
    lines = [
        line
        for line in (stderr + b"\n" + stdout).decode("utf-8", "replace").splitlines()
        if line.strip() and line.strip() != "Done" and not line.startswith("hint:")
    ]
    return "\n".join(lines) or "git printed nothing"
