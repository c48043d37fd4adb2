"""GitHub Actions: the step outputs (multiline-safe file commands) and the Markdown step summary."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from hypothesis import given
from hypothesis import strategies as st

from alphred.views.ci_outputs import format_outputs, github_outputs, write_github_outputs

STATUS: dict[str, Any] = {
    "run_id": 12, "workflow": {"key": "fix-issue", "version": 1}, "status": "completed", "reason": None,
    "branch": "alphred/fix-issue/12", "base": "a" * 40, "head": "b" * 40, "pr_url": "https://github.com/a/w/pull/3",
    "tokens": 1500, "cost_usd": 0.25,
    "phases": [{"key": "review", "status": "completed", "attempt": 1, "visits": 1, "decision": "approved",
                "exit_code": None, "tokens": 1500}],
    "steps": [{"phase": "review", "attempt": 1, "outcome": "completed", "decision": "approved", "next": "$end"}],
}  # fmt: skip


def parse_outputs(text: str) -> dict[str, str]:
    """Read the ``name<<DELIMITER`` file-command syntax back, as the Actions runner does."""
    outputs: dict[str, str] = {}
    lines = text.split("\n")
    index = 0
    while index < len(lines) and lines[index]:
        name, delimiter = lines[index].split("<<", 1)
        end = lines.index(delimiter, index + 1)
        outputs[name] = "\n".join(lines[index + 1 : end])
        index = end + 1
    return outputs


def test_outputs_are_the_run_s_id_status_reason_pr_and_branch() -> None:
    assert github_outputs(STATUS) == {
        "run_id": "12", "status": "completed", "reason": "", "pr_url": "https://github.com/a/w/pull/3",
        "branch": "alphred/fix-issue/12",
    }  # fmt: skip
    assert github_outputs({**STATUS, "pr_url": None})["pr_url"] == ""


@given(
    st.dictionaries(
        st.from_regex(r"[a-z_]{1,10}", fullmatch=True), st.text(alphabet=st.characters(blacklist_characters="\r"))
    )
)
def test_any_value_survives_the_file_command_syntax(outputs: dict[str, str]) -> None:
    assert parse_outputs(format_outputs(outputs)) == outputs


def test_a_value_containing_the_delimiter_gets_another_one() -> None:
    text = format_outputs({"x": "line\nEOF\nmore"}, delimiter="EOF")
    assert parse_outputs(text) == {"x": "line\nEOF\nmore"} and "x<<EOF\n" not in text


def test_writes_the_summary_and_the_outputs_when_asked(tmp_path: Path) -> None:
    summary, output = tmp_path / "summary.md", tmp_path / "output.txt"
    summary.write_text("earlier step\n")
    env = {"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(output)}
    write_github_outputs(STATUS, env)
    text = summary.read_text()
    assert text.startswith("earlier step\n\n### Alphred run 12 · fix-issue v1: completed\n")  # appended
    assert "| review | completed | 1 | 1 | approved | – | 1,500 |" in text
    assert "**Cost** $0.2500" in text and "**Pull request** https://github.com/a/w/pull/3" in text
    assert parse_outputs(output.read_text())["run_id"] == "12"
    write_github_outputs({**STATUS, "run_id": 13}, env)
    assert output.read_text().count("run_id<<") == 2 and text.count("### Alphred") == 1


def test_nothing_is_written_outside_github_actions(tmp_path: Path) -> None:
    write_github_outputs(STATUS, {"GITHUB_STEP_SUMMARY": "", "HOME": str(tmp_path)})
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_file_is_a_warning_not_a_failure(tmp_path: Path) -> None:
    warnings: list[str] = []
    write_github_outputs(STATUS, {"GITHUB_OUTPUT": str(tmp_path / "missing" / "out")}, warnings.append)
    assert len(warnings) == 1 and "cannot write GitHub Actions file" in warnings[0]


def test_the_ci_guide_has_complete_pipelines_with_every_delivery_flag() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "ci.md").read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    github = yaml.safe_load(next(block for block in blocks if "\njobs:" in block))  # not the workflow examples
    gitlab = yaml.safe_load(next(block for block in blocks if block.startswith("stages:") or "\nstages:" in block))
    assert set(github["jobs"]) == {"run", "continue"} and github["permissions"]["pull-requests"] == "write"
    uploads = [s for s in github["jobs"]["run"]["steps"] if "upload-artifact" in str(s.get("uses"))]
    assert uploads[0]["with"]["path"].startswith(".alphred/alphred.db")
    assert ".alphred/alphred.db*" in gitlab["alphred-run"]["artifacts"]["paths"]
    assert "alphred resume" in str(gitlab["alphred-continue"]["script"]) and "merge_request.create" in text
    for flag in ("--pr", "--no-pr", "--remote", "--draft", "--events jsonl", "--approve-all", "--json"):
        assert flag in text, flag
