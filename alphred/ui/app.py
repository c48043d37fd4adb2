"""The Starlette application of ``alphred ui``: HTML pages, the JSON API, the live streams and static files.

Endpoints that read the database are sync functions (Starlette runs them in its thread pool); the live
streams are async and do every read through ``run_in_threadpool``: no blocking SQL on the event loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from alphred.errors import AlphredError, RunBusyError, RunStateError, UnknownRunError
from alphred.ui import controls
from alphred.ui.data import RUN_STATUSES, UiData
from alphred.ui.html import CSP, h, page
from alphred.ui.run_page import render_run
from alphred.ui.runs_page import render_runs
from alphred.ui.security import Guard
from alphred.ui.sse import SseSettings, run_stream, runs_stream

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 100_000  # bytes of an action's JSON body (a comment is at most 20,000 characters)


@dataclass(frozen=True)
class UiSettings:
    """How the server behaves: its database, repository, token and modes."""

    db_url: str
    token: str
    repo: str | None = None
    read_only: bool = False
    no_exec: bool = False
    loopback_only: bool = True
    poll_seconds: float = 0.5
    runs_poll_seconds: float = 1.0


class SecurityMiddleware:
    """Host check on every request; token, Origin and read-only checks on every state-changing one."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        problem = self.guard.check_host(headers)
        if problem is None and scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            problem = self.guard.check_change(headers, scope.get("scheme", "http"))
        if problem is not None:
            await _error(403, "FORBIDDEN", problem)(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                extra = [
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                ]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BadRequest(Exception):
    """A malformed query parameter or request body: answered 400 with its message."""


def _error(status: int, code: str, message: str) -> Response:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _error_for(exc: AlphredError) -> Response:
    if isinstance(exc, UnknownRunError):
        return _error(404, exc.code, str(exc))
    if isinstance(exc, RunStateError | RunBusyError):
        return _error(409, exc.code, str(exc))
    return _error(400 if exc.exit_code == 2 else 500, exc.code, str(exc))


def _int(value: str | None, name: str) -> int | None:
    if value is None or value == "":
        return None
    try:
        number = int(value)
    except ValueError:
        raise BadRequest(f"{name} must be a whole number, not {value[:40]!r}") from None
    if number < 0:
        raise BadRequest(f"{name} must not be negative")
    return number


def create_app(settings: UiSettings, *, sleep: Callable[[float], Awaitable[None]] | None = None) -> Starlette:
    """The web application over ``settings.db_url`` (``sleep`` replaces the streams' pause, for tests)."""
    data = UiData(settings.db_url)
    guard = Guard(settings.token, read_only=settings.read_only, loopback_only=settings.loopback_only)
    streams = SseSettings(settings.poll_seconds, settings.runs_poll_seconds, sleep)

    def runs_html(request: Request) -> Response:
        status, before = _runs_params(request)
        runs, next_before = data.runs(status, before)
        html = render_runs(runs, status=status, before=before, next_before=next_before, read_only=settings.read_only)
        return HTMLResponse(html)

    def run_html(request: Request) -> Response:
        run_id = int(request.path_params["run_id"])
        try:
            view = data.view(run_id)
        except UnknownRunError as exc:
            return HTMLResponse(page("not found", f'<p class="empty">{h(exc)}</p>', kind="missing"), 404)
        allowed = controls.allowed_actions(view.record)
        return HTMLResponse(render_run(view, actions=allowed, read_only=settings.read_only))

    def api_runs(request: Request) -> Response:
        status, before = _runs_params(request)
        limit = _int(request.query_params.get("limit"), "limit") or 50
        runs, _next = data.runs(status, before, min(limit, 500))
        return JSONResponse(runs)

    def api_run(request: Request) -> Response:
        try:
            return JSONResponse(data.run(int(request.path_params["run_id"])))
        except AlphredError as exc:
            return _error_for(exc)

    def api_events(request: Request) -> Response:
        run_id = int(request.path_params["run_id"])
        after = _int(request.query_params.get("after"), "after") or 0
        limit = _int(request.query_params.get("limit"), "limit") or 1000
        if not data.exists(run_id):
            return _error_for(UnknownRunError(run_id))
        return JSONResponse(data.events(run_id, after, min(limit, 10_000)))

    def api_action(request: Request) -> Response:
        run_id = int(request.path_params["run_id"])
        action = request.path_params["action"]
        comment = _comment(request)
        store = data.store()
        try:
            if store is None:
                raise UnknownRunError(run_id)
            outcome = controls.perform(
                store, run_id, action, comment, db_url=settings.db_url, repo=settings.repo, no_exec=settings.no_exec
            )
            body = data.run(run_id)
        except AlphredError as exc:
            return _error_for(exc)
        return JSONResponse(body, headers={"X-Alphred-Message": _header_text(outcome.message)})

    async def api_action_async(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return _error(413, "USAGE", f"request body over {MAX_BODY} bytes")
        request.state.body = bytes(body)
        return await run_in_threadpool(api_action, request)

    async def runs_live(request: Request) -> Response:
        return await runs_stream(request, data, streams)

    async def run_live(request: Request) -> Response:
        return await run_stream(request, data, streams)

    async def healthz(request: Request) -> Response:
        return PlainTextResponse("ok")

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/", runs_html),
        Route("/runs/{run_id:int}", run_html),
        Route("/runs/stream", runs_live),
        Route("/runs/{run_id:int}/stream", run_live),
        Route("/api/runs", api_runs),
        Route("/api/runs/{run_id:int}", api_run),
        Route("/api/runs/{run_id:int}/events", api_events),
        Route("/api/runs/{run_id:int}/{action}", api_action_async, methods=["POST"]),
        Route("/healthz", healthz),
        Route("/favicon.ico", favicon),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def bad_value(request: Request, exc: Exception) -> Response:
        return _error(400, "USAGE", str(exc))

    app = Starlette(
        routes=routes,
        middleware=[Middleware(SecurityMiddleware, guard=guard)],
        exception_handlers={BadRequest: bad_value},
    )
    app.state.data = data
    app.state.streams = streams  # ``streams.stopping = True`` ends every open stream (server shutdown)
    return app


def _runs_params(request: Request) -> tuple[str | None, int | None]:
    status = request.query_params.get("status") or None
    if status is not None and status not in RUN_STATUSES:
        raise BadRequest(f"unknown status {status!r} (one of {', '.join(RUN_STATUSES)})")
    return status, _int(request.query_params.get("before"), "before")


def _comment(request: Request) -> str | None:
    import json

    raw: bytes = getattr(request.state, "body", b"") or b""
    if not raw.strip():
        return None
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, ValueError):
        raise BadRequest('the request body is not valid JSON; send e.g. {"comment": "..."}') from None
    if not isinstance(body, dict):
        raise BadRequest('the request body must be a JSON object, e.g. {"comment": "..."}')
    comment = body.get("comment")
    if comment is not None and not isinstance(comment, str):
        raise BadRequest("comment must be a string")
    return comment or None


def _header_text(message: str) -> str:
    """A message safe for an HTTP header value (Latin-1, one line)."""
    flat = " ".join(message.split())
    return flat.encode("latin-1", "replace").decode("latin-1")[:500]
