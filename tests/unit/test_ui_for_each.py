"""The web view of a for_each (SPEC §13): the phase's stacked node counts its items and takes their state;
the items are listed in a table under the run."""

from __future__ import annotations

from alphred.providers import default_registry
from alphred.ui.graph_svg import render_svg
from alphred.ui.run_page import _grouped_states, _items
from alphred.views.branch_status import OUTCOMES, BranchView, branch_outcome
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


def test_each_item_row_shows_its_branch_outcome_beside_its_phase_status() -> None:
    branches = {
        "implement-0": ("completed", "merged"),
        "implement-1": ("running", "running"),
        "implement-2": ("failed", "failed"),
    }
    table = _items({"phases": PHASES}, branches)
    assert "<th>branch</th><th>phase status</th>" in table
    assert (
        '<td class=outcome><span class="badge st-completed" data-status="completed">completed</span> '
        '<span class="reason">merged</span></td>'
    ) in table  # the state said beside the outcome when it says more
    assert '<td class=outcome><span class="badge st-failed" data-status="failed">failed</span></td>' in table
    no_source = _items({"phases": PHASES})  # a workflow that no longer loads: the phases' status only
    assert no_source.count("<td class=outcome>–</td>") == 3


def branch(state: str) -> BranchView:
    return BranchView("plan", "join", "all_done", "implement-0", "b", ("implement-0",), state)


def test_a_branch_outcome_is_said_in_the_words_of_a_phase_status() -> None:
    """SPEC §13: a branch that reached its join completed (merged or not); one that routed to $fail failed."""
    words = {state: branch_outcome(branch(state)) for state in OUTCOMES}
    assert words == {
        "pending": "pending", "running": "running", "queued": "running", "arrived": "completed",
        "waiting to merge": "completed", "merging": "completed", "conflicted": "completed", "merged": "completed",
        "not merged": "completed", "cancelled": "cancelled", "failed": "failed", "skipped": "skipped",
    }  # fmt: skip
    assert branch_outcome(branch("queued"), started=False) == "pending"  # waits for a max_parallel slot
