"""The ``codex`` provider: the Codex CLI driven as a subprocess (``codex exec --json``) in the run's worktree.

Codex runs with stdin closed, ``-C`` the worktree, ``-s`` the phase's sandbox (default ``workspace-write``:
the worktree is the workspace, so an implementing phase can edit it), ``-m`` the model, and
``--output-schema`` for the routing decision (its final message is then a JSON object). It runs in its own
process group, killed when the stream is closed early (timeout, cancellation). Its JSONL events map onto
the event contract; ``turn.completed`` usage feeds accounting; ``turn.failed`` and a failed exit map onto
the failure taxonomy with ``CODEX_*`` codes.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
import json
import os
import shutil
import signal
import sys
import tempfile
from collections import deque
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from alphred.errors import InvalidRequestError, install_hint
from alphred.providers import groups
from alphred.providers.base import ProviderEvent, ProviderOptions, Readiness
from alphred.providers.classification import provider_error
from alphred.providers.codex_descriptor import header_refusal, header_variable
from alphred.providers.codex_errors import (
    CODEX_BAD_SETTINGS,
    CODEX_NOT_FOUND,
    KIND_CODES,
)
from alphred.providers.codex_events import LOGIN_FIX, CodexEventMapper
from alphred.providers.contract import answer_schema, compose_prompt
from alphred.workflow.model import MCP_PREFIX

ENV_BIN = "ALPHRED_CODEX_BIN"
SANDBOXES = ("read-only", "workspace-write", "danger-full-access")
OWN_KEYS = ("CODEX_API_KEY", "OPENAI_API_KEY")  # what codex's model client reads (another: list it in env:)
DEFAULT_SANDBOX = "workspace-write"
KILL_GRACE_SECONDS = 1.0
EXIT_WAIT_SECONDS = 10.0
LINE_LIMIT = 64 * 1024 * 1024
CREDENTIAL_VARS = ("OPENAI_API_KEY", "CODEX_API_KEY")


class CodexProvider:
    """The Codex CLI; ``binary`` and ``env`` override the lookup and the environment (tests, demos)."""

    name = "codex"

    def __init__(self, binary: str | None = None, env: Mapping[str, str] | None = None) -> None:
        self.binary = binary
        self.env = dict(env or {})

    def check(self) -> Readiness:
        """Preflight: a codex binary found and credentials (or a configured model provider) present."""
        binary, problem = find_codex(self.binary)
        if binary is None:
            return Readiness(False, problem)
        source = credentials_source({**os.environ, **self.env}, Path.home())
        if source is None:
            return Readiness(False, f"no Codex credentials found: {LOGIN_FIX}")
        return Readiness(True, f"codex {binary}; credentials: {source}")

    def check_phase(self, settings: Mapping[str, Any]) -> Readiness:
        """Preflight of one phase's settings: a sandbox the CLI knows."""
        sandbox = str(settings.get("sandbox") or DEFAULT_SANDBOX)
        if sandbox not in SANDBOXES:
            return Readiness(False, f"unknown sandbox '{sandbox}' (one of: {', '.join(SANDBOXES)})")
        return Readiness(True, f"sandbox {sandbox}")

    async def run(self, prompt: str, options: ProviderOptions) -> AsyncIterator[ProviderEvent]:
        """Run ``codex exec --json`` in ``options.working_directory`` and map its JSONL to events."""
        ready = self.check_phase(options.settings)
        if not ready.ready:
            raise InvalidRequestError(ready.detail, code=CODEX_BAD_SETTINGS)
        binary, problem = find_codex(self.binary)
        if binary is None:
            raise InvalidRequestError(problem, code=CODEX_NOT_FOUND)
        with tempfile.TemporaryDirectory(prefix="alphred-codex-") as scratch:
            args = self._arguments(binary, prompt, options, Path(scratch))
            try:
                process = await asyncio.create_subprocess_exec(
                    *args,
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                    cwd=str(options.working_directory),
                    env=self._environment(options),
                    start_new_session=True,
                    limit=LINE_LIMIT,
                )
            except OSError as exc:
                raise provider_error(
                    KIND_CODES, f"cannot start codex: {exc}", "invalid_request", code=CODEX_NOT_FOUND
                ) from exc
            groups.register(process.pid)  # recorded with the attempt; a second Ctrl+C kills it too
            stderr: deque[str] = deque(maxlen=200)
            readers = [asyncio.create_task(_drain(process.stderr, stderr))]
            mapper = CodexEventMapper(answer_schema(options) is not None)
            if options.cancel is not None:
                readers.append(asyncio.create_task(_stop_when_set(options.cancel, process, mapper)))
            exited = False
            try:
                assert process.stdout is not None
                while line := await process.stdout.readline():
                    for event in mapper.line(line.decode("utf-8", errors="replace")):
                        yield event
                code = await _wait_exit(process)
                exited = True
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(readers[0]), 2.0)
                yield mapper.finish(code, list(stderr))
            finally:
                for reader in readers:
                    reader.cancel()
                if exited:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(process.pid, signal.SIGKILL)  # leftovers of the agent's commands
                else:
                    await _kill_group(process)
                groups.unregister(process.pid)

    def _environment(self, options: ProviderOptions) -> dict[str, str]:
        """The run's environment (its secrets dropped by the runtime) plus codex's own key, which codex gives to
        its model client; its shell policy leaves ``*KEY*``/``*TOKEN*``/``*SECRET*`` variables out of commands."""
        servers = {name: value for values in options.mcp_env.values() for name, value in values.items()}
        if options.base_environment is None:
            return {**os.environ, **servers, **self.env, **options.environment}
        own = {name: os.environ[name] for name in OWN_KEYS if name in os.environ}
        return {**options.base_environment, **own, **servers, **self.env, **options.environment}

    def _arguments(self, binary: str, prompt: str, options: ProviderOptions, scratch: Path) -> list[str]:
        sandbox = str(options.settings.get("sandbox") or DEFAULT_SANDBOX)
        if options.sandbox is not None:  # Alphred's ``sandbox:`` (SPEC §14) on codex's own sandbox
            sandbox = "workspace-write"
        args = [binary, "exec", "--json", "--skip-git-repo-check", "-C", str(options.working_directory), "-s", sandbox]
        if options.sandbox is not None:
            network = "true" if options.sandbox.network else "false"
            args += ["-c", f"sandbox_workspace_write.network_access={network}"]
        args += mcp_arguments(options)
        if options.model:
            args += ["-m", options.model]
        wanted = answer_schema(options)  # SPEC §12: ``output:``, else the decision schema
        if wanted is not None:  # in the attempt's scratch directory: outside the worktree, never committed
            schema = scratch / "output.schema.json"
            schema.write_text(json.dumps(wanted), encoding="utf-8")
            args += ["--output-schema", str(schema)]
        text = compose_prompt(prompt, options.context, options.decisions, options.output)
        if options.system_prompt:
            text = f"{options.system_prompt.strip()}\n\n{text}"
        return [*args, "--", text]


def mcp_arguments(options: ProviderOptions) -> list[str]:
    """The phase's MCP servers and MCP tool filters (SPEC §14) as ``-c mcp_servers.NAME.*`` overrides.

    A server's variables are given to codex's environment by name (``env_vars``, ``bearer_token_env_var``,
    ``env_http_headers``: never on the command line) and kept out of the agent's shell
    (``shell_environment_policy.exclude``). ``tools.deny`` of ``mcp__server`` disables that server,
    ``mcp__server__tool`` lists the tool in its ``disabled_tools``.
    """
    args: list[str] = []
    hidden: list[str] = []
    own_denied = [e for e in options.tools.deny if not e.startswith(MCP_PREFIX)] if options.tools is not None else []
    if options.tools is not None and (options.tools.allow is not None or own_denied):
        raise InvalidRequestError(
            "codex cannot enforce a list of its own tools (shell, apply_patch): only tools.deny of MCP tools",
            code=CODEX_BAD_SETTINGS,
        )

    def put(server: str, key: str, value: object) -> None:
        args.extend(["-c", f"mcp_servers.{server}.{key}={json.dumps(value)}"])

    for server in options.mcp:
        if server.url is not None:
            put(server.name, "url", server.url)
            for header, value in server.headers:
                form = header_variable(header, value)  # validate refused the None case already
                if form is None:
                    raise InvalidRequestError(header_refusal(server.name, value), code=CODEX_BAD_SETTINGS)
                if form[0] == "bearer":
                    put(server.name, "bearer_token_env_var", form[1])
                elif form[0] == "env":
                    put(server.name, f"env_http_headers.{json.dumps(header)}", form[1])
                else:
                    put(server.name, f"http_headers.{json.dumps(header)}", value)
        else:
            put(server.name, "command", server.command or "")
            put(server.name, "args", list(server.args))
            if server.cwd:
                put(server.name, "cwd", str(options.working_directory / server.cwd))
            if server.env:
                put(server.name, "env_vars", list(server.env))
        hidden.extend(server.env)
    denied: dict[str, list[str]] = {}
    for entry in options.tools.deny if options.tools is not None else ():
        name, _, tool = entry.removeprefix(MCP_PREFIX).partition("__")
        if entry.startswith(MCP_PREFIX) and not tool:
            put(name, "enabled", False)
        elif entry.startswith(MCP_PREFIX):
            denied.setdefault(name, []).append(tool)
    for name, tools in denied.items():
        put(name, "disabled_tools", tools)
    if hidden:
        args.extend(["-c", f"shell_environment_policy.exclude={json.dumps(sorted(set(hidden)))}"])
    return args


async def _drain(stream: asyncio.StreamReader | None, lines: deque[str]) -> None:
    while stream is not None and (line := await stream.readline()):
        lines.append(line.decode("utf-8", errors="replace"))


async def _stop_when_set(cancel: asyncio.Event, process: asyncio.subprocess.Process, mapper: CodexEventMapper) -> None:
    await cancel.wait()
    mapper.interrupted = True
    await _kill_group(process)


async def _wait_exit(process: asyncio.subprocess.Process) -> int:
    try:
        return await asyncio.wait_for(process.wait(), EXIT_WAIT_SECONDS)
    except TimeoutError:
        await _kill_group(process)
        return await process.wait()


async def _kill_group(process: asyncio.subprocess.Process) -> None:
    """SIGTERM codex's process group (its commands too), SIGKILL what is left after a short grace period."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGTERM)
    if process.returncode is None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), KILL_GRACE_SECONDS)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(process.wait(), 5.0)


def find_codex(explicit: str | None = None) -> tuple[str | None, str]:
    """The codex binary that will run (``ALPHRED_CODEX_BIN``, openai-codex-cli-bin, PATH) or why none."""
    configured = explicit or os.environ.get(ENV_BIN)
    if configured:
        if Path(configured).is_file() and os.access(configured, os.X_OK):
            return configured, ""
        return None, f"{ENV_BIN}={configured} is not an executable file: fix the path or unset it"
    packaged = _packaged_codex()
    if packaged is not None:
        return packaged, ""
    found = shutil.which("codex")
    if found:
        return found, ""
    return None, (
        f"no codex binary: {install_hint('codex')} (bundles it), npm install -g @openai/codex, or set {ENV_BIN}"
    )


def _packaged_codex() -> str | None:
    if importlib.util.find_spec("codex_cli_bin") is None:
        return None
    with contextlib.suppress(Exception):
        module: Any = importlib.import_module("codex_cli_bin")
        path = Path(module.bundled_codex_path())
        if path.is_file():
            return str(path)
    spec = importlib.util.find_spec("codex_cli_bin")
    if spec is not None and spec.origin:
        guess = Path(spec.origin).parent / "bin" / ("codex.exe" if sys.platform == "win32" else "codex")
        if guess.is_file():
            return str(guess)
    return None


def credentials_source(env: Mapping[str, str], home: Path) -> str | None:
    """Where codex will find credentials (a variable, ``codex login``, a configured provider), or None."""
    for var in CREDENTIAL_VARS:
        if env.get(var):
            return var
    codex_home = Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else home / ".codex"
    if (codex_home / "auth.json").is_file():
        return f"{codex_home / 'auth.json'} (codex login)"
    config = codex_home / "config.toml"
    if config.is_file() and "model_provider" in config.read_text(encoding="utf-8", errors="replace"):
        return f"model provider configured in {config}"
    return None
