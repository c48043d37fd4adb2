"""Dynamic fan-out, guarded branches and ``join: all_done`` in the workflow format (SPEC §13)."""

from __future__ import annotations

import textwrap

import pytest

from alphred.providers import default_registry
from alphred.workflow import check_workflow, load_workflow
from alphred.workflow.model import base_key, instance_key

PROVIDERS = default_registry()
HEAD = "alphred: 1\nkey: wf\ndefaults: {provider: scripted}\n"

GOOD = """\
limits: {max_items: 7}
phases:
  plan:
    transitions:
      - to: implement
        for_each: report.tasks
        as: task
  implement:
    prompt: "Implement {{ task.title }} (item {{ task_index }})"
    transitions: [{to: test}]
  test:
    type: command
    run: "echo {{ task.title }}"
    transitions: [{to: integrate, when: exit_code == 0}, {to: $fail}]
  integrate:
    join: all_done
    prompt: "{{ branches.completed }} {{ branches.failed }} {{ branches.results }}"
    transitions: [{to: $end, when: 'branches.failed == []'}, {to: $fail}]
"""


def errors(text: str) -> list[str]:
    _, found = check_workflow("wf.yaml", HEAD + textwrap.dedent(text), providers=PROVIDERS)
    return [d.format() for d in found if d.severity == "error"]


def test_a_for_each_loads_as_a_one_phase_fan_out_with_its_path_alias_and_limit() -> None:
    assert errors(GOOD) == []
    wf = load_workflow("wf.yaml", HEAD + GOOD, providers=PROVIDERS)
    (edge,) = wf.phase("plan").transitions
    assert (edge.target, edge.fan_out, edge.for_each, edge.alias) == (
        "implement",
        ("implement",),
        ("report", "tasks"),
        "task",
    )
    assert wf.limits.max_items == 7 and wf.phase("integrate").join == "all_done"
    assert wf.item_alias("implement") == "task" and wf.item_alias("test-3") == "task"
    assert wf.item_alias("plan") is None and wf.item_alias("integrate") is None
    assert wf.phase("test-3").key == "test-3" and wf.phase("test-3").run == wf.phase("test").run
    assert wf.predecessors("test-3") == ("implement-3",) and wf.predecessors("implement-3") == ("plan",)


def test_max_items_defaults_to_twenty() -> None:
    wf = load_workflow("wf.yaml", HEAD + GOOD.replace("limits: {max_items: 7}\n", ""), providers=PROVIDERS)
    assert wf.limits.max_items == 20


def test_instance_keys_never_collide_with_phase_keys() -> None:
    assert instance_key("implement", 12) == "implement-12" and base_key("implement-12") == "implement"
    assert base_key("implement") == "implement" and base_key("a-b") == "a-b"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "for_each: report.tasks",
            "for_each: reprt.tasks",
            "unknown path 'reprt.tasks' (did you mean 'report'?) in for_each of 'plan'",
        ),
        ("for_each: report.tasks", "for_each: report.tasks == 1", "for_each must be a guard path that yields a list"),
        ("        as: task\n", "", "for_each needs 'as'"),
        ("as: task", "as: report", "'as: report' shadows the reserved path 'report'"),
        ("as: task", "as: branches", "'as: branches' shadows the reserved path 'branches'"),
        ("as: task", "as: Task-1", "'as' must be a name of lower-case letters"),
        ("to: implement\n", "to: [implement, test]\n", "for_each goes to one phase"),
        ("join: all_done", "join: some", "join must be 'all', 'any' or 'all_done', not 'some'"),
        ("{{ branches.failed }}", "{{ branches.failing }}", "unknown path 'branches.failing': branches has"),
        ("max_items: 7", "max_items: 0", "max_items"),
    ],
)
def test_each_for_each_mistake_is_an_error_at_its_line(old: str, new: str, message: str) -> None:
    assert old in GOOD
    found = errors(GOOD.replace(old, new))
    assert any(message in line for line in found), found
    assert all(line.startswith("wf.yaml:") for line in found)


def test_the_item_is_readable_only_inside_its_branch() -> None:
    found = errors(
        GOOD.replace('prompt: "{{ branches.completed }}', 'prompt: "{{ task.title }} {{ branches.completed }}')
    )
    assert any("unknown path 'task.title' in prompt of 'integrate'" in line for line in found), found


def test_as_without_for_each_is_an_error() -> None:
    found = errors(GOOD.replace("      - to: implement\n        for_each: report.tasks\n", "      - to: implement\n"))
    assert any("'as' of a transition of 'plan' needs 'for_each'" in line for line in found), found


def test_a_guarded_branch_reads_known_paths_and_needs_a_phase() -> None:
    text = """\
    inputs: {lint: {default: "no"}}
    phases:
      plan: {transitions: [{to: [a, {phase: b, when: 'inputs.lint == "yes"'}]}]}
      a: {transitions: [{to: j}]}
      b: {transitions: [{to: j}]}
      j: {join: all, prompt: "{{ branches.skipped }}"}
    """
    assert errors(text) == []
    wf = load_workflow("wf.yaml", HEAD + textwrap.dedent(text), providers=PROVIDERS)
    (edge,) = wf.phase("plan").transitions
    assert edge.fan_out == ("a", "b") and edge.branch_whens == (None, 'inputs.lint == "yes"')
    found = errors(text.replace("inputs.lint", "inputs.lnt"))
    assert any("in guard of branch 'b' of 'plan'" in line and ":6:50:" in line for line in found), found
    found = errors(text.replace("{phase: b, when:", "{when:"))
    assert any("a guarded branch needs 'phase'" in line for line in found), found


TYPED = """\
phases:
  plan:
    output:
      type: object
      required: [tasks, count]
      properties:
        tasks: {type: array, items: {type: object}}
        count: {type: integer}
    transitions: [{to: implement, for_each: report.tasks, as: task}]
  implement: {prompt: "{{ task.title }}", transitions: [{to: j}]}
  j: {join: all_done}
"""


def test_a_typed_for_each_path_must_be_a_list_of_the_schema() -> None:
    assert errors(TYPED) == []
    found = errors(TYPED.replace("for_each: report.tasks", "for_each: report.count"))
    assert any("reads 'report.count', which is a number, not a list" in line for line in found), found
    found = errors(TYPED.replace("for_each: report.tasks", "for_each: report.taks"))
    assert any("has no 'taks'" in line and "did you mean 'tasks'" in line for line in found), found


def test_a_branch_phase_whose_instance_key_cannot_be_stored_is_an_error() -> None:
    # run_nodes.node_key holds 64 characters: "<phase>-<index>" must fit for the largest index
    long_key = "t" * 62  # "-6" fits (max_items 7); "-19" (the default 20 items) does not
    fits = GOOD.replace("test", long_key)
    assert errors(fits) == []
    too_long = fits.replace("limits: {max_items: 7}\n", "")
    (message,) = errors(too_long)
    assert f"phase '{long_key}' of the for_each of 'plan'" in message and "longer than 64 characters" in message


ITEMS = """\
phases:
  plan:
    output:
      type: object
      required: [tasks]
      properties:
        tasks:
          type: array
          items:
            type: object
            required: [title]
            additionalProperties: false
            properties:
              title: {type: string}
              size: {enum: [small, large]}
              files: {type: array, items: {type: string}}
    transitions: [{to: implement, for_each: report.tasks, as: task}]
  implement:
    prompt: "Implement {{ task.title }} ({{ task_index }}): {{ task.files }}"
    transitions: [{to: j, when: 'task.size == "small"'}, {to: check}]
  check:
    type: command
    run: "echo {{ task.title }}"
    transitions: [{to: j}]
  j: {join: all_done}
"""


def test_an_item_path_is_typed_against_the_item_schema_of_a_typed_list() -> None:
    assert errors(ITEMS) == []
    found = errors(ITEMS.replace('"Implement {{ task.title }}', '"Implement {{ task.titel }}'))
    (message,) = found
    assert message.startswith("wf.yaml:22:13: error"), message  # line and column (HEAD is 3 lines)
    assert "unknown path 'task.titel': an item of 'report.tasks' of 'plan' has no 'titel'" in message
    assert "did you mean 'title'?" in message and "in prompt of 'implement'" in message
    # a guard of a branch phase, and a later phase of the same branch (command text), are checked too
    (message,) = errors(ITEMS.replace("when: 'task.size ==", "when: 'task.sise =="))
    assert ":23:" in message and "has no 'sise'" in message and "did you mean 'size'?" in message
    (message,) = errors(ITEMS.replace('run: "echo {{ task.title }}"', 'run: "echo {{ task.name }}"'))
    assert ":26:10:" in message and "has no 'name' (title, size, files)" in message
    # a value outside the item field's enum, a field read into a string, are the report paths' errors
    (message,) = errors(ITEMS.replace('task.size == "small"', 'task.size == "smal"'))
    assert '\'task.size\' is one of "small", "large"; "smal" is not' in message
    (message,) = errors(ITEMS.replace("{{ task.files }}", "{{ task.title.text }}"))
    assert "'task.title' is a string, it has no fields" in message


def test_an_item_path_is_checked_without_additional_properties_false_too() -> None:
    # as for typed report paths: a field not in ``properties`` is unknown unless the schema allows others
    text = ITEMS.replace("            additionalProperties: false\n", "")
    assert "has no 'titel'" in errors(text.replace("{{ task.title }} (", "{{ task.titel }} ("))[0]
    opened = text.replace("required: [title]\n", "required: [title]\n            additionalProperties: {}\n")
    assert errors(opened.replace("{{ task.title }} (", "{{ task.titel }} (")) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # an untyped planner (its report has no ``output:``): its list is not checked
        ("    output:\n", "    x_output:\n"),
        # a list whose items are not described, or described by a schema the check does not follow
        ("          items:\n            type: object\n", "          items:\n            $ref: '#/$defs/x'\n"),
        ("          items:\n", "          x_items:\n"),
    ],
)
def test_an_item_of_an_untyped_list_stays_unchecked(old: str, new: str) -> None:
    assert old in ITEMS
    text = ITEMS.replace(old, new)
    found = errors(text.replace("{{ task.title }} (", "{{ task.anything }} ("))
    assert not any("task.anything" in line for line in found), found


def test_an_item_path_of_a_for_each_over_another_phases_report_is_typed() -> None:
    text = ITEMS.replace("for_each: report.tasks", "for_each: phases.plan.report.tasks")
    assert errors(text) == []
    (message,) = errors(text.replace("{{ task.title }} (", "{{ task.titel }} ("))
    assert "an item of 'phases.plan.report.tasks' of 'plan' has no 'titel'" in message
