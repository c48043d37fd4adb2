"""The ``alphred`` command line (click); one module per command group."""

from __future__ import annotations

from . import spec_cmds  # noqa: F401  (registers validate, graph)
from .app import app


def main() -> None:
    """Console-script entry point."""
    app.main(prog_name="alphred")


__all__ = ["app", "main"]
