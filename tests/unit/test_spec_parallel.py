"""Parallel branches in the workflow format (SPEC §8): loading, structure and every validation rule."""

from __future__ import annotations

import textwrap

from alphred.providers import default_registry
from alphred.workflow import check_workflow, load_workflow
from alphred.workflow.diagram import render_dot, render_mermaid
from alphred.workflow.fan_outs import fan_outs

PROVIDERS = default_registry()  # every installed provider, as the CLI has them

HEAD = "alphred: 1\nkey: wf\ndefaults: {provider: scripted}\n"

GOOD = """\
limits: {max_parallel: 2}
phases:
  plan:
    transitions:
      - to: [backend, frontend]
  backend:
    transitions: [{to: integrate}]
  frontend:
    transitions: [{to: frontend_tests}]
  frontend_tests:
    type: command
    run: "true"
    transitions: [{to: integrate, when: exit_code == 0}, {to: $fail}]
  integrate:
    join: all
    on_conflict: resolve
    type: command
    run: "true"
  resolve:
    prompt: "Resolve {{ merge.conflicts }} (merging {{ merge.branch }})."
"""


def diags(text: str) -> list[str]:
    _, found = check_workflow("wf.yaml", HEAD + textwrap.dedent(text), providers=PROVIDERS)
    return [d.format() for d in found]


def errors(text: str) -> list[str]:
    return [d for d in diags(text) if ": error: " in d]


def test_a_valid_fan_out_loads_with_its_branches_join_and_limits() -> None:
    wf = load_workflow("wf.yaml", HEAD + GOOD, providers=PROVIDERS)
    (edge,) = wf.phase("plan").transitions
    assert edge.fan_out == ("backend", "frontend") and edge.targets == ("backend", "frontend")
    assert edge.target == "backend"
    assert wf.phase("integrate").join == "all" and wf.phase("integrate").on_conflict == "resolve"
    assert wf.limits.max_parallel == 2 and wf.parallel
    (group,) = fan_outs(wf)
    assert group.source == "plan" and group.join == "integrate"
    assert group.regions == {"backend": {"backend"}, "frontend": {"frontend", "frontend_tests"}}
    assert group.branch_of("frontend_tests") == "frontend" and group.branch_of("integrate") is None
    assert wf.predecessors("frontend") == ("plan",)
    # the resolver, reachable only through on_conflict, is not "unreachable": nothing to warn about
    assert diags(GOOD) == []


def test_max_parallel_defaults_to_four_and_plain_workflows_are_not_parallel() -> None:
    wf = load_workflow("wf.yaml", HEAD + "phases:\n  a: {transitions: [{to: b}]}\n  b: {}\n", providers=PROVIDERS)
    assert wf.limits.max_parallel == 4 and not wf.parallel and fan_outs(wf) == ()


def test_bad_fan_out_lists_and_keys_are_located() -> None:
    found = errors(
        """\
        limits: {max_parallel: 0}
        phases:
          a:
            join: some
            transitions:
              - to: [b]
              - to: [b, b]
              - to: [b, $end]
              - to: [b, nope]
          b: {}
        """
    )
    assert "wf.yaml:4:24: error: 'max_parallel' must be at least 1" in found[0]
    assert any(":7:11: error: join must be 'all', 'any' or 'all_done', not 'some'" in d for d in found)
    assert any(":9:13: error: a fan-out of 'a' needs at least two phases" in d for d in found)
    assert any(":10:17: error: phase 'b' is listed twice in the fan-out of 'a'" in d for d in found)
    assert any(":11:17: error: a fan-out cannot go to '$end'" in d for d in found)
    assert any(":12:17: error: transition of 'a' goes to unknown phase 'nope'" in d for d in found)


def test_branches_must_be_disjoint() -> None:
    found = errors(
        """\
        phases:
          a: {transitions: [{to: [b, c]}]}
          b: {transitions: [{to: shared}]}
          c: {transitions: [{to: shared}]}
          shared: {transitions: [{to: j}]}
          j: {join: all}
        """
    )
    assert found == [
        "wf.yaml:8:3: error: phase 'shared' is reachable from two branches of the fan-out of 'a' "
        "('b' and 'c'); branches must be disjoint"
    ]


def test_every_path_from_a_branch_ends_at_the_same_join_or_fail() -> None:
    found = errors(
        """\
        phases:
          a: {transitions: [{to: [b, c]}]}
          b: {transitions: [{to: j1, when: decision == "approved"}, {to: $end}]}
          c: {transitions: [{to: j2, when: decision == "approved"}, {to: $fail}]}
          d: {}
          j1: {join: all}
          j2: {join: any}
        """
    )
    assert "wf.yaml:5:26: error: every branch of the fan-out of 'a' must end at the same join (found j1, j2)" in found
    assert any(":6:66: error: '$end' inside a branch of the fan-out of 'a'" in d for d in found)


def test_a_terminal_phase_in_a_branch_and_a_fan_out_without_join_are_errors() -> None:
    found = errors(
        """\
        phases:
          a: {transitions: [{to: [b, c]}]}
          b: {}
          c: {transitions: [{to: $fail}]}
        """
    )
    assert "wf.yaml:5:26: error: the branches of the fan-out of 'a' never reach a phase marked 'join:'" in found
    assert any(":6:3: error: phase 'b' in branch 'b' of the fan-out of 'a' has no transitions" in d for d in found)


def test_no_fan_out_inside_a_branch() -> None:
    found = errors(
        """\
        phases:
          a: {transitions: [{to: [b, c]}]}
          b: {transitions: [{to: [d, e]}]}
          c: {transitions: [{to: j}]}
          d: {transitions: [{to: j}]}
          e: {transitions: [{to: j}]}
          j: {join: all}
        """
    )
    assert any(
        ":6:26: error: fan-out inside branch 'b' of the fan-out of 'a': format 1 does not nest" in d for d in found
    )


def test_a_join_is_entered_only_from_its_fan_outs_branches() -> None:
    found = errors(
        """\
        phases:
          a: {transitions: [{to: [b, c], when: decision == "approved"}, {to: j}]}
          b: {transitions: [{to: j}]}
          c: {transitions: [{to: j}]}
          j: {join: all}
          lone: {join: any}
        """
    )
    assert "wf.yaml:5:70: error: join phase 'j' is entered only from the branches of its fan-out, not from 'a'" in found
    assert "wf.yaml:9:3: error: join phase 'lone' is not reached by the branches of any fan-out" in found


def test_a_branch_phase_is_entered_only_from_its_fan_out_or_its_branch() -> None:
    found = errors(
        """\
        phases:
          a: {transitions: [{to: [b, c], when: decision == "approved"}, {to: c}]}
          b: {transitions: [{to: j}]}
          c: {transitions: [{to: j}]}
          j: {join: all, transitions: [{to: b}]}
        """
    )
    assert any(
        ":5:70: error: phase 'c' belongs to branch 'c' of the fan-out of 'a' and cannot be entered from 'a'" in d
        for d in found
    )
    assert any(
        ":8:37: error: phase 'b' belongs to branch 'b' of the fan-out of 'a' and cannot be entered from 'j'" in d
        for d in found
    )


def test_on_conflict_rules() -> None:
    found = errors(
        """\
        phases:
          a: {transitions: [{to: [b, c]}]}
          b: {transitions: [{to: j}]}
          c: {transitions: [{to: j}, {to: fix, when: decision == "blocked"}]}
          j: {join: all, on_conflict: fix, transitions: [{to: other}]}
          other: {on_conflict: fix, transitions: [{to: $end}]}
          fix: {transitions: [{to: $end}]}
          ghost: {join: any, on_conflict: nobody}
        """
    )
    assert any(":9:24: error: on_conflict is only allowed on a join phase ('other' has no 'join:')" in d for d in found)
    assert "wf.yaml:10:3: error: on_conflict phase 'fix' must have no transitions (it only resolves)" in found
    assert any(":7:35: error: phase 'fix' is an on_conflict resolver and is reachable only as one" in d for d in found)
    assert any("on_conflict of 'ghost' names unknown phase 'nobody'" in d for d in found)


def test_merge_paths_are_known_guard_and_template_paths() -> None:
    ok = GOOD.replace('run: "true"\n  resolve', 'run: "echo {{ merge.status }}"\n  resolve')
    assert errors(ok) == []
    bad = GOOD.replace("{{ merge.branch }}", "{{ merge.brnch }}")
    assert any(
        "unknown path 'merge.brnch': merge has branch, conflicts, status (did you mean 'branch'?)" in d
        for d in errors(bad)
    )


def test_graph_draws_fan_outs_and_joins() -> None:
    wf = load_workflow("wf.yaml", HEAD + GOOD, providers=PROVIDERS)
    mermaid = render_mermaid(wf)
    assert 'p_plan ==>|"fan-out"| p_backend' in mermaid and 'p_plan ==>|"fan-out"| p_frontend' in mermaid
    assert 'p_integrate -.->|"on conflict"| p_resolve' in mermaid
    assert 'p_integrate[/"integrate (command, join: all)"/]' in mermaid
    dot = render_dot(wf)
    assert '"plan" -> "backend" [label="fan-out", style=bold];' in dot
    assert '"plan" -> "frontend" [label="fan-out", style=bold];' in dot
    assert '"integrate" -> "resolve" [label="on conflict", style=dashed];' in dot
    assert "integrate (command, join: all)" in dot


def test_no_approval_inside_a_branch() -> None:
    found = errors(
        """\
        phases:
          a: {transitions: [{to: [b, c]}]}
          b: {type: approval, transitions: [{to: j}]}
          c: {transitions: [{to: j}]}
          j: {join: all}
        """
    )
    assert found == [
        "wf.yaml:6:3: error: approval phase 'b' inside branch 'b' of the fan-out of 'a': approvals run on the run branch"
    ]
