"""Provider events into ``run_node_stream_events``: redacted, ordered, gap-free per attempt, batched.

``add`` runs on the event loop and only buffers; ``flush`` (the SQL) runs in a worker thread, called every
FLUSH_EVERY_SECONDS by the attempt. At its end the attempt ``take``s the last events and leaves them to the
transaction that writes its outcome (its commit's intent, or the transition that records it): one write
transaction for a phase that changes nothing. A lock keeps concurrent flushes in order.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from alphred.providers.base import ProviderEvent
from alphred.redact import Redactor, cut_event_content
from alphred.store import EventRow, SqlRunStore

FLUSH_EVERY_EVENTS = 2000
FLUSH_EVERY_SECONDS = 0.1


class EventSink:
    """Buffers one attempt's events and appends them in batches; ``flush`` writes what is pending."""

    def __init__(
        self,
        store: SqlRunStore,
        run_id: int,
        run_node_id: int,
        attempt: int,
        redactor: Redactor,
        first_sequence: int = 1,
        on_event: Callable[[int, ProviderEvent], None] | None = None,
    ) -> None:
        self._store = store
        self._run_id = run_id
        self._node_id = run_node_id
        self._attempt = attempt
        self._redactor = redactor
        self._next = first_sequence
        self._pending: list[EventRow] = []
        self._last_flush = time.monotonic()
        self._on_event = on_event
        self._lock = threading.Lock()  # guards the buffer (held for an append or a swap only)
        self._writing = threading.Lock()  # one flush at a time, so batches are written in order
        self.count = 0

    def add(self, event: ProviderEvent) -> None:
        """Accept one event (buffered; the periodic ``flush`` writes it)."""
        content = cut_event_content(self._redactor.redact(event.content))
        metadata = _redact_metadata(event.metadata, self._redactor) if event.metadata else None
        row = EventRow(
            workflow_run_id=self._run_id,
            run_node_id=self._node_id,
            attempt=self._attempt,
            sequence=self._next,
            event_type=event.type.value,
            content=content,
            timestamp=datetime.fromtimestamp(event.timestamp, UTC),
            metadata=metadata,
        )
        with self._lock:
            self._pending.append(row)
        if self._on_event is not None:
            self._on_event(self._next, event)
        self._next += 1
        self.count += 1

    @property
    def backlog(self) -> int:
        """How many events are buffered, not written yet (the attempt waits for a flush past FLUSH_EVERY_EVENTS)."""
        with self._lock:
            return len(self._pending)

    @property
    def pending(self) -> bool:
        """Whether an event is buffered and not written yet."""
        with self._lock:
            return bool(self._pending)

    def flush(self) -> None:
        """Append every pending event in one transaction (safe to call from any thread, in order)."""
        with self._writing:
            with self._lock:
                pending, self._pending = self._pending, []
            if pending:
                self._store.append_events(pending)
            self._last_flush = time.monotonic()

    def take(self) -> list[EventRow]:
        """Hand over every pending event (the caller writes them); waits for a flush under way, so what is
        handed over follows what was written."""
        with self._writing, self._lock:
            pending, self._pending = self._pending, []
        return pending


def _redact_metadata(metadata: Any, redactor: Redactor) -> Any:
    """``metadata`` with secrets masked; the same object when nothing needed masking (the common case: every
    string in it, keys too, is looked at once, joined, with no JSON encoding)."""
    texts: list[str] = []
    try:
        plain = _plain_texts(metadata, texts)
    except RecursionError:  # nested too deep to walk: the encoding below says
        plain = False
    if plain and redactor.leaves_alone(texts):
        return metadata
    try:
        text = json.dumps(metadata, sort_keys=True)
        plain = True
    except (TypeError, ValueError):
        try:
            text = json.dumps(metadata, default=str, sort_keys=True)
        except (TypeError, ValueError):
            return {"unserialisable": True}
        plain = False
    redacted = redactor.redact(text)
    return metadata if plain and redacted == text else json.loads(redacted)


def _plain_texts(value: Any, texts: list[str]) -> bool:
    """Collect every string of ``value`` (mapping keys too) into ``texts``; False when it holds anything but
    mappings, lists, tuples, strings, numbers, booleans and None (``_redact_metadata`` then encodes it)."""
    if isinstance(value, str):
        texts.append(value)
        return True
    if value is None or isinstance(value, int | float):
        return True
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or not _plain_texts(item, texts):
                return False
            texts.append(key)
        return True
    if isinstance(value, list | tuple):
        return all(_plain_texts(item, texts) for item in value)
    return False
