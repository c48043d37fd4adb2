"""The ``codex`` provider described (its entry point names ``CODEX``): keys, schema, codes, capabilities.

Cheap to import: the adapter (``alphred.providers.codex``) loads only when a phase runs or the preflight
checks.
"""

from __future__ import annotations

from alphred.providers.codex_errors import CODES
from alphred.providers.descriptor import Capabilities, ProviderDescriptor, adapter
from alphred.workflow.containment import SANDBOX_SCHEMA
from alphred.workflow.provider_keys import PhaseKey, text

# codex's own mode as a string; the mapping form is Alphred's ``sandbox:`` (SPEC §14), mapped onto these modes
SANDBOX_KEY = PhaseKey(
    "sandbox",
    {"anyOf": [{"type": "string", "description": "codex's own mode: read-only, workspace-write, ..."}, SANDBOX_SCHEMA]},
    text,
)

CODEX = ProviderDescriptor(
    name="codex",
    factory=adapter("alphred.providers.codex:CodexProvider"),
    summary="the Codex CLI, `codex exec --json` as a subprocess",
    phase_keys=(SANDBOX_KEY,),
    error_codes=CODES,
    capabilities=Capabilities(
        sandbox=True,
        mcp=True,
        mcp_tool_filters=True,  # -c mcp_servers.NAME.disabled_tools=[...]
        tools_note="codex cannot switch off its own tools (shell, apply_patch): confine it with 'sandbox:', "
        "or deny MCP tools by their mcp__server__tool names",
    ),
)
