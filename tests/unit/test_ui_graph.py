"""The web view's graph layout: ranks by distance from the start, lanes side by side, escaped SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from alphred.ui.graph_svg import END, FAIL, Edge, Topology, layout, ranks, render_svg

FAN = Topology(
    phases=(("plan", "agent"), ("backend", "agent"), ("frontend", "agent"), ("tests", "command"), ("join", "command")),
    start="plan",
    edges=(
        Edge("plan", "backend"),
        Edge("plan", "frontend"),
        Edge("backend", "join"),
        Edge("frontend", "tests"),
        Edge("tests", "join"),
        Edge("join", END),
        Edge("tests", "frontend", 'decision == "again"'),
    ),
)


def test_phases_rank_by_distance_from_the_start() -> None:
    assert ranks(FAN) == {"plan": 0, "backend": 1, "frontend": 1, "tests": 2, "join": 2}


def test_unreachable_phases_go_below_the_deepest() -> None:
    topology = Topology((("a", "agent"), ("b", "agent"), ("orphan", "agent")), "a", (Edge("a", "b"),))
    assert ranks(topology) == {"a": 0, "b": 1, "orphan": 2}


def test_parallel_lanes_are_side_by_side_and_terminals_last() -> None:
    lay = layout(FAN)
    backend, frontend = lay.boxes["backend"], lay.boxes["frontend"]
    assert backend.y == frontend.y and backend.x + backend.w < frontend.x  # one row, file order
    assert lay.boxes["plan"].y < backend.y < lay.boxes["join"].y < lay.boxes[END].y
    assert FAIL not in lay.boxes  # no transition leads there
    for box in lay.boxes.values():
        assert box.x >= 0 and box.x + box.w <= lay.width and box.y + box.h <= lay.height


def test_svg_marks_states_and_escapes_names() -> None:
    topology = Topology((("a", "agent"), ("b", "approval")), "a", (Edge("a", "b", "x < 1 & y"), Edge("b", FAIL)))
    svg = render_svg(topology, {"a": {"status": "completed", "attempt": 2}, "b": {"status": "running"}}, current=["b"])
    root = ET.fromstring(svg)  # well-formed XML
    ns = "{http://www.w3.org/2000/svg}"
    nodes = {g.get("data-phase"): g for g in root.iter(f"{ns}g")}
    assert nodes["a"].get("class") == "node st-completed" and nodes["b"].get("class") == "node st-running current"
    assert "agent · completed · #2" in "".join(nodes["a"].itertext())
    titles = [t.text for t in root.iter(f"{ns}title")]
    assert "a → b when x < 1 & y" in titles
    assert "x < 1 & y" not in svg  # escaped in the markup


def test_loops_and_rank_skipping_edges_bend_instead_of_crossing() -> None:
    svg = render_svg(FAN, {})
    root = ET.fromstring(svg)
    paths = {
        (p.get("data-from"), p.get("data-to")): p.get("d") or "" for p in root.iter("{http://www.w3.org/2000/svg}path")
    }
    assert " C" in paths[("tests", "frontend")]  # a loop back up
    assert " L" in paths[("plan", "backend")]  # one rank down: straight
    chain = Topology(
        (("a", "agent"), ("b", "agent"), ("c", "agent")), "a", (Edge("a", "b"), Edge("b", "c"), Edge("a", FAIL))
    )
    root = ET.fromstring(render_svg(chain, {}))
    paths = {
        (p.get("data-from"), p.get("data-to")): p.get("d") or "" for p in root.iter("{http://www.w3.org/2000/svg}path")
    }
    lane = min(float(point.split(",")[0]) for point in re.findall(r"[\d.]+,[\d.]+", paths[("a", FAIL)]))
    assert lane < min(box.x for box in layout(chain).boxes.values())  # skips b and c: runs left of them
