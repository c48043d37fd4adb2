"""Issue 29: the transaction that starts an attempt answers its preparation from what it just wrote (the upstream
report of the phase that just ended, 1 for the first event of an attempt that never ran). A run killed between
phases and resumed, or taken over by a worker, still gives every attempt the latest upstream report as stored
and numbers each attempt's events 1, 2, 3... (real processes, real SQLite)."""

from __future__ import annotations

import hashlib
import json
import signal
from pathlib import Path

import pytest
from helpers.runs import alphred, base_env, db, status, workflow

TOKEN = "ghp_" + "Z9y8X7w6V5" * 4

LOOP = f"""\
defaults: {{provider: scripted, max_visits: 10}}
limits: {{max_steps: 20, max_stalls: 20}}
phases:
  review:
    prompt: Review.
    decisions: [approved, changes_requested]
    script: [{{decision: changes_requested, report: "please fix, key {TOKEN}"}}]
    transitions:
      - {{to: fix, when: decision == "changes_requested", max: 3}}
      - to: $end
  fix:
    prompt: Fix.
    script: [{{report: fixed}}]
    transitions: [{{to: review}}]
"""


@pytest.mark.parametrize("how", ["run", "resume", "worker"])
def test_every_attempt_reads_the_latest_upstream_report_and_numbers_its_events_from_one(repo: Path, how: str) -> None:
    wf = workflow(repo, LOOP)
    if how == "run":
        done = alphred(repo, "run", str(wf), "--json")
    else:
        crashed = alphred(repo, "run", str(wf), env=base_env(repo.parent) | {"ALPHRED_CRASH_AT": "between_phases"})
        assert crashed.returncode == -signal.SIGKILL
        done = alphred(repo, "resume", "1", "--json") if how == "resume" else alphred(repo, "worker", "--once")
    assert done.returncode == 0, done.stderr
    assert status(repo)["status"] == "completed"
    rows = (
        db(repo)
        .execute(
            "select a.id, n.node_key, a.attempt, a.kind, a.content_text, a.content_json from phase_artifacts a"
            " join run_nodes n on n.id = a.run_node_id order by a.id"
        )
        .fetchall()
    )
    checked = 0
    for manifest_id, _key, _attempt, kind, _text, data in rows:
        if kind != "context_manifest":
            continue
        for entry in json.loads(data)["included"]:
            reports = [
                (attempt, row_id, text)
                for row_id, key, attempt, kind_, text, _ in rows
                if key == entry["phase"] and kind_ == "report" and row_id < manifest_id
            ]
            attempt, _id, text = max(reports)  # the latest: highest attempt, then newest
            assert (entry["attempt"], entry["sha256"]) == (attempt, hashlib.sha256(text.encode()).hexdigest())
            checked += 1
    assert checked >= 5  # every fix and every review after the first
    assert all(TOKEN not in (text or "") for *_, text, _data in rows)
    events = db(repo).execute("select run_node_id, attempt, sequence from run_node_stream_events order by id")
    numbered: dict[tuple[int, int], list[int]] = {}
    for node_id, attempt, sequence in events.fetchall():
        numbered.setdefault((node_id, attempt), []).append(sequence)
    assert numbered and all(sequences == list(range(1, len(sequences) + 1)) for sequences in numbered.values())
