"""Typed outputs at ``validate`` (SPEC §12): the ``output:`` schema checked against the draft 2020-12
meta-schema with FILE:LINE:COL, ``decision`` merged in, and the static typing of guard and template paths."""

from __future__ import annotations

import textwrap

import pytest

from alphred.providers import default_registry
from alphred.runtime.typed_output import typed_answer
from alphred.workflow import check_workflow, load_workflow

PROVIDERS = default_registry()
HEAD = "alphred: 1\nkey: wf\n"

TRIAGE = """\
phases:
  triage:
    provider: scripted
    decisions: [approved, changes_requested]
    output:
      type: object
      required: [severity, tasks]
      properties:
        severity: {enum: [low, medium, high]}
        tasks: {type: array, items: {type: object, properties: {title: {type: string}}}}
        needs_design: {type: boolean}
        count: {type: integer}
        owner: {type: object, properties: {name: {type: string}}}
    transitions:
      - to: design
        when: 'WHEN'
      - to: $end
  design:
    provider: scripted
    prompt: 'PROMPT'
"""


def load(text: str):  # type: ignore[no-untyped-def]
    return load_workflow("wf.yaml", text, providers=PROVIDERS)


def diagnostics(text: str, strict: bool = False) -> list[str]:
    _, found = check_workflow("wf.yaml", HEAD + textwrap.dedent(text), providers=PROVIDERS, strict=strict)
    return [d.format() for d in found]


def triage(when: str, prompt: str = "go", strict: bool = False) -> list[str]:
    return diagnostics(TRIAGE.replace("WHEN", when).replace("PROMPT", prompt), strict)


def test_the_schema_loads_with_the_decision_merged_as_a_required_enum() -> None:
    wf = load(HEAD + TRIAGE.replace("WHEN", "report.needs_design").replace("PROMPT", "go"))
    output = wf.phase("triage").output
    assert output is not None
    assert output["properties"]["decision"]["enum"] == ["approved", "changes_requested"]
    assert output["required"] == ["severity", "tasks", "decision"]
    assert wf.phase("design").output is None


def test_without_declared_decisions_or_routing_on_one_the_decision_is_optional() -> None:
    wf = load(
        HEAD + "phases:\n  a:\n    provider: scripted\n    output: {type: object, properties: {x: {type: string}}}\n",
    )
    output = wf.phase("a").output
    assert output is not None and "decision" in output["properties"] and "required" not in output


def test_command_phases_take_output_without_a_decision() -> None:
    wf = load(HEAD + "phases:\n  a:\n    type: command\n    run: 'true'\n    output: {type: object}\n")
    assert wf.phase("a").output == {"type": "object"}


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("{type: object, properties: {n: {type: integer, minimum: x}}}", "wf.yaml:6:69: error: 'output' of phase 'a' "
         "is not a valid JSON Schema at 'properties/n/minimum': 'x' is not of type 'number'"),
        ("{type: object, required: fine}", "wf.yaml:6:38: error: 'output' of phase 'a' is not a valid JSON Schema at "
         "'required': 'fine' is not of type 'array'"),
        ("{type: array}", "wf.yaml:6:20: error: 'output' of phase 'a' must be an object schema ('type: object')"),
        ("{properties: {}}", "wf.yaml:6:13: error: 'output' of phase 'a' must be an object schema ('type: object')"),
        ("[a, b]", "wf.yaml:6:13: error: 'output' of phase 'a' must be a JSON Schema mapping"),
        ("{type: object, properties: {decision: {type: string}}}", "wf.yaml:6:51: error: 'output' of phase 'a' must "
         "not declare 'decision': Alphred adds it from the phase's decisions"),
        ("{type: object, $schema: 'http://json-schema.org/draft-07/schema#'}", "wf.yaml:6:37: error: 'output' schemas "
         "are JSON Schema draft 2020-12"),
        ("{type: object, default: 2024-01-01}", "must be plain JSON data"),
    ],
)  # fmt: skip
def test_bad_schemas_are_located_errors(output: str, expected: str) -> None:
    found = diagnostics(f"phases:\n  a:\n    provider: scripted\n    output: {output}\n")
    assert any(expected in line for line in found), found


def test_a_valid_workflow_has_no_diagnostics() -> None:
    assert triage('report.needs_design and report.severity == "high" and decision == "approved"') == []
    assert triage('report.severity in ["low", "high"] or report.count >= 3 or "x" in report.tasks') == []
    assert triage('report.owner.name == "ann" or report.severity == null') == []


@pytest.mark.parametrize(
    ("when", "message"),
    [
        ('report.sevrity == "high"', "error: unknown path 'report.sevrity': the output of 'triage' has no 'sevrity' "
         "(severity, tasks, needs_design, count, owner, decision) (did you mean 'severity'?) in guard of 'triage'"),
        ("phases.triage.report.ownr.name", "unknown path 'phases.triage.report.ownr': the output of 'triage' "
         "has no 'ownr'"),
        ("report.owner.nmae", "(did you mean 'name'?)"),
        ('report.severity == "hihg"', "error: 'report.severity' is one of \"low\", \"medium\", \"high\"; \"hihg\" is "
         "not (did you mean 'high'?) in guard of 'triage'"),
        ('report.severity in ["low", "huge"]', "'report.severity' is one of \"low\", \"medium\", \"high\"; \"huge\" "
         "is not"),
        ('"high" != report.severity and report.tasks == "none"', "error: 'report.tasks' is a list: comparing it with "
         "a string is always false in guard of 'triage'"),
        ("report.needs_design == 1", "'report.needs_design' is a boolean: comparing it with a number is always false"),
        ('report.count > "3"', "'report.count' is a number: ordering it against a string is always false"),
        ('"x" in report.count', "'report.count' is a number: 'in report.count' is always false"),
        ("report.tasks.title", "unknown path 'report.tasks.title': 'report.tasks' is a list, it has no fields"),
    ],
)  # fmt: skip
def test_typed_guard_paths_are_checked(when: str, message: str) -> None:
    found = triage(when)
    assert any(message in line and line.startswith("wf.yaml:18:15:") for line in found), found


def test_typed_template_paths_are_checked_through_phases_and_the_routing_phase() -> None:
    found = triage("report.needs_design", "{{ phases.triage.report.sevrity }} {{ report.tsks }} {{ report.tasks }}")
    assert any(
        "unknown path 'phases.triage.report.sevrity'" in line and "in prompt of 'design'" in line for line in found
    )
    assert any("unknown path 'report.tsks'" in line and "(did you mean 'tasks'?)" in line for line in found)
    assert not any("report.tasks " in line for line in found)


def test_untyped_reports_keep_null_when_missing_and_strict_warns() -> None:
    text = """\
    phases:
      a:
        provider: scripted
        transitions:
          - to: b
            when: report.anything == "x"
          - to: $end
      b:
        provider: scripted
        prompt: "{{ phases.a.report.whatever }}"
    """
    assert diagnostics(text) == []
    warned = diagnostics(text, strict=True)
    assert any(
        line.startswith("wf.yaml:8:")
        and "warning: 'report.anything' in guard of 'a' reads the report of 'a', which has no 'output:'" in line
        for line in warned
    ), warned
    assert any("'phases.a.report.whatever' in prompt of 'b'" in line for line in warned), warned


def test_a_schema_the_checker_does_not_follow_leaves_the_path_unchecked() -> None:
    text = """\
    phases:
      a:
        provider: scripted
        output: {type: object, properties: {x: {anyOf: [{type: object}, {type: string}]}}, additionalProperties: {type: integer}}
        transitions:
          - to: $end
            when: report.x.y == 1 or report.other == 2
          - to: $end
    """
    assert diagnostics(text) == []


def test_a_scripted_report_that_breaks_the_schema_is_a_warning() -> None:
    text = """\
    phases:
      a:
        provider: scripted
        output: {type: object, required: [n], properties: {n: {type: integer}}}
        script: [{report: {n: "one"}}, {report: {n: 1}}, {report: text}]
    """
    found = diagnostics(text)
    assert sum("warning: the report of script entry" in line for line in found) == 2, found
    assert any("entry 1" in line and "/n: 'one' is not of type 'integer'" in line for line in found), found
    assert any("entry 3" in line and "it is not an object" in line for line in found), found


def test_answers_are_validated_with_each_violation_as_a_pointer() -> None:
    wf = load(HEAD + TRIAGE.replace("WHEN", "report.needs_design").replace("PROMPT", "go"))
    phase = wf.phase("triage")
    good = typed_answer(phase, "approved", {"severity": "low", "tasks": []}, "")
    assert good.violations == () and good.report == {"severity": "low", "tasks": [], "decision": "approved"}
    bad = typed_answer(phase, None, {"severity": "hihg", "tasks": [{"title": 3}]}, "")
    assert bad.violations == (
        "(root): 'decision' is a required property",
        "/severity: 'hihg' is not one of ['low', 'medium', 'high']",
        "/tasks/0/title: 3 is not of type 'string'",
    )
    plain = typed_answer(phase, None, None, '```json\n{"severity": "high", "tasks": [], "decision": "approved"}\n```')
    assert plain.violations == () and plain.decision == "approved"
    missing = typed_answer(phase, "approved", None, "no json here")
    assert missing.report is None and missing.violations[0].startswith("(root): the phase gave no report object")


def test_the_dry_run_stand_in_answers_a_conforming_report_that_meets_the_guard() -> None:
    from jsonschema import Draft202012Validator

    from alphred.providers.dryrun_reports import stub_reports

    wf = load(HEAD + TRIAGE.replace("WHEN", 'report.severity == "high"').replace("PROMPT", "go"))
    report = stub_reports(wf)["triage"]
    assert report == {"severity": "high", "tasks": []}
    schema = wf.phase("triage").output
    assert schema is not None
    assert list(Draft202012Validator(schema).iter_errors({**report, "decision": "approved"})) == []
