"""The ``alphred`` command line (click); one module per command group, loaded when its command is named
(``main.COMMAND_MODULES``)."""

from __future__ import annotations

from alphred.cli.main import app, own_process


def main() -> None:
    """Console-script entry point."""
    own_process()  # this process is the command's own: the start's objects are frozen after it (issue 29)
    app.main(prog_name="alphred")


__all__ = ["app", "main"]
