"""The web view's graph: rows by the longest distance from the start, lanes side by side, escaped SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from alphred.ui.graph_svg import layout, render_svg
from alphred.workflow.layout import Graph, GraphEdge, GraphNode, arrange

END, FAIL = "$end", "$fail"


def placed(phases: Sequence[tuple[str, str]], start: str, edges: Sequence[GraphEdge] = ()) -> Graph:
    """A placed graph from phases (key, type), a start phase and edges, as the stored topology gives them."""
    return arrange(start, [GraphNode(key, kind) for key, kind in phases], list(edges))


def edge(source: str, target: str, label: str = "") -> GraphEdge:
    return GraphEdge(source, target, label)


def ranks(graph: Graph) -> dict[str, int]:
    return {n.key: n.rank for n in graph.nodes if n.kind != "terminal"}


FAN = placed(
    phases=(("plan", "agent"), ("backend", "agent"), ("frontend", "agent"), ("tests", "command"), ("join", "command")),
    start="plan",
    edges=(
        edge("plan", "backend"),
        edge("plan", "frontend"),
        edge("backend", "join"),
        edge("frontend", "tests"),
        edge("tests", "join"),
        edge("join", END),
        edge("tests", "frontend", 'decision == "again"'),
    ),
)


def test_phases_rank_by_their_longest_distance_from_the_start() -> None:
    # the join sits below the longest branch (ranked by the shortest distance it stood beside ``tests``)
    assert ranks(FAN) == {"plan": 0, "backend": 1, "frontend": 1, "tests": 2, "join": 3}


def test_unreachable_phases_go_below_the_deepest() -> None:
    topology = placed((("a", "agent"), ("b", "agent"), ("orphan", "agent")), "a", (edge("a", "b"),))
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
    topology = placed((("a", "agent"), ("b", "approval")), "a", (edge("a", "b", "x < 1 & y"), edge("b", FAIL)))
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
    chain = placed(
        (("a", "agent"), ("b", "agent"), ("c", "agent")), "a", (edge("a", "b"), edge("b", "c"), edge("a", FAIL))
    )
    root = ET.fromstring(render_svg(chain, {}))
    paths = {
        (p.get("data-from"), p.get("data-to")): p.get("d") or "" for p in root.iter("{http://www.w3.org/2000/svg}path")
    }
    lane = min(float(point.split(",")[0]) for point in re.findall(r"[\d.]+,[\d.]+", paths[("a", FAIL)]))
    assert lane < min(box.x for box in layout(chain).boxes.values())  # skips b and c: runs left of them
