"""Run ``gh`` or ``az``: found on the PATH of the given environment, text output, a time limit."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from alphred.scm.remote import tool_environment

DEFAULT_TIMEOUT = 120.0


@dataclass(frozen=True)
class ToolResult:
    """What a tool run returned; ``returncode`` is None when it was missing or timed out."""

    returncode: int | None
    stdout: str
    stderr: str
    problem: str | None = None  # "missing" | "timeout"

    @property
    def ok(self) -> bool:
        """True when the tool ran and exited 0."""
        return self.returncode == 0

    @property
    def words(self) -> str:
        """What the tool said, stderr first, for error messages."""
        text = "\n".join(part.strip() for part in (self.stderr, self.stdout) if part.strip())
        return text or "no output"


def find_tool(name: str, env: Mapping[str, str]) -> str | None:
    """The path of executable ``name`` on ``env``'s PATH, or None."""
    return shutil.which(name, path=tool_environment(env)["PATH"])


def run_tool(argv: Sequence[str], cwd: Path, env: Mapping[str, str], *, timeout: float = DEFAULT_TIMEOUT) -> ToolResult:
    """Run ``argv`` (its first word looked up on ``env``'s PATH) in ``cwd`` with stdin closed."""
    executable = find_tool(argv[0], env)
    if executable is None:
        return ToolResult(None, "", f"{argv[0]} not found on PATH", problem="missing")
    try:
        done = subprocess.run(
            [executable, *argv[1:]],
            cwd=cwd,
            env=tool_environment(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return ToolResult(None, "", f"{argv[0]} did not finish within {timeout:g}s", problem="timeout")
    except OSError as exc:
        return ToolResult(None, "", f"cannot run {argv[0]}: {exc}", problem="missing")
    return ToolResult(done.returncode, _text(done.stdout), _text(done.stderr))


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")
