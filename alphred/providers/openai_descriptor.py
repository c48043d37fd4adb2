"""The ``openai`` provider described (its entry point names ``OPENAI``): its phase keys read with located
errors, their schema, its codes and capabilities (SPEC §4).

``model`` (required: checked for the phase as a whole), ``base_url`` (an http(s) URL), ``api``
(``responses`` or ``chat``), ``api_key_env`` (a variable name, or ``none``), ``max_turns`` (a positive
integer), ``system_prompt`` (text) and ``price_per_mtok`` (``{input, output, cached_input?}``: USD per
million tokens). Cheap to import: the adapter (``alphred.providers.openai``) and the ``openai`` package
load only when a phase runs or the preflight checks.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import yaml

from alphred.providers.descriptor import Capabilities, ProviderDescriptor, adapter
from alphred.providers.openai_errors import CODES
from alphred.workflow.provider_keys import KeyValue, PhaseKey, ProviderPhase, integer, text
from alphred.workflow.yaml_source import did_you_mean, mapping_items, scalar_value

OPENAI_APIS = ("responses", "chat")
PRICE_KEYS = ("input", "output", "cached_input")
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def read_base_url(value: KeyValue) -> str | None:
    """An http:// or https:// URL."""
    url = text(value)
    if url is None:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        value.out.error(value.node, f"'base_url' must be an http:// or https:// URL, not {url!r}")
        return None
    return url


def read_api(value: KeyValue) -> str | None:
    """``responses`` or ``chat``."""
    api = text(value)
    if api is not None and api not in OPENAI_APIS:
        listed = ", ".join(OPENAI_APIS)
        value.out.error(value.node, f"unknown api '{api}' (one of: {listed}){did_you_mean(api, OPENAI_APIS)}")
        return None
    return api


def read_key_env(value: KeyValue) -> str | None:
    """An environment variable name, or ``none``."""
    name = text(value)
    if name is not None and name.lower() != "none" and not ENV_NAME.match(name):
        value.out.error(value.node, f"'api_key_env' must name an environment variable (or be none), not {name!r}")
        return None
    return name


def read_price(value: KeyValue) -> dict[str, float] | None:
    """``{input, output, cached_input?}``: USD per million tokens, each >= 0."""
    node, out = value.node, value.out
    if not isinstance(node, yaml.MappingNode):
        out.error(node, "'price_per_mtok' must be a mapping: {input: USD, output: USD, cached_input: USD}")
        return None
    price: dict[str, float] = {}
    bad = False
    for key, key_node, value_node in mapping_items(node, out):
        if key not in PRICE_KEYS:
            out.error(key_node, f"unknown key '{key}' in price_per_mtok{did_you_mean(key, PRICE_KEYS)}")
            bad = True
            continue
        number = scalar_value(value_node) if isinstance(value_node, yaml.ScalarNode) else None
        if isinstance(number, bool) or not isinstance(number, int | float) or not 0 <= number < float("inf"):
            out.error(value_node, f"'price_per_mtok.{key}' must be a number of USD per million tokens (>= 0)")
            bad = True
            continue
        price[key] = float(number)
    missing = [key for key in ("input", "output") if key not in price]
    if missing and not bad:
        out.error(node, f"'price_per_mtok' needs {' and '.join(missing)}")
    return price if not missing and not bad else None


CONVENTIONAL_KEY = "OPENAI_API_KEY"
DEFAULT_HOST = "api.openai.com"
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


def check_model(phase: ProviderPhase) -> None:
    """An openai phase names its model (here or in ``defaults``): there is no default model. Its key goes
    where its ``base_url`` points: another variable than OPENAI_API_KEY sent to another host is a warning."""
    if "model" not in phase.fields:
        phase.out.error(
            phase.node, f"openai phase '{phase.key}' needs a 'model' (the name the server knows the model by)"
        )
    key_env, base_url = phase.settings.get("api_key_env"), phase.settings.get("base_url")
    if not isinstance(key_env, str) or key_env.lower() == "none" or key_env == CONVENTIONAL_KEY:
        return
    host = (urlsplit(base_url).hostname or "") if isinstance(base_url, str) else ""
    if host and host != DEFAULT_HOST and host not in LOOPBACK_HOSTS and not host.startswith("127."):
        phase.out.warning(
            phase.fields.get("api_key_env", phase.node),
            f"phase '{phase.key}' sends the value of {key_env} as a Bearer token to {host} (api_key_env with "
            f"base_url): make sure {key_env} holds that server's own key, not another service's credential",
        )


PRICE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["input", "output"],
    "properties": {key: {"type": "number", "minimum": 0} for key in PRICE_KEYS},
    "description": "USD per million tokens, for cost accounting",
}

OPENAI = ProviderDescriptor(
    name="openai",
    factory=adapter("alphred.providers.openai:OpenAIProvider"),
    summary="a tool-loop agent on any OpenAI-compatible API (local models too)",
    phase_keys=(
        PhaseKey(
            "base_url",
            {
                "type": "string",
                "pattern": "^https?://",
                "description": "OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1",
            },
            read_base_url,
        ),
        PhaseKey(
            "api",
            {"enum": list(OPENAI_APIS), "description": "Responses API (default) or Chat Completions"},
            read_api,
        ),
        PhaseKey(
            "api_key_env",
            {
                "type": "string",
                "pattern": "^([A-Za-z_][A-Za-z0-9_]*|[Nn][Oo][Nn][Ee])$",
                "description": "Variable holding the key (default OPENAI_API_KEY); none for servers that need no key",
            },
            read_key_env,
        ),
        PhaseKey("max_turns", {"type": "integer", "minimum": 1}, integer(1)),
        PhaseKey("system_prompt", {"type": "string"}, text),
        PhaseKey("price_per_mtok", PRICE_SCHEMA, read_price),
    ),
    validate_phase=check_model,
    error_codes=CODES,
    # the model is offered only the allowed of its tools (openai_tools) and of its MCP servers' tools (an MCP
    # client: providers/mcp_client.py); its shell runs in Alphred's sandbox. ``finish`` is always offered.
    capabilities=Capabilities(
        allowed_tools=True,
        disallowed_tools=True,
        sandbox=True,
        mcp=True,
        tool_names=("shell", "read_file", "write_file", "edit_file", "list_files"),
    ),
)
