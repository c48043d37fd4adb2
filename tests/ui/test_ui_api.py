"""The web view's JSON API and HTML through Starlette's TestClient, over real runs in a real repository."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from uihelpers import BASE, QUICK, TOKEN, Runs, auth

from alphred.cli import app as cli_app


def cli_json(runs: Runs, *args: str) -> Any:
    result = runs.cli(*args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_api_serves_the_same_objects_as_the_cli(runs: Runs, make_client: Any) -> None:
    first = runs.gate()
    runs.run(QUICK, name="quick.yaml")
    client = make_client()
    listed = client.get("/api/runs").json()
    assert listed == cli_json(runs, "runs")
    assert [r["run_id"] for r in listed] == [2, 1] and "steps" not in listed[0]
    one = client.get(f"/api/runs/{first['run_id']}").json()
    assert one == cli_json(runs, "status", str(first["run_id"]))
    assert one["steps"][0]["phase"] == "write"


def test_events_carry_a_growing_id_and_resume_after_it(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client()
    events = client.get("/api/runs/1/events").json()
    assert len(events) >= 4
    ids = [e["id"] for e in events]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    first = events[0]
    assert set(first) == {"id", "type", "run_id", "phase", "attempt", "sequence", "timestamp", "content", "metadata"}
    assert (first["type"], first["run_id"], first["phase"], first["attempt"], first["sequence"]) == (
        "system", 1, "write", 1, 1,
    )  # fmt: skip
    assert first["timestamp"].endswith("Z")
    assert client.get(f"/api/runs/1/events?after={ids[1]}").json() == events[2:]
    assert client.get(f"/api/runs/1/events?after={ids[-1]}").json() == []
    assert client.get("/api/runs/1/events?after=0&limit=2").json() == events[:2]


def test_bad_requests_are_clear_errors(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client()
    assert client.get("/api/runs/99").status_code == 404
    assert client.get("/api/runs/99").json()["error"]["code"] == "UNKNOWN_RUN"
    assert client.get("/api/runs/99/events").status_code == 404
    assert client.get("/runs/99").status_code == 404
    bad = client.get("/api/runs/1/events?after=abc")
    assert bad.status_code == 400 and "after" in bad.json()["error"]["message"]
    assert client.get("/api/runs?status=bogus").status_code == 400
    assert client.post("/api/runs/1/explode", headers=auth()).status_code == 400
    not_json = client.post("/api/runs/1/pause", headers={**auth(), "Content-Type": "application/json"}, content=b"{")
    assert not_json.status_code == 400
    wrong = client.post("/api/runs/1/pause", headers=auth(), json=["x"])
    assert wrong.status_code == 400 and "object" in wrong.json()["error"]["message"]


def test_no_database_yet_is_an_empty_list(tmp_path: Any) -> None:
    from starlette.testclient import TestClient

    from alphred.ui.app import UiSettings, create_app

    url = f"sqlite:///{tmp_path / 'none' / 'alphred.db'}"
    with TestClient(create_app(UiSettings(db_url=url, token=TOKEN)), base_url=BASE, headers=auth()) as client:
        assert client.get("/api/runs").json() == []
        assert "No runs yet" in client.get("/").text
        assert client.get("/api/runs/1").status_code == 404
    assert not (tmp_path / "none").exists()  # reading creates nothing


def test_runs_list_pages_and_filters(runs: Runs, make_client: Any) -> None:
    runs.gate()
    quick = QUICK
    for _ in range(3):
        runs.run(quick, name="quick.yaml")
    client = make_client()
    page = client.get("/api/runs?limit=2").json()
    assert [r["run_id"] for r in page] == [4, 3]
    assert [r["run_id"] for r in client.get("/api/runs?before=3").json()] == [2, 1]
    assert [r["run_id"] for r in client.get("/api/runs?status=paused").json()] == [1]
    html_filtered = client.get("/?status=paused").text
    assert 'href="/runs/1"' in html_filtered and 'href="/runs/2"' not in html_filtered


def test_page_size_pages_the_html_list(runs: Runs, make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    quick = QUICK
    for _ in range(3):
        runs.run(quick, name="quick.yaml")
    from alphred.ui import data

    monkeypatch.setattr(data.UiData.runs, "__defaults__", (None, None, 2))
    html = make_client().get("/").text
    assert 'href="/runs/3"' in html and 'href="/runs/2"' in html and 'href="/runs/1"' not in html
    assert 'href="/?before=2"' in html
    older = make_client().get("/?before=2").text
    assert 'href="/runs/1"' in older and 'href="/runs/3"' not in older


def test_everything_from_a_run_is_escaped(runs: Runs, make_client: Any) -> None:
    runs.gate("-i", "note=<img src=x onerror=alert(1)>", "--branch", "x<script>y")
    client = make_client()
    page = client.get("/runs/1").text
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(&#x27;report&#x27;)&lt;/script&gt;" in page  # the report, shown as text
    assert "&lt;img src=x onerror=alert(1)&gt;" in page  # the input
    assert "+hello &lt;b&gt;" in page  # the diff line
    assert page.count("<script") == 1  # only the page's own script tag
    listing = client.get("/").text
    assert "<script>y" not in listing
    assert "default-src 'none'" in client.get("/runs/1").headers["content-security-policy"]


def test_run_page_shows_graph_steps_events_reports_and_diff(runs: Runs, make_client: Any) -> None:
    runs.gate()
    page = make_client().get("/runs/1").text
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="graph"' in page
    assert 'data-phase="write" data-status="completed"' in page
    assert 'class="node st-waiting current" data-phase="ask" data-status="running"' in page
    assert ">waiting for approval</text>" in page  # the approval phase, as the CLI says it
    assert 'data-to="$end"' in page and 'data-to="$fail"' in page
    assert '<span class="add">+hello' in page
    assert 'data-action="approve"' in page and "Reject" in page and 'data-action="cancel"' in page
    assert 'data-action="pause"' not in page  # a run waiting for approval is already paused
    assert 'class="ev ev-system"' in page
    assert "scripted: phase write attempt 1" in page


def test_state_changing_requests_need_the_token(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client(no_exec=True, token=False)
    for headers in ({}, auth("wrong"), {"Authorization": f"Basic {TOKEN}"}, {"Authorization": "Bearer "}):
        response = client.post("/api/runs/1/approve", headers=headers, json={"comment": "x"})
        assert response.status_code == 403, headers
        assert response.json()["error"]["code"] == "FORBIDDEN"
    cross = client.post("/api/runs/1/approve", headers={**auth(), "Origin": "http://evil.example"}, json={})
    assert cross.status_code == 403 and "cross-origin" in cross.json()["error"]["message"]
    other_port = client.post("/api/runs/1/pause", headers={**auth(), "Origin": "http://127.0.0.1:9999"})
    assert other_port.status_code == 403
    assert client.get("/api/runs/1", headers=auth()).json()["status"] == "paused"  # nothing happened
    assert "request" not in _artifact_kinds(runs)  # no request recorded (issue 17 adds an "outcome" intent)
    own = client.post("/api/runs/1/approve", headers={**auth(), "Origin": BASE}, json={"comment": "fine"})
    assert own.status_code == 200


def test_host_header_must_be_loopback(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client()
    assert client.get("/api/runs", headers={"Host": "localhost:8765"}).status_code == 200
    rebound = client.get("/api/runs", headers={"Host": "attacker.example:8765"})
    assert rebound.status_code == 403
    assert make_client(loopback_only=False).get("/api/runs", headers={"Host": "box.lan:8765"}).status_code == 200


def test_read_only_refuses_every_action(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client(read_only=True)
    for action in ("approve", "reject", "pause", "cancel", "resume"):
        response = client.post(f"/api/runs/1/{action}", headers=auth(), json={})
        assert response.status_code == 403 and "read-only" in response.json()["error"]["message"]
    page = client.get("/runs/1").text
    assert "Read-only view" in page and 'data-action="approve"' not in page
    assert client.get("/api/runs/1").json()["status"] == "paused"


def _artifact_kinds(runs: Runs) -> list[str]:
    engine = create_engine(runs.db_url)
    with engine.connect() as conn:
        kinds = [row[0] for row in conn.execute(text("SELECT kind FROM phase_artifacts ORDER BY kind"))]
    engine.dispose()
    return [k for k in kinds if k != "context_manifest"]


def _request_artifacts(runs: Runs) -> list[Any]:
    engine = create_engine(runs.db_url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT content_json FROM phase_artifacts WHERE kind = 'request'")).all()
    engine.dispose()
    return [json.loads(r[0]) for r in rows]


def test_no_exec_records_the_request_and_starts_nothing(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client(no_exec=True)
    response = client.post("/api/runs/1/approve", headers=auth(), json={"comment": "looks <b>good</b>"})
    assert response.status_code == 200
    assert response.json()["status"] == "paused"  # recorded only
    assert "recorded" in response.headers["X-Alphred-Message"]
    (request,) = _request_artifacts(runs)
    assert (request["action"], request["comment"], request["source"]) == ("approve", "looks <b>good</b>", "ui")
    assert not (runs.repo / ".alphred" / "ui-logs").exists()
    engine = create_engine(runs.db_url)
    with engine.connect() as conn:
        queued, detached = conn.execute(text("SELECT queued, request FROM workflow_runs WHERE id = 1")).one()
    engine.dispose()
    detached = json.loads(detached) if isinstance(detached, str) else detached
    assert queued and (detached["action"], detached["comment"]) == ("approve", "looks <b>good</b>")  # for a worker


def test_actions_the_state_does_not_allow_are_409(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client(no_exec=True)
    resume = client.post("/api/runs/1/resume", headers=auth())
    assert resume.status_code == 409 and resume.json()["error"]["code"] == "RUN_STATE"
    client.post("/api/runs/1/cancel", headers=auth())
    assert client.get("/api/runs/1").json()["status"] == "cancelled"
    again = client.post("/api/runs/1/approve", headers=auth(), json={})
    assert again.status_code == 409
    assert client.post("/api/runs/1/pause", headers=auth()).status_code == 409  # an ended run


def test_pause_records_the_request_like_the_cli(runs: Runs, make_client: Any) -> None:
    runs.gate()
    engine = create_engine(runs.db_url)
    from alphred.store.owners import LeaseOwner

    owner = str(LeaseOwner.current())  # a live process (this test) executes the run
    with engine.begin() as conn:
        conn.execute(text("UPDATE workflow_runs SET status='running', reason=NULL WHERE id=1"))
        conn.execute(
            text("UPDATE workflow_runs SET lease_owner=:o, lease_expires_at='2999-01-01 00:00:00' WHERE id=1"),
            {"o": owner},
        )
    client = make_client()
    response = client.post("/api/runs/1/pause", headers=auth(), json={})
    assert response.status_code == 200, response.text
    with engine.connect() as conn:
        assert conn.execute(text("SELECT pause_requested FROM workflow_runs WHERE id=1")).scalar() in (1, True)
    engine.dispose()
    busy = client.post("/api/runs/1/resume", headers=auth())
    assert busy.status_code == 409 and busy.json()["error"]["code"] == "RUN_BUSY"


def test_approve_continues_the_run_in_a_detached_process(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client()
    response = client.post("/api/runs/1/approve", headers=auth(), json={"comment": "ship it"})
    assert response.status_code == 200, response.text
    logs = list((runs.repo / ".alphred" / "ui-logs").glob("run-1-approve-*.log"))
    assert len(logs) == 1
    from uihelpers import wait_until

    final = wait_until(
        lambda: (s := client.get("/api/runs/1").json())["status"] == "completed" and s, what="the run to complete"
    )
    last = final["steps"][-1]
    assert (last["phase"], last["outcome"], last["decision"], last["next"]) == ("ask", "completed", "approved", "$end")


def test_ui_without_its_packages_says_how_to_install_them(monkeypatch: pytest.MonkeyPatch, runs: Runs) -> None:
    from click.testing import CliRunner

    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = CliRunner().invoke(cli_app, ["ui", "--repo", str(runs.repo)])
    assert result.exit_code == 2
    assert (
        "Error [UI_NOT_INSTALLED]" in result.stderr and "[ui]'" in result.stderr and "pip install -e '" in result.stderr
    )  # from the checkout: not on an index


def test_help_and_other_commands_do_not_load_the_web_stack() -> None:
    import subprocess

    code = (
        "import sys\nfrom alphred.cli import app\n"
        "app.main(['--help'], standalone_mode=False)\n"
        "bad = [m for m in ('starlette', 'uvicorn', 'alphred.ui.app') if m in sys.modules]\n"
        "print('LOADED', bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "LOADED []" in out


def test_a_json_body_sent_as_curl_sends_it_by_default_is_read(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client(no_exec=True)
    form = {**auth(), "Content-Type": "application/x-www-form-urlencoded"}  # curl -d without -H
    response = client.post("/api/runs/1/reject", headers=form, content=b'{"comment": "not yet"}')
    assert response.status_code == 200
    assert [(r["action"], r["comment"]) for r in _request_artifacts(runs)] == [("reject", "not yet")]


def test_oversized_action_bodies_are_refused(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client(no_exec=True)
    response = client.post("/api/runs/1/approve", headers=auth(), content=b'{"comment": "' + b"x" * 200_000 + b'"}')
    assert response.status_code == 413
    too_long = client.post("/api/runs/1/approve", headers=auth(), json={"comment": "x" * 20_001})
    assert too_long.status_code == 400 and "too long" in too_long.json()["error"]["message"]
    assert _request_artifacts(runs) == []


@pytest.mark.postgres
def test_the_web_view_reads_postgresql_too(runs: Runs, postgres_url: str) -> None:
    from starlette.testclient import TestClient

    from alphred.ui.app import UiSettings, create_app

    runs.gate("--db", postgres_url)
    app = create_app(UiSettings(db_url=postgres_url, token=TOKEN))
    with TestClient(app, base_url=BASE, headers=auth()) as client:
        (listed,) = client.get("/api/runs").json()
        assert (listed["status"], listed["reason"]) == ("paused", "awaiting_approval")
        assert 'data-phase="ask"' in client.get(f"/runs/{listed['run_id']}").text
        events = client.get(f"/api/runs/{listed['run_id']}/events").json()
        assert (
            events and client.get(f"/api/runs/{listed['run_id']}/events?after={events[0]['id']}").json() == events[1:]
        )
        client.app.state.data.close()
