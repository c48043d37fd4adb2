"""The openai provider's phase keys (SPEC §4): read into ``Phase.options``, each bad value located."""

from __future__ import annotations

import textwrap

from alphred.providers import default_registry
from alphred.workflow import check_workflow, load_workflow

PROVIDERS = default_registry()  # every installed provider, as the CLI has them

HEAD = "alphred: 1\nkey: wf\nphases:\n  a:\n    provider: openai\n"


def errors(body: str) -> list[str]:
    _, found = check_workflow("wf.yaml", HEAD + textwrap.indent(textwrap.dedent(body), "    "), providers=PROVIDERS)
    return [d.format() for d in found if d.severity == "error"]


def test_every_openai_key_is_read() -> None:
    body = """\
        model: qwen2.5-coder
        base_url: http://127.0.0.1:11434/v1
        api: chat
        api_key_env: none
        max_turns: 7
        system_prompt: Be brief.
        price_per_mtok: {input: 0.5, output: 2}
        """
    wf = load_workflow("wf.yaml", HEAD + textwrap.indent(textwrap.dedent(body), "    "), providers=PROVIDERS)
    (phase,) = wf.phases
    assert phase.model == "qwen2.5-coder"
    assert dict(phase.options) == {
        "base_url": "http://127.0.0.1:11434/v1",
        "api": "chat",
        "api_key_env": "none",
        "max_turns": 7,
        "system_prompt": "Be brief.",
        "price_per_mtok": {"input": 0.5, "output": 2.0},
    }


def test_model_is_required_unless_defaults_give_it() -> None:
    assert errors("prompt: hi\n") == [
        "wf.yaml:4:3: error: openai phase 'a' needs a 'model' (the name the server knows the model by)"
    ]
    text = "alphred: 1\nkey: wf\ndefaults: {provider: openai, model: m}\nphases:\n  a: {prompt: hi}\n"
    assert [d for d in check_workflow("wf.yaml", text, providers=PROVIDERS)[1] if d.severity == "error"] == []


def test_bad_values_are_located() -> None:
    found = errors(
        """\
        model: m
        api: completions
        api_key_env: "MY KEY"
        base_url: localhost:8000
        max_turns: 0
        price_per_mtok: {input: -1, outptu: 2}
        """
    )
    assert found == [
        "wf.yaml:7:10: error: unknown api 'completions' (one of: responses, chat)",
        "wf.yaml:8:18: error: 'api_key_env' must name an environment variable (or be none), not 'MY KEY'",
        "wf.yaml:9:15: error: 'base_url' must be an http:// or https:// URL, not 'localhost:8000'",
        "wf.yaml:10:16: error: 'max_turns' must be at least 1",
        "wf.yaml:11:29: error: 'price_per_mtok.input' must be a number of USD per million tokens (>= 0)",
        "wf.yaml:11:33: error: unknown key 'outptu' in price_per_mtok (did you mean 'output'?)",
    ]


def test_price_needs_input_and_output_and_keys_of_other_providers_are_refused() -> None:
    assert errors("model: m\nprice_per_mtok: {input: 1}\n") == ["wf.yaml:7:21: error: 'price_per_mtok' needs output"]
    # ``sandbox`` is every phase's key now (SPEC §14); its string form is codex's own mode only
    assert errors("model: m\nsandbox: read-only\n")[0].startswith(
        "wf.yaml:7:14: error: 'sandbox' must be a mapping ({network: false}), true or false"
    )
    assert errors("model: m\napi: chta\n") == [
        "wf.yaml:7:10: error: unknown api 'chta' (one of: responses, chat) (did you mean 'chat'?)"
    ]
