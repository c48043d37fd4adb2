"""Who is told a provider event: the runtime forwards none when no observer shows one (``--json -q``, a child
run's observer), and every one when a JSON-lines stream or a terminal's live line shows them (issue 29)."""

from __future__ import annotations

import io

from alphred.runtime.child_run import ChildObserver
from alphred.runtime.observer import QuietObserver
from alphred.views.jsonl import JsonlEvents
from alphred.views.observers import RunObservers
from alphred.views.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_observer_that_shows_nothing_watches_provider_events() -> None:
    assert not RunObservers(1).watches_events  # ``--json -q``
    assert not RunObservers(1, Progress(stream=io.StringIO(), environ={})).watches_events  # lines on a pipe
    assert not QuietObserver().watches_events
    assert not ChildObserver(QuietObserver(), 2, "child").watches_events


def test_a_json_lines_stream_or_a_live_line_watches_provider_events() -> None:
    assert RunObservers(1, events=JsonlEvents(io.StringIO())).watches_events
    assert RunObservers(1, Progress(stream=Terminal(), environ={"TERM": "xterm"})).watches_events
