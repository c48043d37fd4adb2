"""The agent's tools of a workflow (SPEC §14): ``tools: {allow, deny}`` and ``mcp:`` servers of a phase.

- ``tools: {allow: [...], deny: [...]}``: the tools an agent may use (``allow``: every other is refused) and
  may not (``deny``); names are the provider's own (``Read``, ``shell``), a pattern its provider checks
  (``Bash(pytest:*)`` on claude), or an MCP tool ``mcp__<server>__<tool>`` (``mcp__<server>``: all of them).
- ``mcp: {NAME: {command, args, env, cwd} | {url, headers, env}}``: the MCP servers offered to the agent.
  ``env`` names the variables given to that server only (resolved at run time, never written anywhere);
  a header value refers to one of them as ``${NAME}``; ``cwd`` is a path inside the worktree.

``check_tooling`` refuses, at ``validate``, what the phase's provider cannot enforce (its descriptor's
capabilities): a setting is never silently ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import yaml

from alphred.workflow import fields as f
from alphred.workflow.containment import VARIABLE_NAME, enforces
from alphred.workflow.model import MCP_PREFIX
from alphred.workflow.yaml_source import Collector, did_you_mean, known_keys, mapping_items

if TYPE_CHECKING:
    from alphred.workflow.options import McpServer, ToolPolicy

TOOLS_KEYS = ("allow", "deny")
MCP_KEYS = ("command", "args", "env", "cwd", "url", "headers")
SERVER_NAME = re.compile(r"^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$")  # no "__": it separates mcp__server__tool
HEADER_NAME = re.compile(r"^[A-Za-z0-9!#$%&'*+.^_`|~-]+$")
REFERENCE = re.compile(r"\$\{([^}]*)\}")
PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_]*\(.+\)$")  # Bash(pytest:*)
ALIASES = {"allowed_tools": "allow", "disallowed_tools": "deny"}

TOOL_NAMES_SCHEMA: dict[str, Any] = {"type": "array", "uniqueItems": True, "items": {"type": "string", "minLength": 1}}
TOOLS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "allow": {**TOOL_NAMES_SCHEMA, "description": "The tools the agent may use; every other is refused"},
        "deny": {**TOOL_NAMES_SCHEMA, "description": "Tools the agent may not use"},
    },
    "description": "The agent's tools, enforced by its provider (mcp__server__tool names an MCP tool)",
}
MCP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "propertyNames": {"pattern": SERVER_NAME.pattern},
    "additionalProperties": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "command": {"type": "string", "minLength": 1, "description": "A stdio server's program"},
            "args": {"type": "array", "items": {"type": "string"}},
            "env": {
                "type": "array",
                "uniqueItems": True,
                "items": {"type": "string", "pattern": VARIABLE_NAME.pattern},
                "description": "Variables (secrets) given to this server only, by name",
            },
            "cwd": {"type": "string", "description": "A directory inside the worktree"},
            "url": {"type": "string", "pattern": "^https?://", "description": "A streamable-HTTP server"},
            "headers": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "description": "HTTP headers; ${NAME} is the value of a variable of the server's env",
            },
        },
        "oneOf": [{"required": ["command"]}, {"required": ["url"]}],
    },
    "description": "MCP servers offered to the agent (their tools are mcp__<server>__<tool>)",
}


def read_tools(node: yaml.Node, out: Collector) -> ToolPolicy:
    """``tools: {allow?, deny?}``."""
    from alphred.workflow.options import ToolPolicy  # here: a file without ``tools:`` never needs it

    fields = known_keys(node, TOOLS_KEYS, "'tools'", out)
    allow = _names(fields["allow"], "tools.allow", out) if "allow" in fields else None
    deny = _names(fields["deny"], "tools.deny", out) if "deny" in fields else ()
    return ToolPolicy(allow=allow, deny=deny)


def read_aliases(fields: Mapping[str, yaml.Node], phase: str, out: Collector) -> ToolPolicy | None:
    """The old claude keys ``allowed_tools``/``disallowed_tools`` as a policy (warned: deprecated), or None."""
    from alphred.workflow.options import ToolPolicy

    given = {alias: fields[alias] for alias in ALIASES if alias in fields}
    if not given:
        return None
    lists: dict[str, tuple[str, ...]] = {}
    for alias, node in given.items():
        lists[ALIASES[alias]] = _names(node, alias, out, comma_text=True)
        out.warning(
            node,
            f"'{alias}' of phase '{phase}' is deprecated: write 'tools: {{{ALIASES[alias]}: [...]}}' "
            f"(enforced: {'every tool not listed is refused' if alias == 'allowed_tools' else 'listed tools refused'})",
        )
    return ToolPolicy(allow=lists.get("allow"), deny=lists.get("deny", ()))


def _names(node: yaml.Node, what: str, out: Collector, *, comma_text: bool = False) -> tuple[str, ...]:
    if comma_text and isinstance(node, yaml.ScalarNode):
        text = f.read_str(node, what, out) or ""
        return tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    items = f.read_str_list(node, what, out) or []
    names: list[str] = []
    for text, item in items:
        if not text.strip():
            out.error(item, f"'{what}' holds an empty tool name")
        elif text not in names:
            names.append(text)
    return tuple(names)


def read_mcp(node: yaml.Node, out: Collector) -> tuple[McpServer, ...]:
    """``mcp: {NAME: server}``."""
    if not isinstance(node, yaml.MappingNode):
        out.error(node, "'mcp' must be a mapping of server names to servers ({command, args, env} or {url})")
        return ()
    servers: list[McpServer] = []
    for name, name_node, value in mapping_items(node, out):
        if not SERVER_NAME.match(name):
            out.error(name_node, f"MCP server name '{name}' may hold letters, digits, '-' and single '_' only")
            continue
        server = _server(name, name_node, value, out)
        if server is not None:
            servers.append(server)
    return tuple(servers)


def _server(name: str, name_node: yaml.Node, node: yaml.Node, out: Collector) -> McpServer | None:
    from alphred.workflow.options import McpServer  # here: a file without ``mcp:`` never needs it

    fields = known_keys(node, MCP_KEYS, f"MCP server '{name}'", out)
    if not isinstance(node, yaml.MappingNode):
        return None
    if ("command" in fields) == ("url" in fields):
        out.error(name_node, f"MCP server '{name}' needs either 'command' (stdio) or 'url' (streamable HTTP)")
        return None
    env: list[str] = []
    for text, item in (f.read_str_list(fields["env"], "env", out) or []) if "env" in fields else []:
        if not VARIABLE_NAME.match(text):
            out.error(item, f"'{text}' is not an environment variable name")
        elif text not in env:
            env.append(text)
    if "url" in fields:
        for key in ("args", "cwd"):
            if key in fields:
                out.error(fields[key], f"'{key}' belongs to a stdio server (command), not to one at a url")
        url = f.read_str(fields["url"], "url", out) or ""
        if not re.match(r"^https?://[^/\s]+", url):
            out.error(fields["url"], f"'url' of MCP server '{name}' must be an http:// or https:// URL")
        headers = _headers(name, fields.get("headers"), env, out)
        return McpServer(name=name, url=url, env=tuple(env), headers=headers)
    if "headers" in fields:
        out.error(fields["headers"], "'headers' belongs to a server at a url, not to a stdio server (command)")
    command = f.read_str(fields["command"], "command", out) or ""
    if not command.strip():
        out.error(fields["command"], f"'command' of MCP server '{name}' must not be empty")
    args = tuple(text for text, _ in (f.read_str_list(fields["args"], "args", out) or [])) if "args" in fields else ()
    cwd = f.read_str(fields["cwd"], "cwd", out) if "cwd" in fields else None
    if cwd is not None and (cwd.startswith("/") or ".." in cwd.replace("\\", "/").split("/")):
        out.error(fields["cwd"], f"'cwd' of MCP server '{name}' must be a path inside the worktree (relative, no ..)")
    return McpServer(name=name, command=command, args=args, env=tuple(env), cwd=cwd)


def _headers(name: str, node: yaml.Node | None, env: list[str], out: Collector) -> tuple[tuple[str, str], ...]:
    if node is None:
        return ()
    if not isinstance(node, yaml.MappingNode):
        out.error(node, f"'headers' of MCP server '{name}' must map header names to values")
        return ()
    headers: list[tuple[str, str]] = []
    for header, header_node, value_node in mapping_items(node, out):
        value = f.read_str(value_node, header, out)
        if not HEADER_NAME.match(header):
            out.error(header_node, f"'{header}' is not an HTTP header name")
            continue
        if value is None:
            continue
        for variable in REFERENCE.findall(value):
            if variable not in env:
                out.error(
                    value_node,
                    f"header '{header}' refers to ${{{variable}}}, which is not in the env list of MCP server "
                    f"'{name}' (add it there: a server gets only the variables it names)",
                )
        headers.append((header, value))
    return tuple(headers)


def check_tooling(
    keys: object,
    provider: str | None,
    phase: str,
    tools: tuple[ToolPolicy, yaml.Node] | None,
    mcp: tuple[tuple[McpServer, ...], yaml.Node] | None,
    out: Collector,
) -> None:
    """Refuse what ``provider`` (its descriptor, ``keys``) cannot enforce on the phase; check tool names."""
    capabilities = getattr(keys, "capabilities", None)
    note = str(getattr(capabilities, "tools_note", "") or "")
    suffix = f" ({note})" if note else ""
    if mcp is not None and mcp[0] and not enforces(keys, "mcp"):
        out.error(
            mcp[1], f"provider '{provider}' of phase '{phase}' cannot connect MCP servers (its capabilities say so)"
        )
    if tools is None:
        return
    policy, node = tools
    servers = {server.name for server in (mcp[0] if mcp is not None else ())}
    if policy.allow is not None and not enforces(keys, "allowed_tools"):
        out.error(node, f"provider '{provider}' of phase '{phase}' cannot enforce 'tools.allow'{suffix}")
    for entry in policy.deny:
        own = not entry.startswith(MCP_PREFIX)
        if (own and not enforces(keys, "disallowed_tools")) or (
            not own and not (enforces(keys, "disallowed_tools") or enforces(keys, "mcp_tool_filters"))
        ):
            out.error(
                node, f"provider '{provider}' of phase '{phase}' cannot enforce 'tools.deny' of '{entry}'{suffix}"
            )
    known = getattr(capabilities, "tool_names", None)
    patterns = bool(getattr(capabilities, "tool_patterns", False))
    for entry in (*(policy.allow or ()), *policy.deny):
        if entry.startswith(MCP_PREFIX):
            server = entry[len(MCP_PREFIX) :].split("__", 1)[0]
            if server not in servers:
                out.warning(node, f"tool '{entry}' names MCP server '{server}', which phase '{phase}' does not have")
        elif PATTERN.match(entry):
            if not patterns:
                out.error(
                    node, f"provider '{provider}' does not check tool patterns such as '{entry}': name whole tools"
                )
        elif known is not None and entry not in known:
            listed = ", ".join(known)
            out.error(
                node, f"provider '{provider}' has no tool '{entry}' (its tools: {listed}){did_you_mean(entry, known)}"
            )
