"""The web view in real Chromium (Debian's ``chromium`` driven by Playwright; no browser is downloaded).

Skipped where no Chromium is found (``ALPHRED_CHROMIUM`` names one; else ``chromium`` on PATH). ``.ci/run``
installs it where it can. Set ``ALPHRED_UI_SCREENSHOT=PATH`` to keep the run page's screenshot.
"""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from uihelpers import FOR_EACH, GATE, PARALLEL_GATE, QUICK, Runs, Server, held

CHROMIUM = os.environ.get("ALPHRED_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.optional("chromium"),
    pytest.mark.skipif(not CHROMIUM, reason="no Chromium found (set ALPHRED_CHROMIUM or install chromium)"),
]

DOCS = """\
alphred: 1
key: fix-and-ship
inputs:
  issue: {default: "greeting prints a draft"}
defaults: {provider: scripted}
phases:
  implement:
    prompt: "Fix {{ inputs.issue }}"
    script:
      - report: "Wrote hello.py."
        files: {hello.py: "print('draft')\\n"}
        tokens: 1840
      - report: "Addressed the review: hello.py prints the greeting."
        files: {hello.py: "import sys\\nprint(sys.argv[1] if len(sys.argv) > 1 else 'hello')\\n"}
        tokens: 1210
    checks:
      - {run: "test -f hello.py", name: exists}
      - {changed: ["hello.py"], name: touched}
    transitions: [{to: check}]
  check:
    type: command
    run: python3 hello.py hi
    transitions: [{to: review}]
  review:
    prompt: Review hello.py.
    decisions: [approved, changes_requested]
    script:
      - {decision: changes_requested, report: {summary: "Print the greeting, not a draft."}, tokens: 950}
      - {decision: approved, report: {summary: "Looks good."}, tokens: 730}
    transitions:
      - {to: implement, when: decision == "changes_requested", max: 3}
      - {to: ship, when: decision == "approved"}
      - {to: $fail}
  ship:
    type: approval
    message: "Open the pull request?"
    transitions:
      - {to: $end, when: decision == "approved"}
      - {to: $fail}
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        yield chromium
        chromium.close()


@pytest.fixture(autouse=True)
def runs_in_processes(runs: Runs) -> None:
    runs.in_process = False  # Playwright's sync API keeps an event loop running in this thread


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"


def test_runs_list_shows_runs_and_updates_live(runs: Runs, start_server: Any, page: Any) -> None:
    runs.gate()
    server: Server = start_server()
    page.goto(server.url)
    assert page.locator('tr[data-run="1"] .badge').inner_text() == "paused"
    assert "token=" not in page.url  # the token left the address bar
    page.evaluate("window.__notReloaded = true")
    runs.run(QUICK, name="quick.yaml")
    page.locator('tr[data-run="2"] .badge[data-status="completed"]').wait_for()
    assert page.evaluate("window.__notReloaded") is True
    page.click('nav.filter a:text-is("paused")')
    page.locator('tr[data-run="1"]').wait_for()
    assert page.locator('tr[data-run="2"]').count() == 0


def _approve(page: Any, comment: str) -> None:
    """Approve with ``comment`` on the run page shown, until the run shows completed (the form gone)."""
    page.fill("form.approval textarea", comment)
    page.click("button.approve")
    page.locator('#summary .badge[data-status="completed"]').wait_for()
    assert page.locator("form.approval").count() == 0


def test_run_page_graph_and_approve_click_completes_the_run(runs: Runs, start_server: Any, page: Any) -> None:
    runs.gate()
    server: Server = start_server()
    page.goto(server.url)
    page.click('a[href="/runs/1"]')
    graph = page.locator("svg.graph")
    assert graph.locator('g.node[data-phase="write"]').get_attribute("data-status") == "completed"
    assert graph.locator('g.node[data-phase="ask"]').get_attribute("class") == "node st-waiting current"
    assert graph.locator('g.node[data-phase="ask"] text.detail').text_content() == "waiting for approval"
    assert graph.locator("g.node.terminal").count() == 2
    box = graph.bounding_box()
    assert box is not None and box["width"] > 100 and box["height"] > 100
    assert page.locator("#reports article.report").first.inner_text().count("<script>") == 1  # shown as text
    assert page.locator("#reports dl.report-object dt").first.inner_text() == "summary"  # an object, not JSON
    page.evaluate("window.__notReloaded = true")
    _approve(page, "ship it <b>now</b>")
    assert page.evaluate("window.__notReloaded") is True
    assert graph.locator('g.node[data-phase="ask"]').get_attribute("data-status") == "completed"
    assert "ship it <b>now</b>" in page.locator("#reports").inner_text()


def test_approve_on_a_parents_page_answers_its_waiting_child(runs: Runs, start_server: Any, page: Any) -> None:
    """SPEC §13: the parent's page names the sub-workflow run that waits and answers it, as ``alphred approve 1``."""
    runs.child_gate()
    server: Server = start_server()
    page.goto(server.url)
    page.click('a[href="/runs/1"]')
    waiting = page.locator("form.approval p.waiting-child")
    assert waiting.inner_text() == (
        "Sub-workflow run 2 (child) waits for approval at phase gate: the answer goes to it, and run 1 continues."
    )
    assert page.locator("button.resume").count() == 0
    _approve(page, "child is fine")
    page.locator('table.children a[href="/runs/2"]').click()
    page.locator('#summary .badge[data-status="completed"]').wait_for()
    assert "child is fine" in page.locator("#reports").inner_text()


def test_without_the_token_pages_and_actions_are_refused(runs: Runs, start_server: Any, page: Any) -> None:
    runs.gate()
    server: Server = start_server()
    refused = page.goto(f"{server.base}/runs/1")  # no ?token= in the URL, no cookie in this browser context
    assert refused is not None and refused.status == 403
    assert "token" in page.locator("main").inner_text() and page.locator("#summary").count() == 0
    stale = page.goto(f"{server.base}/runs/1?token=an-earlier-start")
    assert stale is not None and stale.status == 403 and "wrong token" in page.locator("main").inner_text()
    public: Server = start_server("--public-read")
    page.goto(f"{public.base}/runs/1")  # readable without the token; its actions still need it
    page.click("button.cancel")
    toast = page.locator("#toast.bad")
    toast.wait_for()
    assert "refused" in toast.inner_text() and "token" in toast.inner_text()
    assert page.locator('#summary .badge[data-status="paused"]').count() == 1


def test_the_printed_url_keeps_the_token_in_an_http_only_cookie(runs: Runs, start_server: Any, page: Any) -> None:
    runs.gate()
    server: Server = start_server()
    page.goto(server.url)
    assert "token=" not in page.url  # the token left the address bar
    port = server.base.rsplit(":", 1)[1]
    (cookie,) = [c for c in page.context.cookies() if c["name"] == f"alphred_token_{port}"]
    assert (cookie["value"], cookie["httpOnly"], cookie["sameSite"]) == (server.token, True, "Strict")
    assert server.token not in page.evaluate("document.cookie")  # no script can read it
    page.goto(f"{server.base}/runs/1")  # later pages: the cookie is the token
    assert page.locator('#summary .badge[data-status="paused"]').count() == 1
    listed = page.evaluate("fetch('/api/runs').then(r => r.json())")
    assert [r["run_id"] for r in listed] == [1]


def test_running_phase_events_appear_live(runs: Runs, start_server: Any, page: Any) -> None:
    runs.run(GATE, name="gate.yaml")
    server: Server = start_server()
    marker = runs.repo.parent / "go"
    path = runs.repo.parent / "held.yaml"
    path.write_text(held(marker))  # four lines, then it waits for the marker
    process = subprocess.Popen(
        [sys.executable, "-m", "alphred", "run", str(path), "--repo", str(runs.repo), "-q"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        page.goto(server.url)
        page.locator('tr[data-run="2"]').wait_for()
        page.click('a[href="/runs/2"]')
        page.evaluate("window.__notReloaded = true")
        events = page.locator("#events")
        events.get_by_text("line-4", exact=True).wait_for()
        assert page.locator("#summary .badge").get_attribute("data-status") == "running"
        assert events.get_by_text("line-5", exact=True).count() == 0
        marker.touch()  # the phase goes on: its next lines must arrive in this page without a reload
        events.get_by_text("line-8", exact=True).wait_for()
        page.locator('#summary .badge[data-status="completed"]').wait_for()
        assert page.evaluate("window.__notReloaded") is True
        assert page.locator('svg.graph g.node[data-phase="work"]').get_attribute("data-status") == "completed"
    finally:
        marker.touch()
        process.wait(timeout=120)


def colour_stats(page: Any, png: bytes) -> dict[str, float]:
    """Distinct colours and the share of non-white pixels of a PNG, decoded by the browser itself."""
    data = base64.b64encode(png).decode()
    stats: dict[str, float] = page.evaluate(
        """async (data) => {
            const img = new Image();
            img.src = "data:image/png;base64," + data;
            await img.decode();
            const canvas = document.createElement("canvas");
            canvas.width = img.width; canvas.height = img.height;
            const ctx = canvas.getContext("2d");
            ctx.drawImage(img, 0, 0);
            const px = ctx.getImageData(0, 0, img.width, img.height).data;
            const colours = new Set();
            let busy = 0;
            for (let i = 0; i < px.length; i += 4) {
                colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
                if (px[i] < 235 || px[i + 1] < 235 || px[i + 2] < 235) busy++;
            }
            return {colours: colours.size, busy: busy / (px.length / 4), width: img.width, height: img.height};
        }""",
        data,
    )
    return stats


def test_screenshot_of_the_run_page_is_not_blank(runs: Runs, start_server: Any, page: Any, tmp_path: Path) -> None:
    runs.run(DOCS, name="fix-and-ship.yaml")
    server: Server = start_server()
    page.goto(server.url.replace("/?token=", "/runs/1?token="))
    page.locator("svg.graph g.node.current").wait_for()
    page.locator("#live:not([hidden])").wait_for()
    assert page.locator("#steps .check.pass").count() == 4  # two checks on each implement attempt
    target = Path(os.environ.get("ALPHRED_UI_SCREENSHOT") or tmp_path / "run.png")
    png = page.screenshot(path=str(target), full_page=True)
    blank = page.context.new_page()
    stats = colour_stats(blank, png)
    blank.close()
    assert stats["width"] >= 1000 and stats["height"] >= 800
    assert stats["colours"] >= 64, stats  # text, badges, graph states, diff colours
    assert stats["busy"] >= 0.08, stats
    empty = colour_stats(page, page.context.new_page().screenshot())
    assert empty["colours"] < 64 or empty["busy"] < 0.08  # the check does tell a blank page


def test_a_parallel_run_draws_its_branches_side_by_side(
    runs: Runs, start_server: Any, page: Any, tmp_path: Path
) -> None:
    status = runs.run(PARALLEL_GATE, name="parallel.yaml")
    assert (status["status"], status["reason"]) == ("paused", "awaiting_approval")
    server: Server = start_server()
    page.goto(server.url.replace("/?token=", "/runs/1?token="))
    graph = page.locator("svg.graph")

    def box(phase: str) -> dict[str, float]:
        found = graph.locator(f'g.node[data-phase="{phase}"] > rect').last.bounding_box()
        assert found is not None, phase
        return dict(found)

    plan, backend, frontend = box("plan"), box("backend"), box("frontend")
    tests, integrate, ship = box("frontend_tests"), box("integrate"), box("ship")
    assert abs(backend["y"] - frontend["y"]) < 1  # the two branches on one row ...
    assert backend["x"] + backend["width"] < frontend["x"]  # ... side by side, not overlapping
    assert backend["y"] > plan["y"] + plan["height"]  # below the fan-out
    assert backend["x"] < plan["x"] + plan["width"] / 2 < frontend["x"] + frontend["width"]  # around it
    assert abs(tests["x"] - frontend["x"]) < 1 and tests["y"] > frontend["y"] + frontend["height"]  # its lane
    assert integrate["y"] > tests["y"] + tests["height"]  # the join below the longest branch
    assert ship["y"] > integrate["y"] + integrate["height"]
    label = graph.locator('g.edge-label[data-from="frontend_tests"][data-to="integrate"] text')
    assert label.text_content() == "exit_code == 0" and label.bounding_box() is not None  # visible on the edge
    assert graph.locator('g.node[data-phase="ship"] text.detail').text_content() == "waiting for approval"
    lanes = page.locator("svg.timeline g.lane")
    assert lanes.count() == 3
    for lane in ("backend", "frontend"):
        row = page.locator(f'svg.timeline g.lane[data-lane="{lane}"] rect').bounding_box()
        bar = page.locator(f'svg.timeline g.bar[data-phase="{lane}"] rect').bounding_box()
        assert row is not None and bar is not None
        assert row["y"] <= bar["y"] and bar["y"] + bar["height"] <= row["y"] + row["height"]  # in its own lane
    target = Path(os.environ.get("ALPHRED_UI_SCREENSHOT_PARALLEL") or tmp_path / "parallel.png")
    png = page.screenshot(path=str(target), full_page=True)
    blank = page.context.new_page()
    stats = colour_stats(blank, png)
    blank.close()
    assert stats["colours"] >= 64 and stats["busy"] >= 0.08, stats
    page.evaluate("window.__notReloaded = true")
    page.click("button.approve")  # the live update redraws the graph and the timeline, no reload
    page.locator('#summary .badge[data-status="completed"]').wait_for()
    assert page.evaluate("window.__notReloaded") is True
    assert graph.locator('g.node[data-phase="ship"]').get_attribute("data-status") == "completed"
    assert page.locator('svg.timeline g.bar.out-completed[data-phase="ship"]').count() == 1
    assert page.locator("#step-rows tr").count() == 6  # the approval's step row appended


def test_a_for_each_is_drawn_as_one_stacked_node_and_its_items_listed(runs: Runs, start_server: Any, page: Any) -> None:
    assert runs.run(FOR_EACH, name="each.yaml")["status"] == "completed"
    server: Server = start_server()
    page.goto(server.url.replace("/?token=", "/runs/1?token="))
    graph = page.locator("svg.graph")
    node = graph.locator('g.node[data-phase="implement"]')
    assert node.count() == 1 and graph.locator('g.node[data-phase^="implement-"]').count() == 0
    assert node.get_attribute("data-status") == "failed"  # one of its items failed
    assert node.locator("rect.stack").count() == 2 and "× 4" in (node.text_content() or "")
    stack = node.locator("rect.stack").first.bounding_box()
    card = node.locator("rect:not(.stack)").first.bounding_box()
    assert stack is not None and card is not None and stack["x"] > card["x"]  # the cards behind, offset
    rows = page.locator("table.items tbody tr")
    assert rows.count() == 4
    assert [rows.nth(i).locator("td").first.inner_text() for i in range(4)] == [f"implement-{i}" for i in range(4)]
    assert rows.nth(2).locator("td.outcome .badge").inner_text() == "failed"  # the item's branch
    assert rows.nth(2).locator("td.phase-status .badge").inner_text() == "failed"  # and its phase
    assert rows.nth(0).locator("td.outcome").inner_text() == "completed merged"
    assert rows.nth(2).locator("td").last.inner_text().endswith(".implement-2")
