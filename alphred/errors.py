"""Every error Alphred raises on purpose, each with a stable ``code`` and an ``exit_code``.

The tree::

    AlphredError                       (ALPHRED_ERROR, exit 1)
    ├── UsageError                     (USAGE, exit 2)            bad command-line input
    │   ├── MissingInputError          (MISSING_INPUT)            a required workflow input was not given
    │   ├── UnknownRunError            (UNKNOWN_RUN)              a run id that does not exist
    │   ├── RunStateError              (RUN_STATE)                a command that the run's state does not allow
    │   ├── RunBusyError               (RUN_BUSY)                 another live process executes the run
    │   ├── SettingError               (BAD_SETTING)              an ALPHRED_* variable holds a bad value
    │   └── DatabaseUrlError           (BAD_DATABASE_URL)         ``--db``/ALPHRED_DATABASE_URL is unusable
    ├── WorkflowInvalidError           (WORKFLOW_INVALID, exit 2) a workflow file failed validation
    ├── GuardSyntaxError               (GUARD_SYNTAX, exit 2)     a guard expression does not parse
    ├── TemplateError                  (TEMPLATE_SYNTAX, exit 2)  a ``{{ path }}`` template does not parse
    ├── UnknownProviderError           (UNKNOWN_AGENT_PROVIDER, exit 2)
    ├── GitError                       (GIT_ERROR, exit 2)
    │   ├── NotAGitRepositoryError     (NOT_A_GIT_REPOSITORY)
    │   ├── UnbornHeadError            (UNBORN_HEAD)
    │   ├── UnknownRefError            (UNKNOWN_REF)
    │   └── GitLockedError             (GIT_LOCKED)               a git lock is held (contention: retryable)
    ├── StoreError                     (STORE_ERROR, exit 1)
    │   ├── DatabaseLockedError        (DATABASE_LOCKED)
    │   ├── DatabaseCorruptError       (DATABASE_CORRUPT)
    │   ├── InvalidTransitionError     (INVALID_STATE_TRANSITION) a status move outside SPEC §5's tables
    │   └── LeaseLostError             (LEASE_LOST)               another process took over the run
    ├── ProviderError                  (PROVIDER_ERROR, exit 1)   a provider failed a phase attempt; its code is
    │                                                             the provider's (CLAUDE_*, CODEX_*: constants
    │                                                             below; OPENAI_* in alphred.providers.openai_errors)
    ├── RuntimeFailure                 (RUNTIME_ERROR, exit 1)    an unexpected error failed an attempt
    ├── ScmNotReadyError               (SCM_NOT_READY, exit 2)    PR preflight: gh/az missing or logged out,
    │   │                                                         no remote, no base branch
    │   └── RemoteBranchTakenError     (REMOTE_BRANCH_EXISTS)     the run's branch is on the remote with other
    │                                                             commits (checked before any agent runs)
    ├── DeliveryError                  (DELIVERY_FAILED, exit 1)  pushing the run's branch, opening its PR or
    │                                                             confirming that the PR exists failed
    ├── RepositoryRegistryError        (REPOSITORY_REGISTRY, exit 2) ``alphred repo`` / ``run --repo NAME``
    │   ├── UnknownRepositoryError     (UNKNOWN_REPOSITORY)       a name that is neither a directory nor registered
    │   ├── RepositoryExistsError      (REPOSITORY_EXISTS)        ``repo add`` with a name already registered
    │   └── RepositoryCloneError       (CLONE_FAILED)             cloning a registered URL failed
    └── UiError                        (UI_ERROR, exit 2)         ``alphred ui`` cannot start (address in use, ...)
        └── UiNotInstalledError        (UI_NOT_INSTALLED)         starlette/uvicorn missing: install ``alphred[ui]``

Each class is built from structured fields; its message is derived from them. The command line turns any
of these into ``Error [CODE]: message`` on stderr and the exit code, in one place (``alphred.cli``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class AlphredError(Exception):
    """Base of every error Alphred raises on purpose.

    Raised when: never directly; catch it to handle any Alphred error.
    """

    code: str = "ALPHRED_ERROR"
    exit_code: int = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


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


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a workflow file, located at ``file:line:column`` (1-based)."""

    file: str
    line: int
    column: int
    severity: str  # "error" | "warning"
    message: str

    def format(self) -> str:
        """Render as ``FILE:LINE:COL: severity: message``."""
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"


class WorkflowInvalidError(AlphredError):
    """Raised when: a workflow file has at least one validation error (warnings alone never raise)."""

    code = "WORKFLOW_INVALID"
    exit_code = 2

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        errors = [d for d in self.diagnostics if d.severity == "error"]
        lines = "\n".join(d.format() for d in self.diagnostics)
        super().__init__(f"{len(errors)} error(s) in workflow\n{lines}")


class GuardSyntaxError(AlphredError):
    """Raised when: a guard expression does not parse; the message shows a caret under the column."""

    code = "GUARD_SYNTAX"
    exit_code = 2

    def __init__(self, expression: str, column: int, detail: str) -> None:
        self.expression = expression
        self.column = column  # 1-based, within ``expression``
        self.detail = detail
        caret = " " * (max(column, 1) - 1) + "^"
        super().__init__(f"invalid guard: {detail}\n    {expression}\n    {caret}")


class TemplateError(AlphredError):
    """Raised when: a ``{{ path }}`` placeholder is malformed (unclosed, empty or not a path)."""

    code = "TEMPLATE_SYNTAX"
    exit_code = 2

    def __init__(self, text: str, offset: int, detail: str) -> None:
        self.text = text
        self.offset = offset  # 0-based character offset of the placeholder
        self.detail = detail
        super().__init__(f"invalid template: {detail}")


class UnknownProviderError(AlphredError):
    """Raised when: a phase names a provider that no built-in or entry point registers."""

    code = "UNKNOWN_AGENT_PROVIDER"
    exit_code = 2

    def __init__(self, name: str, available: Sequence[str]) -> None:
        self.name = name
        self.available = tuple(sorted(available))
        super().__init__(f"unknown provider '{name}'; available providers: {', '.join(self.available)}")


class GitError(AlphredError):
    """Raised when: a git operation Alphred needs fails (the message carries git's own words)."""

    code = "GIT_ERROR"
    exit_code = 2


class NotAGitRepositoryError(GitError):
    """Raised when: the directory given (or the current one) is not inside a git repository."""

    code = "NOT_A_GIT_REPOSITORY"

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(f"{path} is not inside a git repository (use --repo PATH or run `git init`)")


class UnbornHeadError(GitError):
    """Raised when: the repository has no commit yet, so there is nothing to branch a run from."""

    code = "UNBORN_HEAD"

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(f"repository {path} has no commits yet: make a first commit before running")


class UnknownRefError(GitError):
    """Raised when: ``--base`` (or a workflow's base) names a ref that does not resolve to a commit."""

    code = "UNKNOWN_REF"

    def __init__(self, ref: str) -> None:
        self.ref = ref
        super().__init__(f"unknown git ref '{ref}'")


class GitLockedError(GitError):
    """Raised when: git could not take one of its lock files (another git process holds it right now).

    Lock contention is transient: the attempt fails with the retryable kind ``git_locked``. A lock left by
    a dead process is removed on take-over (see ``alphred.git.repair``).
    """

    code = "GIT_LOCKED"


class StoreError(AlphredError):
    """Raised when: the database cannot be opened, migrated, read or written."""

    code = "STORE_ERROR"


class DatabaseLockedError(StoreError):
    """Raised when: the database stayed locked by another process for longer than the busy timeout."""

    code = "DATABASE_LOCKED"

    def __init__(self, url: str, seconds: float) -> None:
        self.url = url
        self.seconds = seconds
        super().__init__(f"database {url} stayed locked for {seconds:g}s; is another alphred writing?")


class DatabaseCorruptError(StoreError):
    """Raised when: the database file is not a database or is damaged."""

    code = "DATABASE_CORRUPT"

    def __init__(self, url: str, detail: str) -> None:
        self.url = url
        super().__init__(f"database {url} is unreadable: {detail}")


class InvalidTransitionError(StoreError):
    """Raised when: a run or phase status move is not in SPEC §5's transition tables."""

    code = "INVALID_STATE_TRANSITION"

    def __init__(self, entity: str, ident: object, old: str, new: str) -> None:
        self.entity = entity
        self.ident = ident
        self.old = old
        self.new = new
        super().__init__(f"{entity} {ident}: status move {old} -> {new} is not allowed")


# Codes of a failed attempt (``ProviderError.code``, the diagnostics' ``error_code``): one per failure.
NO_RESULT = "NO_RESULT"  # the stream ended without its ``result`` event
EVENT_AFTER_RESULT = "EVENT_AFTER_RESULT"  # an event arrived after the ``result``
BAD_EVENT = "BAD_EVENT"  # something else than a ProviderEvent
PROVIDER_CRASH = "PROVIDER_CRASH"  # the provider raised an unexpected exception
TIMEOUT = "TIMEOUT"  # the phase ran past its ``timeout``
IDLE_TIMEOUT = "IDLE_TIMEOUT"  # the phase produced no event for its ``idle_timeout``

# The agent CLIs' codes (``ProviderError.code``; docs/providers.md lists them). Per failure kind, the code
# ``providers.errors.provider_error`` gives when the adapter names no more precise one:
CLAUDE_AUTH = "CLAUDE_AUTH"
CLAUDE_RATE_LIMIT = "CLAUDE_RATE_LIMIT"
CLAUDE_TIMEOUT = "CLAUDE_TIMEOUT"
CLAUDE_TRANSPORT = "CLAUDE_TRANSPORT"
CLAUDE_INVALID_REQUEST = "CLAUDE_INVALID_REQUEST"
CLAUDE_INTERNAL = "CLAUDE_INTERNAL"
CODEX_AUTH = "CODEX_AUTH"
CODEX_RATE_LIMIT = "CODEX_RATE_LIMIT"
CODEX_TIMEOUT = "CODEX_TIMEOUT"
CODEX_TRANSPORT = "CODEX_TRANSPORT"
CODEX_INVALID_REQUEST = "CODEX_INVALID_REQUEST"
CODEX_INTERNAL = "CODEX_INTERNAL"
# ... and the more precise ones the adapters name:
CLAUDE_BILLING = "CLAUDE_BILLING"  # the account cannot pay
CLAUDE_BUDGET = "CLAUDE_BUDGET"  # the run's budget is spent
CLAUDE_MAX_TURNS = "CLAUDE_MAX_TURNS"  # the turn limit was reached
CLAUDE_NO_DECISION = "CLAUDE_NO_DECISION"  # the CLI gave up on the structured output
CLAUDE_NOT_FOUND = "CLAUDE_NOT_FOUND"  # no Claude Code CLI
CLAUDE_ROOT_BYPASS = "CLAUDE_ROOT_BYPASS"  # Claude Code refuses to bypass permissions as root
CLAUDE_BAD_SETTINGS = "CLAUDE_BAD_SETTINGS"
CLAUDE_SDK_MISSING = "CLAUDE_SDK_MISSING"
CLAUDE_CRASH = "CLAUDE_CRASH"
CLAUDE_BAD_OUTPUT = "CLAUDE_BAD_OUTPUT"
CLAUDE_CONNECTION = "CLAUDE_CONNECTION"
CLAUDE_INTERRUPTED = "CLAUDE_INTERRUPTED"
CODEX_NOT_FOUND = "CODEX_NOT_FOUND"
CODEX_BAD_SETTINGS = "CODEX_BAD_SETTINGS"
CODEX_CRASH = "CODEX_CRASH"
CODEX_INTERRUPTED = "CODEX_INTERRUPTED"

PROVIDER_KIND_CODES: dict[str, dict[str, str]] = {
    "CLAUDE": {
        "auth": CLAUDE_AUTH,
        "rate_limit": CLAUDE_RATE_LIMIT,
        "timeout": CLAUDE_TIMEOUT,
        "transport": CLAUDE_TRANSPORT,
        "invalid_request": CLAUDE_INVALID_REQUEST,
        "internal": CLAUDE_INTERNAL,
    },
    "CODEX": {
        "auth": CODEX_AUTH,
        "rate_limit": CODEX_RATE_LIMIT,
        "timeout": CODEX_TIMEOUT,
        "transport": CODEX_TRANSPORT,
        "invalid_request": CODEX_INVALID_REQUEST,
        "internal": CODEX_INTERNAL,
    },
}
"""Per agent CLI (the ``prefix`` of ``provider_error``), the code of each failure kind."""

GIT_LOCKED_KIND = "git_locked"
RETRYABLE_KINDS = frozenset({"rate_limit", "transport", "timeout", "idle_timeout", "internal", GIT_LOCKED_KIND})


class LeaseLostError(StoreError):
    """Raised when: another process took over this run's lease; this process stops touching the run."""

    code = "LEASE_LOST"

    def __init__(self, run_id: int) -> None:
        self.run_id = run_id
        super().__init__(f"run {run_id} was taken over by another process; this one stops")


class ProviderError(AlphredError):
    """Raised when: a provider fails a phase attempt; ``kind`` is the failure class of SPEC §4.

    ``kind`` is one of auth, rate_limit, timeout, transport, invalid_request, internal.
    """

    code = "PROVIDER_ERROR"

    def __init__(
        self,
        message: str,
        *,
        kind: str = "internal",
        retryable: bool | None = None,
        code: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.retryable = kind in RETRYABLE_KINDS if retryable is None else retryable
        if code is not None:
            self.code = code
        self.retry_after = retry_after


class RuntimeFailure(AlphredError):
    """Raised when: never; its ``code`` names an attempt failed by an unexpected (non-Alphred) exception."""

    code = "RUNTIME_ERROR"


class ScmNotReadyError(AlphredError):
    """Raised when: a pull request will be needed but ``gh``/``az``, its login, the remote or the base is missing.

    Found by the preflight before the run starts; ``fix`` says what to do about it.
    """

    code = "SCM_NOT_READY"
    exit_code = 2

    def __init__(self, problem: str, fix: str) -> None:
        self.problem = problem
        self.fix = fix
        super().__init__(f"{problem}: {fix}")


class RemoteBranchTakenError(ScmNotReadyError):
    """Raised when: a run that will push finds its branch already on the remote with commits it lacks.

    Checked right after the run's branch is chosen and before any phase runs (a later push would be refused).
    """

    code = "REMOTE_BRANCH_EXISTS"


class DeliveryError(AlphredError):
    """Raised when: pushing the run's branch or opening its pull request failed (the run fails, branch kept).

    ``kind`` is one of no_remote, push_rejected, auth, push, no_commits, pull_request, unconfirmed (the pull
    request could not be confirmed to exist for the run's branch after opening or finding it, SPEC §9).
    """

    code = "DELIVERY_FAILED"

    def __init__(self, kind: str, detail: str, *, branch: str, remote: str | None = None) -> None:
        self.kind = kind
        self.detail = detail
        self.branch = branch
        self.remote = remote
        super().__init__(f"{detail} (the branch {branch} is kept)")


class RepositoryRegistryError(AlphredError):
    """Raised when: a repository registry command gets a bad name, path or URL."""

    code = "REPOSITORY_REGISTRY"
    exit_code = 2


class UnknownRepositoryError(RepositoryRegistryError):
    """Raised when: ``--repo NAME`` or ``repo remove NAME`` names neither a directory nor a registered repository."""

    code = "UNKNOWN_REPOSITORY"

    def __init__(self, name: str, known: Sequence[str], *, as_path: bool = False) -> None:
        self.name = name
        self.known = tuple(sorted(known))
        listed = ", ".join(self.known) or "none"
        what = (
            f"'{name}' is neither a directory nor a registered repository"
            if as_path
            else (f"no repository named '{name}' is registered")
        )
        super().__init__(f"{what} (registered: {listed}; add one with `alphred repo add {name} PATH|URL`)")


class RepositoryExistsError(RepositoryRegistryError):
    """Raised when: ``repo add NAME`` names a repository that is already registered."""

    code = "REPOSITORY_EXISTS"

    def __init__(self, name: str, location: str) -> None:
        self.name = name
        self.location = location
        super().__init__(
            f"a repository named '{name}' is already registered ({location}): `alphred repo remove {name}` first"
        )


class RepositoryCloneError(RepositoryRegistryError):
    """Raised when: cloning a registered repository URL into ``~/.alphred/repos/`` failed (git's words quoted)."""

    code = "CLONE_FAILED"

    def __init__(self, name: str, url: str, detail: str) -> None:
        self.name = name
        self.url = url
        self.detail = detail
        super().__init__(f"cannot clone repository '{name}' from {url}: {detail}")


class UiError(AlphredError):
    """Raised when: ``alphred ui`` cannot start (the address is in use or cannot be bound)."""

    code = "UI_ERROR"
    exit_code = 2


class UiNotInstalledError(UiError):
    """Raised when: ``alphred ui`` runs without its optional dependencies (starlette, uvicorn)."""

    code = "UI_NOT_INSTALLED"

    def __init__(self, missing: str) -> None:
        self.missing = missing
        super().__init__(
            f"the web view needs the optional packages starlette and uvicorn ({missing} is missing): "
            "install them with `pip install 'alphred[ui]'` (or `pip install starlette uvicorn`)"
        )
