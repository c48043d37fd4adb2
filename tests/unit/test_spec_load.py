"""Workflow loading and validation: every rule of SPEC §2 with exact FILE:LINE:COL messages."""

from __future__ import annotations

import textwrap

import pytest

from alphred.errors import WorkflowInvalidError
from alphred.providers import default_registry
from alphred.workflow import PhaseType, check_workflow, load_workflow
from alphred.workflow.model import APPROVAL_DECISIONS, DEFAULT_DECISIONS

PROVIDERS = default_registry()  # every installed provider, as the CLI has them

HEAD = "alphred: 1\nkey: wf\n"


def diags(text: str) -> list[str]:
    _, found = check_workflow("wf.yaml", textwrap.dedent(text), providers=PROVIDERS)
    return [d.format() for d in found]


def errors(text: str) -> list[str]:
    return [d for d in diags(text) if ": error: " in d]


def test_minimal_workflow_gets_every_default() -> None:
    wf = load_workflow("wf.yaml", HEAD + "phases:\n  a:\n    provider: scripted\n", providers=PROVIDERS)
    (phase,) = wf.phases
    assert wf.key == "wf" and wf.start == "a" and wf.limits.max_steps == 100
    assert phase.type is PhaseType.AGENT and phase.provider == "scripted"
    assert phase.decisions == DEFAULT_DECISIONS and phase.max_retries == 0 and phase.max_visits == 10
    assert phase.idle_timeout == 600.0 and phase.timeout is None and phase.transitions == ()


def test_defaults_apply_to_matching_phase_types_only() -> None:
    wf = load_workflow(
        "wf.yaml",
        HEAD
        + textwrap.dedent(
            """\
            defaults: {provider: scripted, max_retries: 2, timeout: 20m}
            phases:
              a: {prompt: hi, transitions: [{to: b}]}
              b: {type: command, run: "true", transitions: [{to: c}]}
              c: {type: approval, message: 'ok?'}
            """
        ),
        providers=PROVIDERS,
    )
    a, b, c = wf.phases
    assert a.provider == "scripted" and a.max_retries == 2 and a.timeout == 1200.0
    assert b.provider is None and b.max_retries == 2 and b.run == "true"
    assert c.type is PhaseType.APPROVAL and c.decisions == APPROVAL_DECISIONS
    assert [p.sequence_index for p in wf.phases] == [0, 1, 2]


def test_transitions_keep_priority_order_and_explicit_priorities() -> None:
    wf = load_workflow(
        "wf.yaml",
        HEAD
        + textwrap.dedent(
            """\
            phases:
              a:
                provider: scripted
                transitions:
                  - {to: $end, priority: 9}
                  - {to: b, when: decision == "approved", max: 2, priority: 3}
              b: {type: command, run: "true"}
            """
        ),
        providers=PROVIDERS,
    )
    first, second = wf.phase("a").transitions
    assert (first.target, first.priority, first.max, first.auto) == ("b", 3, 2, False)
    assert (second.target, second.priority, second.auto) == ("$end", 9, True)


@pytest.mark.parametrize(
    ("value", "seconds"), [("90s", 90.0), ("20m", 1200.0), ("2h", 7200.0), ("45", 45.0), ("1.5m", 90.0)]
)
def test_durations(value: str, seconds: float) -> None:
    wf = load_workflow(
        "wf.yaml", HEAD + f"phases:\n  a:\n    provider: scripted\n    timeout: {value}\n", providers=PROVIDERS
    )
    assert wf.phases[0].timeout == seconds


def test_yaml_syntax_error_is_located() -> None:
    assert errors("alphred: 1\nkey: [wf\nphases: {}\n") == [
        "wf.yaml:3:7: error: YAML syntax error: expected ',' or ']', but got ':'"
    ]


def test_no_arbitrary_tags() -> None:
    found = errors(HEAD + "phases: !!python/object/apply:os.system ['echo pwned']\n")
    assert found == ["wf.yaml:3:9: error: YAML not allowed: tags are not allowed (!!python/object/apply:os.system)"]


def test_unknown_keys_with_did_you_mean_and_missing_fields() -> None:
    text = """\
    alphred: 1
    phases:
      a:
        provider: scripted
        promt: hello
        transitons: []
    limits: {max_step: 3}
    """
    assert errors(text) == [
        "wf.yaml:1:1: error: missing required field 'key'",
        "wf.yaml:5:5: error: unknown key 'promt' in agent phase (scripted) 'a' (did you mean 'prompt'?)",
        "wf.yaml:6:5: error: unknown key 'transitons' in agent phase (scripted) 'a' (did you mean 'transitions'?)",
        "wf.yaml:7:10: error: unknown key 'max_step' in limits (did you mean 'max_steps'?)",
    ]


def test_provider_specific_keys_are_checked_against_the_provider() -> None:
    text = HEAD + "phases:\n  a:\n    provider: claude\n    script: [{decision: approved}]\n"
    assert errors(text) == ["wf.yaml:6:5: error: unknown key 'script' in agent phase (claude) 'a'"]


def test_required_fields_per_phase_type() -> None:
    text = HEAD + "phases:\n  a: {prompt: hi}\n  b: {type: command}\n  c: {type: approval, decisions: [x]}\n"
    assert errors(text) == [
        "wf.yaml:4:3: error: agent phase 'a' needs a provider (set 'provider:' or defaults.provider)",
        "wf.yaml:5:3: error: command phase 'b' needs 'run'",
        "wf.yaml:6:23: error: unknown key 'decisions' in approval phase 'c' "
        "(approval decisions are fixed: approved, rejected)",
    ]


def test_targets_reserved_and_unknown() -> None:
    text = HEAD + textwrap.dedent(
        """\
        phases:
          build:
            provider: scripted
            transitions:
              - to: biuld
              - to: $done
          $end: {provider: scripted}
        """
    )
    assert errors(text) == [
        "wf.yaml:7:13: error: transition of 'build' goes to unknown phase 'biuld' (did you mean 'build'?)",
        "wf.yaml:8:13: error: unknown reserved target '$done' (use $end or $fail)",
        "wf.yaml:9:3: error: '$end' is a reserved target and cannot be a phase key",
    ]


def test_duplicate_priorities_and_duplicate_keys() -> None:
    text = HEAD + textwrap.dedent(
        """\
        phases:
          a:
            provider: scripted
            transitions:
              - {to: $end, priority: 1}
              - {to: $fail, priority: 1}
          a: {provider: scripted}
        """
    )
    assert errors(text) == [
        "wf.yaml:8:31: error: duplicate priority 1 in phase 'a' (also at line 7)",
        "wf.yaml:9:3: error: duplicate key 'a' (first defined at line 4)",
    ]


def test_guard_syntax_error_has_caret_at_the_file_column() -> None:
    text = (
        HEAD
        + 'phases:\n  a:\n    provider: scripted\n    transitions:\n      - to: $end\n        when: decision == == "x"\n'
    )
    (message,) = errors(text)
    assert message.startswith("wf.yaml:8:27: error: invalid guard:")
    assert message.endswith('    decision == == "x"\n                ^')


def test_quoted_guard_column_accounts_for_the_quote() -> None:
    text = (
        HEAD
        + "phases:\n  a:\n    provider: scripted\n    transitions:\n      - to: $end\n        when: 'decision ==)'\n"
    )
    (message,) = errors(text)
    assert message.startswith("wf.yaml:8:27: error: invalid guard:")


def test_unknown_guard_and_template_paths() -> None:
    text = HEAD + textwrap.dedent(
        """\
        inputs:
          issue: {required: true}
        phases:
          a:
            provider: scripted
            prompt: "Fix {{ inputs.isue }} {{ phases.a.reprot }}"
            transitions:
              - to: $end
                when: run.token > 3 or phase.a.decision == "x"
        """
    )
    assert errors(text) == [
        "wf.yaml:8:13: error: unknown path 'inputs.isue': no input 'isue' is declared (did you mean 'issue'?) "
        "in prompt of 'a'",
        "wf.yaml:8:13: error: unknown path 'phases.a.reprot': phases have decision, report, exit_code, visits, "
        "status (did you mean 'report'?) in prompt of 'a'",
        "wf.yaml:11:15: error: unknown path 'run.token': run has tokens, cost_usd, steps (did you mean 'tokens'?) "
        "in guard of 'a'",
        "wf.yaml:11:15: error: unknown path 'phase.a.decision' (did you mean 'phases'?) in guard of 'a'",
    ]


def test_decisions_used_but_not_declared() -> None:
    text = HEAD + textwrap.dedent(
        """\
        phases:
          review:
            provider: scripted
            decisions: [approved, changes_requested]
            transitions:
              - {to: fix, when: 'decision in ["approved", "rejected"]'}
              - {to: $end}
          fix:
            type: command
            run: "true"
            transitions:
              - {to: $end, when: 'phases.review.decision == "aproved"'}
              - {to: $fail, when: 'decision == "x"'}
        """
    )
    assert errors(text) == [
        "wf.yaml:8:25: error: decision 'rejected' is not declared by phase 'review' "
        "(decisions: approved, changes_requested)",
        "wf.yaml:14:26: error: decision 'aproved' is not declared by phase 'review' "
        "(decisions: approved, changes_requested) (did you mean 'approved'?)",
        "wf.yaml:15:27: error: command phase 'fix' has no decision (route on exit_code instead)",
    ]


def test_warnings_unreachable_and_non_exhaustive() -> None:
    text = HEAD + textwrap.dedent(
        """\
        phases:
          review:
            provider: scripted
            decisions: [approved, changes_requested]
            transitions:
              - {to: $end, when: decision == "approved"}
          tests:
            type: command
            run: "true"
            allow_failure: true
            transitions:
              - {to: $end, when: exit_code == 0}
              - {to: review, when: exit_code != 0}
          gate:
            type: approval
            transitions:
              - {to: $end, when: decision == "approved"}
        """
    )
    assert diags(text) == [
        "wf.yaml:4:3: warning: no transition of 'review' matches decision 'changes_requested'; "
        "the run would then complete with no_route",
        "wf.yaml:9:3: warning: phase 'tests' is unreachable from 'review'",
        "wf.yaml:16:3: warning: phase 'gate' is unreachable from 'review'",
        "wf.yaml:16:3: warning: no transition of 'gate' matches decision 'rejected'; "
        "the run would then complete with no_route",
    ]
    loaded = load_workflow("wf.yaml", textwrap.dedent(text), providers=PROVIDERS)
    assert loaded.key == "wf"  # warnings never fail loading


def test_capped_edge_does_not_make_guards_exhaustive() -> None:
    text = HEAD + textwrap.dedent(
        """\
        phases:
          a:
            provider: scripted
            transitions:
              - {to: a, max: 2}
        """
    )
    assert diags(text) == [
        "wf.yaml:4:3: warning: every transition of 'a' has 'max'; once they are used up "
        "the run would complete with no_route"
    ]


def test_bad_scalars_are_all_reported() -> None:
    text = HEAD + textwrap.dedent(
        """\
        inputs:
          x: {required: true, default: 1}
          bad-name: {}
        limits: {max_steps: 0, max_tokens: lots, max_cost_usd: -1}
        phases:
          a:
            provider: scripted
            timeout: 5x
            max_retries: -1
            max_visits: yes
        """
    )
    assert errors(text) == [
        "wf.yaml:4:32: error: input 'x' has a default, so it cannot be required",
        "wf.yaml:5:3: error: input name 'bad-name' must match [A-Za-z_][A-Za-z0-9_]*",
        "wf.yaml:6:21: error: 'max_steps' must be at least 1",
        "wf.yaml:6:36: error: 'max_tokens' must be an integer",
        "wf.yaml:6:56: error: 'max_cost_usd' must be a positive number",
        "wf.yaml:10:14: error: bad duration '5x' for 'timeout': use 90s, 20m, 2h or a number of seconds up to a year",
        "wf.yaml:11:18: error: 'max_retries' must be at least 0",
        "wf.yaml:12:17: error: 'max_visits' must be an integer",
    ]


def test_format_version_and_keys() -> None:
    text = (
        "alphred: 2\nkey: Bad_Key\nstart: nope\nphases:\n  My-Phase: {provider: scripted}\n  ok: {provider: scripted}\n"
    )
    assert errors(text) == [
        "wf.yaml:1:10: error: unsupported format version 2: this Alphred reads 'alphred: 1'",
        "wf.yaml:2:6: error: workflow key 'Bad_Key' must match [a-z0-9][a-z0-9_-]{0,63}",
        "wf.yaml:3:8: error: start phase 'nope' is not a phase",
        "wf.yaml:5:3: error: phase key 'My-Phase' must match [a-z_][a-z0-9_]* (try 'my_phase')",
    ]


def test_pull_request_block() -> None:
    text = HEAD + textwrap.dedent(
        """\
        pull_request: {title: "Fix {{ inputs.nope }}", body_from: reveiw, draft: maybe, provider: gitlab}
        phases:
          review: {provider: scripted}
        """
    )
    assert errors(text) == [
        "wf.yaml:3:23: error: unknown path 'inputs.nope': no input 'nope' is declared in pull_request title",
        "wf.yaml:3:59: error: body_from names unknown phase 'reveiw' (did you mean 'review'?)",
        "wf.yaml:3:74: error: 'draft' must be true or false",
        "wf.yaml:3:91: error: pull_request provider must be github or azure, not 'gitlab'",
    ]


def test_invalid_workflow_raises_with_every_diagnostic() -> None:
    with pytest.raises(WorkflowInvalidError) as info:
        load_workflow("wf.yaml", "alphred: 1\nphases: []\n", providers=PROVIDERS)
    assert info.value.exit_code == 2 and info.value.code == "WORKFLOW_INVALID"
    assert [d.format() for d in info.value.diagnostics] == [
        "wf.yaml:1:1: error: missing required field 'key'",
        "wf.yaml:2:9: error: 'phases' must be a mapping of phase keys to phases",
    ]


def test_same_text_same_hash_changed_text_new_hash() -> None:
    base = HEAD + "phases:\n  a: {provider: scripted}\n"
    assert (
        load_workflow("x.yaml", base, providers=PROVIDERS).content_hash
        == load_workflow("y.yaml", base, providers=PROVIDERS).content_hash
    )
    assert (
        load_workflow("x.yaml", base, providers=PROVIDERS).content_hash
        != load_workflow("x.yaml", base + "# c\n", providers=PROVIDERS).content_hash
    )


def test_pull_request_and_ci_phases_and_the_conditional_pull_request_are_validated() -> None:
    found = errors(
        """\
        alphred: 1
        key: wf
        pull_request: {when: "phases.nope.status == 'completed'", required: maybe}
        phases:
          a: {provider: scripted, script: [{report: r}]}
          pr: {type: pull_request, title: "T {{ inputs.x }}", body_from: b, labels: [x], reviewerz: [y]}
          wait: {type: ci, poll: soon, required_only: true, run: make}
        """
    )
    assert "wf.yaml:3:22: error: unknown path 'phases.nope.status': no phase 'nope' in pull_request when" in found
    assert any(":3:" in e and "'required' must be" in e for e in found)
    assert any(
        ":6:" in e and "unknown key 'reviewerz' in pull_request phase 'pr' (did you mean 'reviewers'?)" in e
        for e in found
    )
    assert any(":6:" in e and "body_from names unknown phase 'b'" in e for e in found)
    assert any(":6:" in e and "no input 'x'" in e for e in found)
    assert any(":7:" in e and "unknown key 'run' in ci phase 'wait'" in e for e in found)
    assert any(":7:" in e and "poll" in e for e in found)
    workflow, _ = check_workflow(
        "wf.yaml",
        "alphred: 1\nkey: wf\nphases:\n  pr: {type: pull_request, draft: true, labels: [bot]}\n  wait: {type: ci}\n",
        providers=PROVIDERS,
    )
    assert workflow is not None
    pr, wait = workflow.phases
    assert (pr.type, pr.options["draft"], pr.options["labels"]) == (PhaseType.PULL_REQUEST, True, ["bot"])
    assert (wait.type, wait.timeout, wait.options["poll"], wait.options["required_only"]) == (
        PhaseType.CI,
        3600.0,
        30.0,
        True,
    )


def test_pull_request_and_ci_phases_run_on_the_run_branch_only() -> None:
    found = errors(
        """\
        alphred: 1
        key: wf
        phases:
          a: {provider: scripted, script: [{report: r}], transitions: [{to: [pr, wait]}]}
          pr: {type: pull_request, transitions: [{to: j}]}
          wait: {type: ci, transitions: [{to: j}]}
          j: {type: command, run: "true", join: all}
        """
    )
    assert any(":5:" in e and "pull_request phase 'pr' inside branch 'pr'" in e for e in found), found
    assert any(":6:" in e and "ci phase 'wait' inside branch 'wait'" in e for e in found), found


def test_graph_draws_pull_request_and_ci_phases() -> None:
    from pathlib import Path

    from alphred.workflow.diagram import render_dot, render_mermaid

    path = Path(__file__).resolve().parents[2] / "workflows" / "fix-until-green.yaml"
    workflow, _ = check_workflow(str(path), path.read_text(), providers=default_registry(builtin_only=True))
    assert workflow is not None
    mermaid = render_mermaid(workflow)
    assert 'p_open_pr[["open_pr (pull_request)"]]' in mermaid and 'p_ci(["ci (ci)"])' in mermaid
    dot = render_dot(workflow)
    assert "shape=box3d" in dot and "shape=hexagon" in dot
