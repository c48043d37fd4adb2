"""No value ever becomes shell code: payloads x quoting contexts through ``template_command`` and the shell."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.cli import write_workflow
from helpers.repos import git

from alphred.cli import app
from alphred.guards.shell import shell_problems
from alphred.guards.templates import parse_template
from alphred.runtime.command_phase import run_command, template_command

# Each payload tries to run `touch MARKER`; MARKER is replaced by an absolute path before use.
PAYLOADS = [
    "$(touch MARKER)",
    "`touch MARKER`",
    '"; touch MARKER; echo "',
    "'; touch MARKER; echo '",
    '\\"; touch MARKER #',
    "$(touch MARKER)'\"",
    "a\nEOF\ntouch MARKER\nEOF",
    "x; touch MARKER",
    "x && touch MARKER",
    "x | touch MARKER",
    "${IFS}touch${IFS}MARKER",
    "$((1+1))$(touch MARKER)",
    "-n \\",
    "*",
    "\\\\\\'",
    "été ✓ $HOME",
]

# (name, run template, how the value shows up in out.txt)
CONTEXTS = [
    ("bare", "printf '%s' {{ inputs.msg }} > out.txt", "{}"),
    ("double quotes", 'printf "%s" "<{{ inputs.msg }}>" > out.txt', "<{}>"),
    ("two in one word", 'printf "%s" x{{ inputs.msg }}"{{ inputs.msg }}" > out.txt', "x{}{}"),
    ("sh -c double", "sh -c \"printf '%s' {{ inputs.msg }} > out.txt\"", "{}"),
    ("sh -c double, inner double", 'sh -c "printf %s \\"[{{ inputs.msg }}]\\" > out.txt"', "[{}]"),
    ("sh -c single", "sh -c 'printf \"%s\" {{ inputs.msg }} > out.txt'", "{}"),
    ("bash -lc with env", 'env A=1 bash -c "printf %s {{ inputs.msg }} > out.txt"', "{}"),
    ("unquoted heredoc", "cat > out.txt <<EOF\n{{ inputs.msg }}\nEOF", "{}\n"),
    ("command substitution", 'printf "%s" "$(printf "%s" {{ inputs.msg }})" > out.txt', "{}"),
    ("backticks", "printf '%s' \"`printf '%s' {{ inputs.msg }}`\" > out.txt", "{}"),
]


def _run(script: str, cwd: Path, env: dict[str, str]) -> None:
    async def drain() -> None:
        async for _ in run_command(script, cwd, environ={**os.environ, **env}):
            pass

    asyncio.run(drain())


@pytest.mark.parametrize(("name", "run", "shape"), CONTEXTS, ids=[c[0] for c in CONTEXTS])
def test_no_payload_executes_and_every_value_arrives_intact(tmp_path: Path, name: str, run: str, shape: str) -> None:
    template = parse_template(run)
    assert shell_problems(template) == []
    marker = tmp_path / "MARKER"
    for payload in PAYLOADS:
        value = payload.replace("MARKER", str(marker))
        script, env = template_command(template, {"inputs": {"msg": value}})
        assert value not in script or value == "*"
        _run(script, tmp_path, env)
        assert not marker.exists(), f"{name}: payload {payload!r} executed (script {script!r})"
        out = (tmp_path / "out.txt").read_text()
        expected = value.rstrip("\n") if name in ("command substitution", "backticks") else value
        assert out == shape.format(expected, expected), f"{name}: {payload!r} arrived as {out!r}"


@pytest.mark.parametrize(
    ("run", "column", "words"),
    [
        ("echo '{{ inputs.msg }}'", 7, "single quotes"),
        ("echo $'{{ inputs.msg }}'", 8, "single quotes"),
        ("cat <<'EOF'\n{{ inputs.msg }}\nEOF", 13, "quoted heredoc"),
        ("echo $(( {{ inputs.msg }} + 1 ))", 10, "arithmetic"),
        ("(( {{ inputs.msg }} > 1 )) && echo big", 4, "arithmetic"),
        ("sh -c \"echo '{{ inputs.msg }}'\"", 14, "single quotes"),
        ("sh -c \"sh -c 'echo {{ inputs.msg }}'\"", 20, "nested inside another"),
        ("echo \\{{ inputs.msg }}", 7, "after a backslash"),
        ('echo "\\{{ inputs.msg }}"', 8, "after a backslash"),
        ("cat <<EOF\n\\{{ inputs.msg }}\nEOF", 12, "after a backslash"),
    ],
)
def test_placeholders_no_value_can_reach_are_reported(run: str, column: int, words: str) -> None:
    problems = shell_problems(parse_template(run))
    assert len(problems) == 1
    offset, message = problems[0]
    assert offset + 1 == column
    assert words in message


def test_comments_here_strings_and_a_whole_script_argument_are_allowed() -> None:
    for run in ("echo ok # {{ inputs.msg }}", "cat <<< {{ inputs.msg }}", "sh -c {{ inputs.msg }}"):
        assert shell_problems(parse_template(run)) == []


def test_a_placeholder_in_single_quotes_is_a_located_validate_error(tmp_path: Path) -> None:
    path = write_workflow(
        tmp_path,
        """\
        inputs:
          msg: {default: x}
        phases:
          a:
            type: command
            run: |
              echo start
              git commit -m '{{ inputs.msg }}'
        """,
    )
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert f"{path}:10:22: error: '{{{{ inputs.msg }}}}' cannot be used inside single quotes" in result.stderr


def test_inputs_and_reports_of_earlier_phases_never_run_in_a_real_run(repo: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    workflow = write_workflow(
        tmp_path,
        f"""\
        inputs:
          msg: {{required: true}}
        phases:
          a:
            provider: scripted
            script:
              - report: "$(touch {marker})`touch {marker}`"
            transitions: [{{to: b}}]
          b:
            type: command
            run: |
              echo "{{{{ phases.a.report }}}}" > report.txt
              git add report.txt && git -c user.name=T -c user.email=t@x.invalid commit -q -m "{{{{ inputs.msg }}}}"
        """,
    )
    payload = f"$(touch {marker})"
    result = CliRunner().invoke(
        app, ["run", str(workflow), "--repo", str(repo), "--keep-worktree", "--json", "-i", f"msg={payload}"]
    )
    status = json.loads(result.stdout)
    assert status["status"] == "completed", result.stderr
    assert not marker.exists()
    worktree = Path(status["worktree"])
    assert (worktree / "report.txt").read_text() == f"$(touch {marker})`touch {marker}`\n"
    assert git(worktree, "log", "-1", "--format=%s") == payload


def test_a_run_check_with_a_single_quoted_placeholder_is_a_located_error(tmp_path: Path) -> None:
    path = write_workflow(
        tmp_path,
        """\
        inputs: {msg: {default: x}}
        phases:
          a:
            type: command
            run: "true"
            checks:
              - name: echo
                run: echo '{{ inputs.msg }}'
        """,
    )
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert f"{path}:10:20: error: '{{{{ inputs.msg }}}}' cannot be used inside single quotes" in result.stderr
    assert "in check 'echo' of 'a'" in result.stderr
