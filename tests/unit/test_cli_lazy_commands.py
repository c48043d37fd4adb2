"""The command line loads a command's module only when the command is named (issue 29: ``alphred run`` loads
none of the other commands' modules); ``COMMAND_MODULES`` must name every command and where it lives."""

from __future__ import annotations

import subprocess
import sys

from alphred.cli import app
from alphred.cli.main import COMMAND_MODULES, load_commands


def test_command_modules_names_every_command_where_it_is_defined() -> None:
    load_commands()
    assert sorted(app.commands) == sorted(COMMAND_MODULES)
    for name, command in app.commands.items():
        assert command.callback is not None
        assert command.callback.__module__ == f"alphred.cli.{COMMAND_MODULES[name]}", name


PROBE = """\
import sys
from alphred.cli import app
command = app.get_command(None, sys.argv[1])
print(command.name, sorted(m.rsplit(".", 1)[1] for m in sys.modules if m.startswith("alphred.cli.") and m.endswith(("_cmds", "_cmd"))))
"""


def test_naming_a_command_loads_its_module_alone() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, "run"], capture_output=True, text=True, check=True)
    assert done.stdout.split(None, 1) == ["run", "['run_cmds']\n"]
    done = subprocess.run([sys.executable, "-c", PROBE, "status"], capture_output=True, text=True, check=True)
    assert done.stdout.split(None, 1) == ["status", "['inspect_cmds']\n"]


def test_help_lists_every_command_and_an_unknown_one_is_refused() -> None:
    listed = app.list_commands(None)  # type: ignore[arg-type]
    assert listed == sorted(COMMAND_MODULES)
    assert app.get_command(None, "no-such-command") is None  # type: ignore[arg-type]


def test_a_misspelt_command_is_matched_against_every_command() -> None:
    done = subprocess.run([sys.executable, "-m", "alphred", "stauts"], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "No such command 'stauts'. Did you mean 'status'?" in done.stderr
