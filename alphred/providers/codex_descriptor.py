"""The ``codex`` provider described (its entry point names ``CODEX``): keys, schema, codes, capabilities.

Cheap to import: the adapter (``alphred.providers.codex``) loads only when a phase runs or the preflight
checks.
"""

from __future__ import annotations

import re

import yaml

from alphred.providers.codex_errors import CODES
from alphred.providers.descriptor import Capabilities, ProviderDescriptor, adapter
from alphred.workflow.containment import SANDBOX_SCHEMA
from alphred.workflow.provider_keys import PhaseKey, ProviderPhase, text

REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")  # ``${NAME}`` in an MCP header (workflow/tooling.py)

# codex's own mode as a string; the mapping form is Alphred's ``sandbox:`` (SPEC §14), mapped onto these modes
SANDBOX_KEY = PhaseKey(
    "sandbox",
    {"anyOf": [{"type": "string", "description": "codex's own mode: read-only, workspace-write, ..."}, SANDBOX_SCHEMA]},
    text,
)


def header_variable(header: str, value: str) -> tuple[str, str | None] | None:
    """How codex takes MCP header ``header: value``: ``("bearer", NAME)`` (``Authorization: Bearer ${NAME}``),
    ``("env", NAME)`` (``${NAME}``), ``("literal", None)`` (no reference), or None: a mix of text and
    references codex cannot send (it takes a header's value from one variable or as written)."""
    whole = REFERENCE.fullmatch(value)
    bearer = REFERENCE.fullmatch(value.removeprefix("Bearer ")) if value.startswith("Bearer ") else None
    if header.lower() == "authorization" and bearer is not None:
        return "bearer", bearer.group(1)
    if whole is not None:
        return "env", whole.group(1)
    if REFERENCE.search(value) is None:
        return "literal", None
    return None


def header_refusal(server: str, value: str) -> str:
    """Why codex refuses the header ``value`` of MCP server ``server``."""
    return (
        f"codex takes a header of MCP server '{server}' either literal, '${{NAME}}' or "
        f"(Authorization) 'Bearer ${{NAME}}', not {value!r}"
    )


def check_mcp_headers(phase: ProviderPhase) -> None:
    """A header codex cannot send is refused by ``validate`` at its value, not when the phase runs."""
    servers = phase.fields.get("mcp")
    if not isinstance(servers, yaml.MappingNode):
        return
    for name_node, server in servers.value:
        if not isinstance(server, yaml.MappingNode):
            continue
        for key, headers in server.value:
            if key.value != "headers" or not isinstance(headers, yaml.MappingNode):
                continue
            for header, value in headers.value:
                scalars = isinstance(header, yaml.ScalarNode) and isinstance(value, yaml.ScalarNode)
                if scalars and header_variable(str(header.value), str(value.value)) is None:
                    phase.out.error(value, header_refusal(str(name_node.value), str(value.value)))


CODEX = ProviderDescriptor(
    name="codex",
    factory=adapter("alphred.providers.codex:CodexProvider"),
    summary="the Codex CLI, `codex exec --json` as a subprocess",
    phase_keys=(SANDBOX_KEY,),
    validate_phase=check_mcp_headers,
    error_codes=CODES,
    capabilities=Capabilities(
        sandbox=True,
        mcp=True,
        mcp_tool_filters=True,  # -c mcp_servers.NAME.disabled_tools=[...]
        tools_note="codex cannot switch off its own tools (shell, apply_patch): confine it with 'sandbox:', "
        "or deny MCP tools by their mcp__server__tool names",
    ),
)
