"""GitHub Actions integration (SPEC §6): a Markdown step summary and the step outputs of a run.

With ``GITHUB_STEP_SUMMARY`` set, a summary of the run (phases, the branches of its fan-outs and their
merges, steps with attempts and decisions, tokens, cost, pull request link) is appended to that file;
with ``GITHUB_OUTPUT`` set, the outputs ``run_id``, ``status``, ``reason``, ``pr_url`` and ``branch`` are
appended in the multiline-safe ``name<<DELIMITER`` syntax. Writing them never changes a run's outcome:
a failure is only reported.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from alphred.scm.body import cut_text, run_summary_markdown

SUMMARY_VARIABLE = "GITHUB_STEP_SUMMARY"
OUTPUT_VARIABLE = "GITHUB_OUTPUT"
OUTPUT_NAMES = ("run_id", "status", "reason", "pr_url", "branch")
MAX_SUMMARY_CHARS = 900_000  # GitHub accepts up to 1 MiB of summary per step


def github_outputs(status: Mapping[str, Any]) -> dict[str, str]:
    """The step outputs of a run: ``run_id``, ``status``, ``reason``, ``pr_url``, ``branch`` ("" for null)."""
    return {name: "" if status.get(name) is None else str(status.get(name)) for name in OUTPUT_NAMES}


def format_outputs(outputs: Mapping[str, str], delimiter: str | None = None) -> str:
    """``outputs`` in the ``name<<DELIMITER`` file-command syntax (safe for any value, newlines included)."""
    lines: list[str] = []
    for name, value in outputs.items():
        marker = delimiter or f"ghadelimiter_{uuid.uuid4()}"
        while marker in value:
            marker = f"ghadelimiter_{uuid.uuid4()}"
        lines += [f"{name}<<{marker}", value, marker]
    return "\n".join(lines) + "\n"


def write_github_outputs(
    status: Mapping[str, Any],
    environ: Mapping[str, str],
    warn: Callable[[str], None] | None = None,
    branches: Sequence[Mapping[str, Any]] | Callable[[], Sequence[Mapping[str, Any]]] = (),
) -> None:
    """Append the Markdown summary and the step outputs of a run when GitHub Actions asks for them.

    ``branches`` (the branches of the run's fan-outs, or a function that reads them; only called when a
    summary is written) adds a Branches section to the summary.
    """
    summary_path = environ.get(SUMMARY_VARIABLE, "").strip()
    if summary_path:
        shown = branches() if callable(branches) else branches
        summary = cut_text(run_summary_markdown(status, include_status=True, branches=shown), MAX_SUMMARY_CHARS)
        _append(summary_path, "\n" + summary, warn)
    output_path = environ.get(OUTPUT_VARIABLE, "").strip()
    if output_path:
        _append(output_path, format_outputs(github_outputs(status)), warn)


def _append(path: str, text: str, warn: Callable[[str], None] | None) -> None:
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        if warn is not None:
            warn(f"cannot write GitHub Actions file {path}: {exc.strerror or exc}")
