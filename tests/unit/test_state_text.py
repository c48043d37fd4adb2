"""A runner's stored state made in parts (``store/state_text.py``) is the text of the whole value, through many
transitions: the text a reader and a resume read is what it was when the whole value was encoded each time."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_properties import event_specs, to_event, workflows

from alphred.engine import RunState, initial_state, state_from_json, state_to_json, transition
from alphred.engine.state import evolve
from alphred.store.columns import JsonText, json_text, stored_json
from alphred.store.state_text import StateText
from alphred.workflow.model import Workflow

RUNTIME = {"branch": "alphred/loop/1", "keep_worktree": False, "dry_run_scope": "all", "pull_request": None}


def whole(state: RunState, runtime: dict[str, Any]) -> str:
    """The stored text as it was made before parts were kept: the whole value encoded."""
    return json_text({"engine": state_to_json(evolve(state, history=())), "runtime": runtime})


def stored(parts: StateText, state: RunState) -> str:
    value = parts.value(state)
    assert isinstance(value, JsonText)
    return stored_json(value)  # what the SQLite store writes of it


@settings(max_examples=150, deadline=None)
@given(workflows(), st.lists(event_specs, max_size=40), st.sampled_from([RUNTIME, {}, {"note": 'é\n"x"'}]))
def test_the_parts_make_the_whole_value_s_text_through_every_transition(
    workflow: Workflow, specs: list[Any], runtime: dict[str, Any]
) -> None:
    parts = StateText(runtime, as_text=True)
    state = initial_state(workflow, {"topic": "naïve \u2028 text"})
    assert stored(parts, state) == whole(state, runtime)
    for spec in specs:
        state, _ = transition(state, to_event(spec, state))
        text = stored(parts, state)
        assert text == whole(state, runtime)
        assert state_from_json(workflow, json.loads(text)["engine"]) == evolve(state, history=())  # a resume's read


@given(workflows())
def test_an_equal_phase_state_of_other_values_is_encoded_again(workflow: Workflow) -> None:
    """A phase kept by identity, never by equality: 0 == 0.0, but their texts differ."""
    parts = StateText({}, as_text=True)
    state = initial_state(workflow, {})
    stored(parts, state)
    key = workflow.phase_keys[0]
    again = evolve(state, phases={**state.phases, key: evolve(state.phase(key), cost_usd=0)})
    assert again.phase(key) == state.phase(key)
    assert stored(parts, again) == whole(again, {})
    assert '"cost_usd": 0,' in stored(parts, again)


@given(workflows())
def test_a_store_that_takes_no_text_is_given_the_value(workflow: Workflow) -> None:
    state = initial_state(workflow, {})
    value = StateText(RUNTIME, as_text=False).value(state)
    assert value == {"engine": state_to_json(state), "runtime": RUNTIME}
    assert json_text(value) == whole(state, RUNTIME)


def test_the_serializer_writes_a_value_as_json_dumps_does() -> None:
    value = {"a": [1, 2.5, None, "ü"], "b": {"c": True}}
    assert stored_json(value) == json.dumps(value)
    assert stored_json(JsonText('{"made": "already"}')) == '{"made": "already"}'
