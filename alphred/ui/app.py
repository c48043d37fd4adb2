"""The Starlette application of ``alphred ui``: HTML pages, the JSON API, the live streams and static files.

Endpoints that read the database are sync functions (Starlette runs them in its thread pool); the live
streams are async and do every read through ``run_in_threadpool``: no blocking SQL on the event loop.
Every bad id, cursor or body is a 4xx answer (JSON under ``/api/`` and for the streams, a page
elsewhere); a database that cannot be read a 503 with what went wrong; see ``_status_of``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from alphred.errors import (
    AlphredError,
    InvalidTransitionError,
    LeaseLostError,
    RunBusyError,
    RunStateError,
    StoreError,
    UnknownRunError,
    UsageError,
)
from alphred.ui import controls
from alphred.ui.data import RUN_STATUSES, UiData
from alphred.ui.middleware import SecurityMiddleware, error_response
from alphred.ui.run_page import render_live, render_run
from alphred.ui.runs_page import render_runs
from alphred.ui.security import Guard
from alphred.ui.sse import MAX_STREAMS, SseSettings, run_stream, runs_stream

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 100_000  # bytes of an action's JSON body (a comment is at most 20,000 characters)
MAX_ID = 2**63 - 1  # the largest id (and cursor) a database column holds
_WHOLE = re.compile(r"[0-9]{1,19}")


@dataclass(frozen=True)
class UiSettings:
    """How the server behaves: its database, repository, token and modes."""

    db_url: str
    token: str
    repo: str | None = None
    read_only: bool = False
    no_exec: bool = False
    loopback_only: bool = True
    public_read: bool = False
    poll_seconds: float = 0.5
    runs_poll_seconds: float = 1.0
    max_streams: int = MAX_STREAMS


class BadRequest(Exception):
    """A malformed id, query parameter or request body: answered 400 with its message."""


def whole(value: str | None, name: str) -> int | None:
    """``value`` as a whole number from 0 to 2^63-1 (None when absent or empty); BadRequest otherwise."""
    if value is None or value == "":
        return None
    text = value.strip()
    if not _WHOLE.fullmatch(text) or int(text) > MAX_ID:
        shown = value[:40].encode("utf-8", "backslashreplace").decode()
        raise BadRequest(f"{name} must be a whole number from 0 to {MAX_ID}, not {shown!r}")
    return int(text)


def _run_id(request: Request) -> int:
    found = whole(request.path_params["run_id"], "run id")
    if found is None:
        raise BadRequest("run id missing")
    return found


def _status_of(exc: AlphredError) -> int:
    """The HTTP status of an error: 404 unknown run, 409 a state that does not allow it, 503 a database
    that cannot be read, 400 bad input, else 500."""
    if isinstance(exc, UnknownRunError):
        return 404
    if isinstance(exc, RunStateError | RunBusyError | InvalidTransitionError | LeaseLostError):
        return 409
    if isinstance(exc, StoreError):
        return 503
    return 400 if exc.exit_code == 2 else 500


def create_app(settings: UiSettings, *, sleep: Callable[[float], Awaitable[None]] | None = None) -> Starlette:
    """The web application over ``settings.db_url`` (``sleep`` replaces the streams' pause, for tests)."""
    data = UiData(settings.db_url)
    guard = Guard(
        settings.token,
        read_only=settings.read_only,
        loopback_only=settings.loopback_only,
        public_read=settings.public_read,
    )
    streams = SseSettings(settings.poll_seconds, settings.runs_poll_seconds, sleep, max_streams=settings.max_streams)

    def runs_html(request: Request) -> Response:
        status, before = _runs_params(request)
        runs, next_before = data.runs(status, before)
        html = render_runs(runs, status=status, before=before, next_before=next_before, read_only=settings.read_only)
        return HTMLResponse(html)

    def run_html(request: Request) -> Response:
        run_id = _run_id(request)
        view = data.view(run_id, before=whole(request.query_params.get("steps_before"), "steps_before"))
        allowed = controls.allowed_actions(view.record, view.waiting_child)
        return HTMLResponse(render_run(view, actions=allowed, read_only=settings.read_only))

    def run_live_parts(request: Request) -> Response:
        run_id = _run_id(request)
        after = whole(request.query_params.get("steps"), "steps") or 0
        flags = request.query_params.get("columns") or ""
        if flags and not re.fullmatch(r"[01]{2}", flags):
            raise BadRequest(f"columns must be two flags such as 10, not {flags[:10]!r}")
        columns = (flags[0] == "1", flags[1] == "1") if flags else None
        have = whole(request.query_params.get("artifact"), "artifact") or 0
        changed = data.newest_artifact(run_id) != have
        view = data.view(run_id, events=False, artifacts=changed)
        allowed = controls.allowed_actions(view.record, view.waiting_child)
        parts = render_live(view, actions=allowed, read_only=settings.read_only, after=after, columns=columns)
        return JSONResponse(parts)

    def api_runs(request: Request) -> Response:
        status, before = _runs_params(request)
        limit = whole(request.query_params.get("limit"), "limit") or 50
        runs, _next = data.runs(status, before, min(limit, 500))
        return JSONResponse(runs)

    def api_run(request: Request) -> Response:
        return JSONResponse(data.run(_run_id(request)))

    def api_artifacts(request: Request) -> Response:
        from alphred.views.status_text import artifacts_json

        run_id = _run_id(request)
        store = data.store()
        if store is None or not data.exists(run_id):
            raise UnknownRunError(run_id)
        return JSONResponse(artifacts_json(store, run_id))

    def artifact_download(request: Request) -> Response:
        """One artifact, streamed as a download: never shown in the page's origin (an HTML artifact is data)."""
        try:
            record, pieces = data.artifact(_run_id(request), request.path_params["path"])
        except UsageError as exc:  # no such artifact
            return error_response(request.url.path, 404, exc.code, exc.message)
        name = record.path.rsplit("/", 1)[-1]
        headers = {
            "Content-Disposition": f"attachment; filename*=UTF-8''{quote(name, safe='')}",
            "Content-Length": str(record.size),
            "Content-Security-Policy": "sandbox",
        }
        return StreamingResponse(pieces, media_type="application/octet-stream", headers=headers)

    def api_events(request: Request) -> Response:
        run_id = _run_id(request)
        after = whole(request.query_params.get("after"), "after") or 0
        limit = whole(request.query_params.get("limit"), "limit") or 1000
        if not data.exists(run_id):
            raise UnknownRunError(run_id)
        return JSONResponse(data.events(run_id, after, min(limit, 10_000)))

    def api_action(request: Request, run_id: int, comment: str | None) -> Response:
        action = request.path_params["action"]
        store = data.store()
        if store is None:
            raise UnknownRunError(run_id)
        outcome = controls.perform(
            store, run_id, action, comment, db_url=settings.db_url, repo=settings.repo, no_exec=settings.no_exec
        )
        body = data.run(run_id)
        return JSONResponse(body, headers={"X-Alphred-Message": _header_text(outcome.message)})

    async def api_action_async(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        run_id = _run_id(request)
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return error_response(request.url.path, 413, "USAGE", f"request body over {MAX_BODY} bytes")
        return await run_in_threadpool(api_action, request, run_id, _comment(bytes(body)))

    async def runs_live(request: Request) -> Response:
        return await runs_stream(request, data, streams)

    async def run_live(request: Request) -> Response:
        run_id = _run_id(request)
        after = whole(request.query_params.get("after"), "after") or 0
        last = (request.headers.get("last-event-id") or "").strip()
        if _WHOLE.fullmatch(last) and int(last) <= MAX_ID:
            after = int(last)  # a reconnecting browser resumes after the last event it got
        steps = whole(request.query_params.get("steps"), "steps")
        return await run_stream(request, data, streams, run_id, after, steps)

    async def healthz(request: Request) -> Response:
        return PlainTextResponse("ok")

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/", runs_html),
        Route("/runs/stream", runs_live),
        Route("/runs/{run_id}", run_html),
        Route("/runs/{run_id}/stream", run_live),
        Route("/runs/{run_id}/live", run_live_parts),
        Route("/runs/{run_id}/artifacts/{path:path}", artifact_download),
        Route("/api/runs", api_runs),
        Route("/api/runs/{run_id}", api_run),
        Route("/api/runs/{run_id}/events", api_events),
        Route("/api/runs/{run_id}/artifacts", api_artifacts),
        Route("/api/runs/{run_id}/{action}", api_action_async, methods=["POST"]),
        Route("/healthz", healthz),
        Route("/favicon.ico", favicon),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def bad_request(request: Request, exc: Exception) -> Response:
        return error_response(request.url.path, 400, "USAGE", str(exc))

    async def alphred_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, AlphredError)
        status = _status_of(exc)
        message = f"the run database cannot be read: {exc}" if status == 503 else str(exc)
        headers = {"Retry-After": "5"} if status == 503 else None
        return error_response(request.url.path, status, exc.code, message, headers)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        path = request.url.path
        if exc.status_code == 404:
            return error_response(path, 404, "NOT_FOUND", f"nothing here: {path[:200]}")
        code = "METHOD_NOT_ALLOWED" if exc.status_code == 405 else "HTTP_ERROR"
        return error_response(path, exc.status_code, code, str(exc.detail), dict(exc.headers or {}))

    app = Starlette(
        routes=routes,
        middleware=[Middleware(SecurityMiddleware, guard=guard)],
        exception_handlers={BadRequest: bad_request, AlphredError: alphred_error, HTTPException: http_error},
    )
    app.state.data = data
    app.state.streams = streams  # ``streams.stopping = True`` ends every open stream (server shutdown)
    return app


def _runs_params(request: Request) -> tuple[str | None, int | None]:
    status = request.query_params.get("status") or None
    if status is not None and status not in RUN_STATUSES:
        raise BadRequest(f"unknown status {status[:40]!r} (one of {', '.join(RUN_STATUSES)})")
    return status, whole(request.query_params.get("before"), "before")


def _comment(raw: bytes) -> str | None:
    """The ``comment`` of an action's JSON body; BadRequest for anything but an object with text."""
    import json

    if not raw.strip():
        return None
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest('the request body is not valid JSON; send e.g. {"comment": "..."}') from None
    if not isinstance(body, dict):
        raise BadRequest('the request body must be a JSON object, e.g. {"comment": "..."}')
    comment = body.get("comment")
    if comment is not None and not isinstance(comment, str):
        raise BadRequest("comment must be a string")
    if comment and any("\ud800" <= c <= "\udfff" for c in comment):
        raise BadRequest("comment is not valid text: it holds a lone surrogate (\\ud800-\\udfff)")
    if comment and "\x00" in comment:
        raise BadRequest("comment must not contain a NUL character")
    return comment or None


def _header_text(message: str) -> str:
    """A message safe for an HTTP header value (Latin-1, one line)."""
    flat = " ".join(message.split())
    return flat.encode("latin-1", "replace").decode("latin-1")[:500]
