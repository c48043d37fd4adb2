"""The one layout rule of every workflow drawing (``workflow/layout.py``): ranks, loops, branch columns."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from alphred.providers import default_registry
from alphred.ui.graph_svg import render_svg
from alphred.workflow import load_workflow
from alphred.workflow.diagram import render_dot, render_mermaid
from alphred.workflow.layout import Graph, GraphEdge, GraphNode, arrange, workflow_graph

SPEC_8 = (Path(__file__).parents[1] / "fixtures" / "workflows" / "parallel.yaml").read_text()  # SPEC §8's example

LOOP = """\
alphred: 1
key: loop
defaults: {provider: scripted}
phases:
  implement:
    transitions: [{to: check}]
  check:
    type: command
    run: "true"
    transitions: [{to: review}]
  review:
    decisions: [approved, changes_requested]
    transitions:
      - {to: implement, when: decision == "changes_requested", max: 3}
      - {to: $end, when: decision == "approved"}
      - {to: $fail}
  orphan:
    transitions: [{to: $end}]
"""


def graph_of(text: str) -> Graph:
    return workflow_graph(load_workflow("wf.yaml", textwrap.dedent(text), providers=default_registry()))


def placed(graph: Graph) -> dict[str, tuple[int, float, str | None]]:
    return {n.key: (n.rank, n.column, n.lane) for n in graph.nodes}


def test_branches_of_a_fan_out_share_a_row_and_the_join_sits_below_the_longest() -> None:
    graph = graph_of(SPEC_8)
    assert placed(graph) == {
        "plan": (0, 0.0, None),
        "backend": (1, -0.5, "backend"),
        "frontend": (1, 0.5, "frontend"),
        "frontend_tests": (2, 0.5, "frontend"),
        "integrate": (3, 0.0, None),
        "resolve": (4, 0.0, None),
        "$fail": (5, 0.0, None),
    }
    kinds = {(e.source, e.target): e.kind for e in graph.edges}
    assert kinds[("plan", "backend")] == kinds[("plan", "frontend")] == "fan_out"
    assert kinds[("integrate", "resolve")] == "conflict"
    labels = {(e.source, e.target): e.label for e in graph.edges}
    assert labels[("frontend_tests", "integrate")] == "exit_code == 0"
    assert [[n.key for n in row] for row in graph.rows()][1] == ["backend", "frontend"]


def test_loops_are_back_edges_and_unreached_phases_go_below() -> None:
    graph = graph_of(LOOP)
    assert [(e.source, e.target) for e in graph.edges if e.back] == [("review", "implement")]
    ranks = {k: v[0] for k, v in placed(graph).items()}
    assert ranks == {"implement": 0, "check": 1, "review": 2, "orphan": 3, "$end": 4, "$fail": 4}
    row = graph.rows()[4]
    assert [n.key for n in row] == ["$end", "$fail"] and [n.column for n in row] == [-0.5, 0.5]
    assert next(e for e in graph.edges if e.back).label == 'decision == "changes_requested", max 3'


def test_phases_asking_for_one_column_are_spread_in_file_order() -> None:
    nodes = [GraphNode(k, "agent") for k in ("a", "b", "c", "d")]
    edges = [GraphEdge("a", "b", "x"), GraphEdge("a", "c", "y"), GraphEdge("a", "d", "z")]
    graph = arrange("a", nodes, edges)
    assert [(n.key, n.column) for n in graph.rows()[1]] == [("b", -1.0), ("c", 0.0), ("d", 1.0)]


def test_dot_and_mermaid_follow_the_same_rows() -> None:
    workflow = load_workflow("wf.yaml", SPEC_8, providers=default_registry())
    dot = render_dot(workflow)
    assert '{rank=same; "backend"; "frontend";}' in dot
    mermaid = render_mermaid(workflow)
    declared = re.findall(r"^    p_(\w+)[\[{]", mermaid, flags=re.M)
    assert declared == ["plan", "backend", "frontend", "frontend_tests", "integrate", "resolve"]


def test_a_for_each_node_is_drawn_as_a_stack_with_its_count() -> None:
    nodes = [
        GraphNode("plan", "agent"),
        GraphNode("implement", "agent", each="report.tasks"),
        GraphNode("merge", "command"),
    ]
    edges = [
        GraphEdge("plan", "implement", "for each report.tasks", "for_each"),
        GraphEdge("implement", "merge"),
    ]
    graph = arrange("plan", nodes, edges, {"implement": ("implement", 0.0)})
    counted = render_svg(graph, {}, counts={"implement": 3})
    node = counted[counted.index('data-phase="implement"') :]
    node = node[: node.index("</g>")]
    assert node.count('class="stack"') == 2 and ">× 3 · pending<" in node
    assert "(for each report.tasks)" in node  # in the tooltip
    unknown = render_svg(graph, {})
    assert ">for each · pending<" in unknown
    assert '<g class="edge-label" data-from="plan" data-to="implement">' in counted
    assert ">for each report.tasks</text>" in counted


def test_every_guard_is_a_label_but_a_fan_out_has_none() -> None:
    graph = graph_of(SPEC_8)
    svg = render_svg(graph, {})
    labelled = re.findall(r'<g class="edge-label" data-from="(\w+)" data-to="([\w$]+)">', svg)
    assert labelled == [("frontend_tests", "integrate"), ("integrate", "resolve")]
    long = arrange("a", [GraphNode("a", "agent"), GraphNode("b", "agent")], [GraphEdge("a", "b", "x" * 80)])
    drawn = render_svg(long, {})
    assert re.search(f"<title>{'x' * 80}</title><text [^>]*>{'x' * 43}…</text>", drawn)  # cut; whole in the tooltip
