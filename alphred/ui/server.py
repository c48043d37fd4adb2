"""``alphred ui``: bind the address, print the URL with a fresh token, serve until Ctrl+C (uvicorn)."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from alphred.errors import AlphredError, UiError, UiNotInstalledError
from alphred.ui.security import is_loopback, new_token


def require_packages() -> None:
    """UiNotInstalledError (with how to install them) unless starlette and uvicorn import."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise UiNotInstalledError(exc.name or "starlette") from None


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: any free port); UiError when it cannot be bound."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # inherited by accepted connections: without it, Nagle's algorithm and the browser's delayed ACK
        # hold every small keep-alive response back ~40 ms
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except (OSError, OverflowError) as exc:
        sock.close()
        raise UiError(f"cannot listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}") from None
    sock.set_inheritable(False)
    return sock


def reachable_host(host: str) -> tuple[str, str | None]:
    """The host to print in the URL for a server bound to ``host``, and a note when it is not that host.

    A specific address is printed as given. ``0.0.0.0`` or ``::`` (every address) is not an address a
    browser can open: the machine's name is printed when it resolves to an address other machines can
    reach, else the loopback address, with a note saying to use this machine's address from elsewhere.
    """
    bare = host.strip("[]")
    if bare not in ("0.0.0.0", "::", ""):
        return host, None
    family = socket.AF_INET6 if ":" in bare else socket.AF_INET
    name = socket.gethostname()
    try:
        found = {info[4][0] for info in socket.getaddrinfo(name, None, family, socket.SOCK_STREAM)}
    except (OSError, UnicodeError):
        found = set()
    if name and any(not ipaddress.ip_address(str(a).split("%")[0]).is_loopback for a in found):
        return name, None
    loopback = "::1" if family == socket.AF_INET6 else "127.0.0.1"
    return loopback, f"listening on every address ({host}): from another machine, use its address instead of {loopback}"


def url_for(host: str, port: int, token: str) -> str:
    """``http://HOST:PORT/?token=TOKEN`` (IPv6 hosts in brackets)."""
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    return f"http://{shown}:{port}/?token={token}"


def repository_root(repo: str | None, db: str | None) -> str | None:
    """The repository the runs are continued in (``--repo``, else the current one; None with ``--db`` alone)."""
    from alphred.git import locate_repository

    try:
        return str(locate_repository(Path(repo) if repo else None).root)
    except AlphredError:
        if db and repo is None:
            return None  # each run names its own repository
        raise


def serve(
    *,
    host: str,
    port: int,
    db: str | None,
    repo: str | None,
    read_only: bool,
    no_exec: bool,
    open_browser: bool,
    public_read: bool = False,
    say: Callable[[str], None],
    warn: Callable[[str], None],
) -> int:
    """Run the web view until interrupted; ``say`` prints the URL (stdout), ``warn`` to stderr."""
    require_packages()
    import uvicorn

    from alphred.operations.where import resolve_for_read
    from alphred.ui.app import UiSettings, create_app

    url = resolve_for_read(repo, db)
    root = repository_root(repo, db)
    token = new_token()
    loopback = is_loopback(host)
    settings = UiSettings(
        db_url=url,
        token=token,
        repo=root,
        read_only=read_only,
        no_exec=no_exec,
        loopback_only=loopback,
        public_read=public_read,
    )
    app = create_app(settings)
    sock = bind(host, port)
    actual = sock.getsockname()[1]
    if not loopback:
        who = "can read every run" if public_read else "and has the token can read every run"
        warn(
            f"warning: serving on {host}, which is not a loopback address: anyone who can reach this machine "
            f"{who} (actions always need the token)"
        )
    shown, note = reachable_host(host)
    address = url_for(shown, actual, token)
    say(address)
    if note:
        warn(f"alphred ui: {note}")
    mode = " (read-only)" if read_only else " (actions only recorded: --no-exec)" if no_exec else ""
    mode += " (reads need no token: --public-read)" if public_read else ""
    warn(f"alphred ui: serving {_shown(url)}{mode}; press Ctrl+C to stop")
    if open_browser:
        import webbrowser

        webbrowser.open(address)
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=2, server_header=False
    )
    streams = app.state.streams

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            streams.stopping = True  # open event streams end now instead of being cancelled mid-poll
            super().handle_exit(sig, frame)

    server = Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn re-raises the Ctrl+C it handled: stopping the server is no error
        pass
    finally:
        app.state.data.close()
        sock.close()
    warn("alphred ui: stopped")
    return 0


def _shown(url: str) -> str:
    from alphred.store import display_url

    return display_url(url)
