"""The web view's outer layer: who may ask (``security.Guard``), the headers every answer carries, the
token cookie, and the last net under every request: an unexpected error becomes a 500 answer and one log
line (its traceback with ``ALPHRED_DEBUG=1``), never a traceback in the log.
"""

from __future__ import annotations

import logging
import os
from typing import Any
from urllib.parse import parse_qs

from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from alphred.ui.html import CSP, error_page
from alphred.ui.security import Guard, cookie_name, is_open

log = logging.getLogger("alphred.ui")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


def wants_json(path: str) -> bool:
    """Whether errors on ``path`` are answered as JSON (the API and the streams) rather than as a page."""
    return path.startswith("/api/") or path.endswith(("/stream", "/live"))


def error_response(path: str, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> Response:
    """``{"error": {"code", "message"}}`` for the API and the streams, an HTML page for everything else."""
    if wants_json(path):
        return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)
    titles = {400: "bad request", 403: "forbidden", 404: "not found", 405: "method not allowed"}
    title = titles.get(status, "unavailable" if status == 503 else "error")
    hint = "Open the URL <code>alphred ui</code> printed (with <code>?token=</code>)." if status == 403 else ""
    return HTMLResponse(error_page(status, title, message, hint=hint), status_code=status, headers=headers)


class SecurityMiddleware:
    """Host, token and Origin checks; security headers; the token cookie; no unhandled error escapes."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        port = int((scope.get("server") or ("", 0))[1] or 0)
        url_token = _url_token(scope)
        problem = self.guard.check_host(headers)
        if problem is None and not is_open(path):
            if scope["method"] in ("GET", "HEAD"):
                problem = self.guard.check_read(headers, url_token, port)
            else:
                problem = self.guard.check_change(headers, scope.get("scheme", "http"), port)
        if problem is not None:
            await error_response(path, 403, "FORBIDDEN", problem)(scope, receive, send)
            return
        extra = list(SECURITY_HEADERS)
        if url_token is not None and self.guard.matches(url_token):
            cookie = f"{cookie_name(port)}={self.guard.token}; Path=/; HttpOnly; SameSite=Strict"
            extra.append((b"set-cookie", cookie.encode()))
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception as exc:  # the last net: one line in the log, a 500 answer if none began
            debug = os.environ.get("ALPHRED_DEBUG", "") not in ("", "0")
            kind = type(exc).__name__
            log.error("alphred ui: %s %s failed: %s: %s", scope["method"], path, kind, exc, exc_info=debug)
            if not started:
                message = f"internal error ({type(exc).__name__}); this is a bug — the server log has details"
                await error_response(path, 500, "INTERNAL", message)(scope, receive, send_with_headers)


def _url_token(scope: Scope) -> str | None:
    """The ``token`` query parameter of a GET (the URL ``alphred ui`` printed), if any."""
    if scope["method"] not in ("GET", "HEAD"):
        return None
    raw: Any = scope.get("query_string", b"")
    if b"token=" not in raw:
        return None
    values = parse_qs(raw.decode("latin-1")).get("token")
    return values[0] if values else None
