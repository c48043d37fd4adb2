"""The command line's choice of a new run's branch template: precedence, CI ids, ``{issue-id}``."""

from __future__ import annotations

import pytest

from alphred.operations.branch_choice import ci_branch_template, issue_id, run_branch_template


@pytest.mark.parametrize(
    ("inputs", "expected"),
    [
        ({"issue": "12"}, "12"),
        ({"issue": "#12"}, "12"),
        ({"issue": "https://github.com/acme/w/issues/12"}, "12"),
        ({"issue_id": "7", "issue": "12"}, "7"),
        ({"issue_id": "x", "issue": "12"}, "12"),
        ({"issue": "Crash when the config file is empty"}, ""),
        ({"issue": "12; rm -rf /"}, ""),
        ({}, ""),
    ],
)
def test_issue_id_comes_from_a_numeric_input(inputs: dict[str, str], expected: str) -> None:
    assert issue_id(inputs) == expected


def test_ci_ids_name_the_branch_unless_a_template_is_given() -> None:
    assert ci_branch_template({}) is None
    assert ci_branch_template({"GITHUB_RUN_ID": "9", "GITHUB_RUN_ATTEMPT": "1"}) == "alphred/{tree-key}/{run-id}-gh9"
    assert ci_branch_template({"CI_JOB_ID": "5"}) == "alphred/{tree-key}/{run-id}-ci5"
    ci = {"GITHUB_RUN_ID": "9"}
    assert run_branch_template(None, None, ci, {}) == "alphred/{tree-key}/{run-id}-gh9"
    assert run_branch_template(None, "repo/{run-id}", ci, {}) == "repo/{run-id}"
    assert run_branch_template(None, None, {**ci, "ALPHRED_BRANCH_TEMPLATE": "env/{run-id}"}, {}) == "env/{run-id}"
    assert run_branch_template("fix/{issue-id}", None, ci, {"issue": "#3"}) == "fix/3"
    assert run_branch_template(None, None, {}, {}) == "alphred/{tree-key}/{run-id}"
