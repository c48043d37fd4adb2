"""The smaller workflow-language gaps of issue 23 item 5, at ``validate`` (each with its message)."""

from __future__ import annotations

import textwrap

from alphred.providers import default_registry
from alphred.workflow import check_workflow

PROVIDERS = default_registry()
HEAD = "alphred: 1\nkey: wf\n"


def diagnostics(text: str) -> list[str]:
    _, found = check_workflow("wf.yaml", HEAD + textwrap.dedent(text), providers=PROVIDERS)
    return [d.format() for d in found]


def test_an_edge_max_larger_than_its_target_s_max_visits_is_a_warning_naming_both() -> None:
    text = """\
    phases:
      work:
        provider: scripted
        max_visits: 3
        transitions: [{to: check}]
      check:
        type: command
        run: "true"
        allow_failure: true
        transitions:
          - {to: work, when: exit_code != 0, max: 5}
          - {to: work, when: exit_code == 1, max: 3}
          - to: $end
    """
    found = diagnostics(text)
    assert found == [
        "wf.yaml:13:47: warning: transition of 'check' to 'work' has max 5, more than max_visits 3 of 'work': the "
        "run fails on the visit cap (max_visits) before the edge is used up; lower max or raise max_visits"
    ]


def test_script_entries_may_delete_files_inside_the_worktree_and_be_chosen_by_visit() -> None:
    text = """\
    phases:
      a:
        provider: scripted
        script_by: visit
        script: [{delete: [notes.txt, ../out.txt, /etc/passwd]}]
    """
    assert diagnostics(text) == [
        "wf.yaml:7:35: error: file path '../out.txt' must stay inside the worktree",
        "wf.yaml:7:47: error: file path '/etc/passwd' must stay inside the worktree",
    ]
    assert diagnostics(text.replace("visit", "vist").replace(", ../out.txt, /etc/passwd", "")) == [
        "wf.yaml:6:16: error: 'script_by' must be attempt or visit (did you mean 'visit'?)"
    ]


def test_shell_is_sh_or_bash_on_command_phases_only() -> None:
    text = """\
    phases:
      a:
        type: command
        shell: zsh
        run: "true"
        transitions: [{to: b}]
      b:
        provider: scripted
        shell: bash
    """
    assert diagnostics(text) == [
        "wf.yaml:6:12: error: 'shell' must be sh or bash, not 'zsh' (did you mean 'sh'?)",
        "wf.yaml:11:5: error: unknown key 'shell' in agent phase (scripted) 'b'",
    ]
