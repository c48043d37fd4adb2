"""The click group and the ONE place where errors become ``Error [CODE]: message`` and exit codes."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any

import click

from alphred import __version__
from alphred.errors import AlphredError, UsageError
from alphred.settings import check_settings

from .dburl import db_url_callback

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
    """Run multi-phase LLM coding-agent workflows in isolated git worktrees."""
    check_settings(os.environ)


RUN_ID = click.IntRange(1, MAX_ID)  # run ids and counts: what the database stores


def check_branch_name(value: str | None) -> str | None:
    """``--branch`` takes a branch name: ``refs/heads/main`` would become ``refs/heads/refs/heads/main``."""
    if value is not None and value.strip().startswith("refs/"):
        raise UsageError(f"--branch takes a branch name, not a ref: '{value}' (drop the 'refs/.../' prefix)")
    return value


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
