"""The ``claude`` provider described (its entry point names ``CLAUDE``): keys, schema, codes, capabilities.

Cheap to import: the adapter (``alphred.providers.claude``) and claude-agent-sdk load only when a phase
runs or the preflight checks.
"""

from __future__ import annotations

from alphred.providers.claude_errors import CODES
from alphred.providers.descriptor import Capabilities, ProviderDescriptor, adapter
from alphred.workflow.provider_keys import PhaseKey, integer, text, text_list

TOOL_LIST = {"type": "array", "items": {"type": "string"}}

CLAUDE = ProviderDescriptor(
    name="claude",
    factory=adapter("alphred.providers.claude:ClaudeProvider"),
    summary="Claude Code, through claude-agent-sdk",
    phase_keys=(
        PhaseKey("permission_mode", {"type": "string"}, text),
        PhaseKey("max_turns", {"type": "integer", "minimum": 1}, integer(1)),
        # deprecated aliases of tools.allow / tools.deny (the loader reads them as ``tools:``, with a warning)
        PhaseKey("allowed_tools", {**TOOL_LIST, "deprecated": True}, text_list),
        PhaseKey("disallowed_tools", {**TOOL_LIST, "deprecated": True}, text_list),
        PhaseKey("system_prompt", {"type": "string"}, text),
    ),
    error_codes=CODES,
    # tools.allow: --tools, --allowedTools and the dontAsk mode (every other tool refused); Claude Code's sandbox
    capabilities=Capabilities(allowed_tools=True, disallowed_tools=True, sandbox=True, mcp=True, tool_patterns=True),
)
