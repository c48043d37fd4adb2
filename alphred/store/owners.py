"""Who runs a run: lease owners (host, pid, process start time, random id) and whether they are alive."""

from __future__ import annotations

import os
import socket
from datetime import UTC, datetime

from alphred.errors import SettingError
from alphred.lazy import deferred_dataclass
from alphred.settings import seconds_setting

DEFAULT_TTL_SECONDS = 30.0
TTL_ENV = "ALPHRED_LEASE_TTL"


def lease_ttl() -> float:
    """The lease time-to-live in seconds (``ALPHRED_LEASE_TTL`` overrides the default of 30)."""
    try:
        return seconds_setting(os.environ, TTL_ENV, DEFAULT_TTL_SECONDS)
    except SettingError:  # the CLI refuses it at start; anywhere else, fall back to the default
        return DEFAULT_TTL_SECONDS


def _stat_fields(pid: int) -> list[str]:
    # One os.read, not Path.read_text (a path object, a text wrapper and its decoder: ~89 K instructions against
    # ~22 K): a command phase's process group is recorded with its start time, once per command (issue 29).
    try:
        fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return []
    try:
        stat = os.read(fd, 4096)  # the whole line: ~52 numbers and a command name of at most 64 bytes
    except OSError:
        return []
    finally:
        os.close(fd)
    return stat[stat.rfind(b")") + 2 :].decode("ascii", "replace").split()


def _start_time(pid: int) -> str:
    """The process's start time in clock ticks since boot (guards against pid reuse); '' if unknown."""
    fields = _stat_fields(pid)
    return fields[19] if len(fields) > 19 else ""


def process_start_time(pid: int) -> str:
    """The start time of process ``pid`` ('' when unknown): with the pid, it names one process for good."""
    return _start_time(pid)


@deferred_dataclass(frozen=True)
class LeaseOwner:
    """A lease owner: ``host:pid:start:token``."""

    host: str
    pid: int
    start: str
    token: str

    def __str__(self) -> str:
        return f"{self.host}:{self.pid}:{self.start}:{self.token}"

    @classmethod
    def current(cls) -> LeaseOwner:
        """An owner id for this process (a fresh random token each call)."""
        pid = os.getpid()
        token = os.urandom(4).hex()  # what ``secrets.token_hex(4)`` returns, without importing ``secrets`` (issue 29)
        return cls(socket.gethostname(), pid, _start_time(pid), token)

    @classmethod
    def parse(cls, text: str) -> LeaseOwner | None:
        """Parse an owner string; None when it is not one of ours."""
        parts = text.rsplit(":", 3)
        if len(parts) != 4 or not parts[1].isdigit():
            return None
        return cls(parts[0], int(parts[1]), parts[2], parts[3])


def owner_is_dead(owner: str | None) -> bool:
    """True when ``owner`` is a process on this host that no longer exists (or whose pid was reused)."""
    if owner is None:
        return True
    parsed = LeaseOwner.parse(owner)
    if parsed is None or parsed.host != socket.gethostname():
        return False  # another host: only expiry can free its lease
    try:
        os.kill(parsed.pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    fields = _stat_fields(parsed.pid)
    if fields and fields[0] in ("Z", "X"):
        return True  # a zombie: killed, not yet reaped
    return bool(parsed.start) and bool(fields) and fields[19] != parsed.start


def lease_free(owner: str | None, expires_at: datetime | None) -> bool:
    """True when no live process holds a lease: never held, its owner dead on this host, or expired."""
    if owner is None or owner_is_dead(owner):
        return True
    if expires_at is None:
        return True
    if expires_at.tzinfo is None:
        expires_at = expires_at.replace(tzinfo=UTC)
    return expires_at < datetime.now(UTC)
