"""The ``alphred`` command line (click); one module per command group."""

from __future__ import annotations

from alphred.cli import (  # noqa: F401  (they register their commands)
    files_cmds,
    gc_cmd,
    inspect_cmds,
    outside_cmds,
    providers_cmd,
    queue_cmds,
    repo_cmds,
    run_cmds,
    ui_cmd,
    worker_cmd,
    workflow_cmds,
)
from alphred.cli.main import app, own_process


def main() -> None:
    """Console-script entry point."""
    own_process()  # this process is the command's own: the start's objects are frozen after it (issue 29)
    app.main(prog_name="alphred")


__all__ = ["app", "main"]
