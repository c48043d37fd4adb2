"""``alphred ui`` as a real uvicorn server on a free port: start-up, token, live streams and their cost."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from uihelpers import QUICK, TOKEN, Runs, Server, auth, free_port, held, wait_until


def sse_messages(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """Parse a text/event-stream into ``{"event", "id", "data"}`` dicts (``retry:`` lines skipped)."""
    current: dict[str, Any] = {}
    for line in response.iter_lines():
        if not line:
            if "event" in current:
                yield current
            current = {}
        elif line.startswith("event: "):
            current["event"] = line[7:]
        elif line.startswith("id: "):
            current["id"] = int(line[4:])
        elif line.startswith("data: "):
            current["data"] = json.loads(line[6:])


@pytest.mark.slow
def test_start_prints_a_tokened_url_and_serves(runs: Runs, start_server: Any) -> None:
    runs.gate()
    server: Server = start_server()
    assert server.url.startswith("http://127.0.0.1:") and len(server.token) >= 24
    mine = auth(server.token)
    assert httpx.get(f"{server.base}/", headers=mine).status_code == 200
    assert "Run #1" in httpx.get(f"{server.base}/runs/1", headers=mine).text
    assert httpx.get(f"{server.base}/static/ui.js").status_code == 200  # the assets need no token
    assert httpx.get(f"{server.base}/api/runs/1", headers=mine).json()["reason"] == "awaiting_approval"
    refused = httpx.post(f"{server.base}/api/runs/1/cancel")
    assert refused.status_code == 403
    assert (
        httpx.post(f"{server.base}/api/runs/1/cancel", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 403
    )
    done = httpx.post(f"{server.base}/api/runs/1/cancel", headers={"Authorization": f"Bearer {server.token}"})
    assert done.status_code == 200 and done.json()["status"] == "cancelled"
    other = start_server()
    assert other.token != server.token  # a fresh token each start


def test_non_loopback_bind_warns_and_prints_a_reachable_url(runs: Runs, start_server: Any) -> None:
    server: Server = start_server("--host", "0.0.0.0")
    assert "0.0.0.0" not in server.url  # an address a browser can open: this machine's name, or 127.0.0.1
    wait_until(lambda: any("not a loopback address" in line for line in server.stderr_lines), what="the warning")
    opened = httpx.get(server.url, timeout=30)  # the printed URL, as pasted into a browser
    assert opened.status_code == 200 and "alphred" in opened.text


def test_busy_port_is_a_clear_error(runs: Runs) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "alphred", "ui", "--port", str(port), "--repo", str(runs.repo)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert result.returncode == 2 and "Error [UI_ERROR]: cannot listen on 127.0.0.1" in result.stderr
    assert result.stdout == ""


def test_event_stream_resumes_after_the_last_event_id(runs: Runs, start_server: Any) -> None:
    runs.gate()
    server: Server = start_server()
    url = f"{server.base}/runs/1/stream"
    mine = auth(server.token)
    with httpx.stream("GET", url, headers=mine, timeout=30) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        got: list[dict[str, Any]] = []
        for message in sse_messages(response):
            got.append(message)
            if message["event"] == "status":
                break
    events = [m for m in got if m["event"] == "event"]
    assert len(events) >= 4 and got[-1]["data"]["reason"] == "awaiting_approval"
    assert [m["id"] for m in events] == [m["data"]["id"] for m in events]
    resume = {**mine, "Last-Event-ID": str(events[1]["id"])}
    with httpx.stream("GET", url, headers=resume, timeout=30) as response:
        again = next(m for m in sse_messages(response) if m["event"] == "event")
    assert again["id"] == events[2]["id"]
    with httpx.stream("GET", f"{url}?after={events[-1]['id']}", headers=mine, timeout=30) as response:
        first = next(sse_messages(response))
    assert first["event"] == "status"  # nothing older is sent again


@pytest.mark.slow
def test_a_running_phase_streams_its_events_live(runs: Runs, start_server: Any) -> None:
    first = runs.run(QUICK, name="quick.yaml")
    assert first["status"] == "completed"
    server: Server = start_server()
    marker = runs.repo.parent / "go"
    path = runs.repo.parent / "held.yaml"
    path.write_text(held(marker))
    process = subprocess.Popen(
        [sys.executable, "-m", "alphred", "run", str(path), "--repo", str(runs.repo), "-q"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        mine = auth(server.token)
        wait_until(lambda: len(httpx.get(f"{server.base}/api/runs", headers=mine).json()) == 2, what="the run to start")
        seen: list[str] = []
        with httpx.stream("GET", f"{server.base}/runs/2/stream", headers=mine, timeout=120) as response:
            for message in sse_messages(response):
                if message["event"] == "event" and re.fullmatch(r"line-\d", str(message["data"]["content"])):
                    seen.append(message["data"]["content"])
                    if len(seen) == 4:  # the phase now waits for the marker: it is still running
                        assert httpx.get(f"{server.base}/api/runs/2", headers=mine).json()["status"] == "running"
                        marker.touch()
                if message["event"] == "status" and message["data"]["status"] == "completed":
                    break
        assert seen == [f"line-{i}" for i in range(1, 9)]
    finally:
        marker.touch()
        process.wait(timeout=120)


class _Sleeps:
    """A recording stand-in for asyncio.sleep that really sleeps (briefly), and can be held: after ``hold()``
    the streams park in their next pause (``parked`` is set) until ``release()``, so that a test changes the
    database while no read is under way."""

    def __init__(self) -> None:
        self.calls: list[float] = []
        self.running = threading.Event()
        self.running.set()
        self.parked = threading.Event()

    def hold(self) -> None:
        self.parked.clear()
        self.running.clear()

    def release(self) -> None:
        self.running.set()

    async def __call__(self, seconds: float) -> None:
        import asyncio

        self.calls.append(seconds)
        if not self.running.is_set():
            self.parked.set()
            await asyncio.to_thread(self.running.wait)
        await asyncio.sleep(0.01)


@pytest.fixture
def in_process_server(runs: Runs) -> Iterator[tuple[str, Any, _Sleeps]]:
    """The app in a uvicorn server on a thread of this process (so the test can look inside)."""
    import uvicorn

    from alphred.ui.app import UiSettings, create_app
    from alphred.ui.server import bind

    sleeps = _Sleeps()
    app = create_app(UiSettings(db_url=runs.db_url, token=TOKEN, repo=str(runs.repo)), sleep=sleeps)
    sock = bind("127.0.0.1", free_port())
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    wait_until(lambda: server.started, what="uvicorn to start")
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", app, sleeps
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        app.state.data.close()
        sock.close()


def test_a_stream_reads_the_database_at_most_once_per_interval(runs: Runs, in_process_server: Any) -> None:
    runs.gate()
    base, app, sleeps = in_process_server
    data = app.state.data
    with httpx.stream("GET", f"{base}/runs/1/stream", headers=auth(), timeout=30) as response:
        messages = sse_messages(response)  # kept: dropping the iterator closes the connection
        next(m for m in messages if m["event"] == "status")
        wait_until(lambda: data.polls >= 6, what="six polls")
    polls, pauses = data.polls, list(sleeps.calls)
    assert pauses and all(seconds >= 0.5 for seconds in pauses)  # two reads a second at most
    assert polls <= len(pauses) + 1  # every read but the first follows a pause


def test_ctrl_c_with_open_streams_exits_cleanly(runs: Runs, start_server: Any) -> None:
    import signal

    runs.gate()
    server: Server = start_server()
    mine = auth(server.token)
    with httpx.stream("GET", f"{server.base}/runs/1/stream", headers=mine, timeout=30) as response:
        messages = sse_messages(response)
        next(m for m in messages if m["event"] == "status")
        with httpx.stream("GET", f"{server.base}/runs/stream", headers=mine, timeout=30) as listing:
            assert listing.status_code == 200
            server.process.send_signal(signal.SIGINT)
            assert server.process.wait(timeout=30) == 0
    server.reader.join(timeout=10)
    assert not any("Traceback" in line or "ERROR" in line for line in server.stderr_lines), server.stderr_lines


def test_a_stream_says_once_when_the_database_cannot_be_read(runs: Runs, in_process_server: Any) -> None:
    runs.gate()
    base, app, sleeps = in_process_server
    database = runs.repo / ".alphred" / "alphred.db"
    with httpx.stream("GET", f"{base}/runs/1/stream", headers=auth(), timeout=30) as response:
        messages = sse_messages(response)
        next(m for m in messages if m["event"] == "status")
        # The stream is parked between two reads while the file goes bad: a read in the middle would see a
        # valid database without the run (the WAL gone, the file truncated) and rightly say `gone`.
        sleeps.hold()
        assert sleeps.parked.wait(timeout=60), "the stream never paused"
        app.state.data.close()  # the server's connections go; the file goes bad under it
        for name in ("alphred.db-wal", "alphred.db-shm"):
            (database.parent / name).unlink(missing_ok=True)
        database.write_bytes(b"no longer a database " * 400)
        sleeps.release()
        failure = next(m for m in messages if m["event"] != "event")
    assert failure["event"] == "unavailable" and failure["data"]["code"] == "DATABASE_CORRUPT"
    assert "unreadable" in failure["data"]["message"]
