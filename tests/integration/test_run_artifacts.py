"""Run artifacts (SPEC §17): ``$ALPHRED_ARTIFACTS`` in every phase, outside every worktree and never committed,
stored with the run (bounded, redacted), readable by later phases and after a resume elsewhere, fetched by
``alphred artifacts`` and ``alphred status --artifacts``; and the crash windows of storing them."""

from __future__ import annotations

import json
import shutil
import signal
from pathlib import Path

import pytest
from helpers.processes import kill_group
from helpers.repos import git
from helpers.runs import alphred, base_env, db, start, steps, wait_for, workflow

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

WRITE_READ = """\
phases:
  write:
    type: command
    run: |
      mkdir -p "$ALPHRED_ARTIFACTS/notes"
      printf 'plan for %s\\n' "{{ inputs.topic }}" > "$ALPHRED_ARTIFACTS/notes/plan.md"
      printf 'in %s\\n' "{{ artifacts.dir }}" > "$ALPHRED_ARTIFACTS/where.txt"
      printf '\\000\\001binary' > "$ALPHRED_ARTIFACTS/blob.bin"
    checks:
      - run: test -s "$ALPHRED_ARTIFACTS/notes/plan.md"
    transitions: [{to: read}]
  read:
    type: command
    run: cat "$ALPHRED_ARTIFACTS/notes/plan.md"; rm "$ALPHRED_ARTIFACTS/where.txt"; git status --porcelain
inputs:
  topic: {default: caching}
"""


def stored(repo: Path, area: str = "artifacts") -> list[tuple[str, int]]:
    rows = db(repo).execute("select path, size from run_files where area = ? order by path", (area,)).fetchall()
    return [(str(path), int(size)) for path, size in rows]


def blobs(repo: Path) -> int:
    return int(db(repo).execute("select count(*) from file_blobs").fetchone()[0])


def output_of(repo: Path, phase: str) -> str:
    row = (
        db(repo)
        .execute(
            "select e.content from run_node_stream_events e join run_nodes n on n.id = e.run_node_id "
            "where n.node_key = ? and e.event_type = 'result' order by e.id desc",
            (phase,),
        )
        .fetchone()
    )
    return str(row[0])


def test_artifacts_are_shared_by_phases_stored_with_the_run_and_never_committed(repo: Path) -> None:
    wf = workflow(repo, WRITE_READ)
    result = alphred(repo, "run", str(wf), "--json")
    assert result.returncode == 0, result.stderr
    final = json.loads(result.stdout)
    assert final["status"] == "completed"
    place = repo / ".alphred" / "runs" / "1" / "artifacts"
    assert (place / "notes" / "plan.md").read_text() == "plan for caching\n"
    assert "plan for caching" in output_of(repo, "read")  # a later phase read it
    # outside the worktree: git saw nothing, the branch holds no artifact
    assert git(repo, "ls-tree", "-r", "--name-only", final["branch"]).split() == ["README.md"]
    assert "where.txt" not in output_of(repo, "read") and "??" not in output_of(repo, "read")
    # stored with the run: the deletion by `read` too
    assert stored(repo) == [("blob.bin", 8), ("notes/plan.md", 17)]
    listed = alphred(repo, "artifacts", "1")
    assert listed.returncode == 0 and "notes/plan.md" in listed.stdout and "blob.bin" in listed.stdout
    shown = alphred(repo, "artifacts", "1", "notes/plan.md")
    assert shown.stdout == "plan for caching\n"
    out = repo.parent / "out"
    fetched = alphred(repo, "artifacts", "1", "-o", str(out))
    assert fetched.returncode == 0, fetched.stderr
    assert (out / "notes" / "plan.md").read_text() == "plan for caching\n"
    assert (out / "blob.bin").read_bytes() == b"\x00\x01binary"
    text = alphred(repo, "status", "1", "--artifacts").stdout
    assert "artifacts: 2 files, 25 bytes" in text and "artifacts 1 -o DIR" in text
    as_json = json.loads(alphred(repo, "status", "1", "--artifacts", "--json").stdout)
    assert [(a["path"], a["size"]) for a in as_json["artifacts"]] == [("blob.bin", 8), ("notes/plan.md", 17)]
    missing = alphred(repo, "artifacts", "1", "nope.md")
    assert missing.returncode == 2 and "Error [USAGE]" in missing.stderr and "no artifact 'nope.md'" in missing.stderr


def test_the_template_path_and_the_environment_name_the_same_directory(repo: Path) -> None:
    wf = workflow(repo, WRITE_READ)
    assert alphred(repo, "run", str(wf)).returncode == 0
    place = repo / ".alphred" / "runs" / "1" / "artifacts"
    shown = alphred(repo, "artifacts", "1")
    assert "where.txt" not in shown.stdout  # deleted by `read`, forgotten by the store
    first = workflow(repo, WRITE_READ.replace('rm "$ALPHRED_ARTIFACTS/where.txt"; ', ""))
    assert alphred(repo, "run", str(first)).returncode == 0
    assert alphred(repo, "artifacts", "2", "where.txt").stdout == f"in {place.parent.parent / '2' / 'artifacts'}\n"


def test_an_unknown_template_path_is_refused_at_validate(repo: Path) -> None:
    wf = workflow(repo, "phases:\n  a:\n    type: command\n    run: echo {{ artifacts.path }} {{ memory.dir }}\n")
    result = alphred(repo, "validate", str(wf))
    assert result.returncode == 2
    assert "unknown path 'artifacts.path' (use artifacts.dir)" in result.stderr
    assert "unknown path 'memory.dir': the workflow declares no 'memory:'" in result.stderr


def test_over_the_limit_the_attempt_fails_not_retried_and_nothing_is_stored(repo: Path) -> None:
    wf = workflow(
        repo,
        """\
        limits: {max_artifact_bytes: 100}
        phases:
          big:
            type: command
            max_retries: 2
            run: |
              printf small > "$ALPHRED_ARTIFACTS/small.txt"
              head -c 200 /dev/zero > "$ALPHRED_ARTIFACTS/big.bin"
        """,
    )
    result = alphred(repo, "run", str(wf), "--json")
    assert result.returncode == 1
    final = json.loads(result.stdout)
    assert (final["status"], final["reason"]) == ("failed", "artifacts_too_large")
    assert steps(final) == [("big", 1, "failed")]  # not retried
    code, message = db(repo).execute("select error_code, details from run_node_diagnostics").fetchone()
    assert code == "ARTIFACTS_TOO_LARGE" and "big.bin (200 bytes)" in json.loads(message)["message"]
    assert stored(repo) == []


def test_a_secret_written_to_an_artifact_is_stored_redacted(repo: Path) -> None:
    wf = workflow(
        repo,
        """\
        phases:
          leak:
            type: command
            env: [DEPLOY_TOKEN]
            run: printf 'token=%s\\n' "$DEPLOY_TOKEN" > "$ALPHRED_ARTIFACTS/leak.txt"
        """,
    )
    env = base_env(repo.parent) | {"DEPLOY_TOKEN": "hunter2-very-secret"}
    assert alphred(repo, "run", str(wf), env=env).returncode == 0
    assert alphred(repo, "artifacts", "1", "leak.txt").stdout == "token=[REDACTED]\n"


def test_a_sandboxed_phase_writes_its_artifacts(repo: Path) -> None:
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed")
    wf = workflow(
        repo,
        """\
        phases:
          boxed:
            type: command
            sandbox: {}
            run: printf boxed > "$ALPHRED_ARTIFACTS/boxed.txt" && ! touch /home/outside-attempt 2>/dev/null
        """,
    )
    result = alphred(repo, "run", str(wf), "--json")
    assert result.returncode == 0, result.stderr
    assert alphred(repo, "artifacts", "1", "boxed.txt").stdout == "boxed"


GATED = """\
phases:
  write:
    type: command
    run: printf 'notes\\n' > "$ALPHRED_ARTIFACTS/notes.md"
    transitions: [{to: gate}]
  gate:
    type: approval
    transitions: [{when: decision == "approved", to: read}, {to: $fail}]
  read:
    type: command
    run: cat "$ALPHRED_ARTIFACTS/notes.md"
"""


def test_a_run_continued_where_its_directory_is_gone_gets_its_artifacts_back(repo: Path) -> None:
    wf = workflow(repo, GATED)
    assert alphred(repo, "run", str(wf)).returncode == 4  # waits at the gate
    shutil.rmtree(repo / ".alphred" / "runs" / "1")  # as on another machine taking the run over
    result = alphred(repo, "approve", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert "notes" in output_of(repo, "read")
    assert (repo / ".alphred" / "runs" / "1" / "artifacts" / "notes.md").read_text() == "notes\n"


@pytest.mark.parametrize("point", ["storing_artifacts", "artifacts_stored"])
def test_a_kill_while_storing_artifacts_loses_nothing_and_stores_nothing_twice(repo: Path, point: str) -> None:
    wf = workflow(
        repo,
        """\
        phases:
          write:
            type: command
            run: printf 'line\\n' >> "$ALPHRED_ARTIFACTS/log.txt"; head -c 3000000 /dev/urandom > "$ALPHRED_ARTIFACTS/r.bin"
            transitions: [{to: after}]
          after:
            type: command
            run: wc -l < "$ALPHRED_ARTIFACTS/log.txt"
        """,
    )
    crashed = alphred(repo, "run", str(wf), env=base_env(repo.parent) | {"ALPHRED_CRASH_AT": point})
    assert crashed.returncode == -signal.SIGKILL
    before = stored(repo)
    if point == "storing_artifacts":
        assert before == []  # killed inside the transaction: nothing of it stored
    else:
        assert [path for path, _ in before] == ["log.txt", "r.bin"]
    result = alphred(repo, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    final = json.loads(result.stdout)
    assert steps(final) == [("write", 1, "interrupted"), ("write", 2, "completed"), ("after", 1, "completed")]
    # the interrupted attempt's file stayed (SPEC §17), the second appended to it; each content stored once
    assert (repo / ".alphred" / "runs" / "1" / "artifacts" / "log.txt").read_text() == "line\nline\n"
    assert [path for path, _ in stored(repo)] == ["log.txt", "r.bin"]
    assert blobs(repo) == (4 if point == "artifacts_stored" else 2)  # the first attempt's contents, then the second's
    chunks, sizes = (
        db(repo)
        .execute("select (select sum(length(data)) from file_chunks), (select sum(size) from file_blobs)")
        .fetchone()
    )
    assert chunks == sizes  # every content stored exactly once


@pytest.mark.slow  # the claude SDK against its fake CLI
def test_an_agent_writes_its_artifacts_through_the_environment_it_is_given(repo: Path, tmp_path: Path) -> None:
    pytest.importorskip("claude_agent_sdk")
    import sys

    fake = tmp_path / "claude"
    fake.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FIXTURES / "fake_claude_cli.py"}" "$@"\n')
    fake.chmod(0o755)
    env = base_env(repo.parent) | {
        "ALPHRED_CLAUDE_CLI": str(fake),
        "ANTHROPIC_API_KEY": "fake-anthropic-key",
        "IS_SANDBOX": "1",
        "CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK": "1",
        "FAKE_CLAUDE_FILE": "$ALPHRED_ARTIFACTS/agent/notes.md",
    }
    wf = workflow(repo, "phases:\n  think:\n    provider: claude\n    prompt: Investigate; keep notes.\n")
    result = alphred(repo, "run", str(wf), "--json", env=env)
    assert result.returncode == 0, result.stderr
    notes = alphred(repo, "artifacts", "1", "agent/notes.md", env=env).stdout
    assert notes.startswith("written by the fake claude") and "Investigate; keep notes." in notes
    assert git(repo, "ls-tree", "-r", "--name-only", json.loads(result.stdout)["branch"]).split() == ["README.md"]


def test_a_symlink_left_by_a_killed_attempt_cannot_redirect_the_restore(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    ready = tmp_path / "planted"
    wf = workflow(
        repo,
        f"""\
        phases:
          write:
            type: command
            run: mkdir -p "$ALPHRED_ARTIFACTS/notes" && printf plan > "$ALPHRED_ARTIFACTS/notes/plan.md"
            transitions: [{{to: plant}}]
          plant:
            type: command
            run: |
              if [ ! -e {ready} ]; then
                rm -rf "$ALPHRED_ARTIFACTS/notes"; ln -s {outside} "$ALPHRED_ARTIFACTS/notes"
                ln -s /etc/hostname "$ALPHRED_ARTIFACTS/host"; touch {ready}; sleep 120
              fi
        """,
    )
    process = start(repo, "run", str(wf))
    try:
        wait_for(ready.exists)
    finally:
        kill_group(process)
    process.communicate(timeout=60)
    result = alphred(repo, "resume", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert list(outside.iterdir()) == []  # restored into a real directory, never through the symlink
    place = repo / ".alphred" / "runs" / "1" / "artifacts"
    assert not (place / "notes").is_symlink() and (place / "notes" / "plan.md").read_text() == "plan"
    assert [path for path, _ in stored(repo)] == ["notes/plan.md"]  # the symlink `host` was never stored


@pytest.mark.slow  # two checkouts, a worker
def test_a_worker_in_another_checkout_takes_the_run_over_with_its_artifacts_and_memory(
    repo: Path, tmp_path: Path
) -> None:
    import subprocess

    env = base_env(tmp_path)
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    wf = workflow(
        repo,
        GATED.replace("phases:", "memory: kept\nphases:", 1).replace(
            "run: printf 'notes\\n' > \"$ALPHRED_ARTIFACTS/notes.md\"",
            'run: printf \'notes\\n\' > "$ALPHRED_ARTIFACTS/notes.md"; echo first > "$ALPHRED_MEMORY/m.txt"',
        ),
    )
    assert "ALPHRED_MEMORY/m.txt" in wf.read_text()
    assert alphred(repo, "submit", str(wf), "--db", url, env=env).returncode == 0
    first = alphred(repo, "worker", "--once", "--db", url, env=env)
    assert "run 1: paused" in first.stderr, first.stderr  # at the gate, in the first checkout
    other = tmp_path / "other-checkout"
    subprocess.run(["git", "clone", "-q", str(repo), str(other)], check=True, env=env)
    git(other, "branch", "alphred/wf/1", "origin/alphred/wf/1")  # the run's branch, as a push would bring it
    approved = alphred(repo, "approve", "1", "--detach", "--db", url, env=env)
    assert approved.returncode == 0, approved.stderr
    done = alphred(other, "worker", "--once", "--db", url, env=env)
    assert done.returncode == 0, done.stderr
    final = json.loads(alphred(other, "status", "1", "--json", "--db", url, env=env).stdout)
    assert final["status"] == "completed"
    assert (other / ".alphred" / "runs" / "1" / "artifacts" / "notes.md").read_text() == "notes\n"
    assert (other / ".alphred" / "runs" / "1" / "memory" / "m.txt").read_text() == "first\n"
    assert "saved by run 1" in alphred(other, "memory", "kept", "--db", url, env=env).stdout


def test_gc_removes_the_files_directory_of_an_ended_run_and_keeps_a_failed_ones(repo: Path) -> None:
    """``alphred gc`` removed a completed run's worktree but left ``.alphred/runs/<id>`` behind for ever."""
    wf = workflow(repo, WRITE_READ)
    assert alphred(repo, "run", str(wf)).returncode == 0
    failing = repo.parent / "fail.yaml"
    failing.write_text(
        'alphred: 1\nkey: fails\nphases:\n  go: {type: command, run: "echo kept > $ALPHRED_ARTIFACTS/why.txt; false"}\n'
    )
    assert alphred(repo, "run", str(failing)).returncode == 1
    runs = repo / ".alphred" / "runs"
    (runs / "99" / "artifacts").mkdir(parents=True)  # a run the database does not know
    assert sorted(p.name for p in runs.iterdir()) == ["1", "2", "99"]
    listed = alphred(repo, "gc", "--dry-run")
    assert listed.returncode == 0 and str(runs / "1") in listed.stdout and str(runs / "99") in listed.stdout
    assert sorted(p.name for p in runs.iterdir()) == ["1", "2", "99"]  # a dry run removes nothing
    done = alphred(repo, "gc")
    assert done.returncode == 0, done.stderr
    assert "run 1: run completed, its files stored" in done.stdout and "2 run files director(ies)" in done.stderr
    assert sorted(p.name for p in runs.iterdir()) == ["2"]  # the failed run keeps its files (for retry)
    kept = alphred(repo, "artifacts", "1", "notes/plan.md")  # what the directory held is still the run's
    assert kept.returncode == 0 and kept.stdout == "plan for caching\n", kept.stderr
    again = alphred(repo, "gc")
    assert again.returncode == 0 and "removed 0 worktree(s), 0 run files director(ies)" in again.stderr
