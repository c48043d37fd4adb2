"""Upstream context handoff v1 (SPEC §5): selection, limits, deterministic cuts, envelopes, manifest."""

from __future__ import annotations

import hashlib
import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_support import build_workflow

from alphred.engine import (
    MAX_ARTIFACT_CHARS,
    MAX_ARTIFACTS,
    MAX_TOTAL_CHARS,
    UpstreamReport,
    build_context,
    cut_text,
    share_budget,
)

MARKER = re.compile(r"\n\[\.\.\. (\d+) characters cut by alphred \.\.\.\]\n")


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fan_in(count: int, **target: object) -> dict[str, dict[str, object]]:
    phases: dict[str, dict[str, object]] = {f"u{i}": {"to": ["sink"]} for i in range(count)}
    phases["sink"] = dict(target)
    return phases


def test_the_spec_limits() -> None:
    assert (MAX_ARTIFACTS, MAX_ARTIFACT_CHARS, MAX_TOTAL_CHARS) == (4, 12_000, 32_000)


def test_a_short_report_is_wrapped_whole() -> None:
    wf = build_workflow({"plan": {"to": ["build"]}, "build": {}})
    bundle = build_context(wf, "build", {"plan": UpstreamReport("plan", 2, "do X")})
    digest = sha("do X")
    assert bundle.envelopes == (
        f'<upstream phase="plan" attempt="2" sha256="{digest}" truncated="false" original_chars="4" '
        'included_chars="4">\ndo X\n</upstream>',
    )
    assert bundle.manifest == {
        "version": 1,
        "phase": "build",
        "limits": {"max_artifacts": 4, "max_artifact_chars": 12000, "max_total_chars": 32000},
        "selected": ["plan"],
        "included": [
            {
                "phase": "plan",
                "attempt": 2,
                "sha256": digest,
                "original_chars": 4,
                "included_chars": 4,
                "truncated": False,
            }
        ],
        "truncated": [],
        "dropped": [],
        "total_chars": 4,
    }
    assert json.loads(json.dumps(bundle.manifest)) == bundle.manifest


def test_a_long_report_keeps_head_and_tail_around_a_marker() -> None:
    text = "".join(chr(ord("a") + i % 26) for i in range(40_000))
    wf = build_workflow({"review": {"to": ["fix"]}, "fix": {}})
    bundle = build_context(wf, "fix", {"review": UpstreamReport("review", 1, text)})
    entry = bundle.manifest["included"][0]
    assert entry["included_chars"] == 12_000 and entry["cut_chars"] == 28_043
    assert entry["truncated_by"] == "max_artifact_chars" and entry["sha256"] == sha(text)
    body = bundle.envelopes[0].split("\n", 1)[1].rsplit("\n</upstream>", 1)[0]
    assert body == text[:5979] + "\n[... 28043 characters cut by alphred ...]\n" + text[-5978:]
    assert 'truncated="true" original_chars="40000" included_chars="12000"' in bundle.envelopes[0]
    assert bundle.manifest["truncated"] == ["review"]


def test_the_total_is_shared_fairly_between_long_reports() -> None:
    wf = build_workflow(fan_in(3))
    reports = {f"u{i}": UpstreamReport(f"u{i}", 1, str(i) * 20_000) for i in range(3)}
    manifest = build_context(wf, "sink", reports).manifest
    assert [e["included_chars"] for e in manifest["included"]] == [10_667, 10_667, 10_666]
    assert {e["truncated_by"] for e in manifest["included"]} == {"max_total_chars"}
    assert manifest["total_chars"] == 32_000


def test_short_reports_keep_their_text_when_others_are_cut() -> None:
    wf = build_workflow(fan_in(4))
    reports = {f"u{i}": UpstreamReport(f"u{i}", 1, "x" * 30_000) for i in range(1, 4)}
    reports["u0"] = UpstreamReport("u0", 1, "short")
    manifest = build_context(wf, "sink", reports).manifest
    assert [e["included_chars"] for e in manifest["included"]] == [5, 10_665, 10_665, 10_665]
    assert manifest["truncated"] == ["u1", "u2", "u3"]


def test_extra_and_missing_reports_are_dropped_with_reasons() -> None:
    wf = build_workflow(fan_in(6))
    reports = {f"u{i}": UpstreamReport(f"u{i}", 1, f"r{i}") for i in (0, 2, 3, 4, 5)}
    bundle = build_context(wf, "sink", reports)
    assert [e["phase"] for e in bundle.manifest["included"]] == ["u0", "u2", "u3", "u4"]
    assert bundle.manifest["dropped"] == [
        {"phase": "u1", "reason": "no_report"},
        {"phase": "u5", "reason": "max_artifacts"},
    ]
    assert len(bundle.envelopes) == 4


def test_declared_context_overrides_predecessors_and_their_order() -> None:
    phases = fan_in(2, context=("u1", "other", "u1"))
    phases["other"] = {}
    wf = build_workflow(phases)
    reports = {key: UpstreamReport(key, 3, key) for key in ("u0", "u1", "other")}
    manifest = build_context(wf, "sink", reports).manifest
    assert manifest["selected"] == ["u1", "other"]
    assert [e["phase"] for e in manifest["included"]] == ["u1", "other"]
    none = build_workflow(fan_in(2, context=()))
    assert build_context(none, "sink", reports).envelopes == ()


def test_cut_text_examples() -> None:
    assert cut_text("abc", 3) == "abc"
    assert cut_text("a" * 100, 50) == "a" * 5 + "\n[... 90 characters cut by alphred ...]\n" + "a" * 5
    assert cut_text("0123456789" * 10, 51) == "012345" + "\n[... 89 characters cut by alphred ...]\n" + "56789"
    assert cut_text("abcdefghij" * 3, 10) == "abcdefghij"


def test_share_budget_examples() -> None:
    assert share_budget([], 10) == []
    assert share_budget([3, 4], 10) == [3, 4]
    assert share_budget([5000, 12000, 12000, 12000], 32000) == [5000, 9000, 9000, 9000]


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300), limit=st.integers(0, 300))
def test_cut_text_fits_keeps_head_and_tail_and_counts_the_cut(text: str, limit: int) -> None:
    body = cut_text(text, limit)
    assert len(body) <= limit or body == text
    assert cut_text(text, limit) == body
    match = MARKER.search(body)
    if body == text or match is None:
        assert text.startswith(body)
        return
    head, tail = body[: match.start()], body[match.end() :]
    assert text.startswith(head) and text.endswith(tail)
    assert len(body) == limit and int(match.group(1)) == len(text) - len(head) - len(tail)
    assert len(head) - len(tail) in (0, 1)


@settings(max_examples=200, deadline=None)
@given(caps=st.lists(st.integers(0, 15_000), max_size=4), total=st.integers(0, 40_000))
def test_share_budget_is_fair_and_within_limits(caps: list[int], total: int) -> None:
    limits = share_budget(caps, total)
    assert all(0 <= limit <= cap for limit, cap in zip(limits, caps, strict=True))
    assert sum(limits) == min(total, sum(caps))
    cut = [limit for limit, cap in zip(limits, caps, strict=True) if limit < cap]
    assert not cut or max(cut) - min(cut) <= 1
    kept_whole = [cap for limit, cap in zip(limits, caps, strict=True) if limit == cap]
    assert not cut or all(cap <= max(cut) + 1 for cap in kept_whole)  # nobody keeps more than a share


@settings(max_examples=50, deadline=None)
@given(sizes=st.lists(st.integers(0, 50_000), min_size=1, max_size=6))
def test_bundles_respect_every_limit(sizes: list[int]) -> None:
    wf = build_workflow(fan_in(len(sizes)))
    reports = {f"u{i}": UpstreamReport(f"u{i}", 1, "y" * size) for i, size in enumerate(sizes)}
    bundle = build_context(wf, "sink", reports)
    manifest = bundle.manifest
    assert len(bundle.envelopes) == len(manifest["included"]) == min(len(sizes), MAX_ARTIFACTS)
    assert all(e["included_chars"] <= MAX_ARTIFACT_CHARS for e in manifest["included"])
    assert manifest["total_chars"] <= MAX_TOTAL_CHARS
    assert build_context(wf, "sink", reports) == bundle
