"""An attempt's end and the transition that records its outcome in ONE worker thread hop (issue 29).

Without it a phase costs two hops: the attempt's end (its verdict, its run files, its pending writes) in one
worker thread, then, back on the event loop, the engine's transition and its persist in another. When nothing
can come between the two (the attempt is on the run branch, its start was the last effect of its transition,
nothing else was fed, no parallel branch is under way), the worker that ends the attempt goes on with the
transition and its persist (``recording.Recording._record_outcome``) and the loop receives both.

What the loop checked between the two hops is checked in the worker, and a stop that arrives while the worker
runs is settled by a claim: the worker claims the outcome (under a lock) only when nothing stopped the run,
asked a pause or ended the attempt; the loop, about to answer a stop with the attempt interrupted, refuses the
claim first. Exactly one of them wins: a refused claim leaves the outcome to the loop as before (the stop wins,
nothing was recorded); a claim the loop finds made means the outcome's transition is (being) recorded, so the
loop waits for it and goes on from there, and the stop applies to what comes next (the next attempt starts
interrupted). The pause flag the transaction reads first (``PauseFirst``) and a lost lease come back to the
loop, which handles them as it handles them after its own persist.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING, Any

from alphred.engine import Effect, Event, RunState
from alphred.lazy import deferred_dataclass

if TYPE_CHECKING:
    from alphred.git.tamper import WorktreeSeal
    from alphred.runtime.attempt_context import AttemptStats
    from alphred.runtime.persist import Write

_OPEN, _CLAIMED, _REFUSED = "open", "claimed", "refused"


@deferred_dataclass
class Joined:
    """What the worker did with an attempt's outcome: ``new`` and ``effects`` are its transition, persisted
    (``measured`` what the steps it records were given); ``new`` None: nothing was written, because the
    transaction found the pause flag set (``held``: the pending writes it took, to write with the outcome when
    it is fed again) or raised ``error``."""

    event: Event
    new: RunState | None
    effects: tuple[Effect, ...] = ()
    measured: dict[tuple[str, int], AttemptStats] = field(default_factory=dict)
    held: list[Write] = field(default_factory=list)
    error: Exception | None = None


class EndJoin:
    """The claim between an attempt's end, in a worker thread, and a stop on the event loop."""

    def __init__(self, stopped: Callable[[], bool], record: Callable[[Event, WorktreeSeal], Joined]) -> None:
        self._stopped = stopped  # whether the run stopped, a pause was asked or the attempt was ended
        self._record = record  # the outcome's transition and its persist (in the worker)
        self._lock = threading.Lock()
        self._state = _OPEN
        self._recorded = False  # ``joined`` is set
        self._waiter: concurrent.futures.Future[Joined] | None = None  # made by ``wait`` only (a stop raced)
        self.joined: Joined | None = None

    def end(self, event: Any, seal: WorktreeSeal) -> Any:
        """In the worker, with the attempt's outcome (and the seal its end checked): record its transition too
        when the claim is won."""
        with self._lock:
            if self._state != _OPEN or self._stopped():
                self._state = _REFUSED
                return event
            self._state = _CLAIMED
        try:
            joined = self._record(event, seal)
        except Exception as exc:  # ``_record`` hands its errors back; anything else reaches the loop the same way
            joined = Joined(event, None, error=exc)
        with self._lock:
            self.joined, self._recorded, waiter = joined, True, self._waiter
        if waiter is not None:
            waiter.set_result(joined)
        return event

    def refuse(self) -> bool:
        """On the loop, before it answers a stop: True when the worker will not record the outcome (refused
        now, or it did not claim it); False when it claimed it (``wait`` for the transition)."""
        with self._lock:
            if self._state == _OPEN:
                self._state = _REFUSED
            return self._state == _REFUSED

    async def wait(self) -> Joined:
        """The claimed outcome's transition, once the worker has recorded it (it may still be writing)."""
        with self._lock:
            if self._recorded:
                assert self.joined is not None
                return self.joined
            waiter = self._waiter = concurrent.futures.Future()
        return await asyncio.wrap_future(waiter)
