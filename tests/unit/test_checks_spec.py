"""The ``checks:`` block (SPEC §9): validation with FILE:LINE:COL messages, path globs, and the engine's side."""

from __future__ import annotations

import textwrap

from hypothesis import example, given
from hypothesis import strategies as st
from test_engine_support import Driver, build_workflow

from alphred.engine import (
    CHECKS_FAILED,
    PhaseCompleted,
    PhaseFailed,
    RunStarted,
    guard_context,
    state_from_json,
    state_to_json,
)
from alphred.providers import default_registry
from alphred.workflow import check_workflow, load_workflow
from alphred.workflow.globs import PathGlobs, glob_problem
from alphred.workflow.model import CheckKind

PROVIDERS = default_registry()  # every installed provider, as the CLI has them

HEAD = "alphred: 1\nkey: wf\n"


def errors(text: str) -> list[str]:
    _, found = check_workflow("wf.yaml", HEAD + textwrap.dedent(text), providers=PROVIDERS)
    return [d.format() for d in found if d.severity == "error"]


def test_every_kind_loads_with_names_by_position_and_the_default_timeout() -> None:
    wf = load_workflow(
        "wf.yaml",
        HEAD
        + textwrap.dedent(
            """\
            inputs: {suite: {default: unit}}
            phases:
              work:
                provider: scripted
                checks:
                  - run: pytest -q {{ inputs.suite }}
                    name: tests
                    timeout: 2m
                  - changed: ["src/**"]
                  - unchanged: ["tests/fixtures/**", .github]
                  - report: {required: [summary]}
                  - run: "true"
            """
        ),
        providers=PROVIDERS,
    )
    checks = wf.phase("work").checks
    assert [(c.name, c.kind) for c in checks] == [
        ("tests", CheckKind.RUN), ("check2", CheckKind.CHANGED), ("check3", CheckKind.UNCHANGED),
        ("check4", CheckKind.REPORT), ("check5", CheckKind.RUN),
    ]  # fmt: skip
    assert (checks[0].timeout, checks[4].timeout) == (120.0, 600.0)
    assert checks[0].template is not None and [p.path for p in checks[0].template.paths] == [("inputs", "suite")]
    assert checks[2].paths == ("tests/fixtures/**", ".github") and checks[3].required == ("summary",)
    assert [c.description for c in checks[1:4]] == ["changed: src/**", "unchanged: tests/fixtures/**, .github",
                                                    "report: summary"]  # fmt: skip


def test_bad_checks_are_reported_each_at_its_place() -> None:
    found = errors(
        """\
        phases:
          work:
            provider: scripted
            checks:
              - {run: a, changed: [b]}
              - {bogus: 1}
              - {changed: [x], timeout: 3s}
              - {name: tests, run: "true"}
              - {name: tests, unchanged: ["a**", "/abs", "[ab"]}
              - {changed: []}
              - {report: {required: []}}
              - {name: Bad-Name, run: x}
              - {run: "true", timeout: soon}
          cmd:
            type: command
            run: "true"
            checks: [{report: {required: [a]}}]
          gate:
            type: approval
            checks: [{run: x}]
          empty:
            type: command
            run: "true"
            checks: []
        """
    )
    assert found == [
        "wf.yaml:7:9: error: a check has exactly one kind, this one has run and changed: make them separate entries",
        "wf.yaml:8:9: error: a check needs one of run, changed, unchanged, report",
        "wf.yaml:8:10: error: unknown key 'bogus' in a check",
        "wf.yaml:9:33: error: 'timeout' applies to run checks only, not to a changed check",
        "wf.yaml:11:35: error: path glob 'a**': '**' must be a whole path segment (like 'src/**'); '*' matches within one",
        "wf.yaml:11:42: error: path glob '/abs' must be relative to the repository root (no leading '/')",
        "wf.yaml:11:50: error: path glob '[ab': unclosed '[' in a character class",
        "wf.yaml:12:19: error: 'changed' must list at least one path glob",
        "wf.yaml:13:29: error: 'required' must list at least one key",
        "wf.yaml:14:16: error: check name 'Bad-Name' must match [a-z_][a-z0-9_]* (it is a guard path)",
        "wf.yaml:15:32: error: bad duration 'soon' for 'timeout': use 90s, 20m, 2h or a number of seconds up to a year",
        "wf.yaml:19:23: error: a report check needs an agent phase: command phase 'cmd' has no structured report",
        "wf.yaml:22:5: error: unknown key 'checks' in approval phase 'gate' (checks verify agent and command phases;"
        " an approval phase has no work to check)",
        "wf.yaml:26:13: error: 'checks' of phase 'empty' must list at least one check (or be left out)",
    ]


def test_duplicate_names_include_the_default_ones() -> None:
    assert errors(
        """\
        phases:
          work:
            provider: scripted
            checks:
              - run: "true"
              - {name: check1, changed: [src]}
        """
    ) == ["wf.yaml:8:16: error: duplicate check name 'check1' in phase 'work' (also at line 7)"]


def test_guard_paths_name_declared_checks_and_templates_cannot_read_them() -> None:
    found = errors(
        """\
        phases:
          work:
            provider: scripted
            checks: [{name: tests, run: "true"}]
            transitions:
              - to: next
                when: checks.tests.passed and checks.test.exit_code == 0
              - to: next
                when: checks.tests.output == "x" or checks.tests
          next:
            type: command
            run: echo {{ checks.tests.passed }}
            transitions:
              - {to: $end, when: checks.tests.passed}
        """
    )
    assert found == [
        "wf.yaml:9:15: error: unknown path 'checks.test.exit_code': phase 'work' has no check 'test' (checks: tests)"
        " (did you mean 'tests'?) in guard of 'work'",
        "wf.yaml:11:15: error: unknown path 'checks.tests.output' (use checks.<name>.passed or "
        "checks.<name>.exit_code) in guard of 'work'",
        "wf.yaml:11:15: error: unknown path 'checks.tests' (use checks.<name>.passed or checks.<name>.exit_code) "
        "in guard of 'work'",
        "wf.yaml:14:10: error: unknown path 'checks.tests.passed': checks.<name> is readable in guards only "
        "(of the phase that has the checks) in run of 'next'",
        "wf.yaml:16:26: error: unknown path 'checks.tests.passed': phase 'next' has no check 'tests' (checks: none) "
        "in guard of 'next'",
    ]


def test_check_commands_may_only_use_known_template_paths() -> None:
    assert errors(
        """\
        phases:
          work:
            type: command
            run: "true"
            checks: [{name: t, run: "pytest {{ inputs.nope }}"}]
        """
    ) == ["wf.yaml:7:29: error: unknown path 'inputs.nope': no input 'nope' is declared in check 't' of 'work'"]


def test_globs_match_paths_and_their_parent_directories() -> None:
    globs = PathGlobs(("src/**", "**/test_*.py", ".github", "docs/**/*.md", "a[!x]c", "lib/*.py"))
    matching = ["src/a.py", "src/x/y.py", "test_a.py", "a/b/test_q.py", ".github/workflows/ci.yml", "docs/a.md",
                "docs/x/y/a.md", "abc", "abc/inside", "lib/m.py"]  # fmt: skip
    other = ["srcx/a", "docs/a.txt", "axc", "README.md", "lib/sub/m.py", ".githubx", "src"[:2]]
    assert [p for p in matching if not globs.matches(p)] == []
    assert [p for p in other if globs.matches(p)] == []
    assert globs.select(["README.md", "src/a.py"]) == ["src/a.py"]


def test_a_class_holding_what_re_reads_as_set_syntax_is_literal_or_a_clear_error() -> None:
    # '[?--]' reached re as a class with '--', which re warns about (FutureWarning: Possible set difference),
    # and the warning escaped glob_problem as an exception; '&&', '~~', '||' alike.
    assert (
        glob_problem("[?--]") == "path glob '[?--]': reversed range '?--' in a character class ('-' sorts before '?')"
    )
    assert (
        glob_problem("[z-a]") == "path glob '[z-a]': reversed range 'z-a' in a character class ('a' sorts before 'z')"
    )
    globs = PathGlobs(("a[&&]b", "c[~~|]d", "e[+--]f", "g[!--]h", "i[]-a]j", "k[a-c-e]l", "m[[]n"))
    assert all(glob_problem(p) is None for p in globs.patterns)
    matching = ["a&b", "c~d", "c|d", "e+f", "e,f", "e-f", "g.h", "g+h", "i]j", "i_j", "kal", "kbl", "k-l", "kel", "m[n"]
    other = ["a&&b", "ab", "c-d", "e.f", "g-h", "g/h", "i-j", "ibj", "kdl", "mn"]
    assert [p for p in matching if not globs.matches(p)] == []
    assert [p for p in other if globs.matches(p)] == []


@given(st.lists(st.text(alphabet="ab/.*?[]!-&~|", max_size=8), max_size=4), st.text(alphabet="ab/.&~|-", max_size=12))
@example(patterns=["[?--]"], path="")
@example(patterns=["[a&&b]", "[~~]", "[||]"], path="&")
def test_valid_globs_never_raise_and_what_matches_a_directory_matches_inside_it(patterns: list[str], path: str) -> None:
    globs = PathGlobs(tuple(p for p in patterns if glob_problem(p) is None))
    if globs.matches(path):  # never raises for patterns the loader accepts
        assert globs.matches(path.rstrip("/") + "/inside")


def test_failed_checks_past_the_retries_fail_the_run_with_checks_failed() -> None:
    wf = build_workflow({"work": {"type": "command", "max_retries": 1}})
    d = Driver(wf)
    d.send(RunStarted(), PhaseFailed("work", 1, CHECKS_FAILED))
    assert d.state.status.value == "running" and d.state.phase("work").attempt == 2
    d.send(PhaseFailed("work", 2, CHECKS_FAILED))
    assert (d.state.status.value, d.state.reason) == ("failed", "checks_failed")
    other = Driver(wf)
    other.send(RunStarted(), PhaseFailed("work", 1, "exit_code"), PhaseFailed("work", 2, "exit_code"))
    assert other.state.reason == "retries_exhausted"


def test_the_guard_context_holds_the_checks_of_the_phase_just_finished_and_survives_json() -> None:
    wf = build_workflow({"work": {"type": "command", "to": ["next"]}, "next": {"type": "command"}})
    d = Driver(wf)
    checks = {"tests": {"passed": True, "exit_code": 0}, "code": {"passed": True, "exit_code": None}}
    d.send(RunStarted(), PhaseCompleted("work", 1, exit_code=0, checks=checks))
    assert guard_context(d.state, wf, "work")["checks"] == checks
    assert guard_context(d.state, wf, "next")["checks"] == {}
    assert state_from_json(wf, state_to_json(d.state)) == d.state
    saved = state_to_json(d.state)
    del saved["phases"]["work"]["checks"]  # a state saved before checks existed still loads
    assert state_from_json(wf, saved).phase("work").checks == {}
