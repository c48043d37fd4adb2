"""The run page of parallel and long runs: the graph's branches side by side, guard labels, the timeline,
steps paged, live updates as deltas, and reports as definition lists."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import httpx
import pytest
from uihelpers import FOR_EACH, PARALLEL, Runs, Server, auth, wait_until

LOOP = """\
alphred: 1
key: loop
limits: {max_stalls: 10}  # the same round each time: a stall (SPEC §15), allowed here
phases:
  work:
    type: command
    run: "echo round"
    transitions:
      - {to: work, max: 6}
      - {to: $end}
"""


def boxes(page: str) -> dict[str, tuple[float, float]]:
    """The (x, y) of each phase's box in the page's graph."""
    found = re.findall(
        r'<g class="node[^"]*" data-phase="([^"]+)"[^>]*>(?:<title>[^<]*</title>)?<rect x="([\d.]+)" y="([\d.]+)"', page
    )
    return {key: (float(x), float(y)) for key, x, y in found}


def test_parallel_branches_stand_side_by_side_above_their_join(runs: Runs, make_client: Any) -> None:
    status = runs.run(PARALLEL, name="parallel.yaml")
    assert status["status"] == "completed"
    page = make_client().get("/runs/1").text
    at = boxes(page)
    assert set(at) >= {"plan", "backend", "frontend", "frontend_tests", "integrate"}
    assert at["backend"][1] == at["frontend"][1] > at["plan"][1]  # one row, below the fan-out
    assert at["backend"][0] < at["plan"][0] < at["frontend"][0]  # side by side, around it
    assert at["frontend_tests"][0] == at["frontend"][0] and at["frontend_tests"][1] > at["frontend"][1]
    assert at["integrate"][1] > at["frontend_tests"][1]  # the join below its longest branch
    for branch in ("backend", "frontend"):
        assert f'data-from="plan" data-to="{branch}"' in page  # every branch edge is drawn
    assert 'data-lane="frontend"' in page and 'data-phase="frontend_tests" data-status="completed" data-lane' in page


def test_guards_are_written_on_their_edges(runs: Runs, make_client: Any) -> None:
    runs.run(PARALLEL, name="parallel.yaml")
    runs.gate()
    parallel, gate = make_client().get("/runs/1").text, make_client().get("/runs/2").text
    label = re.search(
        r'<g class="edge-label" data-from="frontend_tests" data-to="integrate"><title>[^<]*</title><text [^>]*>(.*?)</text>',
        parallel,
    )
    assert label is not None and label.group(1) == "exit_code == 0"
    assert 'data-from="ask" data-to="$end"><title>decision == &quot;approved&quot;</title>' in gate
    assert '<g class="edge-label" data-from="plan"' not in parallel  # a fan-out has no guard


def test_the_timeline_has_a_lane_per_branch_and_a_bar_per_attempt(runs: Runs, make_client: Any) -> None:
    runs.run(PARALLEL, name="parallel.yaml")
    page = make_client().get("/runs/1").text
    timeline = page[page.index('<section id="timeline"') : page.index('<section id="steps"')]
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="timeline"' in timeline
    lanes = re.findall(r'<g class="lane" data-lane="([^"]+)"', timeline)
    assert lanes[0] == "run branch" and sorted(lanes[1:]) == ["backend", "frontend"]
    bars = set(
        re.findall(r'<g class="bar out-(\w+)" data-phase="(\w+)" data-attempt="1" data-lane="([^"]+)"', timeline)
    )
    assert bars == {
        ("completed", "plan", "run branch"),
        ("completed", "backend", "backend"),
        ("completed", "frontend", "frontend"),
        ("completed", "frontend_tests", "frontend"),
        ("completed", "integrate", "run branch"),
    }
    steps = page[page.index('<section id="steps"') :]
    assert "<th>branch</th>" in steps and '<td class=mono title="alphred/parallel-ui/1.frontend">frontend</td>' in steps


def test_an_approval_waits_on_the_timeline_too(runs: Runs, make_client: Any) -> None:
    runs.gate()
    page = make_client().get("/runs/1").text
    assert re.search(r'<g class="bar out-waiting" data-phase="ask" data-attempt="1" data-lane="run branch">', page)
    assert "ask #1: waiting for approval" in page


def test_steps_are_paged_newest_first(runs: Runs, make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from alphred.ui import data

    runs.run(LOOP, name="loop.yaml")  # seven steps
    monkeypatch.setattr(data, "STEPS_PAGE", 3)
    client = make_client()
    newest = client.get("/runs/1").text
    assert re.findall(r'data-step="(\d+)"', newest) == ["5", "6", "7"]
    assert 'data-first="5" data-last="7" data-follow="1"' in newest and "steps 5–7 of 7" in newest
    assert 'href="?steps_before=5"' in newest and 'class="newest"' not in newest
    older = client.get("/runs/1?steps_before=5").text
    assert re.findall(r'data-step="(\d+)"', older) == ["2", "3", "4"] and 'data-follow="0"' in older
    assert 'href="?steps_before=2"' in older and 'class="newest" href="?"' in older
    first = client.get("/runs/1?steps_before=2").text
    assert re.findall(r'data-step="(\d+)"', first) == ["1"] and "steps_before=" not in first.split("Events")[0]
    assert "No step before this one" in client.get("/runs/1?steps_before=1").text


def test_a_live_update_sends_only_what_changed(runs: Runs, make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from alphred.ui import data

    runs.run(LOOP, name="loop.yaml")
    monkeypatch.setattr(data, "STEPS_PAGE", 3)
    client = make_client()
    newest = int(re.search(r'data-artifact="(\d+)"', client.get("/runs/1").text).group(1))  # type: ignore[union-attr]
    live = client.get(f"/runs/1/live?steps=5&columns=00&artifact={newest}").json()
    assert re.findall(r'data-step="(\d+)"', live["steps"]) == ["6", "7"]  # the rows the page lacks, no more
    assert set(live["sections"]) == {"summary", "actions", "graph", "timeline"}  # no report or diff changed
    assert live["step_total"] == 7 and live["state"].startswith("completed|None|7|")
    again = client.get("/runs/1/live?steps=5&columns=00&artifact=0").json()
    assert {"reports", "diffs"} <= set(again["sections"]) and again["artifact"] == newest
    for behind in ("steps=1&columns=00", "steps=5&columns=11", "steps=0"):  # too far behind, other table, none
        whole = client.get(f"/runs/1/live?{behind}&artifact={newest}").json()
        assert whole["steps"] == "" and re.findall(r'data-step="(\d+)"', whole["sections"]["steps"]) == ["5", "6", "7"]


@pytest.mark.parametrize("database", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_the_store_reads_a_window_of_steps(database: str, runs: Runs, request: pytest.FixtureRequest) -> None:
    from alphred.store import SqlRunStore

    url = request.getfixturevalue("postgres_url") if database == "postgresql" else runs.db_url
    run_id = runs.run(PARALLEL, "--db", url, name="parallel.yaml")["run_id"]
    store = SqlRunStore(url)
    try:
        every = store.list_steps(run_id)
        assert store.count_steps(run_id) == len(every) == 5
        assert every[0].next == "backend,frontend"  # a fan-out's routing decisions, joined
        for start, limit in ((0, 2), (1, 3), (3, 10), (5, 1)):
            assert store.list_steps(run_id, start, limit) == every[start : start + limit]
        assert store.list_steps(run_id, 2) == every[2:]
        artifacts = store.artifacts(run_id)
        reports = [a for a in artifacts if a.kind == "report"]
        assert store.recent_artifacts(run_id, 2, kind="report") == reports[-2:]  # the newest, oldest first
        assert store.count_artifacts(run_id, kind="report") == len(reports)
        others = [a for a in artifacts if a.kind not in ("report", "diff")]
        assert store.recent_artifacts(run_id, 100, exclude=("report", "diff")) == others
        assert store.count_artifacts(run_id, exclude=("report", "diff")) == len(others) > 0
    finally:
        store.close()


@pytest.mark.slow
def test_the_stream_sends_steps_as_deltas_and_the_status_without_them(runs: Runs, start_server: Any) -> None:
    from test_ui_server import sse_messages

    runs.gate()
    server: Server = start_server()
    mine = auth(server.token)
    with httpx.stream("GET", f"{server.base}/runs/1/stream", headers=mine, timeout=30) as response:
        first = next(m for m in sse_messages(response) if m["event"] in ("steps", "status"))
    assert first["event"] == "status" and "steps" not in first["data"]  # by default only steps from now on
    seen: list[dict[str, Any]] = []
    with httpx.stream("GET", f"{server.base}/runs/1/stream?steps=0", headers=mine, timeout=60) as response:
        for message in sse_messages(response):
            if message["event"] not in ("steps", "status"):
                continue
            seen.append(message)
            if message["event"] == "status" and message["data"]["reason"] == "awaiting_approval":
                assert runs.cli("approve", "1").exit_code == 0
            if message["event"] == "status" and message["data"]["status"] == "completed":
                break
    steps = [m["data"] for m in seen if m["event"] == "steps"]
    assert [(s["first"], s["total"], [x["phase"] for x in s["steps"]]) for s in steps] == [
        (1, 1, ["write"]),
        (2, 2, ["ask"]),
    ]
    assert all("steps" not in m["data"] for m in seen if m["event"] == "status")


def test_reports_are_definition_lists(runs: Runs, make_client: Any) -> None:
    runs.run(PARALLEL, name="parallel.yaml")
    page = make_client().get("/runs/1").text
    reports = page[page.index('<section id="reports"') : page.index('<section id="diffs"')]
    assert '<dl class="report-object"><dt>tasks</dt><dd><ol class="report-list"><li>' in reports
    assert '<dt>risk</dt><dd><span class="text">&lt;b&gt;low&lt;/b&gt;</span></dd>' in reports  # escaped
    assert '"tasks"' not in reports  # not raw JSON
    assert 'kind">outcome' not in reports  # a commit's intent repeats the report: not shown


def test_a_phase_report_and_a_provider_are_shown_when_the_status_carries_them(runs: Runs) -> None:
    from alphred.ui.data import UiData
    from alphred.ui.run_page import render_run

    runs.run(PARALLEL, name="parallel.yaml")
    data = UiData(runs.db_url)
    try:
        view = data.view(1)
    finally:
        data.close()
    plain = render_run(view, actions=[], read_only=False)
    assert "<th>provider</th>" not in plain
    # the status carries each phase's latest report (SPEC §12): an object as a definition list, text as text
    shown = plain[plain.index('class="latest-reports"') :]
    assert shown.startswith('class="latest-reports"><article class="report latest" data-phase="plan">')
    assert '<dt>risk</dt><dd><span class="text">&lt;b&gt;low&lt;/b&gt;</span></dd>' in shown
    assert (
        '<article class="report latest" data-phase="backend"><h3>backend <span class="kind">latest</span></h3>' in shown
    )
    assert view.status["phases"][1]["report"] == "api done"
    view.status["phases"][0]["report"] = {"severity": "high", "tasks": [{"title": "a <b>"}]}
    view.steps[0].entry["provider"] = "claude"
    page = render_run(view, actions=[], read_only=False)
    latest = page[page.index('class="latest-reports"') :]
    assert latest.startswith('class="latest-reports"><article class="report latest" data-phase="plan">')
    assert '<dt>severity</dt><dd><span class="text">high</span></dd>' in latest
    assert '<dt>title</dt><dd><span class="text">a &lt;b&gt;</span></dd>' in latest
    assert "<th>provider</th>" in page and "<td>claude</td>" in page


def test_a_for_each_is_one_stacked_node_with_a_count_and_its_items_a_table(runs: Runs, make_client: Any) -> None:
    status = runs.run(FOR_EACH, name="each.yaml")
    assert status["status"] == "completed"  # join: all_done goes on past the failed item
    page = make_client().get("/runs/1").text
    graph = page[page.index('<svg xmlns="http://www.w3.org/2000/svg" class="graph"') :]
    graph = graph[: graph.index("</svg>")]
    nodes = re.findall(r'<g class="node[^"]*" data-phase="([^"]+)"', graph)
    assert sorted(nodes) == ["implement", "integrate", "plan"]  # one node for the four items
    assert graph.count('<rect class="stack"') == 2  # drawn as a stack of cards
    node = re.search(r'<g class="node[^"]*" data-phase="implement" data-status="(\w+)".*?</g>', graph, re.S)
    assert node is not None and node.group(1) == "failed"  # an item failed: the stack shows it
    assert "× 4" in node.group(0)
    items = page[page.index("<h2>Items</h2>") :]
    items = items[: items.index("</table>")]
    rows = re.findall(
        r"<tr><td class=mono>(implement-\d)</td><td class=outcome>.*?data-status=\"(\w+)\".*?</tr>", items
    )
    assert rows == [("implement-0", "completed"), ("implement-1", "completed"), ("implement-2", "failed"),
                    ("implement-3", "completed")]  # fmt: skip
    assert "each-ui/1.implement-2" in items  # the failed item's git branch is named (it is kept)


def three_items(key: str, run: str, routes: str, limits: str = "{}") -> str:
    """A planner of three tasks, a for_each of command phase ``implement`` (``run``, ``routes``) over them,
    joined by ``join: all_done``."""
    return f"""\
alphred: 1
key: {key}
defaults: {{provider: scripted}}
limits: {limits}
phases:
  plan:
    script: [{{report: {{tasks: [{{title: a}}, {{title: b}}, {{title: c}}]}}}}]
    transitions: [{{to: implement, for_each: report.tasks, as: task}}]
  implement:
    type: command
    run: "{run}; echo {{{{ task.title }}}} > item-{{{{ task_index }}}}.txt"
    timeout: 120s
    transitions: {routes}
  integrate: {{join: all_done, type: command, run: "true"}}
"""


ROUTED = three_items("routed", "true", """[{to: $fail, when: 'task.title == "b"'}, {to: integrate}]""")
HELD_ITEMS = three_items(
    "held", "while [ ! -e 'MARKER' ]; do sleep 0.1; done", "[{to: integrate}]", limits="{max_parallel: 1}"
)


def item_rows(page: str) -> list[tuple[str, str, str, str]]:
    """(item phase, branch outcome, its state, phase status) of each row of the page's Items table."""
    items = page[page.index("<h2>Items</h2>") :]
    items = items[: items.index("</table>")]
    found = re.findall(
        r'<tr><td class=mono>([\w-]+)</td><td class=outcome><span [^>]*data-status="(\w+)">[^<]*</span>'
        r'(?: <span class="reason">([^<]*)</span>)?</td><td class=phase-status><span [^>]*data-status="(\w+)"',
        items,
    )
    return [(key, outcome, state, phase) for key, outcome, state, phase in found]


def test_the_items_table_shows_each_branch_outcome_beside_its_phase_status(runs: Runs, make_client: Any) -> None:
    """A branch that routed to $fail after its phase completed failed: the table used to say "completed"."""
    assert runs.run(ROUTED, name="routed.yaml")["status"] == "completed"  # join: all_done goes on
    rows = item_rows(make_client().get("/runs/1").text)
    assert rows == [
        ("implement-0", "completed", "merged", "completed"),
        ("implement-1", "failed", "", "completed"),  # its phase completed; the branch routed to $fail
        ("implement-2", "completed", "merged", "completed"),
    ]


@pytest.mark.slow
def test_the_items_table_shows_running_and_pending_branches(runs: Runs, make_client: Any) -> None:
    """max_parallel 1: while the first item's command waits for a marker its branch is running, the others
    have not started (pending); once the marker is there every branch completes and is merged."""
    marker = runs.repo.parent / "go"
    path = runs.repo.parent / "held.yaml"
    path.write_text(HELD_ITEMS.replace("MARKER", str(marker)))
    process = subprocess.Popen(
        [sys.executable, "-m", "alphred", "run", str(path), "--repo", str(runs.repo), "-q"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    client = make_client()
    try:

        def rows() -> list[tuple[str, str, str, str]]:
            page = client.get("/runs/1")
            return item_rows(page.text) if page.status_code == 200 and "<h2>Items</h2>" in page.text else []

        wait_until(lambda: ("implement-0", "running", "", "running") in rows(), what="the first item to run")
        assert rows() == [
            ("implement-0", "running", "", "running"),
            ("implement-1", "pending", "queued", "pending"),  # waits for a max_parallel slot
            ("implement-2", "pending", "queued", "pending"),
        ]
    finally:
        marker.touch()
        process.wait(timeout=120)
    assert rows() == [(f"implement-{i}", "completed", "merged", "completed") for i in range(3)]


def test_a_sub_workflow_is_shown_under_its_parent_and_links_back(runs: Runs, make_client: Any) -> None:
    """SPEC §13: the parent's page lists its child run with a link; the child's page links to its parent;
    the runs list holds the parent only."""
    (runs.repo.parent / "child.yaml").write_text(
        "alphred: 1\nkey: child\nphases:\n  inner: {type: command, run: echo inner > inner.txt}\n"
    )
    status = runs.run("alphred: 1\nkey: outer\nphases:\n  sub: {type: workflow, uses: child.yaml}\n")
    assert status["status"] == "completed"
    client = make_client()
    parent = client.get("/runs/1").text
    section = parent[parent.index('<section id="children"') :]
    assert "<h2>Sub-workflows</h2>" in section and '<a href="/runs/2">run 2</a>' in section
    assert "sub#1.1" in section and "1/1" in section
    child = client.get("/runs/2").text
    assert '<dt>sub-workflow of</dt><dd><a href="/runs/1">run 1</a> (sub#1.1)</dd>' in child
    assert "<h2>Sub-workflows</h2>" not in child
    listed = client.get("/api/runs").json()
    assert [r["run_id"] for r in (listed["runs"] if isinstance(listed, dict) else listed)] == [1]
