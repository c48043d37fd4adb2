"""The environment of every process a phase starts (SPEC §14): one builder, secrets left out.

``phase_environment`` is the one place that decides what a phase's processes see: agent CLIs (through
``ProviderOptions.environment``), the tools they run, command phases, ``run`` checks (and MCP servers,
which get it the same way). It is the run's environment without

- every variable the redaction rule calls secret (``redact.SECRET_NAME``: KEY, TOKEN, SECRET, PASSWORD,
  PASSWD, CREDENTIAL in its name), except those the phase lists in ``env:``;
- the variables that would point git at another repository (``GIT_DIR`` & co., set inside git hooks);

plus Alphred's own markers (``ALPHRED_LEASE_OWNER``, ``ALPHRED_ATTEMPT``: a take-over and the end of a phase
find what the attempt left running) and the values a command's placeholders refer to. A provider adds the
key of its own client itself, to that client only (``providers``: the openai SDK in this process, the
claude and codex CLIs), never to the shell its agent runs.

``hide_secrets_from_proc`` overwrites the secret values in this process's original environment block, the
one ``/proc/<pid>/environ`` shows: a command of the agent cannot read them from its parent there (Python's
``os.environ`` is a copy, kept). See docs/security.md for what holds without a sandbox.
"""

from __future__ import annotations

import contextlib
import ctypes
import sys
from collections.abc import Iterable, Mapping

from alphred.git.command import REPOSITORY_VARIABLES
from alphred.redact import SECRET_NAME, Redactor, register_secrets
from alphred.workflow import Phase

ATTEMPT_MARKER = "ALPHRED_ATTEMPT"
"""Set in the environment of every process an attempt starts: ``<lease owner>/<run>/<phase>/<attempt>``."""

# The variables that only matter to a command started from inside a git hook, besides Alphred's own list
GIT_VARIABLES = frozenset(REPOSITORY_VARIABLES) | {
    "GIT_QUARANTINE_PATH",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
}


def is_secret_name(name: str) -> bool:
    """Whether the redaction rule calls a variable of this name secret."""
    return SECRET_NAME.search(name) is not None


def phase_environment(
    environ: Mapping[str, str], allow: Iterable[str] = (), extra: Mapping[str, str] | None = None
) -> dict[str, str]:
    """``environ`` without its secret variables (but those named in ``allow``, a phase's ``env:``) and
    without the variables that aim git elsewhere; then ``extra`` (markers, placeholder values), kept as given.
    """
    allowed = frozenset(allow)
    env = {
        key: value
        for key, value in environ.items()
        if key not in GIT_VARIABLES and (key in allowed or not is_secret_name(key))
    }
    if extra:
        env.update(extra)
    return env


def mcp_environment(phase: Phase, environ: Mapping[str, str], redactor: Redactor) -> dict[str, dict[str, str]]:
    """Per MCP server of ``phase``, the values of the variables its ``env:`` names, read from the run's
    environment now (never stored); each value is added to ``redactor`` and to the process's (the store's),
    whatever the variable's name, so it is masked wherever it might surface (a tool result, an error)."""
    values: dict[str, dict[str, str]] = {}
    for server in phase.mcp:
        given = {name: environ[name] for name in server.env if name in environ}
        redactor.add(given.values())
        register_secrets(given.values())  # the store's redactor too
        values[server.name] = given
    return values


def attempt_marker(owner: str, run_id: int, phase: str, attempt: int) -> str:
    """The value of ``ALPHRED_ATTEMPT`` for one attempt (unique per run process, run, phase and attempt)."""
    return f"{owner}/{run_id}/{phase}/{attempt}"


_hidden = False


def hide_secrets_from_proc() -> int:
    """Overwrite, with ``*``, the values of secret variables in this process's initial environment block
    (what ``/proc/self/environ`` shows); return how many were hidden. Linux only; a no-op elsewhere or when
    the block cannot be found. ``os.environ`` keeps the values (Alphred still reads its keys from it); a
    child started without an explicit environment inherits the masked C environment.
    """
    global _hidden
    if _hidden or not sys.platform.startswith("linux"):
        return 0
    _hidden = True
    try:
        with open("/proc/self/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        start, end = int(fields[47]), int(fields[48])  # env_start, env_end (fields 50 and 51 of proc(5))
    except (OSError, IndexError, ValueError):
        return 0
    if not 0 < start < end or end - start > 16 << 20:
        return 0
    hidden = 0
    with contextlib.suppress(OSError, ValueError):
        block = ctypes.string_at(start, end - start)
        offset = 0
        for entry in block.split(b"\0"):
            name, sep, value = entry.partition(b"=")
            if sep and value and is_secret_name(name.decode("utf-8", "replace")):
                ctypes.memset(start + offset + len(name) + 1, ord("*"), len(value))
                hidden += 1
            offset += len(entry) + 1
    return hidden
