"""Dry-run stubs' reports meet a phase's guards on ``report.x`` where single fields decide them."""

from __future__ import annotations

import textwrap

from alphred.providers import default_registry
from alphred.providers.dryrun_reports import stub_reports
from alphred.workflow import load_workflow

PROVIDERS = default_registry()  # every installed provider, as the CLI has them


def reports(transitions: str, decisions: str = "[done, again]") -> dict[str, object]:
    source = textwrap.dedent(
        f"""\
        alphred: 1
        key: g
        phases:
          review:
            provider: scripted
            decisions: {decisions}
            transitions:
        """
    ) + textwrap.indent(textwrap.dedent(transitions), "      ")
    return stub_reports(load_workflow("g.yaml", source, {}, providers=PROVIDERS))


def test_equality_membership_numbers_and_truthiness_are_met() -> None:
    found = reports(
        """\
        - to: $end
          when: decision == "done" and report.severity in ["none", "minor"] and report.score >= 3 and report.checks.ok and 2 < report.n
        - to: $fail
        """
    )
    assert found == {"review": {"severity": "none", "score": 3, "checks": {"ok": True}, "n": 3}}


def test_the_first_guard_that_can_be_met_wins_and_fail_targets_are_not_aimed_at() -> None:
    found = reports(
        """\
        - to: $fail
          when: report.broken == true
        - to: review
          when: report.a > report.b
        - to: $end
          when: report.verdict == "ship" or report.other
        """
    )
    assert found == {"review": {"verdict": "ship"}}


def test_guards_a_field_cannot_decide_get_no_report() -> None:
    assert reports("- to: $end\n  when: report.a > report.b\n- to: $fail\n") == {}
    assert reports('- to: $end\n  when: decision == "again" and report.x == 1\n- to: $fail\n') == {}  # stub says done
    assert reports('- to: $end\n  when: decision == "done"\n') == {}  # no guard reads the report
