"""The web view of a for_each (SPEC §13): the phase's stacked node counts its items and takes their state;
the items are listed in a table under the run."""

from __future__ import annotations

from alphred.providers import default_registry
from alphred.ui.graph_svg import render_svg
from alphred.ui.run_page import _grouped_states, _items
from alphred.workflow import load_workflow
from alphred.workflow.layout import workflow_graph

WORKFLOW = """\
alphred: 1
key: wf
defaults: {provider: scripted}
phases:
  plan: {transitions: [{to: implement, for_each: report.tasks, as: task}]}
  implement: {transitions: [{to: join}]}
  join: {join: all_done}
"""


def phase(key: str, status: str, attempt: int = 1, branch: str | None = None) -> dict[str, object]:
    return {"key": key, "status": status, "attempt": attempt, "decision": None, "branch": branch}


PHASES = [
    phase("plan", "completed"),
    phase("implement", "pending", 0),
    phase("implement-0", "completed", 1, "alphred/wf/1.implement-0"),
    phase("implement-1", "running", 2, "alphred/wf/1.implement-1"),
    phase("implement-2", "failed", 1, "alphred/wf/1.implement-2"),
    phase("join", "pending", 0),
]


def test_the_for_each_edge_and_node_name_the_list_path() -> None:
    graph = workflow_graph(load_workflow("wf.yaml", WORKFLOW, providers=default_registry()))
    (node,) = [n for n in graph.nodes if n.key == "implement"]
    assert node.each == "report.tasks"
    assert any(e.kind == "for_each" and e.label == "for each report.tasks" for e in graph.edges)


def test_the_stacked_node_stands_for_its_items() -> None:
    states = _grouped_states(PHASES)
    assert states["implement"]["status"] == "running" and states["implement"]["attempt"] == 4
    graph = workflow_graph(load_workflow("wf.yaml", WORKFLOW, providers=default_registry()))
    svg = render_svg(graph, states, counts={"implement": 3})
    assert 'data-phase="implement" data-status="running"' in svg and "× 3 · running" in svg
    done = _grouped_states([phase("implement", "pending", 0), phase("implement-0", "completed")])
    assert done["implement"]["status"] == "completed"
    failed = _grouped_states([phase("implement-0", "completed"), phase("implement-1", "failed")])
    assert failed["implement"]["status"] == "failed"


def test_the_items_table_lists_every_item_with_its_git_branch() -> None:
    table = _items({"phases": PHASES})
    assert table.startswith("<h2>Items</h2>") and table.count("<tr>") == 4  # a header and three items
    assert "alphred/wf/1.implement-2" in table and ">plan<" not in table
    assert _items({"phases": [phase("plan", "completed")]}) == ""
