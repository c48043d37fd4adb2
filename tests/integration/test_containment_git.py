"""An agent's write never steers Alphred's git (SPEC §14, issue 22 item 1).

Each provider's write path (scripted ``files``, a command phase, the openai ``write_file`` through the fake
model server) rewrites the worktree's ``.git`` file or the git directory as an attacker would: aiming
Alphred's phase commit at the user's ``main``, or at a planted git directory whose config runs a command.
Alphred's git names the git directory it recorded, so nothing lands on ``main`` and no planted command
runs; the attempt fails ``WORKTREE_TAMPERED`` (not retried) and what it changed is restored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.repos import git, make_repo
from helpers.runs import alphred, base_env, db, status, steps, workflow


def _repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo", {"README.md": "# project\n", "keep.txt": "keep\n"}, env=base_env(tmp_path))


def _planted(worktree_rel: str, marker: Path) -> dict[str, str]:
    """Files that make ``evil/`` a git directory whose config runs ``touch MARKER`` (fsmonitor, a hook)."""
    run = f"touch {marker}"
    return {
        f"{worktree_rel}HEAD": "ref: refs/heads/main\n",
        f"{worktree_rel}config": f"[core]\n\tfsmonitor = {run}\n\thooksPath = hooks\n",
        f"{worktree_rel}hooks/post-commit": f"#!/bin/sh\n{run}\n",
        f"{worktree_rel}refs/heads/.keep": "",
        f"{worktree_rel}objects/.keep": "",
    }


def _error_codes(repo: Path) -> list[str]:
    return [row[0] for row in db(repo).execute("select error_code from run_node_diagnostics order by id")]


def _assert_tampered(repo: Path, main_before: str, done: Any) -> dict[str, Any]:
    obj = status(repo)
    assert done.returncode == 1, done.stderr
    assert (obj["status"], obj["reason"]) == ("failed", "worktree_tampered")
    assert steps(obj) == [("implement", 1, "failed")]  # not retried, although max_retries allows it
    assert _error_codes(repo) == ["WORKTREE_TAMPERED"]
    assert git(repo, "rev-parse", "main") == main_before  # nothing landed on the user's branch
    assert (repo / "keep.txt").read_text() == "keep\n" and git(repo, "status", "--porcelain") == ""
    worktree = Path(obj["worktree"]) if obj.get("worktree") else repo / ".alphred" / "worktrees" / "1"
    dotgit = (worktree / ".git").read_text()
    assert dotgit.startswith("gitdir: ") and dotgit.strip().endswith("/.git/worktrees/1")  # restored
    assert git(worktree, "rev-parse", "--abbrev-ref", "HEAD") == obj["branch"]
    return obj


def test_a_scripted_write_of_dot_git_cannot_aim_the_phase_commit_at_main(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    main_before = git(repo, "rev-parse", "main")
    wf = workflow(
        repo,
        f"""\
        phases:
          implement:
            provider: scripted
            max_retries: 2
            script:
              - files:
                  .git: "gitdir: {repo}/.git\\n"
                  new.txt: "agent work\\n"
                decision: approved
        """,
    )
    done = alphred(repo, "run", str(wf), "--json")
    _assert_tampered(repo, main_before, done)
    assert git(repo, "log", "--format=%s", "main").splitlines() == ["init"]


def test_a_scripted_planted_git_directory_never_runs_its_config_or_hooks(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    main_before = git(repo, "rev-parse", "main")
    marker = tmp_path / "ran"
    files = {".git": "gitdir: evil\n", "new.txt": "agent work\n", **_planted("evil/", marker)}
    script = json.dumps([{"files": files, "decision": "approved"}])
    wf = workflow(repo, f"phases:\n  implement:\n    provider: scripted\n    max_retries: 2\n    script: {script}\n")
    done = alphred(repo, "run", str(wf), "--json")
    _assert_tampered(repo, main_before, done)
    assert not marker.exists()  # neither core.fsmonitor nor a hook of the planted directory ran


def test_a_command_phase_rewriting_dot_git_or_head_or_the_config_fails_tampered(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    main_before = git(repo, "rev-parse", "main")
    marker = tmp_path / "ran"
    for script in (
        f'printf "gitdir: {repo}/.git\\n" > .git; echo x > new.txt',
        "echo 'ref: refs/heads/main' > \"$(git rev-parse --git-dir)/HEAD\"; echo x > new.txt",
        f"git config --file {repo}/.git/config core.sshCommand 'touch {marker}'; echo x > new.txt",
    ):
        config_before = (repo / ".git" / "config").read_text()
        wf = workflow(
            repo, f"phases:\n  implement:\n    type: command\n    max_retries: 2\n    run: {json.dumps(script)}\n"
        )
        done = alphred(repo, "run", str(wf), "--json")
        obj = status(repo, json.loads(done.stdout)["run_id"]) if done.stdout.strip() else {}
        assert (obj["status"], obj["reason"]) == ("failed", "worktree_tampered"), (script, done.stderr)
        assert [(s["attempt"], s["outcome"]) for s in obj["steps"]] == [(1, "failed")]
        assert git(repo, "rev-parse", "main") == main_before
        assert (repo / ".git" / "config").read_text() == config_before  # restored
        worktree = Path(obj["worktree"])
        assert git(worktree, "rev-parse", "--abbrev-ref", "HEAD") == obj["branch"]
        assert git(repo, "log", "--format=%s", obj["branch"]).splitlines() == ["init"]  # nothing committed
    assert not marker.exists()


def test_a_changed_check_after_a_tampering_agent_runs_no_git_of_its_choosing(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    marker = tmp_path / "ran"
    files = {".git": "gitdir: evil\n", "src/a.py": "x = 1\n", **_planted("evil/", marker)}
    script = json.dumps([{"files": files, "decision": "approved"}])
    wf = workflow(
        repo,
        f"phases:\n  implement:\n    provider: scripted\n    script: {script}\n"
        "    checks:\n      - changed: ['src/**']\n",
    )
    done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 1 and status(repo)["reason"] == "worktree_tampered", done.stderr
    assert not marker.exists()


def test_an_unchanged_phase_after_a_clean_one_still_commits_nothing_and_passes(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    wf = workflow(
        repo,
        """\
        phases:
          one:
            provider: scripted
            script: [{files: {a.txt: "a\\n"}, decision: approved}]
            transitions: [{to: two}]
          two:
            type: command
            run: "true"
        """,
    )
    done = alphred(repo, "run", str(wf), "--json")
    assert done.returncode == 0, done.stderr
    obj = status(repo)
    assert git(repo, "log", "--format=%s", obj["branch"]).splitlines()[0] == "alphred(wf): one [visit 1]"


@pytest.mark.slow
def test_the_openai_write_file_tool_writing_dot_git_fails_the_attempt_tampered(tmp_path: Path, server: Any) -> None:
    pytest.importorskip("openai")
    repo = _repo(tmp_path)
    main_before = git(repo, "rev-parse", "main")
    server.script(
        "impl",
        [
            {"calls": [{"name": "write_file", "arguments": {"path": ".git", "content": f"gitdir: {repo}/.git\n"}}]},
            {"calls": [{"name": "write_file", "arguments": {"path": "new.txt", "content": "x\n"}}]},
            {"calls": [{"name": "finish", "arguments": {"decision": "approved", "report": "done"}}]},
        ],
    )
    wf = workflow(
        repo,
        f"phases:\n  implement:\n    provider: openai\n    model: impl\n    base_url: {server.url}\n"
        "    api_key_env: none\n    max_retries: 2\n    prompt: Go.\n",
    )
    done = alphred(repo, "run", str(wf), "--json")
    _assert_tampered(repo, main_before, done)


def test_the_repositorys_hooks_run_for_alphreds_commits_only_with_git_hooks_true(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    marker = tmp_path / "hook-ran"
    hook = repo / ".git" / "hooks" / "post-commit"
    hook.write_text(f"#!/bin/sh\necho ran >> {marker}\n")
    hook.chmod(0o755)
    body = 'phases:\n  build:\n    type: command\n    run: "echo x > new.txt"\n'
    done = alphred(repo, "run", str(workflow(repo, body)), "--json")
    assert done.returncode == 0, done.stderr
    assert not marker.exists()  # off by default: the hook is the repository's code
    done = alphred(repo, "run", str(workflow(repo, "git: {hooks: true}\n" + body)), "--json")
    assert done.returncode == 0, done.stderr
    assert marker.read_text() == "ran\n"


def test_codex_commands_failing_in_its_broken_sandbox_fail_the_attempt() -> None:
    from alphred.errors import ProviderError
    from alphred.providers.codex_events import CodexEventMapper

    mapper = CodexEventMapper(wants_decision=False)
    item = {
        "type": "command_execution",
        "id": "c1",
        "command": "touch x",
        "aggregated_output": "bwrap: execvp codex-linux-sandbox: No such file or directory\n",
        "exit_code": 1,
        "status": "failed",
    }
    mapper.line(json.dumps({"type": "item.completed", "item": item}))
    mapper.line(json.dumps({"type": "turn.completed", "usage": {"input_tokens": 1, "output_tokens": 1}}))
    with pytest.raises(ProviderError) as caught:
        mapper.finish(0, [])
    assert caught.value.code == "CODEX_SANDBOX_BROKEN" and not caught.value.retryable
    assert "codex-linux-sandbox" in caught.value.message
