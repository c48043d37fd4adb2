"""The MCP servers of one attempt, for a provider that is itself the MCP client (openai; SPEC §14).

``McpServers`` starts every server a phase names (``mcp:``) when the attempt starts and stops them with it:
a stdio server is a child process in its own process group (registered with ``groups`` as soon as it is
spawned, so the runner records it in ``run_processes`` like a command's; carrying the attempt's marker,
inside the phase's sandbox when it has one), a streamable-HTTP server is a connection. It
lists their tools (``mcp__<server>__<tool>``, with their JSON schemas; only those ``tools:`` permits), and
calls them. A server that fails to start or to answer ``initialize``/``tools/list`` fails the attempt with
``MCP_SERVER_FAILED`` and the tail of its stderr. The ``mcp`` package (the ``mcp`` extra) is imported only
when a phase has MCP servers.

A server's environment: the phase's (secrets dropped but ``env:``, the attempt's marker) plus the values of
the variables its own ``env`` names, which no other process of the attempt gets; a header's ``${NAME}`` is
replaced by such a value. The values are never written anywhere (the runtime has them redacted).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from alphred.errors import InternalProviderError, InvalidRequestError, ProviderError, install_hint
from alphred.providers import groups
from alphred.providers.openai_errors import MCP_MISSING, MCP_SERVER_FAILED
from alphred.workflow.model import MCP_PREFIX
from alphred.workflow.options import McpServer, ToolPolicy

START_TIMEOUT = 60.0  # seconds for a server to start and answer initialize and tools/list
STDERR_LINES = 40
REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class McpTool:
    """One tool of one server, as offered to the model."""

    server: str
    tool: str
    description: str
    schema: dict[str, Any]

    @property
    def name(self) -> str:
        """``mcp__<server>__<tool>``."""
        return f"{MCP_PREFIX}{self.server}__{self.tool}"

    def spec(self) -> dict[str, Any]:
        """The tool as (name, description, parameters), API-neutral like ``openai_tools.tool_specs``."""
        schema = dict(self.schema) if self.schema else {"type": "object", "properties": {}}
        schema.setdefault("type", "object")
        return {
            "name": self.name,
            "description": self.description or f"{self.tool} ({self.server})",
            "parameters": schema,
        }


@dataclass(frozen=True)
class McpCallOutcome:
    """What a call gave: the text the model gets back and whether the server said it failed."""

    output: str
    is_error: bool


class StderrTail:
    """Reads a pipe in a daemon thread, keeping the last STDERR_LINES lines (bounded memory)."""

    def __init__(self) -> None:
        read_fd, write_fd = os.pipe()
        self.writer = os.fdopen(write_fd, "w")
        self.lines: deque[str] = deque(maxlen=STDERR_LINES)
        self._reader = os.fdopen(read_fd, "rb")
        self._thread = threading.Thread(target=self._read, name="alphred-mcp-stderr", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        with contextlib.suppress(OSError, ValueError), self._reader:
            for line in self._reader:
                self.lines.append(line.decode("utf-8", "replace").rstrip())

    def close_writer(self) -> None:
        """Close this process's end (the server holds its own copy once started)."""
        with contextlib.suppress(OSError):
            self.writer.close()

    def text(self, wait: float = 0.5) -> str:
        """The last lines (waiting briefly for a dying server's last words)."""
        self.close_writer()
        self._thread.join(wait)
        return "\n".join(line for line in self.lines if line)


class McpServers:
    """The MCP servers of one attempt: ``async with McpServers(...) as servers``; ``servers.tools``,
    ``await servers.call(name, arguments)``."""

    def __init__(
        self,
        servers: Sequence[McpServer],
        *,
        worktree: Path,
        environment: Mapping[str, str],
        server_env: Mapping[str, Mapping[str, str]],
        policy: ToolPolicy | None = None,
        confine: Callable[[Sequence[str]], list[str]] | None = None,
    ) -> None:
        self.servers = tuple(servers)
        self.worktree = worktree.resolve()
        self.environment = dict(environment)
        self.server_env = {name: dict(values) for name, values in server_env.items()}
        self.policy = policy
        self.confine = confine
        self.tools: list[McpTool] = []
        self.started: list[tuple[str, float, int]] = []  # (server, seconds to start, tools offered)
        self._sessions: dict[str, Any] = {}
        self._tails: dict[str, StderrTail] = {}
        self._groups: list[int] = []  # the process groups of the stdio servers, registered with ``groups``
        self._stack = contextlib.AsyncExitStack()

    async def __aenter__(self) -> McpServers:
        try:
            await self._stack.__aenter__()
            for server in self.servers:
                await self._start(server)
        except BaseException:
            await self.aclose()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Stop every server (stdin closed, then its process group killed) and close the connections."""
        with contextlib.suppress(Exception):  # in this task: anyio's scopes must close where they opened
            await self._stack.aclose()
        for pgid in self._groups:  # stopped with their servers (the mcp package kills each server's group)
            groups.unregister(pgid)
        self._groups.clear()
        for tail in self._tails.values():
            tail.close_writer()

    async def _start(self, server: McpServer) -> None:
        try:
            from mcp import ClientSession
        except ImportError:
            raise InvalidRequestError(
                f"phase has MCP servers but the mcp package is not installed: {install_hint('mcp')}", code=MCP_MISSING
            ) from None
        began = time.perf_counter()
        try:
            async with asyncio.timeout(START_TIMEOUT):
                read, write = await self._stack.enter_async_context(self._transport(server))
                await self._register(server)
                session = await self._stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                tools = server_tools(server.name, await _list_tools(session))
        except ProviderError:
            raise
        except Exception as exc:  # the server's own failure, whatever the transport said
            raise self._failure(server, exc) from exc
        tail = self._tails.get(server.name)
        if tail is not None:
            tail.close_writer()
        self._sessions[server.name] = session
        offered = [tool for tool in tools if self.policy is None or self.policy.permits(tool.name)]
        self.tools.extend(offered)
        self.started.append((server.name, time.perf_counter() - began, len(offered)))

    async def _register(self, server: McpServer) -> None:
        """Register a stdio server's process group (its own session, started by the ``mcp`` package): recorded
        with the attempt like a command's, so a take-over after a kill -9 of this process kills it too, and a
        second Ctrl+C. Found as the child holding the server's stderr pipe, right after the spawn, before the
        server is asked anything."""
        tail = self._tails.get(server.name)
        if server.url is not None or tail is None:
            return
        pgid = await asyncio.to_thread(groups.session_holding, tail.writer.fileno())
        if pgid is not None:
            groups.register(pgid)
            self._groups.append(pgid)

    def _transport(self, server: McpServer) -> contextlib.AbstractAsyncContextManager[Any]:
        if server.url is not None:
            return self._http(server)
        from mcp.client.stdio import StdioServerParameters, stdio_client

        argv = [server.command or "", *server.args]
        cwd = self.worktree
        if server.cwd:
            cwd = (self.worktree / server.cwd).resolve()
            if not cwd.is_relative_to(self.worktree):
                raise self._failure(server, ValueError(f"cwd {server.cwd!r} leaves the worktree"))
        if self.confine is not None:  # bubblewrap starts in the worktree: `env -C` moves to the server's cwd
            argv = self.confine(["env", "-C", str(cwd), *argv] if cwd != self.worktree else argv)
        env = {**self.environment, **self.server_env.get(server.name, {})}
        tail = self._tails[server.name] = StderrTail()
        params = StdioServerParameters(command=argv[0], args=argv[1:], env=env, cwd=str(cwd))
        return stdio_client(params, errlog=tail.writer)

    @contextlib.asynccontextmanager
    async def _http(self, server: McpServer) -> Any:
        import httpx2
        from mcp.client.streamable_http import streamable_http_client

        problem = await asyncio.to_thread(_unreachable, str(server.url))
        if problem is not None:  # fail now: the transport would retry the connection until START_TIMEOUT
            raise self._failure(server, ConnectionError(problem))
        values = self.server_env.get(server.name, {})
        headers = {name: expand(value, values) for name, value in server.headers}
        timeout = httpx2.Timeout(30.0, read=300.0)
        async with (
            httpx2.AsyncClient(headers=headers, timeout=timeout) as client,
            streamable_http_client(str(server.url), http_client=client) as streams,
        ):
            yield streams[0], streams[1]

    def _failure(self, server: McpServer, exc: BaseException) -> ProviderError:
        tail = self._tails.get(server.name)
        stderr = tail.text() if tail is not None else ""
        what = server.url if server.url is not None else server.command
        detail = _exception_text(exc)
        message = f"MCP server '{server.name}' ({what}) failed to start: {detail}"
        if stderr:
            message += f"\nits stderr (last lines):\n{stderr}"
        return InternalProviderError(message, code=MCP_SERVER_FAILED)

    async def call(self, name: str, arguments: str) -> McpCallOutcome:
        """Call tool ``name`` (``mcp__server__tool``) with JSON ``arguments``; every failure is an error outcome."""
        tool = next((t for t in self.tools if t.name == name), None)
        if tool is None:
            return McpCallOutcome(f"error: tool '{name}' is not offered in this phase", True)
        try:
            args = json.loads(arguments or "{}")
        except ValueError as exc:
            return McpCallOutcome(
                f"error: the arguments of {name} are not valid JSON ({exc}); send a JSON object", True
            )
        if not isinstance(args, dict):
            return McpCallOutcome(f"error: the arguments of {name} must be a JSON object", True)
        try:
            result = await self._sessions[tool.server].call_tool(tool.tool, args)
        except Exception as exc:
            tail = self._tails.get(tool.server)
            stderr = f"; its stderr: {tail.text(0.1)[-2000:]}" if tail is not None and tail.lines else ""
            return McpCallOutcome(f"error: MCP server '{tool.server}': {_exception_text(exc)}{stderr}", True)
        return McpCallOutcome(_result_text(result), bool(getattr(result, "is_error", False)))


async def _list_tools(session: Any) -> list[Any]:
    """Every tool the server lists (following ``nextCursor`` pages)."""
    from mcp.types import PaginatedRequestParams

    found: list[Any] = []
    cursor: str | None = None
    for _ in range(100):
        page = await session.list_tools(params=PaginatedRequestParams(cursor=cursor) if cursor else None)
        found.extend(page.tools)
        cursor = getattr(page, "next_cursor", None)
        if not cursor:
            break
    return found


def server_tools(server: str, listed: Sequence[Any]) -> list[McpTool]:
    """The listed tools of ``server`` as ``McpTool``s."""
    return [
        McpTool(server, str(tool.name), str(getattr(tool, "description", "") or ""), dict(_schema(tool)))
        for tool in listed
    ]


def _schema(tool: Any) -> Mapping[str, Any]:
    schema = getattr(tool, "input_schema", None) or getattr(tool, "inputSchema", None) or {}
    return schema if isinstance(schema, Mapping) else {}


def _result_text(result: Any) -> str:
    """A ``CallToolResult`` as text: its text blocks; other blocks named; structured content as JSON."""
    parts: list[str] = []
    for block in getattr(result, "content", None) or []:
        kind = getattr(block, "type", "")
        if kind == "text":
            parts.append(str(getattr(block, "text", "")))
        else:
            mime = getattr(block, "mime_type", None) or getattr(block, "mimeType", None) or ""
            parts.append(f"[{kind} content{': ' + str(mime) if mime else ''}]")
    structured = getattr(result, "structured_content", None) or getattr(result, "structuredContent", None)
    if not parts and structured is not None:
        parts.append(json.dumps(structured, sort_keys=True, default=str))
    return "\n".join(parts) or "(no content)"


def expand(value: str, values: Mapping[str, str]) -> str:
    """A header value with each ``${NAME}`` replaced by the server's variable (empty when unset)."""
    return REFERENCE.sub(lambda match: values.get(match.group(1), ""), value)


def _unreachable(url: str, timeout: float = 5.0) -> str | None:
    """Why no TCP connection to ``url``'s host can be made, or None."""
    parts = urlsplit(url)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        socket.create_connection((parts.hostname or "", port), timeout=timeout).close()
    except (OSError, ValueError) as exc:
        return f"cannot connect to {parts.hostname}:{parts.port or ''} ({exc})"
    return None


def _exception_text(exc: BaseException) -> str:
    """An exception (or an exception group's first leaf) as one line."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip()
    if isinstance(exc, TimeoutError):
        return f"no answer within {START_TIMEOUT:g}s"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
