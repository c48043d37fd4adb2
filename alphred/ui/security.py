"""Who may do what: the token, the ``Origin`` and ``Host`` checks and ``--read-only``.

Reads (GET) need no token; every state-changing request (any other method) needs
``Authorization: Bearer TOKEN`` and, when it carries an ``Origin``, that origin must be the server's own.
On a loopback address the ``Host`` header must name a loopback host (so a DNS-rebinding page cannot read
runs either); on any other address every host is accepted (``alphred ui`` warns about such binds).
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def new_token() -> str:
    """A fresh random token (URL-safe, 192 bits)."""
    return secrets.token_urlsafe(24)


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IP addresses."""
    if host.strip("[]").lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _host_name(host_header: str) -> str:
    """The host of a ``Host`` header without its port (IPv6 brackets kept off)."""
    if host_header.startswith("["):
        return host_header[1 : host_header.find("]")] if "]" in host_header else host_header
    return host_header.rsplit(":", 1)[0] if host_header.count(":") == 1 else host_header


@dataclass(frozen=True)
class Guard:
    """The server's rules: its token, whether it is read-only, and whether it checks ``Host``."""

    token: str
    read_only: bool = False
    loopback_only: bool = True

    def check_host(self, headers: Mapping[str, str]) -> str | None:
        """Why this request's ``Host`` is refused, or None."""
        if not self.loopback_only:
            return None
        host = headers.get("host", "")
        name = _host_name(host)
        if is_loopback(name):
            return None
        return f"unknown host {host!r}: this server answers only on a loopback address"

    def check_change(self, headers: Mapping[str, str], scheme: str) -> str | None:
        """Why this state-changing request is refused (a 403), or None when it may go ahead."""
        if self.read_only:
            return "this server is read-only (alphred ui --read-only)"
        origin = headers.get("origin")
        if origin is not None:
            own = f"{scheme}://{headers.get('host', '')}"
            if origin.rstrip("/").lower() != own.lower():
                return f"cross-origin request refused (Origin {origin!r} is not {own!r})"
        auth = headers.get("authorization", "")
        kind, _, given = auth.partition(" ")
        if kind.lower() != "bearer" or not given.strip():
            return "missing token: send Authorization: Bearer TOKEN (the token alphred ui printed)"
        if not hmac.compare_digest(given.strip().encode(), self.token.encode()):
            return "wrong token: use the token alphred ui printed at start"
        return None
