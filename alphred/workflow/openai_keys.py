"""The phase keys of the ``openai`` provider (SPEC §4), read with located errors.

``model`` (required; checked by the loader), ``base_url`` (an http(s) URL), ``api`` (``responses`` or
``chat``), ``api_key_env`` (a variable name, or ``none``), ``max_turns`` (a positive integer),
``system_prompt`` (text) and ``price_per_mtok`` (``{input, output, cached_input?}``: USD per million tokens).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import yaml

from alphred.workflow import fields as f
from alphred.workflow.yaml_source import Collector, did_you_mean, mapping_items, scalar_value

OPENAI_APIS = ("responses", "chat")
PRICE_KEYS = ("input", "output", "cached_input")
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def read_openai_key(name: str, node: yaml.Node, out: Collector) -> Any:
    """The value of one openai phase key, or None after reporting why it is wrong."""
    if name == "max_turns":
        return f.read_int(node, name, out, 1)
    if name == "price_per_mtok":
        return _price(node, out)
    text = f.read_str(node, name, out)
    if text is None:
        return None
    if name == "api" and text not in OPENAI_APIS:
        out.error(node, f"unknown api '{text}' (one of: {', '.join(OPENAI_APIS)}){did_you_mean(text, OPENAI_APIS)}")
        return None
    if name == "api_key_env" and text.lower() != "none" and not ENV_NAME.match(text):
        out.error(node, f"'api_key_env' must name an environment variable (or be none), not {text!r}")
        return None
    if name == "base_url":
        parts = urlsplit(text)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            out.error(node, f"'base_url' must be an http:// or https:// URL, not {text!r}")
            return None
    return text


def _price(node: yaml.Node, out: Collector) -> dict[str, float] | None:
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
        value = scalar_value(value_node) if isinstance(value_node, yaml.ScalarNode) else None
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < float("inf"):
            out.error(value_node, f"'price_per_mtok.{key}' must be a number of USD per million tokens (>= 0)")
            bad = True
            continue
        price[key] = float(value)
    missing = [key for key in ("input", "output") if key not in price]
    if missing and not bad:
        out.error(node, f"'price_per_mtok' needs {' and '.join(missing)}")
    return price if not missing and not bad else None
