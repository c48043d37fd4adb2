"""``alphred ui``: the web view (SPEC §11); starlette and uvicorn are loaded only when it runs."""

from __future__ import annotations

import click

from alphred.cli.main import app, db_option, repo_option


@app.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (warns if not loopback).")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="Port (0: any free one).")
@db_option
@repo_option
@click.option("--read-only", is_flag=True, help="Refuse every action (approve, reject, pause, cancel, resume).")
@click.option("--no-exec", is_flag=True, help="Approve/reject/resume only record the request; start no process.")
@click.option("--public-read", is_flag=True, help="Let anyone who reaches the server read without the token.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default web browser.")
def ui(
    host: str,
    port: int,
    db: str | None,
    repo: str | None,
    read_only: bool,
    no_exec: bool,
    public_read: bool,
    open_browser: bool,
) -> int:
    """Serve a live web page over the runs.

    The runs list, each run's graph, steps, events, reports and diffs, and Approve / Reject / Pause /
    Cancel / Resume buttons, plus a JSON API under /api/. Prints http://HOST:PORT/?token=TOKEN on
    stdout; every page, API call and action needs that token (opening the URL keeps it in a cookie).
    """
    from alphred.ui.server import serve

    return serve(
        host=host, port=port, db=db, repo=repo, read_only=read_only, no_exec=no_exec, open_browser=open_browser,
        public_read=public_read,
        say=lambda line: click.echo(line),
        warn=lambda line: click.echo(line, err=True),
    )  # fmt: skip
