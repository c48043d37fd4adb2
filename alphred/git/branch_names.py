"""Branch names for runs (SPEC §5, Git): choose a template, render its tokens, sanitise into a valid ref.

Pure string work, no git process: every name Alphred gives ``git`` (explicit ``--branch`` names too) goes
through ``sanitize_branch_name``, whose output ``git check-ref-format --branch`` accepts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from datetime import UTC, datetime

DEFAULT_BRANCH_TEMPLATE = "alphred/{tree-key}/{run-id}"
BRANCH_TEMPLATE_ENV = "ALPHRED_BRANCH_TEMPLATE"
FALLBACK_BRANCH = "alphred/run"
BRANCH_TOKENS = ("tree-key", "run-id", "node-key", "issue-id", "timestamp", "short-hash", "date")

_MAX_COMPONENT = 100  # characters per path component (file systems allow 255 bytes for a loose ref)
_MAX_LENGTH = 200
_TOKEN = re.compile(r"\{([A-Za-z0-9_-]+)\}")
_DISALLOWED = re.compile(r"[^A-Za-z0-9._/-]+")
_DOTS = re.compile(r"\.{2,}")
_DASHES = re.compile(r"-{2,}")


def choose_branch_template(explicit_branch: str | None, repo_template: str | None, env: Mapping[str, str]) -> str:
    """Pick the branch template: ``--branch``, the repository's, ``ALPHRED_BRANCH_TEMPLATE``, the default."""
    for candidate in (explicit_branch, repo_template, env.get(BRANCH_TEMPLATE_ENV)):
        if candidate is not None and candidate.strip():
            return candidate.strip()
    return DEFAULT_BRANCH_TEMPLATE


def branch_tokens(
    *,
    tree_key: str,
    run_id: int,
    base_sha: str = "",
    node_key: str = "",
    issue_id: str = "",
    now: datetime | None = None,
) -> dict[str, str]:
    """Build the token values of a branch template; ``{timestamp}`` and ``{date}`` are in UTC."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return {
        "tree-key": tree_key,
        "run-id": str(run_id),
        "node-key": node_key,
        "issue-id": issue_id,
        "timestamp": moment.strftime("%Y%m%d-%H%M%S"),
        "short-hash": base_sha[:7],
        "date": moment.strftime("%Y-%m-%d"),
    }


def render_branch_name(template: str, tokens: Mapping[str, str]) -> str:
    """Fill ``{token}`` placeholders and sanitise the result into a valid branch name.

    A known token without a value disappears (then the sanitiser tidies the separators around it); an
    unknown ``{word}`` stays as ``word``, so a typo in a template shows in the branch name instead of
    vanishing. A ``/`` inside a token value becomes ``-``: only the template decides the hierarchy.
    """

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in tokens:
            return tokens[name].replace("/", "-")
        if name in BRANCH_TOKENS:
            return ""
        return match.group(0)

    return sanitize_branch_name(_TOKEN.sub(replace, template))


def sanitize_branch_name(name: str) -> str:
    """Turn any text into a branch name ``git check-ref-format --branch`` accepts; idempotent.

    Letters are folded to ASCII, every run of characters outside ``A-Z a-z 0-9 . _ / -`` becomes one
    ``-``, and each ``/`` component loses ``..``, doubled dashes, leading and trailing dots and dashes and a
    ``.lock`` suffix; empty components vanish. Components keep at most 100 characters, the name 200. An
    empty result becomes ``alphred/run`` and ``HEAD`` becomes ``alphred/HEAD``.
    """
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    text = _clean(_DISALLOWED.sub("-", folded))
    if len(text) > _MAX_LENGTH:
        text = _clean(text[:_MAX_LENGTH])
    if not text:
        return FALLBACK_BRANCH
    if text == "HEAD":
        return "alphred/HEAD"
    return text


def _clean(text: str) -> str:
    parts: list[str] = []
    for raw in text.split("/"):
        part = _DASHES.sub("-", _DOTS.sub(".", raw))[:_MAX_COMPONENT]
        while True:
            trimmed = part.strip(".-")
            if trimmed.endswith(".lock"):
                trimmed = trimmed[: -len(".lock")]
            if trimmed == part:
                break
            part = trimmed
        if part:
            parts.append(part)
    return "/".join(parts)
