"""Bad command-line input: ``UsageError`` and its subclasses (exit 2), drawn in the tree of ``alphred.errors``."""

from __future__ import annotations

from collections.abc import Sequence

from alphred.errors import AlphredError


class UsageError(AlphredError):
    """Raised when: the command line is wrong (bad option value, bad ``-i`` pair, unreadable input file)."""

    code = "USAGE"
    exit_code = 2


class SettingError(UsageError):
    """Raised when: a numeric ``ALPHRED_*`` environment variable is not a number in its range (nan, inf...)."""

    code = "BAD_SETTING"

    def __init__(self, name: str, value: str, wanted: str) -> None:
        super().__init__(f"{name} must be {wanted}, not {value[:40]!r}")
        self.name = name


class DatabaseUrlError(UsageError):
    """Raised when: ``--db`` (or ALPHRED_DATABASE_URL) is not a URL Alphred can store runs at."""

    code = "BAD_DATABASE_URL"

    def __init__(self, shown: str, problem: str) -> None:
        super().__init__(f"--db {shown}: {problem}")


class MissingInputError(UsageError):
    """Raised when: a workflow input marked ``required`` was not given to ``run``."""

    code = "MISSING_INPUT"

    def __init__(self, names: Sequence[str], workflow_key: str) -> None:
        self.names = tuple(names)
        listed = ", ".join(self.names)
        plural = "s" if len(self.names) > 1 else ""
        super().__init__(f"workflow '{workflow_key}' needs input{plural} {listed}: pass -i {self.names[0]}=VALUE")


class UnknownInputError(UsageError):
    """Raised when: ``-i NAME=VALUE`` names an input the workflow does not declare."""

    code = "UNKNOWN_INPUT"

    def __init__(self, name: str, declared: Sequence[str]) -> None:
        self.name = name
        known = ", ".join(sorted(declared)) or "none"
        super().__init__(f"unknown input '{name}' (declared inputs: {known})")


class UnknownRunError(UsageError):
    """Raised when: a command names a run id that the database does not hold."""

    code = "UNKNOWN_RUN"

    def __init__(self, run_id: object) -> None:
        self.run_id = run_id
        if run_id is None:  # the latest run was asked for, and there is none
            super().__init__("no runs yet (start one with `alphred run FILE`)")
        else:
            super().__init__(f"no run with id {run_id}")


class RunStateError(UsageError):
    """Raised when: a command asks for something the run's current status does not allow."""

    code = "RUN_STATE"

    def __init__(
        self, run_id: int, status: str, action: str, reason: str | None = None, hint: str | None = None
    ) -> None:
        self.run_id = run_id
        self.status = status
        self.action = action
        why = f" ({reason})" if reason and reason != status else ""
        more = f"; {hint}" if hint else ""
        super().__init__(f"cannot {action} run {run_id}: it is {status}{why}{more}")


class RunBusyError(UsageError):
    """Raised when: another live process holds the run's lease (it is being executed right now)."""

    code = "RUN_BUSY"

    def __init__(self, run_id: int, owner: str | None) -> None:
        self.run_id = run_id
        self.owner = owner
        super().__init__(f"run {run_id} is being executed by another process ({owner}); try again when it stops")
