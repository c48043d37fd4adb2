"""Server-Sent Events: a run's new events and state changes, and changes of the runs list.

Each open stream reads the database once per poll interval (0.5 s for a run, 1 s for the list), in a
worker thread, and sleeps in between: a page costs at most two reads a second however busy the run is.
Every provider event goes out as ``event: event`` with ``id:`` = its stored id, so a reconnecting
browser (``Last-Event-ID``) or a client passing ``?after=N`` resumes exactly after the last event it got.
A change of the run's state goes out as ``event: status`` carrying the status object.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from alphred.errors import UnknownRunError
from alphred.ui.data import UiData

HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
RETRY_MS = 1500


@dataclass
class SseSettings:
    """Poll intervals of the streams (seconds), the sleep they use (replaceable in tests), and ``stopping``:
    set when the server shuts down, so that every open stream ends within one interval."""

    run_seconds: float = 0.5
    runs_seconds: float = 1.0
    sleep: Callable[[float], Awaitable[None]] | None = None
    stopping: bool = False

    async def pause(self, seconds: float) -> None:
        """Wait ``seconds`` between two reads."""
        await (self.sleep or asyncio.sleep)(seconds)


def message(event: str, data: Any, event_id: int | None = None) -> str:
    """One SSE message; ``data`` as compact JSON on one line."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    body = body.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")  # JSON text, never a raw line break
    return f"{head}event: {event}\ndata: {body}\n\n"


def resume_point(request: Request) -> int:
    """Where a stream starts: after ``Last-Event-ID`` (a reconnect), else ``?after=N``, else 0."""
    for raw in (request.headers.get("last-event-id"), request.query_params.get("after")):
        if raw is not None and raw.strip().isdigit():
            return int(raw.strip())
    return 0


async def run_stream(request: Request, data: UiData, settings: SseSettings) -> Response:
    """``GET /runs/{id}/stream``: the run's events after the resume point, then live ones and state changes."""
    run_id = int(request.path_params["run_id"])
    try:
        await run_in_threadpool(data.run, run_id)
    except UnknownRunError as exc:
        from starlette.responses import JSONResponse

        return JSONResponse({"error": {"code": exc.code, "message": str(exc)}}, status_code=404)
    after = resume_point(request)

    async def stream() -> AsyncIterator[str]:
        nonlocal after
        yield f"retry: {RETRY_MS}\n\n"
        seen: Any = None
        while True:
            events, fingerprint = await run_in_threadpool(data.poll, run_id, after)
            for event in events:
                after = int(event["id"])
                yield message("event", event, after)
            if fingerprint != seen:
                seen = fingerprint
                try:
                    yield message("status", await run_in_threadpool(data.run, run_id))
                except UnknownRunError:
                    yield message("gone", {"run_id": run_id})
                    return
            if settings.stopping or await request.is_disconnected():
                return
            await settings.pause(settings.run_seconds)

    return StreamingResponse(stream(), media_type="text/event-stream", headers=HEADERS)


async def runs_stream(request: Request, data: UiData, settings: SseSettings) -> Response:
    """``GET /runs/stream``: an ``event: runs`` message whenever a run appears or changes state."""

    async def stream() -> AsyncIterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        seen: Any = None
        while True:
            fingerprint = await run_in_threadpool(data.runs_fingerprint)
            if fingerprint != seen:
                if seen is not None:
                    yield message("runs", {"changed": True})
                seen = fingerprint
            if settings.stopping or await request.is_disconnected():
                return
            await settings.pause(settings.runs_seconds)

    return StreamingResponse(stream(), media_type="text/event-stream", headers=HEADERS)
