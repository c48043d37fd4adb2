"""A runner's stored run state (``workflow_runs.engine_state``), encoded in parts (issue 29).

Every transition of a run stores its whole state: ``{"engine": state_to_json(state), "runtime": runtime}``,
~1.3 kB of JSON text for a two-phase loop, more with each phase. Most of it did not change since the last
transition: the runtime options never change during a run, and a phase's state changes only when a
transition moves it (the engine's states are immutable: an unchanged phase is the same ``PhaseState``
object). ``StateText`` keeps the text of those parts and encodes only the rest; what it hands the store is
the very text ``json_text`` makes of the whole value (``tests/unit/test_state_text.py`` compares them through
many transitions), given to the JSON column as ``JsonText`` (written as it is, ``columns.stored_json``).

Only the SQLite store takes the text (``SqlRunStore.takes_json_text``): psycopg wraps a JSON parameter in its
own ``Json`` and encodes it there, so the PostgreSQL store is given the value as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from json.encoder import encode_basestring_ascii
from typing import Any

from alphred.engine import RunState, state_to_json
from alphred.engine.state import PhaseState, evolve
from alphred.store.columns import JsonText, json_text

KEPT_AT_LEAST = 2
"""The unchanged phases a state needs for ``StateText`` to put its text together from parts."""


class StateText:
    """The stored value of one run's state, made from the text of its parts (kept while they are unchanged)."""

    __slots__ = ("_as_text", "_at", "_phases", "_runtime", "_tail")

    def __init__(self, runtime: Mapping[str, Any], as_text: bool) -> None:
        self._runtime = dict(runtime)
        self._as_text = as_text
        self._tail = ', "runtime": ' + json_text(self._runtime) + "}"
        self._phases: dict[str, tuple[PhaseState, str]] = {}  # a phase's key -> its state and its item's text
        self._at = 0  # where ``phases`` is among the items of ``state_to_json``'s dict

    def value(self, state: RunState) -> JsonText | dict[str, Any]:
        """What the store writes to ``engine_state`` for ``state`` (its history left out: the steps are rows)."""
        if not self._as_text:
            return {"engine": state_to_json(_without_history(state)), "runtime": dict(self._runtime)}
        return JsonText('{"engine": ' + self.engine_text(state) + self._tail)

    def engine_text(self, state: RunState) -> str:
        """``json_text(state_to_json(state))`` without its history, each unchanged phase's item as kept. Encoded whole
        (nothing kept nor updated) when fewer than ``KEPT_AT_LEAST`` phases are unchanged: putting the parts
        together costs more than encoding two phases again (a two-phase loop changes both at each transition)."""
        known = self._phases
        texts: dict[str, str] = {}  # each phase's item, in the state's order
        changed: dict[str, PhaseState] = {}
        for key, ps in state.phases.items():
            kept = known.get(key)  # a state and its text, read together (another thread may replace them)
            if kept is not None and kept[0] is ps:  # the same object, not an equal one: 0 == 0.0, not their texts
                texts[key] = kept[1]
            else:
                texts[key] = ""
                changed[key] = ps
        if known and len(texts) - len(changed) < KEPT_AT_LEAST:
            return json_text(state_to_json(_without_history(state)))
        data = state_to_json(evolve(state, history=(), phases=changed))  # the phases that changed only
        for key, encoded in data["phases"].items():
            text = texts[key] = encode_basestring_ascii(key) + ": " + json_text(encoded)  # as the encoder writes keys
            known[key] = (changed[key], text)
        items = list(data.items())
        at = self._at
        if at >= len(items) or items[at][0] != "phases":
            at = self._at = [name for name, _ in items].index("phases")
        parts = (json_text(dict(items[:at]))[1:-1], '"phases": {' + ", ".join(texts.values()) + "}")
        rest = json_text(dict(items[at + 1 :]))[1:-1]  # the items before ``phases``, its own, those after it
        return "{" + ", ".join(part for part in (*parts, rest) if part) + "}"


def _without_history(state: RunState) -> RunState:
    """``state`` without its step history: itself when it has none (the runner's, ``recording.advance``), not a copy
    (``evolve`` copies every field, ~10 k instructions a transition: issue 29)."""
    return evolve(state, history=()) if state.history else state
