"""Upstream context handoff v1 (SPEC §5): predecessor reports cut, wrapped and listed in a manifest.

A phase receives the latest successful report of each selected phase (``phase.context`` when given,
else its direct predecessors in file order), at most ``MAX_ARTIFACTS`` of them. Each report body is cut
to ``MAX_ARTIFACT_CHARS`` and all bodies together to ``MAX_TOTAL_CHARS``; when the total is too small for
every body, it is shared fairly (short reports keep their text, long ones get equal shares, spare
characters go to the earliest). A cut keeps the head and the tail around a visible marker, and the
marker counts toward the limit.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from alphred.lazy import deferred_dataclass
from alphred.workflow.model import Workflow

MAX_ARTIFACTS = 4
MAX_ARTIFACT_CHARS = 12_000
MAX_TOTAL_CHARS = 32_000
MANIFEST_VERSION = 1
_MARKER = "\n[... {cut} characters cut by alphred ...]\n"


@deferred_dataclass(frozen=True)
class UpstreamReport:
    """The latest successful report of one phase, as handed to later phases."""

    phase: str
    attempt: int
    text: str


@deferred_dataclass(frozen=True)
class ContextBundle:
    """What a phase receives: the envelopes (in selection order) and the manifest to persist as JSON."""

    envelopes: tuple[str, ...]
    manifest: dict[str, Any]


def build_context(workflow: Workflow, phase_key: str, reports: Mapping[str, UpstreamReport]) -> ContextBundle:
    """Select, cut and wrap the upstream reports that ``phase_key`` receives."""
    phase = workflow.phase(phase_key)
    declared = phase.context
    most = phase.max_reports or MAX_ARTIFACTS  # ``context: {max_reports: N}``, within the same character limits
    selected = declared if declared is not None else workflow.predecessors(phase_key)  # found once per key
    if len(selected) > 1:
        selected = tuple(dict.fromkeys(selected))
    dropped: list[dict[str, str]] = []
    chosen: list[UpstreamReport] = []
    for key in selected:
        report = reports.get(key)
        if report is None:
            dropped.append({"phase": key, "reason": "no_report"})
        elif len(chosen) >= most:
            dropped.append({"phase": key, "reason": "max_artifacts"})
        else:
            chosen.append(report)
    caps = [min(len(r.text), MAX_ARTIFACT_CHARS) for r in chosen]
    limits = share_budget(caps, MAX_TOTAL_CHARS)
    envelopes: list[str] = []
    included: list[dict[str, Any]] = []
    for report, cap, limit in zip(chosen, caps, limits, strict=True):
        body, cut = _cut(report.text, limit)
        digest = hashlib.sha256(report.text.encode("utf-8")).hexdigest()
        truncated = cut > 0
        envelopes.append(envelope(report, digest, body, truncated))
        entry: dict[str, Any] = {
            "phase": report.phase,
            "attempt": report.attempt,
            "sha256": digest,
            "original_chars": len(report.text),
            "included_chars": len(body),
            "truncated": truncated,
        }
        if truncated:
            entry["cut_chars"] = cut
            entry["truncated_by"] = "max_total_chars" if limit < cap else "max_artifact_chars"
        included.append(entry)
    manifest: dict[str, Any] = {
        "version": MANIFEST_VERSION,
        "phase": phase_key,
        "limits": {
            "max_artifacts": most,
            "max_artifact_chars": MAX_ARTIFACT_CHARS,
            "max_total_chars": MAX_TOTAL_CHARS,
        },
        "selected": list(selected),
        "included": included,
        "truncated": [entry["phase"] for entry in included if entry["truncated"]],
        "dropped": dropped,
        "total_chars": sum(entry["included_chars"] for entry in included),
    }
    return ContextBundle(envelopes=tuple(envelopes), manifest=manifest)


def share_budget(caps: Sequence[int], total: int) -> list[int]:
    """Split ``total`` over items wanting ``caps`` chars: small ones keep theirs, large ones share equally.

    Spare characters left by integer division go one each to the earliest items still short.
    """
    if sum(caps) <= total:
        return list(caps)
    order = sorted(range(len(caps)), key=lambda i: caps[i])
    remaining = total
    level = 0
    for position, index in enumerate(order):
        share = remaining // (len(caps) - position)
        if caps[index] > share:
            level = share
            break
        remaining -= caps[index]
    limits = [min(cap, level) for cap in caps]
    spare = total - sum(limits)
    for index, cap in enumerate(caps):
        if spare == 0:
            break
        if cap > limits[index]:
            limits[index] += 1
            spare -= 1
    return limits


def cut_text(text: str, limit: int) -> str:
    """Return ``text`` cut to at most ``limit`` chars: head and tail halves around a visible marker.

    The marker counts toward ``limit``; a limit too small to hold it keeps the head only.
    """
    return _cut(text, limit)[0]


def _cut(text: str, limit: int) -> tuple[str, int]:
    """Return the cut body and how many characters of ``text`` it leaves out."""
    if len(text) <= limit:
        return text, 0
    fixed = len(_MARKER) - len("{cut}")
    if limit < fixed + len(str(len(text))):  # no room for the marker: keep the head only
        return text[:limit], len(text) - limit
    digits = 1
    while True:  # the marker holds the cut count, whose width depends on the cut: find the fixed point
        keep = max(limit - fixed - digits, 0)
        cut = len(text) - keep
        if len(str(cut)) <= digits:
            break
        digits += 1
    tail = keep // 2
    head = keep - tail
    return text[:head] + _MARKER.format(cut=cut) + text[len(text) - tail :], cut


def envelope(report: UpstreamReport, digest: str, body: str, truncated: bool) -> str:
    """Wrap ``body`` in the stable ``<upstream ...>`` envelope: its source, its digest and what was cut."""
    return (
        f'<upstream phase="{report.phase}" attempt="{report.attempt}" sha256="{digest}" '
        f'truncated="{"true" if truncated else "false"}" original_chars="{len(report.text)}" '
        f'included_chars="{len(body)}">\n{body}\n</upstream>'
    )
