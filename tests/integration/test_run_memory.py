"""Memory across runs (SPEC §17): ``memory: NAME`` restored at run start from the last completed run of the
same workflow and name in the repository, saved on completion only, bounded, ``alphred memory NAME [--clear]``,
and a kill while the completion saves it."""

from __future__ import annotations

import json
import signal
from pathlib import Path

from helpers.repos import git
from helpers.runs import alphred, base_env, db, workflow

COUNTER = """\
memory: tried
inputs:
  fail: {default: "no"}
phases:
  count:
    type: command
    run: |
      n=$(cat "$ALPHRED_MEMORY/count" 2>/dev/null || echo 0)
      echo $((n + 1)) > "$ALPHRED_MEMORY/count"
      echo "approach $((n + 1))" >> "$ALPHRED_MEMORY/log/tried.txt" 2>/dev/null || {
        mkdir -p "$ALPHRED_MEMORY/log"; echo "approach $((n + 1))" >> "$ALPHRED_MEMORY/log/tried.txt"; }
      echo "saw $n in {{ memory.dir }}"
      test "{{ inputs.fail }}" = no
"""


def memory_count(repo: Path, run_id: int) -> str:
    return (repo / ".alphred" / "runs" / str(run_id) / "memory" / "count").read_text().strip()


def test_memory_is_restored_from_the_last_completed_run_and_saved_only_on_completion(repo: Path) -> None:
    wf = workflow(repo, COUNTER)
    for _ in range(2):
        assert alphred(repo, "run", str(wf)).returncode == 0
    assert memory_count(repo, 2) == "2"
    failed = alphred(repo, "run", str(wf), "-i", "fail=yes")
    assert failed.returncode == 1
    assert memory_count(repo, 3) == "3"  # it saw run 2's memory...
    assert alphred(repo, "run", str(wf)).returncode == 0
    assert memory_count(repo, 4) == "3"  # ...but a failed run saves none: run 4 starts from run 2's
    shown = alphred(repo, "memory", "tried")
    assert shown.returncode == 0, shown.stderr
    assert "memory tried of workflow wf: saved by run 4" in shown.stdout
    assert "log/tried.txt" in shown.stdout and "count" in shown.stdout
    tried = (repo / ".alphred" / "runs" / "4" / "memory" / "log" / "tried.txt").read_text()
    assert tried == "approach 1\napproach 2\napproach 3\n"
    assert git(repo, "status", "--porcelain") == ""  # nothing of it in the checkout


def test_memory_is_kept_per_workflow_and_name_and_cleared_on_demand(repo: Path) -> None:
    wf = workflow(repo, COUNTER)
    assert alphred(repo, "run", str(wf)).returncode == 0
    other = repo.parent / "other.yaml"
    other.write_text(wf.read_text().replace("key: wf", "key: other"))
    assert alphred(repo, "run", str(other)).returncode == 0
    assert memory_count(repo, 2) == "1"  # another workflow key: another memory
    renamed = repo.parent / "renamed.yaml"
    renamed.write_text(wf.read_text().replace("memory: tried", "memory: other-name"))
    assert alphred(repo, "run", str(renamed)).returncode == 0
    assert memory_count(repo, 3) == "1"
    listed = alphred(repo, "memory", "tried").stdout
    assert "of workflow other" in listed and "of workflow wf" in listed
    cleared = alphred(repo, "memory", "tried", "--workflow", "wf", "--clear")
    assert cleared.returncode == 0 and "cleared 1 memory called tried" in cleared.stdout
    assert "of workflow wf" not in alphred(repo, "memory", "tried").stdout
    assert alphred(repo, "run", str(wf)).returncode == 0
    assert memory_count(repo, 4) == "1"  # started empty again
    assert alphred(repo, "memory", "nothing-here").stdout == "no memory called nothing-here in this repository\n"


def test_memory_over_the_limit_fails_the_attempt(repo: Path) -> None:
    wf = workflow(
        repo,
        """\
        memory: big
        limits: {max_artifact_bytes: 50}
        phases:
          fill:
            type: command
            run: head -c 80 /dev/zero > "$ALPHRED_MEMORY/fill.bin"
        """,
    )
    result = alphred(repo, "run", str(wf), "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout)["reason"] == "artifacts_too_large"
    message = json.loads(db(repo).execute("select details from run_node_diagnostics").fetchone()[0])["message"]
    assert "$ALPHRED_MEMORY holds 80 bytes" in message
    assert alphred(repo, "memory", "big").stdout.startswith("no memory")


def test_a_kill_while_the_completion_saves_memory_saves_it_once_on_resume(repo: Path) -> None:
    wf = workflow(repo, COUNTER)
    assert alphred(repo, "run", str(wf)).returncode == 0
    crashed = alphred(repo, "run", str(wf), env=base_env(repo.parent) | {"ALPHRED_CRASH_AT": "saving_memory"})
    assert crashed.returncode == -signal.SIGKILL
    assert "saved by run 1" in alphred(repo, "memory", "tried").stdout  # the save was rolled back with the completion
    result = alphred(repo, "resume", "2", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["status"] == "completed"
    assert "saved by run 2" in alphred(repo, "memory", "tried").stdout
    rows = db(repo).execute("select count(*) from memory_files m join memories s on s.id = m.memory_id").fetchone()
    assert rows == (2,)  # count and log/tried.txt, once each
    # the attempt whose completion was killed had no recorded outcome: it ran again on the memory it left
    assert [(s["phase"], s["attempt"], s["outcome"]) for s in json.loads(result.stdout)["steps"]] == [
        ("count", 1, "interrupted"),
        ("count", 2, "completed"),
    ]
    assert alphred(repo, "run", str(wf)).returncode == 0
    assert memory_count(repo, 3) == str(int(memory_count(repo, 2)) + 1)  # run 3 starts from what run 2 saved
