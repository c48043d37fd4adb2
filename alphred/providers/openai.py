"""The ``openai`` provider: an API-only agent for any OpenAI-compatible endpoint (SPEC §4), local models included.

A tool loop with the ``openai`` package (imported inside ``run`` only) on the Responses API (``api:
responses``, the default) or Chat Completions (``api: chat``), streaming. The model gets exactly the tools of
``openai_tools`` (shell, read_file, write_file, edit_file, list_files, finish), confined to the worktree.
The phase ends at ``finish`` (its decision and report), at an answer with no tool call (its text, no
decision), or fails after ``max_turns`` model requests (``OPENAI_MAX_TURNS``). The SDK's own retries are off
(``max_retries=0``): Alphred's retry rules decide. Its exceptions map onto the failure taxonomy by class
(``openai_errors``). Setting the attempt's cancellation event (or closing the stream) stops the request in
flight and kills a running ``shell`` command's process group.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib.metadata
import importlib.util
import os
import socket
import ssl
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from alphred.errors import AttemptInterruptedError, ProviderError, install_hint
from alphred.providers.base import EventType, ProviderEvent, ProviderOptions, Readiness, result_event
from alphred.providers.contract import cap_text, json_object
from alphred.providers.mcp_client import McpServers
from alphred.providers.openai_api import ChatConversation, Conversation, ResponsesConversation, Turn
from alphred.providers.openai_errors import (
    OPENAI_BAD_SETTINGS,
    OPENAI_INTERRUPTED,
    OPENAI_MAX_TURNS,
    OPENAI_NO_KEY,
    OPENAI_SDK_MISSING,
    classify_exception,
    failure,
)
from alphred.providers.openai_tools import TOOL_NAMES, Toolbox, ToolCall, ToolOutcome, cut, tool_specs
from alphred.workflow.model import MCP_PREFIX

APIS = ("responses", "chat")
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
NO_KEY = "none"
NO_KEY_PLACEHOLDER = "no-key"  # sent as the bearer token to servers that need none
DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MAX_TURNS = 50
REQUEST_TIMEOUT = 600.0
CONNECT_TIMEOUT = 10.0
PROBE_TIMEOUT = 2.0
SDK_MISSING = f"the openai package is not installed: {install_hint('openai')}"

# USD per million tokens (input, cached input, output): list prices of a few OpenAI models, used only when
# the phase gives no `price_per_mtok`. Dated snapshots ("gpt-4o-2024-08-06") match their family.
KNOWN_PRICES: dict[str, tuple[float, float, float]] = {
    "gpt-5": (1.25, 0.125, 10.0),
    "gpt-5-mini": (0.25, 0.025, 2.0),
    "gpt-5-nano": (0.05, 0.005, 0.4),
    "gpt-4.1": (2.0, 0.5, 8.0),
    "gpt-4.1-mini": (0.4, 0.1, 1.6),
    "gpt-4.1-nano": (0.1, 0.025, 0.4),
    "gpt-4o": (2.5, 1.25, 10.0),
    "gpt-4o-mini": (0.15, 0.075, 0.6),
    "o3": (2.0, 0.5, 8.0),
    "o4-mini": (1.1, 0.275, 4.4),
}


@dataclass(frozen=True)
class OpenAISettings:
    """One phase's openai keys, checked."""

    model: str
    api: str
    base_url: str | None
    key_env: str | None  # None: the server needs no key (`api_key_env: none`)
    max_turns: int
    price: tuple[float, float, float] | None  # USD per million input, cached input, output tokens

    @property
    def endpoint(self) -> str:
        """The base URL requests go to (the phase's, else OPENAI_BASE_URL, else OpenAI's)."""
        return self.base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL

    def cost(self, usage: Mapping[str, int]) -> float | None:
        """USD for one request's usage, when a price is known."""
        if self.price is None:
            return None
        fresh, cached, output = self.price
        cached_tokens = min(usage.get("cached_tokens", 0), usage.get("input_tokens", 0))
        spent = (usage.get("input_tokens", 0) - cached_tokens) * fresh + cached_tokens * cached
        return (spent + usage.get("output_tokens", 0) * output) / 1_000_000


def read_settings(settings: Mapping[str, Any], model: str | None) -> OpenAISettings:
    """The phase's settings; ProviderError OPENAI_BAD_SETTINGS when one is wrong (the loader checks them too)."""

    def bad(message: str) -> ProviderError:
        return failure(message, "invalid_request", OPENAI_BAD_SETTINGS)

    if not model:
        raise bad("the openai provider needs a `model` (the name the server knows the model by)")
    api = str(settings.get("api") or "responses")
    if api not in APIS:
        raise bad(f"unknown api '{api}' (one of: {', '.join(APIS)})")
    max_turns = settings.get("max_turns", DEFAULT_MAX_TURNS)
    if not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1:
        raise bad(f"max_turns must be a positive integer, not {max_turns!r}")
    key_env = str(settings.get("api_key_env") or DEFAULT_KEY_ENV)
    base_url = settings.get("base_url")
    if base_url is not None and urlsplit(str(base_url)).scheme not in ("http", "https"):
        raise bad(f"base_url must be an http:// or https:// URL, not {base_url!r}")
    return OpenAISettings(
        model=model,
        api=api,
        base_url=str(base_url) if base_url else None,
        key_env=None if key_env.lower() == NO_KEY else key_env,
        max_turns=max_turns,
        price=price_for(model, settings.get("price_per_mtok")),
    )


def price_for(model: str, given: Any) -> tuple[float, float, float] | None:
    """(input, cached input, output) USD per million tokens: the phase's ``price_per_mtok``, else the table."""
    if isinstance(given, Mapping):
        fresh, output = float(given.get("input", 0)), float(given.get("output", 0))
        return fresh, float(given.get("cached_input", fresh)), output
    family = max(
        (name for name in KNOWN_PRICES if model == name or model.startswith(name + "-20")), key=len, default=None
    )
    return KNOWN_PRICES[family] if family else None


class OpenAIProvider:
    """The openai tool-loop agent; ``env``, ``stream`` and ``request_timeout`` are for tests and demos."""

    name = "openai"

    def __init__(
        self, env: Mapping[str, str] | None = None, *, stream: bool = True, request_timeout: float = REQUEST_TIMEOUT
    ) -> None:
        self.env = dict(env or {})
        self.stream = stream
        self.request_timeout = request_timeout
        self._reachable: dict[str, str | None] = {}

    def _environ(self) -> dict[str, str]:
        return {**os.environ, **self.env}

    def check(self) -> Readiness:
        """Preflight of the default setup: the package, OPENAI_API_KEY, and OPENAI_BASE_URL if one is set."""
        if importlib.util.find_spec("openai") is None:
            return Readiness(False, SDK_MISSING)
        env = self._environ()
        version = "?"
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            version = importlib.metadata.version("openai")
        custom = env.get("OPENAI_BASE_URL")
        if custom:
            problem = self.unreachable(custom)
            if problem:
                return Readiness(False, problem, depends_on_phase=True)
        if not env.get(DEFAULT_KEY_ENV):
            return Readiness(
                False,
                f"{DEFAULT_KEY_ENV} is not set (a phase with its own api_key_env, or `api_key_env: none` for a "
                "local server, can still run)",
                depends_on_phase=True,
            )
        return Readiness(True, f"openai {version}; key {DEFAULT_KEY_ENV}; endpoint {custom or DEFAULT_BASE_URL}")

    def check_phase(self, settings: Mapping[str, Any], model: str | None = None) -> Readiness:
        """Preflight of one phase: the package, valid keys, its key variable set, its ``base_url`` reachable."""
        if importlib.util.find_spec("openai") is None:
            return Readiness(False, SDK_MISSING)
        try:
            chosen = read_settings(settings, model or "(checked by the loader)")
        except ProviderError as exc:
            return Readiness(False, exc.message)
        if chosen.key_env is not None and not self._environ().get(chosen.key_env):
            return Readiness(False, f"{chosen.key_env} is not set: export the key (or `api_key_env: none`)")
        if chosen.base_url:
            problem = self.unreachable(chosen.base_url)
            if problem:
                return Readiness(False, problem)
        key = chosen.key_env or "no key"
        return Readiness(True, f"{chosen.api} API at {chosen.endpoint}; key {key}")

    def unreachable(self, url: str) -> str | None:
        """Why ``url``'s host cannot be connected to (short timeout, in a thread), or None when it can."""
        if url not in self._reachable:
            self._reachable[url] = probe(url, PROBE_TIMEOUT)
        return self._reachable[url]

    async def run(self, prompt: str, options: ProviderOptions) -> AsyncIterator[ProviderEvent]:
        """Run the tool loop in ``options.working_directory``, streaming its events."""
        chosen = read_settings(options.settings, options.model)
        try:
            import openai as sdk
        except ImportError:
            raise failure(SDK_MISSING, "invalid_request", OPENAI_SDK_MISSING) from None
        env = {**self._environ(), **options.environment}
        if chosen.key_env is not None and not env.get(chosen.key_env):
            raise failure(f"{chosen.key_env} is not set: export the model server's key", "auth", OPENAI_NO_KEY)
        session = _Session(self, sdk, chosen, prompt, options, env)
        queue: asyncio.Queue[ProviderEvent | BaseException | None] = asyncio.Queue()
        task = asyncio.create_task(session.drive(queue))
        watcher = asyncio.create_task(_cancel_when_set(options.cancel, session, task)) if options.cancel else None
        try:
            while (item := await queue.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            if watcher is not None:
                watcher.cancel()
            task.cancel()
            await asyncio.wait({task}, timeout=10.0)  # lets a running shell's process group be killed


async def _cancel_when_set(cancel: asyncio.Event, session: _Session, task: asyncio.Task[None]) -> None:
    await cancel.wait()
    session.interrupted = True
    task.cancel()


class _Session:
    """One attempt's tool loop; ``drive`` puts events, then None or the error, on a queue."""

    def __init__(
        self,
        provider: OpenAIProvider,
        sdk: Any,
        settings: OpenAISettings,
        prompt: str,
        options: ProviderOptions,
        env: dict[str, str],
    ) -> None:
        self.provider, self.sdk, self.settings, self.options = provider, sdk, settings, options
        # the agent's shell gets the run's environment (its secrets dropped by the runtime), never the key
        base = env if options.base_environment is None else {**options.base_environment, **options.environment}
        shell_env = {k: v for k, v in base.items() if k != settings.key_env}
        self.toolbox = Toolbox(
            options.working_directory, options.decisions, shell_env, options.confine, options.output, options.tools
        )
        self.shell_env = shell_env  # MCP servers start from it too (never the model server's key)
        self.prompt = compose_openai_prompt(
            prompt, options.context, options.decisions, options.output is not None, self.toolbox.offered
        )
        self.mcp: McpServers | None = None
        self.key = env.get(settings.key_env, "") if settings.key_env else NO_KEY_PLACEHOLDER
        self.interrupted = False
        self.tokens = 0
        self.cost: float | None = None

    async def drive(self, queue: asyncio.Queue[ProviderEvent | BaseException | None]) -> None:
        """Run the loop; whatever happens, end with None (done) or the attempt's error on ``queue``."""

        async def emit(event: ProviderEvent) -> None:
            queue.put_nowait(event)

        s = self.settings
        client: Any = None
        try:
            await emit(ProviderEvent(EventType.SYSTEM, f"openai {s.model} on the {s.api} API at {s.endpoint}"))
            client = self.sdk.AsyncOpenAI(
                api_key=self.key,
                base_url=s.base_url,
                max_retries=0,  # Alphred's retry rules decide, not the SDK's
                timeout=self.sdk.Timeout(self.provider.request_timeout, connect=CONNECT_TIMEOUT),
                http_client=self.sdk.DefaultAsyncHttpxClient(verify=shared_ssl_context()),
            )
            async with self.mcp_servers(emit):
                await self.loop(client, emit)
            queue.put_nowait(None)
        except asyncio.CancelledError:
            if self.interrupted:  # else the stream was closed and nobody reads the queue any more
                message = "the attempt was cancelled; the model request and any running shell command were stopped"
                queue.put_nowait(AttemptInterruptedError(message, code=OPENAI_INTERRUPTED))
            raise
        except ProviderError as exc:
            queue.put_nowait(exc)
        except Exception as exc:
            queue.put_nowait(classify_exception(self.sdk, exc, key_env=s.key_env, base_url=s.endpoint))
        finally:
            if client is not None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(client.close())

    @contextlib.asynccontextmanager
    async def mcp_servers(self, emit: Any) -> AsyncIterator[None]:
        """The phase's MCP servers (SPEC §14), started for this attempt and stopped with it."""
        if not self.options.mcp:
            yield
            return
        servers = McpServers(
            self.options.mcp,
            worktree=self.options.working_directory,
            environment=self.shell_env,
            server_env=self.options.mcp_env,
            policy=self.options.tools,
            confine=self.options.confine,
        )
        async with servers:
            self.mcp = servers
            for name, seconds, count in servers.started:
                listed = ", ".join(t.name for t in servers.tools if t.server == name) or "none"
                meta = {"mcp_server": name, "tools": count, "start_seconds": round(seconds, 3)}
                await emit(
                    ProviderEvent(
                        EventType.SYSTEM, f"MCP server {name}: {count} tool(s) offered ({listed})", metadata=meta
                    )
                )
            yield

    async def call_tool(self, call: ToolCall) -> ToolOutcome:
        """An MCP tool through its server, any other through the toolbox."""
        if self.mcp is not None and call.name.startswith(MCP_PREFIX):
            answer = await self.mcp.call(call.name, call.arguments)
            return ToolOutcome(cut(answer.output), answer.is_error, metadata={"mcp_server": call.name.split("__")[1]})
        return await self.toolbox.call(call)

    async def loop(self, client: Any, emit: Any) -> None:
        s = self.settings
        system = self.options.system_prompt or self.options.settings.get("system_prompt") or None
        dialect = ResponsesConversation if s.api == "responses" else ChatConversation
        tools = tool_specs(self.options.decisions, self.options.output, self.options.tools)
        if self.mcp is not None:
            tools += [tool.spec() for tool in self.mcp.tools]
        conversation: Conversation = dialect(client, s.model, system, self.prompt, tools, self.provider.stream)
        for turn_number in range(1, s.max_turns + 1):
            turn = await conversation.request(emit)
            await emit(self.usage_event(turn, turn_number))
            if not turn.calls:  # a plain answer: for a typed phase, its JSON is the report (SPEC §12)
                answer = json_object(turn.text) if self.options.output is not None else None
                decision = answer.get("decision") if answer is not None else None
                await emit(self.result(turn.text, decision if isinstance(decision, str) else None, answer, turn_number))
                return
            answers: list[tuple[ToolCall, str]] = []
            for call in turn.calls:
                await emit(_tool_use(call))
                outcome = await self.call_tool(call)
                meta = {"tool": call.name, "call_id": call.call_id, "is_error": outcome.is_error, **outcome.metadata}
                await emit(ProviderEvent(EventType.TOOL_RESULT, cap_text(outcome.output), metadata=meta))
                if outcome.finish is not None:
                    report = outcome.finish["report"]
                    text = report if isinstance(report, str) else ""
                    structured = report if isinstance(report, dict) else None
                    await emit(self.result(text, outcome.finish["decision"], structured, turn_number))
                    return
                answers.append((call, outcome.output))
            conversation.answer(answers)
        raise failure(
            f"the model used all {s.max_turns} turns (max_turns) without calling finish", "internal", OPENAI_MAX_TURNS
        )

    def usage_event(self, turn: Turn, number: int) -> ProviderEvent:
        used = turn.usage.get("input_tokens", 0) + turn.usage.get("output_tokens", 0)
        self.tokens += used
        meta: dict[str, Any] = {"tokens": used, **turn.usage, "turn": number, "model": self.settings.model}
        cost = self.settings.cost(turn.usage)
        if cost is not None:
            meta["cost_usd"] = cost
            self.cost = (self.cost or 0.0) + cost
        return ProviderEvent(EventType.USAGE, f"{used} tokens (turn {number})", metadata=meta)

    def result(self, text: str, decision: str | None, report: dict[str, Any] | None, turns: int) -> ProviderEvent:
        usage: dict[str, Any] = {"total_tokens": self.tokens}  # a running total: never counted twice
        if self.cost is not None:
            usage["total_cost_usd"] = self.cost
        return result_event(text, decision, report, usage=usage, turns=turns, model=self.settings.model)


def _tool_use(call: ToolCall) -> ProviderEvent:
    meta = {"tool": call.name, "call_id": call.call_id, "input": call.arguments[:4000]}
    return ProviderEvent(EventType.TOOL_USE, cap_text(f"{call.name} {call.arguments}"), metadata=meta)


def compose_openai_prompt(
    prompt: str,
    context: tuple[str, ...],
    decisions: tuple[str, ...],
    typed: bool = False,
    tools: Sequence[str] = TOOL_NAMES,
) -> str:
    """Upstream context, the phase prompt and how to end: call ``finish`` with a decision and a report (for a
    typed phase: a report object matching the ``report`` parameter's schema, SPEC §12)."""
    parts = [envelope.strip() for envelope in context if envelope.strip()]
    parts.append(prompt.strip() or "Carry out this phase of the workflow.")
    own = [name for name in tools if name != "finish"]
    ending = f"You work in a git worktree through the tools {', '.join(own)}. " if own else ""
    if typed:
        ending += "When you are done, call the `finish` tool once with `report` (an object matching its schema)"
    else:
        ending += "When you are done, call the `finish` tool once with `report` (what you did and why)"
    ending += f" and `decision` (exactly one of: {', '.join(decisions)})." if decisions else "."
    parts.append(ending)
    return "\n\n".join(parts)


@functools.lru_cache(maxsize=4)
def _ssl_context(cafile: str | None, capath: str | None) -> ssl.SSLContext:
    if not (cafile or capath):
        with contextlib.suppress(ImportError):
            import certifi  # the bundle the HTTP client would load by default

            cafile = certifi.where()
    return ssl.create_default_context(cafile=cafile, capath=capath)


def shared_ssl_context() -> ssl.SSLContext:
    """One TLS context per process (SSL_CERT_FILE / SSL_CERT_DIR honoured, else certifi's bundle).

    Building one loads the whole CA bundle (~50-100 ms here); sharing it keeps that off every attempt.
    """
    return _ssl_context(os.environ.get("SSL_CERT_FILE") or None, os.environ.get("SSL_CERT_DIR") or None)


def probe(url: str, timeout: float) -> str | None:
    """Open (and close) a TCP connection to ``url``'s host in a daemon thread; why not, or None on success."""
    parts = urlsplit(url)
    host = parts.hostname
    if not host:
        return f"base_url {url!r} has no host"
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return f"base_url {url!r} has a bad port"
    outcome: list[str | None] = []

    def connect() -> None:
        try:
            with socket.create_connection((host, port), timeout=timeout):
                outcome.append(None)
        except OSError as exc:
            outcome.append(f"{type(exc).__name__}: {exc.strerror or exc}")

    worker = threading.Thread(target=connect, name="alphred-openai-probe", daemon=True)
    worker.start()
    worker.join(timeout + 0.5)  # name resolution is not bounded by the socket timeout: do not wait on it
    if not outcome:
        return f"base_url {url} is unreachable: no connection to {host}:{port} within {timeout:g}s"
    if outcome[0] is not None:
        return f"base_url {url} is unreachable ({host}:{port}: {outcome[0]}): is the model server running?"
    return None
