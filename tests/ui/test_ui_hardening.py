"""The web view against hostile or broken input: bad ids, cursors and bodies, a database that cannot be read,
reads without the token, too many live streams, and a repository that plants its own ``alphred`` package."""

from __future__ import annotations

import logging
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from uihelpers import BASE, TOKEN, Runs, Server, auth, wait_until

TOO_BIG = str(2**63)  # one past the largest id a database column holds
BAD_READS = [
    f"/api/runs/{TOO_BIG}",
    "/api/runs/-1",
    "/api/runs/abc",
    "/api/runs/1.5",
    "/api/runs/%C2%B2",  # a superscript two: a digit to str.isdigit, not a number
    f"/api/runs/1/events?after={TOO_BIG}",
    "/api/runs/1/events?after=-1",
    "/api/runs/1/events?after=abc",
    f"/api/runs/1/events?limit={TOO_BIG}",
    f"/api/runs?before={TOO_BIG}",
    "/api/runs?before=-5",
    "/api/runs?limit=1e3",
    f"/runs/{TOO_BIG}/stream",
    f"/runs/1/stream?after={TOO_BIG}",
    f"/runs/1/stream?steps={TOO_BIG}",
    f"/runs/1/live?steps={TOO_BIG}",
    "/runs/1/live?columns=2x",
    f"/api/runs/{TOO_BIG}/events",
]
BAD_BODIES = [
    b'{"comment": "\\ud800"}',  # a lone surrogate: JSON allows the escape, no text encoding does
    b'{"comment": "a\\u0000b"}',  # NUL: no argv item and no PostgreSQL text holds it
    b"[" * 100_000,  # nesting deeper than the parser's recursion limit
    b"\xff\xfe{}",
    b"{",
    b'{"comment": 7}',
]


@pytest.fixture
def quiet_log(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.DEBUG)
    return caplog


def _no_error_logged(caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]) -> None:
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("path", BAD_READS)
def test_bad_ids_and_cursors_are_4xx_json_errors(
    path: str, runs: Runs, make_client: Any, quiet_log: Any, capfd: Any
) -> None:
    runs.run("alphred: 1\nkey: one\nphases:\n  work: {type: command, run: 'true'}\n", name="one.yaml")
    response = make_client().get(path)
    assert 400 <= response.status_code < 500, (path, response.status_code, response.text[:300])
    error = response.json()["error"]
    assert error["code"] in ("USAGE", "UNKNOWN_RUN") and error["message"]
    _no_error_logged(quiet_log, capfd)


def test_the_largest_id_is_an_unknown_run_not_an_error(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client()
    assert client.get(f"/api/runs/{2**63 - 1}").json()["error"]["code"] == "UNKNOWN_RUN"
    assert client.get(f"/api/runs/{2**63 - 1}/events?after={2**63 - 1}").status_code == 404
    assert client.get(f"/api/runs/1/events?after={2**63 - 1}").json() == []
    assert client.get(f"/api/runs?before={2**63 - 1}").json()[0]["run_id"] == 1


@pytest.mark.parametrize("body", BAD_BODIES, ids=["surrogate", "nul", "deep", "not-utf8", "cut", "number"])
def test_bad_action_bodies_are_400(body: bytes, runs: Runs, make_client: Any, quiet_log: Any, capfd: Any) -> None:
    runs.gate()
    client = make_client(no_exec=True)
    response = client.post("/api/runs/1/approve", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text[:300]
    assert response.json()["error"]["code"] == "USAGE"
    assert client.get("/api/runs/1").json()["status"] == "paused"  # nothing was recorded
    _no_error_logged(quiet_log, capfd)


def test_pages_answer_errors_as_pages(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client()
    for path, status in (("/runs/99", 404), ("/nowhere", 404), ("/runs/abc", 400), (f"/runs/{TOO_BIG}", 400)):
        response = client.get(path)
        assert response.status_code == status, path
        assert response.headers["content-type"].startswith("text/html"), path
        assert f"<h1>{status} · " in response.text and 'href="/"' in response.text
    assert "nothing here: /nowhere" in client.get("/nowhere").text
    missing = client.get("/api/nowhere")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"
    wrong_method = client.get("/api/runs/1/approve")
    assert wrong_method.status_code == 405 and wrong_method.json()["error"]["code"] == "METHOD_NOT_ALLOWED"


@pytest.mark.parametrize("kind", ["postgresql-down", "sqlite-garbage"])
def test_a_database_that_cannot_be_read_is_a_503(kind: str, tmp_path: Path, quiet_log: Any, capfd: Any) -> None:
    from starlette.testclient import TestClient

    from alphred.ui.app import UiSettings, create_app

    if kind == "postgresql-down":
        url, said = "postgresql://alphred@127.0.0.1:1/none", "cannot open database"
    else:
        (tmp_path / "alphred.db").write_bytes(b"this is no database " * 300)
        url, said = f"sqlite:///{tmp_path / 'alphred.db'}", "unreadable"
    with TestClient(create_app(UiSettings(db_url=url, token=TOKEN)), base_url=BASE, headers=auth()) as client:
        for path in ("/api/runs", "/api/runs/1", "/api/runs/1/events", "/runs/1/stream", "/runs/1/live"):
            response = client.get(path)
            assert response.status_code == 503, (path, response.text[:200])
            assert said in response.json()["error"]["message"] and response.headers["retry-after"]
        page = client.get("/")
        assert page.status_code == 503 and "the run database cannot be read" in page.text
        action = client.post("/api/runs/1/cancel", json={})
        assert action.status_code == 503
        client.app.state.data.close()
    _no_error_logged(quiet_log, capfd)


def test_reads_need_the_token(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client(token=False)
    for path in ("/", "/runs/1", "/api/runs", "/api/runs/1", "/api/runs/1/events", "/runs/1/stream", "/runs/1/live"):
        refused = client.get(path)
        assert refused.status_code == 403, path
        if path.startswith("/api/") or path.endswith(("stream", "live")):
            assert refused.json()["error"]["code"] == "FORBIDDEN"
        else:
            assert "?token=" in refused.text and "Run #1" not in refused.text
    assert client.get("/healthz").status_code == 200 and client.get("/static/ui.css").status_code == 200
    assert client.get("/api/runs/1", headers=auth()).status_code == 200
    assert client.get("/api/runs/1", headers=auth("wrong")).status_code == 403
    opened = client.get(f"/runs/1?token={TOKEN}")  # the printed URL
    assert opened.status_code == 200 and "Run #1" in opened.text
    cookie = opened.headers["set-cookie"]
    assert cookie.startswith(f"alphred_token_8765={TOKEN};") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/api/runs/1").status_code == 200  # the cookie now stands for the token
    client.cookies.set("alphred_token_8765", "stale-from-an-earlier-start")
    assert client.get("/api/runs/1").status_code == 403
    assert client.get(f"/runs/1?token={TOKEN}x").status_code == 403


def test_the_cookie_acts_only_with_the_pages_header(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client(token=False, no_exec=True)
    client.get(f"/?token={TOKEN}")  # the cookie, as a browser keeps it
    bare = client.post("/api/runs/1/pause", json={})  # what a form on another site could send
    assert bare.status_code == 403 and "missing token" in bare.json()["error"]["message"]
    page = client.post("/api/runs/1/cancel", json={}, headers={"X-Alphred-Request": "1"})
    assert page.status_code == 200 and page.json()["status"] == "cancelled"


def test_public_read_opens_reads_but_not_actions(runs: Runs, make_client: Any) -> None:
    runs.gate()
    client = make_client(token=False, public_read=True)
    assert client.get("/api/runs/1").status_code == 200 and "Run #1" in client.get("/runs/1").text
    refused = client.post("/api/runs/1/cancel", json={}, headers={"X-Alphred-Request": "1"})
    assert refused.status_code == 403
    assert client.get("/api/runs/1").json()["status"] == "paused"


@pytest.mark.slow
def test_at_most_64_live_streams(runs: Runs, start_server: Any) -> None:
    runs.gate()
    server: Server = start_server()
    limits = httpx.Limits(max_connections=80, max_keepalive_connections=0)
    with httpx.Client(base_url=server.base, headers=auth(server.token), timeout=60, limits=limits) as client:
        with ExitStack() as streams:
            opened = [streams.enter_context(client.stream("GET", "/runs/stream")) for _ in range(63)]
            opened.append(streams.enter_context(client.stream("GET", "/runs/1/stream")))
            assert [r.status_code for r in opened] == [200] * 64
            refused = client.get("/runs/1/stream")
            assert refused.status_code == 503 and refused.json()["error"]["code"] == "TOO_MANY_STREAMS"
            assert client.get("/api/runs").status_code == 200  # the rest of the server still answers
        # the streams closed: their slots come back
        wait_until(lambda: _opens(client), what="a stream slot to come back")


def _opens(client: httpx.Client) -> bool:
    with client.stream("GET", "/runs/stream") as response:
        return response.status_code == 200


PLANTED = """\
from pathlib import Path
Path({marker!r}).write_text("the repository's own alphred ran")
"""


def test_approve_never_runs_the_repositorys_own_alphred(
    runs: Runs, make_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs.gate()
    marker = runs.repo.parent / "planted-ran"
    planted = runs.repo / "alphred"
    planted.mkdir()
    (planted / "__init__.py").write_text(PLANTED.format(marker=str(marker)))
    (planted / "__main__.py").write_text(PLANTED.format(marker=str(marker)))
    # both ways a plain `python -m alphred` would import it: the working directory and PYTHONPATH
    monkeypatch.chdir(runs.repo)
    monkeypatch.setenv("PYTHONPATH", str(runs.repo))
    client = make_client()
    response = client.post("/api/runs/1/approve", json={"comment": "ship it"})
    assert response.status_code == 200, response.text
    final = wait_until(
        lambda: (s := client.get("/api/runs/1").json())["status"] not in ("paused", "running") and s,
        what="the run to end",
    )
    assert final["status"] == "completed"
    assert not marker.exists()
    (log,) = (runs.repo / ".alphred" / "ui-logs").glob("run-1-approve-*.log")
    # the started process's progress and closing block (written after the run is stored completed)
    wait_until(lambda: "✓ run 1 completed" in log.read_text(), what="the closing block in the action's log")
    assert "ask attempt 1 completed · decision approved" in log.read_text()


def test_a_relative_sqlite_url_reaches_the_started_process(
    runs: Runs, make_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from alphred.store import absolute_database_url

    runs.gate()
    monkeypatch.chdir(runs.repo)
    relative = "sqlite:///.alphred/alphred.db"
    assert absolute_database_url(relative) == f"sqlite:///{runs.repo / '.alphred' / 'alphred.db'}"
    assert absolute_database_url("postgresql://u:p@h/db") == "postgresql://u:p@h/db"
    client = make_client(db_url=relative)
    assert client.post("/api/runs/1/approve", json={}).status_code == 200
    wait_until(lambda: client.get("/api/runs/1").json()["status"] == "completed", what="the run to complete")


def test_reachable_host_for_every_address() -> None:
    from alphred.ui.server import reachable_host

    assert reachable_host("127.0.0.1") == ("127.0.0.1", None)
    assert reachable_host("192.0.2.7") == ("192.0.2.7", None)
    shown, note = reachable_host("0.0.0.0")
    assert shown != "0.0.0.0" and (note is None or "127.0.0.1" in note)
    if note is not None:
        assert shown == "127.0.0.1"
