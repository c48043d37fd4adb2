"""Engine-checked completion (SPEC §9) end to end: real git repositories, the CLI through click's runner."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from helpers.cli import cli, write_workflow
from helpers.repos import git, isolate, make_repo

from alphred.cli import app
from alphred.store import SqlRunStore

RECORDER = '''\
"""A provider that records what each attempt receives and writes the files configured for that attempt."""

import json
from pathlib import Path

from alphred.providers import Readiness, result_event


class RecorderProvider:
    name = "recorder"

    def check(self):
        return Readiness(True, "always ready")

    async def run(self, prompt, options):
        settings = dict(options.settings.get("options") or {})
        with open(settings["log"], "a", encoding="utf-8") as handle:
            seen = {"attempt": options.attempt, "prompt": prompt, "context": list(options.context)}
            handle.write(json.dumps(seen) + "\\n")
        for rel, text in (settings.get("files") or {}).get(str(options.attempt), {}).items():
            path = Path(options.working_directory) / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        yield result_event("done", None, settings.get("report"))
'''


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with source, test fixtures and CI config committed; git isolated from the machine."""
    isolate(monkeypatch, tmp_path / "home")
    files = {
        "README.md": "# project\n",
        "src/app.py": "print('app')\n",
        "tests/fixtures/keep.json": '{"keep": true}\n',
        "tests/fixtures/edit.json": '{"edit": false}\n',
        ".github/ci.yml": "on: push\n",
    }
    return make_repo(tmp_path / "repo", files)


def run(repo: Path, body: str, *args: str) -> tuple[Result, dict[str, Any]]:
    path = write_workflow(repo.parent, body)
    result = cli("run", str(path), "--repo", str(repo), "--json", *args)
    return result, json.loads(result.stdout) if result.stdout.strip() else {}


def checks_of(status: dict[str, Any]) -> list[list[tuple[str, bool, int | None]]]:
    return [[(c["name"], c["passed"], c["exit_code"]) for c in step["checks"]] for step in status["steps"]]


def test_run_checks_pass_and_fail_and_exhausted_retries_fail_the_run_with_checks_failed(repo: Path) -> None:
    result, status = run(
        repo,
        """\
        phases:
          build:
            type: command
            run: echo built > out.txt
            checks:
              - {name: ok, run: test -f out.txt}
              - {run: "echo the tests broke; exit 3"}
            max_retries: 1
        """,
    )
    assert result.exit_code == 1
    assert (status["status"], status["reason"]) == ("failed", "checks_failed")
    assert [s["outcome"] for s in status["steps"]] == ["failed", "failed"]
    assert checks_of(status) == [[("ok", True, 0), ("check2", False, 3)]] * 2
    assert git(repo, "rev-parse", status["branch"]) == status["base"]  # a failing attempt commits nothing
    shown = CliRunner().invoke(app, ["status", "1", "--repo", str(repo)])
    assert shown.output.count("check check2 failed (exit code 3)") == 2 and "check ok failed" not in shown.output


@pytest.mark.quick
def test_passing_checks_complete_the_phase_and_commit(repo: Path) -> None:
    result, status = run(
        repo,
        """\
        phases:
          build:
            type: command
            run: echo fixed >> src/app.py
            checks:
              - {name: tests, run: grep -q fixed src/app.py}
              - {name: code, changed: ["src/**"]}
              - {name: fixtures, unchanged: ["tests/fixtures/**", ".github"]}
        """,
    )
    assert result.exit_code == 0, result.output
    assert checks_of(status) == [[("tests", True, 0), ("code", True, None), ("fixtures", True, None)]]
    assert "src/app.py" in git(repo, "show", "--name-only", "--format=", status["head"])


def test_changed_fails_when_no_matching_path_changed(repo: Path) -> None:
    result, status = run(
        repo,
        """\
        phases:
          docs:
            type: command
            run: echo more >> README.md
            checks: [{name: code, changed: ["src/**", "**/*.py"]}]
        """,
    )
    assert result.exit_code == 1
    assert (status["reason"], checks_of(status)) == ("checks_failed", [[("code", False, None)]])
    with SqlRunStore(f"sqlite:///{repo / '.alphred' / 'alphred.db'}") as store:
        (diagnostic,) = store.list_steps(1)
        events = store.events(1, "docs")
    (stored,) = diagnostic.checks
    assert stored["output"] == "no path changed by this attempt matches (it changed README.md)"
    use, outcome = [e for e in events if e.metadata and "check" in e.metadata]
    assert (use.event_type, use.content, use.metadata["check"]) == (
        "tool_use", "changed: src/**, **/*.py", {"name": "code", "kind": "changed"}
    )  # fmt: skip
    assert outcome.event_type == "tool_result" and outcome.metadata["check"]["passed"] is False


def test_protected_paths_are_restored_and_the_other_changes_stay_for_the_retry(repo: Path) -> None:
    result, status = run(
        repo,
        """\
        phases:
          work:
            type: command
            run: >-
              rm tests/fixtures/keep.json && echo '{"edit": true}' > tests/fixtures/edit.json &&
              mkdir -p tests/fixtures/extra && echo new > tests/fixtures/extra/new.json &&
              echo fixed >> src/app.py && echo notes > notes.txt
            checks: [{name: fixtures, unchanged: ["tests/fixtures/**"]}]
        """,
        "--keep-worktree",
    )
    assert result.exit_code == 1
    assert (status["reason"], checks_of(status)) == ("checks_failed", [[("fixtures", False, None)]])
    worktree = Path(status["worktree"])
    assert (worktree / "tests/fixtures/keep.json").read_text() == '{"keep": true}\n'  # deleted -> back
    assert (worktree / "tests/fixtures/edit.json").read_text() == '{"edit": false}\n'  # modified -> back
    assert not (worktree / "tests/fixtures/extra").exists()  # added -> gone, with its directory
    assert (worktree / "src/app.py").read_text() == "print('app')\nfixed\n"  # the other changes stay
    assert (worktree / "notes.txt").read_text() == "notes\n"
    assert git(worktree, "status", "--porcelain", "--", "tests") == ""
    with SqlRunStore(f"sqlite:///{repo / '.alphred' / 'alphred.db'}") as store:
        (diagnostic,) = store.list_steps(1)
    assert diagnostic.reason == "checks_failed" and diagnostic.error_code == "CHECKS_FAILED"
    with sqlite3.connect(repo / ".alphred" / "alphred.db") as db:
        (details,) = db.execute("SELECT details FROM run_node_diagnostics").fetchone()
    assert json.loads(details)["restored"] == [
        "tests/fixtures/edit.json", "tests/fixtures/extra/new.json", "tests/fixtures/keep.json"
    ]  # fmt: skip


def test_report_checks_need_an_object_with_the_required_keys(repo: Path) -> None:
    result, status = run(
        repo,
        """\
        phases:
          good:
            provider: scripted
            script: [{report: {summary: "fixed it", risk: low}}]
            checks: [{name: shape, report: {required: [summary, risk]}}]
            transitions: [{to: bad}]
          bad:
            provider: scripted
            script: [{report: {summary: "no risk given", risk: null}}, {report: "plain text"}]
            max_retries: 1
            checks: [{name: shape, report: {required: [summary, risk]}}]
        """,
    )
    assert result.exit_code == 1
    assert (status["status"], status["reason"]) == ("failed", "checks_failed")
    assert checks_of(status) == [[("shape", True, None)], [("shape", False, None)], [("shape", False, None)]]
    with SqlRunStore(f"sqlite:///{repo / '.alphred' / 'alphred.db'}") as store:
        outputs = [s.checks[0]["output"] for s in store.list_steps(1)]
    assert outputs == ["the report has summary, risk", "the report lacks risk", "the report is text, not an object; "
                       "required keys: summary, risk"]  # fmt: skip


def test_guards_read_the_checks_of_the_phase_just_finished(repo: Path) -> None:
    result, status = run(
        repo,
        """\
        phases:
          build:
            type: command
            run: echo fixed >> src/app.py
            checks:
              - {name: tests, run: "true"}
              - {name: code, changed: ["src/**"]}
            transitions:
              - to: ship
                when: checks.tests.passed and checks.tests.exit_code == 0 and checks.code.exit_code == null
              - to: $fail
          ship: {type: command, run: "true"}
        """,
    )
    assert result.exit_code == 0, result.output
    assert [(s["phase"], s["next"]) for s in status["steps"]] == [("build", "ship"), ("ship", None)]
    assert status["steps"][1]["checks"] == []


def test_check_commands_are_shell_quoted_so_an_input_never_executes(repo: Path) -> None:
    payload = "x'; touch pwned1; echo '$(touch pwned2)` touch pwned3`"
    result, status = run(
        repo,
        """\
        inputs:
          name: {required: true}
        phases:
          build:
            type: command
            run: "true"
            checks:
              - {name: echo, run: "printf '%s' {{ inputs.name }} > seen.txt && test -f seen.txt"}
        """,
        "--keep-worktree",
        "-i",
        f"name={payload}",
    )
    assert result.exit_code == 0, result.output
    worktree = Path(status["worktree"])
    assert (worktree / "seen.txt").read_text() == payload
    assert not [p for p in worktree.iterdir() if p.name.startswith("pwned")]


def test_a_check_past_its_timeout_is_killed_and_fails(repo: Path) -> None:
    result, status = run(
        repo,
        """\
        phases:
          build:
            type: command
            run: "true"
            checks:
              - {name: slow, run: "echo started; sleep 60 & wait", timeout: 0.5s}
        """,
    )
    assert result.exit_code == 1
    assert (status["reason"], checks_of(status)) == ("checks_failed", [[("slow", False, None)]])
    with SqlRunStore(f"sqlite:///{repo / '.alphred' / 'alphred.db'}") as store:
        (step,) = store.list_steps(1)
    assert "started" in step.checks[0]["output"] and "timed out after 0.5s" in step.checks[0]["output"]


def test_the_retry_receives_what_failed(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    (site / "recorder_plugin").mkdir(parents=True)
    (site / "recorder_plugin" / "__init__.py").write_text(RECORDER)
    info = site / "recorder_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: recorder-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[alphred.providers]\nrecorder = recorder_plugin:RecorderProvider\n")
    monkeypatch.syspath_prepend(str(site))
    log = tmp_path / "seen.jsonl"
    options = {
        "log": str(log),
        "files": {
            "1": {".github/ci.yml": "on: never\n", "notes.txt": "wip\n"},
            "2": {"src/app.py": "print('fixed')\n"},
        },
    }
    result, status = run(
        repo,
        f"""\
        phases:
          implement:
            provider: recorder
            prompt: Fix it.
            options: {json.dumps(options)}
            max_retries: 1
            checks:
              - {{name: tests, run: "grep -q fixed src/app.py || {{ echo 'FAILED test_app - expected fixed'; exit 1; }}"}}
              - {{name: code, changed: ["src/**"]}}
              - {{name: ci, unchanged: [".github"]}}
        """,
    )
    assert result.exit_code == 0, result.output
    assert checks_of(status) == [
        [("tests", False, 1), ("code", False, None), ("ci", False, None)],
        [("tests", True, 0), ("code", True, None), ("ci", True, None)],
    ]
    first, second = [json.loads(line) for line in log.read_text().splitlines()]
    assert first["context"] == []
    (note,) = second["context"]
    assert 'reason="checks_failed"' in note
    assert (
        "- tests (run: grep -q fixed src/app.py || { echo 'FAILED test_app - expected fixed'; exit 1; }): exit code 1"
        in note
    )
    assert (
        "- code (changed: src/**): no path changed by this attempt matches (it changed .github/ci.yml, notes.txt)"
        in note
    )
    assert "- ci (unchanged: .github): protected paths were changed: .github/ci.yml" in note
    assert "restored to their state at the attempt's start: .github/ci.yml" in note
    assert "FAILED test_app - expected fixed" in note  # the output tail
    committed = git(repo, "show", "--name-only", "--format=", status["head"]).splitlines()
    assert sorted(committed) == ["notes.txt", "src/app.py"]  # the first attempt's other change was kept
    assert git(repo, "show", f"{status['head']}:.github/ci.yml") == "on: push"


def test_dry_run_skips_the_checks_of_stand_in_agents(repo: Path) -> None:
    result, status = run(
        repo,
        """\
        phases:
          implement:
            provider: scripted
            checks: [{name: code, changed: ["src/**"]}]
            transitions: [{to: tests}]
          tests:
            type: command
            run: "true"
            checks: [{name: suite, run: "true"}]
        """,
        "--dry-run",
    )
    assert result.exit_code == 0, result.output
    assert checks_of(status) == [[], [("suite", True, 0)]]


def test_commits_the_failed_attempt_made_itself_are_undone_but_their_changes_stay(repo: Path) -> None:
    result, status = run(
        repo,
        """\
        phases:
          work:
            type: command
            run: >-
              echo '{"edit": true}' > tests/fixtures/edit.json && echo n > tests/fixtures/added.json &&
              echo fixed >> src/app.py && git add -A &&
              git -c user.name=A -c user.email=a@example.invalid commit -qm "the agent's own commit"
            checks: [{name: fixtures, unchanged: ["tests/fixtures/**"]}]
        """,
        "--keep-worktree",
    )
    assert (result.exit_code, status["reason"]) == (1, "checks_failed")
    worktree = Path(status["worktree"])
    assert git(worktree, "rev-parse", "HEAD") == status["base"]  # the retry starts where the attempt started
    assert (worktree / "tests/fixtures/edit.json").read_text() == '{"edit": false}\n'
    assert not (worktree / "tests/fixtures/added.json").exists()
    assert (worktree / "src/app.py").read_text() == "print('app')\nfixed\n"
    assert git(worktree, "status", "--porcelain") == "M  src/app.py"  # index and worktree: only the kept change
