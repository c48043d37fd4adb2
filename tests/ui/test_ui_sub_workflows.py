"""The web view answers an approval a sub-workflow's run waits on through its parent (SPEC §13), as
``alphred approve|reject PARENT`` does: the same command, in a detached process (or recorded for the workers
with ``--no-exec``); HTTP through Starlette's TestClient over real runs."""

from __future__ import annotations

from typing import Any

from uihelpers import Runs, auth, wait_until


def _statuses(client: Any) -> list[tuple[Any, ...]]:
    return [(run["status"], run["reason"]) for run in (client.get(f"/api/runs/{n}").json() for n in (1, 2))]


def test_the_parents_page_offers_approve_and_reject_and_names_the_waiting_child(runs: Runs, make_client: Any) -> None:
    runs.child_gate()
    client = make_client()
    page = client.get("/runs/1").text
    assert 'data-action="approve"' in page and 'formaction="/api/runs/1/reject"' in page
    assert '<p class="waiting-child" data-child="2">Sub-workflow <a href="/runs/2">run 2</a> (child)' in page
    assert "waits for approval at phase <span class=mono>gate</span>: the answer goes to it, and run 1" in page
    assert 'data-action="resume"' not in page  # the answer continues it (a bare resume would not)
    assert 'data-action="cancel"' in page
    child = client.get("/runs/2").text  # never answered on its own, as `alphred approve 2` is refused
    assert 'data-action="approve"' not in child and 'data-action="resume"' not in child
    assert 'Approve or reject it on its parent <a href="/runs/1">run 1</a>.' in child
    live = client.get("/runs/1/live").json()
    assert 'data-child="2"' in live["sections"]["actions"]  # the live update keeps it


def test_approve_on_the_parent_answers_the_child_and_both_complete(runs: Runs, make_client: Any) -> None:
    runs.child_gate()
    client = make_client()
    response = client.post("/api/runs/1/approve", headers=auth(), json={"comment": "child looks <b>fine</b>"})
    assert response.status_code == 200, response.text
    assert len(list((runs.repo / ".alphred" / "ui-logs").glob("run-1-approve-*.log"))) == 1  # `alphred approve 1`
    wait_until(lambda: _statuses(client) == [("completed", None), ("completed", None)], what="both runs to complete")
    child = client.get("/api/runs/2").json()
    gate = next(phase for phase in child["phases"] if phase["key"] == "gate")
    assert gate["report"] == {"decision": "approved", "comment": "child looks <b>fine</b>"}


def test_reject_on_the_parent_rejects_the_childs_approval(runs: Runs, make_client: Any) -> None:
    runs.child_gate()
    client = make_client()
    response = client.post("/api/runs/1/reject", headers=auth(), json={})
    assert response.status_code == 200, response.text
    wait_until(lambda: _statuses(client)[0][0] == "failed", what="the parent to fail")
    assert _statuses(client) == [("failed", "child_failed"), ("failed", "fail_target")]


def test_no_exec_records_the_parents_answer_for_a_worker(runs: Runs, make_client: Any) -> None:
    runs.child_gate()
    client = make_client(no_exec=True)
    response = client.post("/api/runs/1/approve", headers=auth(), json={"comment": "ok"})
    assert response.status_code == 200, response.text
    assert "recorded" in response.headers["X-Alphred-Message"]
    assert _statuses(client) == [("paused", "interrupted"), ("paused", "awaiting_approval")]  # nothing started
    worked = runs.cli("worker", "--once")
    assert worked.exit_code == 0, worked.stderr
    assert _statuses(client) == [("completed", None), ("completed", None)]


def test_the_child_itself_and_a_resume_of_the_parent_are_refused(runs: Runs, make_client: Any) -> None:
    runs.child_gate()
    client = make_client(no_exec=True)
    child = client.post("/api/runs/2/approve", headers=auth(), json={})
    assert child.status_code == 409 and "it is a sub-workflow of run 1" in child.json()["error"]["message"]
    resume = client.post("/api/runs/1/resume", headers=auth())
    assert resume.status_code == 409
    assert "sub-workflow run 2 waits for approval: approve or reject" in resume.json()["error"]["message"]
    assert _statuses(client) == [("paused", "interrupted"), ("paused", "awaiting_approval")]


def test_csrf_and_auth_rules_hold_for_the_parents_answer(runs: Runs, make_client: Any) -> None:
    runs.child_gate()
    client = make_client(no_exec=True)
    cross = client.post("/api/runs/1/approve", headers={**auth(), "Origin": "http://evil.example"}, json={})
    assert cross.status_code == 403 and "cross-origin" in cross.json()["error"]["message"]
    anonymous = make_client(token=False, no_exec=True).post("/api/runs/1/approve", json={})
    assert anonymous.status_code == 403 and anonymous.json()["error"]["code"] == "FORBIDDEN"
    read_only = make_client(read_only=True)
    refused = read_only.post("/api/runs/1/approve", headers=auth(), json={})
    assert refused.status_code == 403 and "read-only" in refused.json()["error"]["message"]
    page = read_only.get("/runs/1").text
    assert "Read-only view" in page and 'data-action="approve"' not in page and "waiting-child" not in page
    assert _statuses(client) == [("paused", "interrupted"), ("paused", "awaiting_approval")]
