"""Server-Sent Events: a run's new events, new steps and state changes, and changes of the runs list.

Each open stream reads the database once per poll interval (0.5 s for a run, 1 s for the list), in a
worker thread, and sleeps in between: a page costs at most two reads a second however busy the run is.
Every provider event goes out as ``event: event`` with ``id:`` = its stored id, so a reconnecting
browser (``Last-Event-ID``) or a client passing ``?after=N`` resumes exactly after the last event it got.
A change of the run's state goes out as deltas: ``event: steps`` with the steps recorded since the last
one sent (``{"first": N, "total": T, "steps": [...]}``: ``?steps=N`` says how many the client has; by
default only steps recorded after it connected), then ``event: status`` with the status object without
its ``steps``. A database that cannot be read sends ``event: unavailable`` once; the stream keeps trying.
A server serves at most ``SseSettings.max_streams`` streams at once (503 beyond).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from alphred.errors import AlphredError, UnknownRunError
from alphred.ui.data import EVENTS_PAGE, UiData

HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
RETRY_MS = 1500
MAX_STREAMS = 64


@dataclass
class SseSettings:
    """Poll intervals of the streams (seconds), the sleep they use (replaceable in tests), how many may be
    open at once, and ``stopping``: set when the server shuts down, so that every open stream ends within
    one interval."""

    run_seconds: float = 0.5
    runs_seconds: float = 1.0
    sleep: Callable[[float], Awaitable[None]] | None = None
    stopping: bool = False
    max_streams: int = MAX_STREAMS
    open_streams: int = 0

    async def pause(self, seconds: float) -> None:
        """Wait ``seconds`` between two reads."""
        await (self.sleep or asyncio.sleep)(seconds)

    def acquire(self) -> bool:
        """Take a stream slot (False when all are taken). Runs on the event loop: no lock needed."""
        if self.open_streams >= self.max_streams:
            return False
        self.open_streams += 1
        return True

    def release(self) -> None:
        """Give a stream slot back."""
        self.open_streams = max(self.open_streams - 1, 0)


class CountedStream(StreamingResponse):
    """A stream that gives its slot back when it ends, however it ends (done, disconnected, cancelled)."""

    def __init__(self, content: AsyncIterator[str], settings: SseSettings) -> None:
        super().__init__(content, media_type="text/event-stream", headers=HEADERS)
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.settings.release()


def too_many(settings: SseSettings) -> Response:
    """The 503 answer once every stream slot is taken."""
    message = f"this server already serves {settings.max_streams} live streams; close a page or try again later"
    return JSONResponse(
        {"error": {"code": "TOO_MANY_STREAMS", "message": message}}, status_code=503, headers={"Retry-After": "10"}
    )


def message(event: str, data: Any, event_id: int | None = None) -> str:
    """One SSE message; ``data`` as compact JSON on one line."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    body = body.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")  # JSON text, never a raw line break
    return f"{head}event: {event}\ndata: {body}\n\n"


def _failure(exc: AlphredError) -> str:
    return message("unavailable", {"code": exc.code, "message": str(exc)})


async def run_stream(
    request: Request, data: UiData, settings: SseSettings, run_id: int, after: int, steps: int | None
) -> Response:
    """``GET /runs/{id}/stream``: the run's events after ``after``, then live events, steps and states."""
    if not settings.acquire():
        return too_many(settings)
    try:
        if not await run_in_threadpool(data.exists, run_id):
            settings.release()
            exc = UnknownRunError(run_id)
            return JSONResponse({"error": {"code": exc.code, "message": str(exc)}}, status_code=404)
    except BaseException:
        settings.release()
        raise

    async def stream() -> AsyncIterator[str]:
        nonlocal after
        known = steps
        yield f"retry: {RETRY_MS}\n\n"
        seen: Any = None
        failing = False
        while True:
            try:
                events, fingerprint = await run_in_threadpool(data.poll, run_id, after)
                for event in events:
                    after = int(event["id"])
                    yield message("event", event, after)
                if fingerprint != seen:
                    seen = fingerprint
                    if known is None:  # by default only the steps recorded from now on
                        known = await run_in_threadpool(data.step_count, run_id)
                    while True:
                        total, new = await run_in_threadpool(data.steps_since, run_id, known)
                        if new:
                            yield message("steps", {"first": known + 1, "total": total, "steps": new})
                            known += len(new)
                        if len(new) < EVENTS_PAGE:
                            break
                    yield message("status", await run_in_threadpool(data.status, run_id))
                failing = False
            except UnknownRunError:
                yield message("gone", {"run_id": run_id})
                return
            except AlphredError as exc:  # the database went away: say so once, keep trying
                if not failing:
                    yield _failure(exc)
                failing, seen = True, None
            if settings.stopping or await request.is_disconnected():
                return
            await settings.pause(settings.run_seconds)

    return CountedStream(stream(), settings)


async def runs_stream(request: Request, data: UiData, settings: SseSettings) -> Response:
    """``GET /runs/stream``: an ``event: runs`` message whenever a run appears or changes state."""
    if not settings.acquire():
        return too_many(settings)

    async def stream() -> AsyncIterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        seen: Any = None
        failing = False
        while True:
            try:
                fingerprint = await run_in_threadpool(data.runs_fingerprint)
                if fingerprint != seen:
                    if seen is not None:
                        yield message("runs", {"changed": True})
                    seen = fingerprint
                failing = False
            except AlphredError as exc:
                if not failing:
                    yield _failure(exc)
                failing = True
            if settings.stopping or await request.is_disconnected():
                return
            await settings.pause(settings.runs_seconds)

    return CountedStream(stream(), settings)
