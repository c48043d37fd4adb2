"""Who may do what: the token (header, cookie or the printed URL), the ``Origin`` and ``Host`` checks,
``--read-only`` and ``--public-read``.

Every request but ``/healthz`` and the static assets needs the token: ``Authorization: Bearer TOKEN`` (API
clients), or the cookie the printed URL ``/?token=TOKEN`` sets (HttpOnly, SameSite=Strict, one name per
port, so two servers on one host keep their own). ``--public-read`` lets reads (GET) through without it.
A state-changing request (any other method) needs the token in its header, or the cookie together with
the ``X-Alphred-Request`` header the page's script sends (a cross-site form cannot add a header, and a
script elsewhere cannot send one without a CORS preflight this server never answers); when it carries an
``Origin``, that origin must be the server's own. On a loopback address the ``Host`` header must name a
loopback host (so a DNS-rebinding page cannot reach it either); on any other address every host is
accepted (``alphred ui`` warns about such binds).
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})
COOKIE_PREFIX = "alphred_token_"
PAGE_HEADER = "x-alphred-request"  # sent by ui.js with every action
OPEN_PATHS = ("/healthz", "/favicon.ico")
OPEN_PREFIXES = ("/static/",)
MISSING = "missing token: open the URL alphred ui printed (with ?token=), or send Authorization: Bearer TOKEN"
WRONG = "wrong token: use the token alphred ui printed at its latest start"


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


def is_open(path: str) -> bool:
    """Paths anyone may read: the health check and the static assets (nothing from the database)."""
    return path in OPEN_PATHS or path.startswith(OPEN_PREFIXES)


def cookie_name(port: int) -> str:
    """The token cookie of the server on ``port``."""
    return f"{COOKIE_PREFIX}{port}"


def cookies(header: str) -> dict[str, str]:
    """The cookies of a ``Cookie`` header (malformed pairs skipped)."""
    found: dict[str, str] = {}
    for pair in header.split(";"):
        name, sep, value = pair.strip().partition("=")
        if sep and name:
            found.setdefault(name, value.strip().strip('"'))
    return found


def _host_name(host_header: str) -> str:
    """The host of a ``Host`` header without its port (IPv6 brackets kept off)."""
    if host_header.startswith("["):
        return host_header[1 : host_header.find("]")] if "]" in host_header else host_header
    return host_header.rsplit(":", 1)[0] if host_header.count(":") == 1 else host_header


@dataclass(frozen=True)
class Guard:
    """The server's rules: its token, whether it is read-only, whether reads are public, whether it checks
    ``Host``."""

    token: str
    read_only: bool = False
    loopback_only: bool = True
    public_read: bool = False

    def matches(self, given: str | None) -> bool:
        """Whether ``given`` is the token (compared in constant time)."""
        return bool(given) and hmac.compare_digest(str(given).encode(), self.token.encode())

    def check_host(self, headers: Mapping[str, str]) -> str | None:
        """Why this request's ``Host`` is refused, or None."""
        if not self.loopback_only:
            return None
        host = headers.get("host", "")
        name = _host_name(host)
        if is_loopback(name):
            return None
        return f"unknown host {host!r}: this server answers only on a loopback address"

    def check_read(self, headers: Mapping[str, str], url_token: str | None, port: int) -> str | None:
        """Why this read (GET) is refused (a 403), or None; ``url_token`` is its ``?token=``."""
        if self.public_read:
            return None
        given = [_bearer(headers), cookies(headers.get("cookie", "")).get(cookie_name(port)), url_token]
        if any(self.matches(value) for value in given):
            return None
        return WRONG if any(given) else MISSING

    def check_change(self, headers: Mapping[str, str], scheme: str, port: int) -> str | None:
        """Why this state-changing request is refused (a 403), or None when it may go ahead."""
        if self.read_only:
            return "this server is read-only (alphred ui --read-only)"
        origin = headers.get("origin")
        if origin is not None:
            own = f"{scheme}://{headers.get('host', '')}"
            if origin.rstrip("/").lower() != own.lower():
                return f"cross-origin request refused (Origin {origin!r} is not {own!r})"
        bearer = _bearer(headers)
        if bearer is not None:
            return None if self.matches(bearer) else WRONG
        cookie = cookies(headers.get("cookie", "")).get(cookie_name(port))
        if cookie is not None and PAGE_HEADER in headers:
            return None if self.matches(cookie) else WRONG
        return "missing token: send Authorization: Bearer TOKEN (the token alphred ui printed)"


def _bearer(headers: Mapping[str, str]) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header ('' for a malformed one; None without one)."""
    auth = headers.get("authorization")
    if auth is None:
        return None
    kind, _, given = auth.partition(" ")
    return given.strip() if kind.lower() == "bearer" else ""
