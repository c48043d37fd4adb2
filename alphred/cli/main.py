"""The click group and the ONE place where errors become ``Error [CODE]: message`` and exit codes."""

from __future__ import annotations

import contextlib
import gc
import importlib
import math
import os
import sys
import traceback
from collections.abc import Iterator, Sequence
from typing import Any

import click

from alphred import __version__
from alphred.cli.dburl import db_url_callback
from alphred.errors import AlphredError, UsageError
from alphred.settings import check_settings

MAX_ID = 2**63 - 1


class AlphredGroup(click.Group):
    """A click group that maps every error to SPEC §6's stderr format and exit codes."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; exit with the code of SPEC §6 (or return it when not standalone)."""
        code = run_guarded(
            lambda: super(AlphredGroup, self).main(args, prog_name, complete_var, standalone_mode=False, **extra)
        )
        if standalone_mode:
            sys.stdout.flush()
            sys.exit(code)
        return code

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, whether or not its module is loaded yet."""
        return sorted({*COMMAND_MODULES, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, its module loaded first if it is not yet (``COMMAND_MODULES``)."""
        if cmd_name not in self.commands and cmd_name in COMMAND_MODULES:
            importlib.import_module(f"alphred.cli.{COMMAND_MODULES[cmd_name]}")
        return self.commands.get(cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """click's, with every command loaded first for a name that is none of them (its "Did you mean")."""
        if args and args[0] not in COMMAND_MODULES and args[0] not in self.commands:
            load_commands()
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands in sections (run / inspect / control / files, then anything else), then examples."""
        listed = [(name, self.get_command(ctx, name)) for name in self.list_commands(ctx)]
        commands = [(name, cmd) for name, cmd in listed if cmd is not None and not cmd.hidden]
        if not commands:
            return
        limit = formatter.width - 6 - max(len(name) for name, _ in commands)
        sections: dict[str, list[tuple[str, str]]] = {title: [] for title, _ in HELP_SECTIONS}
        sections["Other commands"] = []
        order = {name: index for _, names in HELP_SECTIONS for index, name in enumerate(names)}
        for name, cmd in sorted(commands, key=lambda item: order.get(item[0], 99)):
            title = next((t for t, names in HELP_SECTIONS if name in names), "Other commands")
            sections[title].append((name, SHORT_HELP.get(name) or cmd.get_short_help_str(limit)))
        for title, rows in sections.items():
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)
        with formatter.section("Examples"):
            formatter.write_text(HELP_EXAMPLES)


# The module of each command (which registers it on ``app`` as it loads), loaded when the command line names it:
# ``alphred run`` loads ``run_cmds`` and none of the other commands' modules (issue 29: run start).
COMMAND_MODULES = {
    **dict.fromkeys(("run", "resume", "retry", "approve", "reject", "pause", "cancel"), "run_cmds"),
    **dict.fromkeys(("runs", "status", "logs"), "inspect_cmds"),
    **dict.fromkeys(("artifacts", "memory"), "outside_cmds"),
    **dict.fromkeys(("init", "schema"), "files_cmds"),
    **dict.fromkeys(("validate", "graph"), "workflow_cmds"),
    **dict.fromkeys(("worker", "workers"), "worker_cmd"),
    "submit": "queue_cmds",
    "gc": "gc_cmd",
    "providers": "providers_cmd",
    "repo": "repo_cmds",
    "ui": "ui_cmd",
}


def load_commands() -> None:
    """Load every command's module (``app.commands`` then holds them all)."""
    for module in sorted(set(COMMAND_MODULES.values())):
        importlib.import_module(f"alphred.cli.{module}")


# The sections of ``alphred --help``; a command named in none of them is listed under "Other commands".
HELP_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Run a workflow", ("run", "submit", "resume", "retry", "approve", "reject", "worker")),
    ("Inspect runs", ("runs", "status", "logs", "artifacts", "memory", "ui", "workers", "providers")),
    ("Control a running run", ("pause", "cancel", "gc")),
    ("Workflow files and setup", ("init", "validate", "graph", "schema", "repo")),
)
# One line per command in ``alphred --help`` (the command's own help says the rest).
SHORT_HELP = {
    "run": "Run a workflow on its own branch and worktree.",
    "resume": "Continue a paused, interrupted or orphaned run.",
    "retry": "Run a failed run's failed phase again, then go on.",
    "approve": "Approve the gate a run waits at, and continue it.",
    "reject": "Reject the gate a run waits at, and continue it.",
    "submit": "Queue a run for the workers and exit at once.",
    "worker": "Take queued and abandoned runs and execute them.",
    "runs": "List runs, newest first.",
    "status": "Show a run (default: the latest) and what to do next.",
    "logs": "Print a run's events (default: the latest run).",
    "artifacts": "List, print or write out a run's artifacts.",
    "memory": "Show or clear a memory kept across runs.",
    "ui": "Serve a live web page over the runs.",
    "workers": "List the registered workers, live or lost.",
    "providers": "List the providers and whether each is ready.",
    "pause": "Pause a run after its current phase.",
    "cancel": "Cancel a run now.",
    "gc": "Remove the worktrees no run needs any more.",
    "init": "Write a workflow file from a bundled template.",
    "validate": "Check workflow files.",
    "graph": "Draw a workflow as Mermaid or DOT.",
    "schema": "Print the JSON Schema of workflow files.",
    "repo": "Register repositories by name.",
}
HELP_EXAMPLES = (
    "\b\n"
    "alphred init --template demo             # write demo.yaml, a workflow that runs offline\n"
    "alphred run demo.yaml                    # run it on its own branch and worktree\n"
    "alphred status                           # the latest run: phases, steps, what to do next\n"
    "alphred logs --phase check               # what the latest run's check phase printed\n"
    "alphred resume 1                         # continue run 1 after Ctrl+C, a pause or a crash\n"
    'eval "$(_ALPHRED_COMPLETE=bash_source alphred)"   # shell completion (bash; zsh_source, fish_source)'
)


_FREEZE_AFTER_START = [False]
"""Set by the console script (``alphred.cli.main`` through ``own_process``), never by an in-process caller such
as click's test runner: ``collector_paused`` then also freezes what the start made (``gc.freeze``), which lives as
long as the process (in a shared process it would keep the host's cyclic garbage for good)."""


def own_process() -> None:
    """Say that this process runs one ``alphred`` command and nothing else (the console script)."""
    _FREEZE_AFTER_START[0] = True


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for the block, as it was afterwards (issue 29: run start).

    A command's start imports hundreds of modules and builds their classes, tables and the checked
    workflow: objects that live as long as the process, which the collector would otherwise walk again and
    again as they are made (~4 % of ``alphred run``'s instructions up to its first step). Reference counting
    still frees everything else; the block is short, and the collector runs again after it.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _FREEZE_AFTER_START[0]:  # a process of its own: later collections need not walk the start's objects again
            gc.freeze()
        if was:
            gc.enable()


def run_guarded(call: Any) -> int:
    """Call ``call()`` and turn its outcome or error into an exit code, printing errors to stderr."""
    try:
        result = call()
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.UsageError as exc:
        hint = ""
        if exc.ctx is not None:
            hint = f"\nTry '{exc.ctx.command_path} --help' for help."
        click.echo(f"Error [USAGE]: {exc.format_message()}{hint}", err=True)
        return 2
    except click.ClickException as exc:
        click.echo(f"Error [USAGE]: {exc.format_message()}", err=True)
        return exc.exit_code if exc.exit_code != 1 else 2
    except click.Abort:
        click.echo("Error [INTERRUPTED]: aborted", err=True)
        return 130
    except AlphredError as exc:
        click.echo(f"Error [{exc.code}]: {exc}", err=True)
        return exc.exit_code
    except KeyboardInterrupt:
        click.echo("Error [INTERRUPTED]: interrupted", err=True)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # a traceback reaching a user is a bug: say so, show it only on request
        if os.environ.get("ALPHRED_DEBUG"):
            traceback.print_exc()
        click.echo(
            f"Error [INTERNAL]: unexpected {type(exc).__name__}: {exc} "
            "(this is a bug in Alphred; set ALPHRED_DEBUG=1 for the traceback)",
            err=True,
        )
        return 1
    return result if isinstance(result, int) else 0


@click.group(cls=AlphredGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="alphred", message="%(prog)s %(version)s")
def app() -> None:
    """Run multi-phase LLM coding-agent workflows in isolated git worktrees.

    Every run gets its own branch and worktree; every attempt, event, report and routing decision is
    stored in SQL. `alphred COMMAND --help` tells more about each command.
    """
    check_settings(os.environ)


RUN_ID = click.IntRange(1, MAX_ID)  # run ids and counts: what the database stores


class Seconds(click.FloatRange):
    """A number of seconds: finite (``nan`` and ``inf`` are refused, which ``FloatRange`` lets through) and at
    least ``min``."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The value as a finite float within range, else a usage error."""
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return number


def check_branch_name(value: str | None) -> str | None:
    """``--branch`` takes a branch name: ``refs/heads/main`` would become ``refs/heads/refs/heads/main``."""
    if value is not None and value.strip().startswith("refs/"):
        raise UsageError(f"--branch takes a branch name, not a ref: '{value}' (drop the 'refs/.../' prefix)")
    return value


def suggestion_place(repo_path: str | None) -> Any:
    """Where the person who runs this command is, for the ``next:`` commands it prints (``views.suggestions``):
    ``--repo`` when ``repo_path`` is not the current directory's repository, ``--db`` when the command
    line named the database."""
    from alphred.views.suggestions import place_for

    ctx = click.get_current_context(silent=True)
    db = None
    if ctx is not None and ctx.get_parameter_source("db") is click.core.ParameterSource.COMMANDLINE:
        db = ctx.params.get("db")
    return place_for(repo_path, db)


repo_option = click.option(
    "--repo",
    "repo",
    metavar="PATH",
    default=None,
    help="Git repository to work in (default: the current one).",
)
db_option = click.option(
    "--db",
    "db",
    metavar="URL",
    default=None,
    envvar="ALPHRED_DATABASE_URL",
    callback=db_url_callback,
    help="SQLAlchemy database URL (default: SQLite at .alphred/alphred.db in the repository).",
)
