"""Fixtures of the web view tests: real runs made by the CLI in the shared ``repo``, the app and a server."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from uihelpers import BASE, TOKEN, Runs, Server, auth, wait_until


@pytest.fixture
def runs(repo: Path) -> Runs:
    return Runs(repo)


@pytest.fixture
def make_client(runs: Runs) -> Iterator[Callable[..., Any]]:
    """``make_client(read_only=..., no_exec=..., token=True)``: a Starlette TestClient on the app over ``runs``'
    database, sending the token with every request unless ``token=False``."""
    from starlette.testclient import TestClient

    from alphred.ui.app import UiSettings, create_app

    clients: list[Any] = []

    def make(token: bool = True, **overrides: Any) -> Any:
        settings = UiSettings(**{"db_url": runs.db_url, "token": TOKEN, "repo": str(runs.repo), **overrides})
        client = TestClient(create_app(settings), base_url=BASE, headers=auth() if token else None)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.app.state.data.close()
        client.close()


@pytest.fixture
def start_server(runs: Runs) -> Iterator[Callable[..., Server]]:
    """``start_server(*extra_args)``: run ``python -m alphred ui --port 0`` and wait until it answers."""
    import httpx

    started: list[Server] = []

    def start(*extra: str) -> Server:
        argv = [sys.executable, "-m", "alphred", "ui", "--port", "0", "--repo", str(runs.repo), *extra]
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert process.stdout is not None and process.stderr is not None
        line = process.stdout.readline().strip()
        errors: list[str] = []
        reader = threading.Thread(target=lambda: errors.extend(process.stderr or []), daemon=True)
        reader.start()
        server = Server(process, line, "", "", errors, reader)
        started.append(server)
        assert line.startswith("http://"), f"no URL printed; stderr: {errors}"
        server.base, server.token = line.split("/?token=")
        base = server.base

        def ready() -> bool:
            try:
                return httpx.get(f"{base}/healthz", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(ready, what="the server to answer")
        return server

    yield start
    for server in started:
        server.process.terminate()
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()
        server.reader.join(timeout=10)
        for pipe in (server.process.stdout, server.process.stderr):
            if pipe is not None:
                pipe.close()
