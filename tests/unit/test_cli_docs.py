"""docs/cli.md documents every command and every option; every command has help text."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from alphred.cli import app
from alphred.cli.main import load_commands

DOC = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()


def commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    found: list[tuple[tuple[str, ...], click.Command]] = []
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            found.extend(commands(command, (*path, name)))
        else:
            found.append(((*path, name), command))
    return found


load_commands()  # each command's module registers it when loaded
ALL = commands(app)


def test_there_are_commands() -> None:
    names = {" ".join(path) for path, _ in ALL}
    assert {"run", "resume", "retry", "approve", "reject", "pause", "cancel", "status", "runs", "logs"} <= names
    assert {"validate", "graph", "providers", "repo add", "repo list", "repo remove"} <= names


@pytest.mark.parametrize(("path", "command"), ALL, ids=lambda v: " ".join(v) if isinstance(v, tuple) else "")
def test_command_and_its_options_are_documented(path: tuple[str, ...], command: click.Command) -> None:
    assert command.help and command.help.strip(), f"{' '.join(path)} has no help text"
    assert f"alphred {' '.join(path)}" in DOC, f"docs/cli.md does not document `alphred {' '.join(path)}`"
    for param in command.params:
        if isinstance(param, click.Option):
            assert param.help, f"{' '.join(path)} {param.opts[0]} has no help text"
            for flag in [*param.opts, *param.secondary_opts]:
                assert re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", DOC), (
                    f"docs/cli.md does not mention {flag} of `alphred {' '.join(path)}`"
                )
