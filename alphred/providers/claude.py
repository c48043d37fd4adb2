"""The ``claude`` provider: Claude Code driven through claude-agent-sdk, in the run's worktree.

The SDK is imported inside ``run`` only (it costs ~1 s), so ``alphred --help`` and ``alphred providers``
never pay for it. A session is hermetic: ``setting_sources=[]`` (no user settings or hooks), Claude Code's
preset system prompt plus the phase's ``system_prompt``. The routing decision and structured report come
from ``output_format`` (a JSON schema whose ``decision`` enum is the phase's decisions) ->
``ResultMessage.structured_output``; a null structured output is a missing decision, never a success with
one. Closing the stream early (timeout, cancellation) terminates the CLI at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import logging
import os
import shutil
import sys
import tempfile
import warnings
from collections import deque
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from alphred.errors import NO_RESULT, InvalidRequestError, ProviderError, install_hint
from alphred.providers.base import ProviderEvent, ProviderOptions, Readiness
from alphred.providers.classification import classify_text, provider_error, tail
from alphred.providers.claude_errors import (
    CLAUDE_BAD_OUTPUT,
    CLAUDE_BAD_SETTINGS,
    CLAUDE_CONNECTION,
    CLAUDE_CRASH,
    CLAUDE_INTERNAL,
    CLAUDE_NOT_FOUND,
    CLAUDE_ROOT_BYPASS,
    CLAUDE_SDK_MISSING,
    KIND_CODES,
)
from alphred.providers.claude_events import LOGIN_FIX, ClaudeEventMapper, sdk_types
from alphred.providers.contract import answer_schema, compose_prompt
from alphred.providers.mcp_client import expand
from alphred.workflow.model import MCP_PREFIX
from alphred.workflow.options import ToolPolicy

ENV_CLI = "ALPHRED_CLAUDE_CLI"
DEFAULT_PERMISSION_MODE = "bypassPermissions"
ALLOW_LIST_MODE = "dontAsk"  # with ``tools.allow``: Claude Code refuses every tool the allow-list does not cover
PERMISSION_MODES = ("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto")
STDERR_LINES = 200
CREDENTIAL_VARS = ("ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_AUTH_TOKEN")
CLOUD_VARS = ("CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_USE_FOUNDRY")


class ClaudeProvider:
    """Claude Code through claude-agent-sdk; ``cli_path`` and ``env`` override the lookup (tests, demos)."""

    name = "claude"

    def __init__(self, cli_path: str | None = None, env: Mapping[str, str] | None = None) -> None:
        self.cli_path = cli_path
        self.env = dict(env or {})

    def check(self) -> Readiness:
        """Preflight: the SDK installed, a Claude Code CLI found, credentials present."""
        cli, problem = find_cli(self.cli_path)
        if cli is None:
            return Readiness(False, problem)
        source = credentials_source({**os.environ, **self.env}, Path.home())
        if source is None:
            return Readiness(False, f"no Claude credentials found: {LOGIN_FIX}")
        note = ""
        if root_bypass_problem(DEFAULT_PERMISSION_MODE, _euid(), {**os.environ, **self.env}):
            note = "; running as root: bypassPermissions (the default) needs IS_SANDBOX=1, or use acceptEdits"
        return Readiness(True, f"Claude Code CLI {cli}; credentials: {source}{note}")

    def check_phase(self, settings: Mapping[str, Any]) -> Readiness:
        """Preflight of one phase's settings: a known permission mode the CLI will accept here."""
        mode = str(settings.get("permission_mode") or DEFAULT_PERMISSION_MODE)
        if mode not in PERMISSION_MODES:
            return Readiness(False, f"unknown permission_mode '{mode}' (one of: {', '.join(PERMISSION_MODES)})")
        max_turns = settings.get("max_turns")
        if max_turns is not None and (not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1):
            return Readiness(False, f"max_turns must be a positive integer, not {max_turns!r}")
        problem = root_bypass_problem(mode, _euid(), {**os.environ, **self.env})
        return Readiness(problem is None, problem or f"permission_mode {mode}")

    async def run(self, prompt: str, options: ProviderOptions) -> AsyncIterator[ProviderEvent]:
        """Run one Claude Code session in ``options.working_directory`` and map its messages to events."""
        mode = str(options.settings.get("permission_mode") or DEFAULT_PERMISSION_MODE)
        if options.tools is not None and options.tools.allow is not None:
            mode = ALLOW_LIST_MODE  # every tool not pre-approved (the allow-list) is refused, never asked
        ready = self.check_phase(options.settings)
        if not ready.ready:
            code = CLAUDE_ROOT_BYPASS if ready.detail.startswith("Claude Code refuses") else CLAUDE_BAD_SETTINGS
            raise InvalidRequestError(ready.detail, code=code)
        try:
            import claude_agent_sdk as sdk
        except ImportError:
            raise InvalidRequestError(
                f"claude-agent-sdk is not installed: {install_hint('claude')}", code=CLAUDE_SDK_MISSING
            ) from None
        _quiet_sdk_logger()
        stderr: deque[str] = deque(maxlen=STDERR_LINES)
        scratch = tempfile.TemporaryDirectory(prefix="alphred-claude-") if options.mcp else None
        mcp = mcp_config(options, Path(scratch.name)) if scratch is not None else {}
        client = sdk.ClaudeSDKClient(self._sdk_options(sdk, options, mode, stderr.append, mcp))
        mapper = ClaudeEventMapper(sdk, mode, answer_schema(options) is not None)
        watcher: asyncio.Task[None] | None = None
        responses: AsyncIterator[Any] | None = None
        try:
            try:
                with warnings.catch_warnings():  # the allow-list shadows the callback by design (tool_settings)
                    warnings.simplefilter("ignore", getattr(sdk, "CanUseToolShadowedWarning", UserWarning))
                    await client.connect()
                if scratch is not None:  # read by the CLI at start: gone before the agent's first turn
                    scratch.cleanup()
                if options.cancel is not None:
                    watcher = asyncio.create_task(_interrupt_when_set(options.cancel, client, mapper))
                await client.query(compose_prompt(prompt, options.context, options.decisions, options.output))
                responses = client.receive_response()
                async for message in responses:
                    for event in mapper.events(message):
                        yield event
                    if mapper.failure is not None:
                        raise mapper.failure
            except ProviderError:
                raise
            except Exception as exc:
                await asyncio.sleep(0.05)  # let the stderr reader catch the last lines of a dying CLI
                raise _classify_exception(sdk, exc, list(stderr)) from exc
            if mapper.result is None:
                detail = tail(list(stderr)) or "the stream ended"
                raise provider_error(KIND_CODES, f"claude ended without a result: {detail}", "internal", code=NO_RESULT)
        finally:
            if scratch is not None:
                scratch.cleanup()
            if watcher is not None:
                watcher.cancel()
            if responses is not None:
                with contextlib.suppress(Exception):
                    await responses.aclose()  # type: ignore[attr-defined]
            await _shutdown(client, graceful=mapper.result is not None)

    def _sdk_options(
        self, sdk: Any, options: ProviderOptions, mode: str, on_stderr: Any, mcp: Mapping[str, Any] | None = None
    ) -> Any:
        settings = options.settings
        system_prompt: dict[str, Any] = {"type": "preset", "preset": "claude_code"}
        extra = options.system_prompt or settings.get("system_prompt")
        if extra:
            system_prompt["append"] = str(extra)
        max_turns = settings.get("max_turns")
        return sdk.ClaudeAgentOptions(
            cwd=str(options.working_directory),
            cli_path=self.cli_path or os.environ.get(ENV_CLI) or None,
            model=options.model,
            permission_mode=mode,
            max_turns=int(max_turns) if max_turns else None,
            **tool_settings(options.tools),
            **(mcp or {}),
            system_prompt=system_prompt,
            setting_sources=[],
            output_format=_output_format(options),
            stderr=on_stderr,
            env=self._client_environment(options),
            **_sandbox_settings(options),
        )

    def _client_environment(self, options: ProviderOptions) -> dict[str, str]:
        """What the CLI gets over the SDK's copy of ``os.environ``: the run's environment (secrets dropped by
        the runtime), every variable it left out blanked (the SDK merges ``os.environ`` underneath), and
        Claude Code's own credentials (``ANTHROPIC_*``, ``CLAUDE_*``, a cloud mode's ``AWS_*``/``GOOGLE_*``)."""
        if options.base_environment is None:
            return {**self.env, **options.environment}
        env = {name: "" for name in os.environ if name not in options.base_environment}
        env.update(options.base_environment)
        prefixes = ["ANTHROPIC_", "CLAUDE_"]
        if os.environ.get("CLAUDE_CODE_USE_BEDROCK") not in (None, "", "0", "false"):
            prefixes.append("AWS_")
        if os.environ.get("CLAUDE_CODE_USE_VERTEX") not in (None, "", "0", "false"):
            prefixes += ["GOOGLE_", "CLOUD_ML_"]
        env.update({k: v for k, v in os.environ.items() if k.startswith(tuple(prefixes))})
        return {**env, **self.env, **options.environment}


def tool_settings(policy: ToolPolicy | None) -> dict[str, Any]:
    """``tools:`` (SPEC §14) as Claude Code's options: ``tools`` (the built-in tools offered: those the
    allow-list names), ``allowed_tools`` (pre-approved; patterns kept) with the ``dontAsk`` mode (set by
    ``run``: every other tool refused), ``disallowed_tools``, and a ``can_use_tool`` callback refusing what
    the lists refuse, should the CLI ever ask."""
    if policy is None:
        return {}
    found: dict[str, Any] = {"disallowed_tools": list(policy.deny)}
    if policy.allow is not None:
        found["allowed_tools"] = list(policy.allow)
        found["tools"] = list(dict.fromkeys(base_tool(e) for e in policy.allow if not e.startswith(MCP_PREFIX)))
    found["can_use_tool"] = _permission_callback(policy)
    return found


def base_tool(entry: str) -> str:
    """The tool a rule names: ``Bash`` of ``Bash(pytest:*)``."""
    return entry.split("(", 1)[0]


def rule_permits(entry: str, tool: str, arguments: Mapping[str, Any]) -> bool:
    """Whether rule ``entry`` covers a call of ``tool``: a name (``mcp__server`` covers its tools), or
    ``Bash(prefix:*)`` / ``Bash(command)`` for a Bash command."""
    if "(" not in entry:
        return ToolPolicy(allow=(entry,)).permits(tool)
    name, _, spec = entry.partition("(")
    spec = spec[:-1] if spec.endswith(")") else spec
    if name != tool:
        return False
    command = str(arguments.get("command", "")).strip()
    if spec.endswith(":*"):
        prefix = spec[:-2]
        return command == prefix or command.startswith(prefix + " ")
    return command == spec


def _permission_callback(policy: ToolPolicy) -> Any:
    async def decide(tool: str, arguments: dict[str, Any], context: Any) -> Any:
        from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

        denied = any(rule_permits(rule, tool, arguments) for rule in policy.deny)
        allowed = policy.allow is None or any(rule_permits(rule, tool, arguments) for rule in policy.allow)
        if allowed and not denied:
            return PermissionResultAllow()
        return PermissionResultDeny(message=f"tool {tool} is not allowed in this phase (tools:)")

    return decide


def mcp_config(options: ProviderOptions, scratch: Path) -> dict[str, Any]:
    """The phase's MCP servers (SPEC §14) as Claude Code's ``--mcp-config`` file (``strict``: no other
    server), written with the servers' variables into ``scratch`` (0700, removed once the CLI has read it):
    no secret on a command line."""
    servers: dict[str, Any] = {}
    for server in options.mcp:
        values = dict(options.mcp_env.get(server.name, {}))
        if server.url is not None:
            headers = {k: expand(v, values) for k, v in server.headers}
            servers[server.name] = {"type": "http", "url": server.url, "headers": headers}
            continue
        argv = [server.command or "", *server.args]
        if server.cwd:
            argv = ["env", "-C", str(options.working_directory / server.cwd), *argv]
        if options.confine is not None:
            argv = options.confine(argv)
        servers[server.name] = {"type": "stdio", "command": argv[0], "args": argv[1:], "env": values}
    scratch.chmod(0o700)
    path = scratch / "mcp.json"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump({"mcpServers": servers}, handle)
    return {"mcp_servers": str(path), "strict_mcp_config": True}


def _sandbox_settings(options: ProviderOptions) -> dict[str, Any]:
    """Alphred's ``sandbox:`` (SPEC §14) as Claude Code's own sandbox: every Bash command sandboxed, none let
    out, the network closed (no domain allowed) unless ``network: true``."""
    if options.sandbox is None:
        return {}
    domains = ["*"] if options.sandbox.network else []
    return {
        "sandbox": {
            "enabled": True,
            "autoAllowBashIfSandboxed": True,
            "allowUnsandboxedCommands": False,
            "network": {"allowedDomains": domains},
        }
    }


def _quiet_sdk_logger() -> None:
    """Keep the SDK's own log lines off Alphred's stderr: its failures reach the user as ProviderErrors."""
    logger = logging.getLogger("claude_agent_sdk")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())


async def _interrupt_when_set(cancel: asyncio.Event, client: Any, mapper: ClaudeEventMapper) -> None:
    await cancel.wait()
    mapper.interrupted = True
    with contextlib.suppress(Exception):
        await client.interrupt()


async def _shutdown(client: Any, graceful: bool) -> None:
    """Disconnect; unless the session ended with its result, terminate the CLI first so it stops now."""
    if not graceful:
        process = getattr(getattr(client, "_transport", None), "_process", None)
        if process is not None and getattr(process, "returncode", 0) is None:
            with contextlib.suppress(ProcessLookupError, OSError):
                process.terminate()
    with contextlib.suppress(Exception):
        await client.disconnect()


def _classify_exception(sdk: Any, exc: Exception, stderr: list[str]) -> ProviderError:
    """Map an SDK exception (and the CLI's stderr) onto the failure taxonomy with a CLAUDE_* code."""
    err = tail(stderr)
    if isinstance(exc, sdk.CLINotFoundError):
        return provider_error(KIND_CODES, f"Claude Code CLI not found: {exc}", "invalid_request", code=CLAUDE_NOT_FOUND)
    if isinstance(exc, sdk.ProcessError):
        if "root" in err and "dangerously-skip-permissions" in err:
            detail = root_bypass_problem("bypassPermissions", 0, {}) or err
            return provider_error(KIND_CODES, detail, "invalid_request", code=CLAUDE_ROOT_BYPASS)
        text = f"claude exited with code {exc.exit_code}: {err or 'no output on stderr'}"
        kind = classify_text(err) if err else "internal"
        if kind == "auth":
            return provider_error(KIND_CODES, f"{text} (fix: {LOGIN_FIX})", "auth")
        return provider_error(KIND_CODES, text, kind, code=None if kind != "internal" else CLAUDE_CRASH)
    if isinstance(exc, sdk_types(sdk, "CLIJSONDecodeError", "MessageParseError")):
        return provider_error(
            KIND_CODES, f"claude wrote output the SDK cannot read: {exc}", "internal", code=CLAUDE_BAD_OUTPUT
        )
    if isinstance(exc, sdk.CLIConnectionError):
        return provider_error(
            KIND_CODES, f"cannot talk to Claude Code: {exc} {err}".strip(), "transport", code=CLAUDE_CONNECTION
        )
    if "timeout" in str(exc).lower():
        return provider_error(KIND_CODES, f"claude did not answer: {exc}", "timeout")
    return provider_error(KIND_CODES, f"{type(exc).__name__}: {exc} {err}".strip(), "internal", code=CLAUDE_INTERNAL)


def find_cli(explicit: str | None = None) -> tuple[str | None, str]:
    """The Claude Code CLI that will run (``ALPHRED_CLAUDE_CLI``, the SDK's bundled one, PATH) or why none."""
    if importlib.util.find_spec("claude_agent_sdk") is None:
        return None, f"claude-agent-sdk is not installed: {install_hint('claude')}"
    configured = explicit or os.environ.get(ENV_CLI)
    if configured:
        if Path(configured).is_file() and os.access(configured, os.X_OK):
            return configured, ""
        return None, f"{ENV_CLI}={configured} is not an executable file: fix the path or unset it"
    spec = importlib.util.find_spec("claude_agent_sdk")
    if spec is not None and spec.origin:
        bundled = Path(spec.origin).parent / "_bundled" / ("claude.exe" if sys.platform == "win32" else "claude")
        if bundled.is_file():
            return str(bundled), ""
    found = shutil.which("claude")
    if found:
        return found, ""
    return None, f"no Claude Code CLI: reinstall claude-agent-sdk (it bundles one) or set {ENV_CLI}=/path/to/claude"


def credentials_source(env: Mapping[str, str], home: Path) -> str | None:
    """Where Claude Code will find credentials (a variable, cloud mode or the login file), or None."""
    for var in CREDENTIAL_VARS:
        if env.get(var):
            return var
    for var in CLOUD_VARS:
        if env.get(var) not in (None, "", "0", "false"):
            return var
    config_dir = Path(env["CLAUDE_CONFIG_DIR"]) if env.get("CLAUDE_CONFIG_DIR") else home / ".claude"
    if (config_dir / ".credentials.json").is_file():
        return f"{config_dir / '.credentials.json'} (claude /login)"
    if sys.platform == "darwin" and (home / ".claude.json").is_file():
        return "macOS keychain (claude /login)"
    return None


def root_bypass_problem(mode: str, euid: int | None, env: Mapping[str, str]) -> str | None:
    """Why Claude Code will refuse ``mode`` here (root without IS_SANDBOX=1 and bypassPermissions), or None."""
    if mode != "bypassPermissions" or euid != 0 or env.get("IS_SANDBOX") == "1":
        return None
    return (
        "Claude Code refuses permission_mode bypassPermissions when running as root. Either set IS_SANDBOX=1 "
        "in the environment (only inside a disposable container or VM: every tool then runs without asking), "
        "or give the phase `permission_mode: acceptEdits` (file edits allowed, other tools per allowed_tools)"
    )


def _euid() -> int | None:
    geteuid = getattr(os, "geteuid", None)
    return int(geteuid()) if geteuid is not None else None


def _output_format(options: ProviderOptions) -> dict[str, Any] | None:
    """The SDK's ``output_format``: the phase's ``output:`` (SPEC §12) or its decision schema, as json_schema."""
    schema = answer_schema(options)
    return {"type": "json_schema", "schema": schema} if schema is not None else None
