"""What an agent will have (SPEC §14): per agent phase, its tools and MCP servers, and per provider what
it enforces — the text of ``alphred validate`` and ``alphred providers``."""

from __future__ import annotations

from typing import Any

from alphred.workflow import Phase, PhaseType, Workflow

ENFORCED = (
    ("allowed_tools", "tools.allow"),
    ("disallowed_tools", "tools.deny"),
    ("mcp", "mcp"),
    ("sandbox", "sandbox"),
)


def enforced(capabilities: Any) -> str:
    """What a provider's capabilities let it enforce, as ``tools.allow, tools.deny, mcp, sandbox`` (or
    ``tools.deny of MCP tools`` when it filters MCP tools only)."""
    names = [label for attribute, label in ENFORCED if getattr(capabilities, attribute, False)]
    if getattr(capabilities, "mcp_tool_filters", False) and "tools.deny" not in names:
        names.insert(0, "tools.deny of MCP tools")
    return ", ".join(names) or "nothing"


def phase_tooling(phase: Phase) -> dict[str, Any]:
    """An agent phase's tools and MCP servers as data (``--json``): allow (None: all of the provider's own),
    deny, and each server's transport, program or URL, and variable names."""
    tools = phase.tools
    return {
        "phase": phase.key,
        "provider": phase.provider,
        "allow": list(tools.allow) if tools is not None and tools.allow is not None else None,
        "deny": list(tools.deny) if tools is not None else [],
        "mcp": [
            {
                "name": s.name,
                "transport": s.transport,
                "target": s.url or " ".join([s.command or "", *s.args]),
                "env": list(s.env),
            }
            for s in phase.mcp
        ],
    }


def tooling_lines(workflow: Workflow) -> list[str]:
    """One line per agent phase: ``phase implement (claude): tools Read, Edit; deny WebFetch; mcp issues: ...``."""
    lines: list[str] = []
    for phase in workflow.phases:
        if phase.type is not PhaseType.AGENT:
            continue
        data = phase_tooling(phase)
        allow = "all of the provider's own" if data["allow"] is None else ", ".join(data["allow"]) or "none"
        parts = [f"tools {allow}"]
        if data["deny"]:
            parts.append(f"deny {', '.join(data['deny'])}")
        if phase.mcp:
            parts.append("mcp " + "; ".join(server.describe() for server in phase.mcp))
        lines.append(f"  phase {phase.key} ({phase.provider}): {'; '.join(parts)}")
    return lines
