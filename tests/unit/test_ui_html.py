"""The web view's HTML helpers and request rules, without a server."""

from __future__ import annotations

import pytest

from alphred.ui.html import badge, h, link, query
from alphred.ui.reports_html import render_diff
from alphred.ui.run_page import state_key
from alphred.ui.security import Guard, is_loopback


def test_links_only_for_http_urls_and_everything_escaped() -> None:
    assert (
        link("https://github.com/o/r/pull/1", "PR")
        == '<a href="https://github.com/o/r/pull/1" rel="noopener noreferrer">PR</a>'
    )
    assert link("javascript:alert(1)") == "javascript:alert(1)"  # text, never a link
    assert link('https://x.example/"><script>') == (
        '<a href="https://x.example/&quot;&gt;&lt;script&gt;" rel="noopener noreferrer">https://x.example/&quot;&gt;&lt;script&gt;</a>'
    )
    assert h("<a href='x'>") == "&lt;a href=&#x27;x&#x27;&gt;"
    assert (
        badge("running", "<b>")
        == '<span class="badge st-running" data-status="running">running</span> <span class="reason">&lt;b&gt;</span>'
    )
    assert query(status="paused", before=None) == "?status=paused" and query() == ""


def test_diff_lines_are_classified_and_escaped() -> None:
    html = render_diff("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-<old>\n+<new>\n same")
    assert '<span class="file">+++ b/x</span>' in html and '<span class="hunk">@@ -1 +1 @@</span>' in html
    assert '<span class="del">-&lt;old&gt;</span>' in html and '<span class="add">+&lt;new&gt;</span>' in html
    assert '<span class="ctx"> same</span>' in html


def test_state_key_changes_with_what_the_page_shows() -> None:
    status = {"status": "running", "reason": None, "tokens": 5, "pr_url": None, "steps": [{}],
              "phases": [{"key": "a", "status": "running", "attempt": 1}]}  # fmt: skip
    assert state_key(status, 1) == "running|None|1|5|None|a:running:1"
    assert state_key({**status, "tokens": 6}, 1) != state_key(status, 1)
    assert state_key(status, 2) != state_key(status, 1)  # a new step (the count comes apart from the object)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.0.0.2", True), ("localhost", True), ("::1", True), ("[::1]", True),
     ("0.0.0.0", False), ("192.168.1.4", False), ("example.com", False)],
)  # fmt: skip
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_guard_rules() -> None:
    guard = Guard("s3cret")
    good = {"host": "127.0.0.1:8765", "authorization": "Bearer s3cret"}
    assert guard.check_change(good, "http", 8765) is None
    assert guard.check_change({**good, "origin": "http://127.0.0.1:8765"}, "http", 8765) is None
    assert guard.check_change({**good, "origin": "null"}, "http", 8765) is not None
    assert guard.check_change({**good, "origin": "https://127.0.0.1:8765"}, "http", 8765) is not None
    assert guard.check_change({**good, "authorization": "bearer s3cret"}, "http", 8765) is None  # scheme case-free
    assert guard.check_change({**good, "authorization": "Bearer s3cre"}, "http", 8765) is not None
    assert guard.check_host({"host": "[::1]:8765"}) is None and guard.check_host({"host": "localhost"}) is None
    assert guard.check_host({"host": "evil.example:8765"}) is not None
    assert Guard("s3cret", read_only=True).check_change(good, "http", 8765) is not None
    assert Guard("s3cret", loopback_only=False).check_host({"host": "box.lan:8765"}) is None
    cookie = {"host": "127.0.0.1:8765", "cookie": "other=1; alphred_token_8765=s3cret"}
    assert guard.check_read(cookie, None, 8765) is None and guard.check_read(cookie, None, 8766) is not None
    assert guard.check_read({"host": "127.0.0.1:8765"}, "s3cret", 8765) is None  # the printed URL
    assert guard.check_read({"host": "127.0.0.1:8765"}, None, 8765) is not None
    assert Guard("s3cret", public_read=True).check_read({"host": "127.0.0.1:8765"}, None, 8765) is None
    assert guard.check_change(cookie, "http", 8765) is not None  # a cookie alone (a form elsewhere could send it)
    assert guard.check_change({**cookie, "x-alphred-request": "1"}, "http", 8765) is None  # the page's own script


def test_steps_show_checks_when_steps_carry_them() -> None:
    from datetime import UTC, datetime

    from alphred.store import StepOutcome, StepRecord
    from alphred.ui.data import StepRow
    from alphred.ui.run_page import steps_table

    entry = {"phase": "impl", "attempt": 1, "outcome": "failed", "decision": None, "next": "impl",
             "checks": [{"name": "tests", "passed": False, "exit_code": 1}, {"name": "<scope>", "passed": True, "exit_code": None}]}  # fmt: skip
    record = StepRecord(
        "impl", 1, StepOutcome.FAILED, None, "impl", "checks_failed", None, 1500, 3, 0.0, 0, datetime.now(UTC)
    )
    html = steps_table([StepRow(1, entry, record)], 1)
    assert (
        '<span class="check fail">tests (1)</span>' in html and '<span class="check pass">&lt;scope&gt;</span>' in html
    )
    assert "checks_failed" in html and "1.5s" in html


def test_huge_reports_and_many_artifacts_are_cut() -> None:
    from datetime import UTC, datetime

    from alphred.store import ArtifactRecord
    from alphred.ui import reports_html
    from alphred.ui.data import MAX_ARTIFACTS

    def artifact(i: int, kind: str, text: str) -> ArtifactRecord:
        return ArtifactRecord(i, 1, 1, "p", i, kind, text, None, "0", datetime.now(UTC))

    many = [artifact(i, "report", f"report {i}") for i in range(MAX_ARTIFACTS + 5)]
    newest = many[-MAX_ARTIFACTS:]  # what the store reads (``recent_artifacts``): the newest, oldest first
    html = reports_html.reports(newest, len(many) - len(newest))
    assert "5 older reports not shown" in html and "report 4<" not in html and f"report {MAX_ARTIFACTS + 4}" in html
    big = reports_html.diffs([artifact(1, "diff", "+x\n" * reports_html.MAX_TEXT)])
    assert "more characters not shown" in big and len(big) < reports_html.MAX_TEXT * 12
