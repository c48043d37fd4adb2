"""``type: workflow`` (SPEC §13): ``uses:`` and ``with:``, the child file checked at its own FILE:LINE:COL,
cycles and depth refused with the chain, and the child stored with the parent (a resume needs no file)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from alphred.providers import default_registry
from alphred.workflow import PhaseType, check_workflow, load_workflow
from alphred.workflow.children import USES_PREFIX

PROVIDERS = default_registry()

CHILD = """\
alphred: 1
key: child
inputs:
  name: {required: true}
  level: {default: "1"}
phases:
  work:
    provider: scripted
    decisions: [done, stuck]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def parent(folder: Path, phase: str, name: str = "parent.yaml") -> Path:
    return write(folder, name, "alphred: 1\nkey: parent\nphases:\n" + textwrap.indent(textwrap.dedent(phase), "  "))


def problems(path: Path) -> list[str]:
    _, found = check_workflow(path, providers=PROVIDERS)
    return [d.format().replace(f"{path.parent}/", "") for d in found if d.severity == "error"]


@pytest.mark.quick
def test_a_workflow_phase_loads_its_child_and_its_inputs(tmp_path: Path) -> None:
    write(tmp_path, "flows/child.yaml", CHILD)
    path = parent(
        tmp_path,
        """\
        sub:
          type: workflow
          uses: flows/child.yaml
          with: {name: "{{ inputs.topic }}"}
          max_retries: 1
          transitions: [{to: $end, when: 'decision == "done"'}, {to: $fail}]
        """,
    )
    path.write_text(path.read_text().replace("phases:", "inputs:\n  topic: {default: x}\nphases:"))
    wf = load_workflow(path, providers=PROVIDERS)
    (sub,) = wf.phases
    assert sub.type is PhaseType.WORKFLOW and sub.uses == "flows/child.yaml" and sub.with_inputs == ("name",)
    assert sub.child is not None and sub.child.key == "child" and sub.max_retries == 1
    assert sub.decisions == ("done", "stuck")  # the child's: a guard may route on them
    assert set(sub.templates) == {"with.name"} and sub.provider is None
    assert wf.source_files[USES_PREFIX + "flows/child.yaml"] == textwrap.dedent(CHILD)
    stored = load_workflow("elsewhere/parent.yaml", wf.source_text, wf.source_files, providers=PROVIDERS)
    assert stored.phases[0].child is not None and stored.content_hash == wf.content_hash  # no file needed
    write(tmp_path, "flows/child.yaml", CHILD.replace("stuck", "blocked"))
    assert load_workflow(path, providers=PROVIDERS).content_hash != wf.content_hash  # a changed child: new version


def test_a_workflow_phase_takes_no_provider_prompt_or_run(tmp_path: Path) -> None:
    write(tmp_path, "child.yaml", CHILD)
    path = parent(
        tmp_path,
        """\
        sub:
          type: workflow
          uses: child.yaml
          with: {name: a}
          provider: scripted
          prompt: hi
          run: make
        """,
    )
    assert problems(path) == [
        f"parent.yaml:8:5: error: unknown key '{key}' in workflow phase 'sub' (a workflow phase runs its child "
        "workflow: it takes only uses, with and the common keys)".replace(":8:", f":{line}:")
        for key, line in (("provider", 8), ("prompt", 9), ("run", 10))
    ]
    assert problems(parent(tmp_path, "sub: {type: workflow}\n")) == [
        "parent.yaml:4:3: error: workflow phase 'sub' needs 'uses' (a workflow file relative to it, or template:NAME)"
    ]


def test_with_is_checked_against_the_child_s_inputs(tmp_path: Path) -> None:
    write(tmp_path, "child.yaml", CHILD)
    path = parent(tmp_path, "sub: {type: workflow, uses: child.yaml, with: {nmae: a, level: [1]}}\n")
    assert problems(path) == [
        "parent.yaml:4:31: error: phase 'sub' must give child.yaml's required input 'name' in 'with:'",
        "parent.yaml:4:50: error: phase 'sub' gives input 'nmae', which child.yaml does not declare (its inputs: "
        "name, level) (did you mean 'name'?)",
        "parent.yaml:4:66: error: input 'level' in 'with' of phase 'sub' must be a scalar or a template string",
    ]


def test_the_child_s_errors_are_at_its_own_file_and_the_uses_line_says_why(tmp_path: Path) -> None:
    write(tmp_path, "child.yaml", CHILD.replace("decisions", "decsions"))
    path = parent(tmp_path, "sub: {type: workflow, uses: child.yaml, with: {name: a}}\n")
    assert problems(path) == [
        "parent.yaml:4:31: error: phase 'sub' uses child.yaml, which has 1 error(s) (listed at its file)",
        "child.yaml:9:5: error: unknown key 'decsions' in agent phase (scripted) 'work' (did you mean 'decisions'?)",
    ]


def test_a_cycle_is_refused_with_its_chain(tmp_path: Path) -> None:
    a = parent(tmp_path, "s: {type: workflow, uses: b.yaml}\n", "a.yaml")
    parent(tmp_path, "s: {type: workflow, uses: a.yaml}\n", "b.yaml")
    assert problems(a) == [
        "a.yaml:4:29: error: phase 's' uses b.yaml, which has 1 error(s) (listed at its file)",
        "b.yaml:4:29: error: phase 's' uses a.yaml, which makes a cycle of workflows: a.yaml -> b.yaml -> a.yaml",
    ]
    itself = parent(tmp_path, "s: {type: workflow, uses: self.yaml}\n", "self.yaml")
    assert problems(itself) == [
        "self.yaml:4:29: error: phase 's' uses self.yaml, which makes a cycle of workflows: self.yaml -> self.yaml"
    ]


def test_sub_workflows_nest_at_most_four_deep(tmp_path: Path) -> None:
    for level in range(1, 7):
        parent(tmp_path, f"s: {{type: workflow, uses: d{level + 1}.yaml}}\n", f"d{level}.yaml")
    write(tmp_path, "d7.yaml", "alphred: 1\nkey: d7\nphases:\n  s: {type: command, run: 'true'}\n")
    assert check_workflow(tmp_path / "d3.yaml", providers=PROVIDERS)[0] is not None  # d3 -> ... -> d7: 4 deep
    found = problems(tmp_path / "d2.yaml")  # d2 -> ... -> d7: 5 deep
    assert found[-1] == (
        "d6.yaml:4:29: error: phase 's' uses d7.yaml: sub-workflows nest at most 4 deep "
        "(d2.yaml -> d3.yaml -> d4.yaml -> d5.yaml -> d6.yaml -> d7.yaml)"
    )


def test_uses_names_a_file_inside_the_repository_or_a_bundled_template(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # the repository holding the workflow
    write(tmp_path / "..", "outside.yaml", "alphred: 1\nkey: o\nphases:\n  s: {type: command, run: 'true'}\n")
    path = parent(
        tmp_path,
        """\
        a: {type: workflow, uses: nope.yaml, transitions: [{to: b}]}
        b: {type: workflow, uses: /etc/child.yaml, transitions: [{to: c}]}
        c: {type: workflow, uses: ../outside.yaml, transitions: [{to: d}]}
        d: {type: workflow, uses: "template:fix-isue", transitions: [{to: e}]}
        e: {type: workflow, uses: "template:review-only", with: {pr: "1"}}
        """,
    )
    found = problems(path)
    assert (
        found[0]
        == "parent.yaml:4:29: error: 'uses' of phase 'a': workflow file 'nope.yaml' not found (looked at nope.yaml)"
    )
    assert found[1] == (
        "parent.yaml:5:29: error: 'uses' of phase 'b': '/etc/child.yaml' must be a path relative to this workflow "
        "file, not an absolute path"
    )
    assert found[2] == (
        "parent.yaml:6:29: error: 'uses' of phase 'c': '../outside.yaml' lies outside the workflow's directory and "
        "its repository"
    )
    assert found[3].startswith(
        "parent.yaml:7:29: error: 'uses' of phase 'd': unknown template 'fix-isue' (did you mean 'fix-issue'?) "
        "(bundled: "
    )
    assert len(found) == 4  # template:review-only is a bundled workflow, loaded as a child
