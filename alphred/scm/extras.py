"""What a ``type: pull_request`` phase adds to its pull request beyond title and body (SPEC §16)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PullRequestExtras:
    """Labels and reviewers asked for by the phase (added, never removed, on later visits)."""

    labels: tuple[str, ...] = ()
    reviewers: tuple[str, ...] = ()
