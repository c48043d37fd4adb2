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


def test_context_from_and_max_reports_select_more_reports_within_the_same_character_limits() -> None:
    from test_engine_support import build_workflow

    from alphred.engine import MAX_TOTAL_CHARS, UpstreamReport, build_context

    phases: dict[str, dict[str, object]] = {f"u{i}": {"to": ["sink"]} for i in range(6)}
    reports = {f"u{i}": UpstreamReport(f"u{i}", 1, str(i) * 9_000) for i in range(6)}
    phases["sink"] = {}
    default = build_context(build_workflow(phases), "sink", reports)
    assert len(default.envelopes) == 4 and default.manifest["limits"]["max_artifacts"] == 4
    phases["sink"] = {"max_reports": 6, "context": ("u5", "u4", "u3", "u2", "u1", "u0")}
    more = build_context(build_workflow(phases), "sink", reports)
    assert [e["phase"] for e in more.manifest["included"]] == ["u5", "u4", "u3", "u2", "u1", "u0"]
    assert sum(e["included_chars"] for e in more.manifest["included"]) <= MAX_TOTAL_CHARS


def test_context_takes_a_mapping_with_from_and_max_reports() -> None:
    from alphred.workflow import load_workflow

    text = """\
    phases:
      a: {provider: scripted, transitions: [{to: b}]}
      b:
        provider: scripted
        context: {from: [a], max_reports: 8}
      c:
        provider: scripted
        context: {form: [a], max_reports: 99}
    """
    found = diagnostics(text)
    assert "wf.yaml:10:15: error: unknown key 'form' in context (did you mean 'from'?)" in found, found
    assert "wf.yaml:10:39: error: 'max_reports' must be at most 32" in found, found
    wf = load_workflow("wf.yaml", HEAD + textwrap.dedent(text).split("  c:")[0], providers=PROVIDERS)
    assert (wf.phase("b").context, wf.phase("b").max_reports) == (("a",), 8)


def test_a_placeholder_as_the_command_word_and_an_unquoted_placeholder_say_what_to_write() -> None:
    text = """\
    inputs: {cmd: {default: ls}}
    phases:
      a:
        type: command
        run: {{ inputs.cmd }}
        transitions: [{to: b}]
      b:
        type: command
        run: X=1 {{ inputs.cmd }} -l && echo {{ inputs.cmd }} && sh -c {{ inputs.cmd }}
    """
    assert diagnostics(text) == [
        "wf.yaml:7:10: error: 'run' starts with '{{' unquoted, which YAML reads as a mapping: quote it "
        '(run: "sh -c {{ inputs.cmd }}" to run a command held in an input)',
        "wf.yaml:11:14: warning: '{{ inputs.cmd }}' is the command word: its value runs as one program name, "
        "arguments and all; to run it as a command line write 'sh -c {{ inputs.cmd }}' in run of 'b'",
    ]
