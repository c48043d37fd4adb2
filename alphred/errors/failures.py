"""Why a phase attempt failed: ``ProviderError``, one class per failure kind, and the one retry rule.

The subtree is drawn with the whole error tree in ``alphred.errors``. ``kind`` is the string stored with
the attempt and shown by ``status --json``; whether a kind is retried is a property of its class,
``retryable`` (``RETRYABLE_KINDS`` is read off these classes). ``ProviderError(message, kind=...)`` builds
the class of that kind (``ProviderError("x", kind="auth")`` is an ``AuthError``), so a provider may name
the kind by its string, as SPEC §4 does; a kind Alphred does not know stays a plain ``ProviderError`` and
is not retried. Each provider's codes (``CLAUDE_*``, ``CODEX_*``, ``OPENAI_*``, ``SCRIPTED_FAIL``) live
with the provider that raises them; the codes below are the ones any attempt may end with.
"""

from __future__ import annotations

from alphred.errors import AlphredError

# Codes of a failed attempt (``ProviderError.code``, the diagnostics' ``error_code``), whatever runs it.
NO_RESULT = "NO_RESULT"  # the stream ended without its ``result`` event
EVENT_AFTER_RESULT = "EVENT_AFTER_RESULT"  # an event arrived after the ``result``
BAD_EVENT = "BAD_EVENT"  # something else than a ProviderEvent
PROVIDER_CRASH = "PROVIDER_CRASH"  # the provider raised an unexpected exception
TIMEOUT = "TIMEOUT"  # the phase ran past its ``timeout``
IDLE_TIMEOUT = "IDLE_TIMEOUT"  # the phase produced no event for its ``idle_timeout``


class ProviderError(AlphredError):
    """Raised when: a provider fails a phase attempt (a command phase's failures are ``CommandError``).

    ``kind`` names the failure class of SPEC §4 (auth, rate_limit, timeout, transport, invalid_request,
    internal); ``retryable`` comes with it. ``code`` is the provider's stable code (``PROVIDER_ERROR`` when
    it names none); ``retry_after`` the least wait, in seconds, the provider asked for before a retry.
    """

    code = "PROVIDER_ERROR"
    kind: str = "internal"
    retryable: bool = False  # a kind Alphred does not know is not retried; every known kind says its own

    def __new__(
        cls, message: str, *, kind: str | None = None, code: str | None = None, retry_after: float | None = None
    ) -> ProviderError:
        target: type[ProviderError] = cls
        if cls is ProviderError:
            target = FAILURE_KINDS.get(kind or InternalProviderError.kind, ProviderError)
        return super().__new__(target, message)

    def __init__(
        self, message: str, *, kind: str | None = None, code: str | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        if kind is not None and kind != self.kind:
            if type(self) is not ProviderError:
                raise TypeError(f"{type(self).__name__} is kind {self.kind!r}, not {kind!r}")
            self.kind = kind
        if code is not None:
            self.code = code
        self.retry_after = retry_after


class AuthError(ProviderError):
    """Raised when: the provider's credentials are missing, refused or expired (not retried: fix them)."""

    kind = "auth"
    retryable = False


class RateLimitError(ProviderError):
    """Raised when: the provider throttles (HTTP 429/529, quota, usage limit); retried after a backoff."""

    kind = "rate_limit"
    retryable = True


class UsageLimitError(RateLimitError):
    """Raised when: the provider reports a usage limit with its reset time (SPEC §15): claude's rate-limit
    event, codex's usage-limit error, an HTTP 429 whose ``retry-after`` is over ``USAGE_LIMIT_SECONDS``.

    Not retried within the attempt: the attempt ends ``interrupted`` and the run waits until ``reset_at``
    (seconds since the epoch) or ``retry_after`` seconds from now, or fails over to a ``fallback`` provider.
    """

    kind = "usage_limit"
    retryable = False

    def __init__(
        self,
        message: str,
        *,
        kind: str | None = None,
        code: str | None = None,
        retry_after: float | None = None,
        reset_at: float | None = None,
    ) -> None:
        super().__init__(message, kind=kind, code=code, retry_after=retry_after)
        self.reset_at = reset_at

    def __new__(
        cls,
        message: str,
        *,
        kind: str | None = None,
        code: str | None = None,
        retry_after: float | None = None,
        reset_at: float | None = None,
    ) -> UsageLimitError:
        made = super().__new__(cls, message, kind=kind, code=code, retry_after=retry_after)
        assert isinstance(made, UsageLimitError)
        return made

    def wake_at(self, now: float) -> float:
        """When the limit resets: ``reset_at``, else ``retry_after`` seconds after ``now`` (at least ``now``)."""
        if self.reset_at is not None:
            return max(now, self.reset_at)
        return now + max(0.0, self.retry_after or 0.0)


USAGE_LIMIT_SECONDS = 60.0
"""A rate limit that resets later than this is a usage limit the run waits out (SPEC §15); a shorter one is
retried within the attempt's retries after a backoff."""


class AttemptTimeoutError(ProviderError):
    """Raised when: the attempt ran past its ``timeout`` (``TIMEOUT``) or the provider did not answer in time."""

    kind = "timeout"
    retryable = True


class IdleTimeoutError(AttemptTimeoutError):
    """Raised when: the attempt produced no event for the phase's ``idle_timeout`` (``IDLE_TIMEOUT``)."""

    kind = "idle_timeout"
    retryable = True


class TransportError(ProviderError):
    """Raised when: the provider cannot be reached or the connection broke (network, HTTP 5xx); retried."""

    kind = "transport"
    retryable = True


class InvalidRequestError(ProviderError):
    """Raised when: the attempt cannot succeed as asked (bad settings, unknown model, missing binary); not retried."""

    kind = "invalid_request"
    retryable = False


class InternalProviderError(ProviderError):
    """Raised when: the provider failed in a way no other kind describes (a crash, bad output); retried."""

    kind = "internal"
    retryable = True


class AttemptInterruptedError(InternalProviderError):
    """Raised when: the attempt was cancelled while it ran (pause, cancel, Ctrl+C); never retried."""

    retryable = False


class CommandError(ProviderError):
    """Raised when: never directly; its subclasses say why a command phase's (or a check's) command failed.

    Command phases run through the provider event contract, so their failures are ``ProviderError``s too.
    A command that runs and exits non-zero raises nothing: its attempt fails with kind ``exit_code`` and
    this class's code, ``COMMAND_FAILED`` (``runtime/outcome.py``), unless the phase allows failure.
    """

    code = "COMMAND_FAILED"


class CommandTimeoutError(CommandError, AttemptTimeoutError):
    """Raised when: a command ran past its timeout; its process group was killed (retried)."""

    code = "COMMAND_TIMEOUT"


class UnsafeCommandError(CommandError, InvalidRequestError):
    """Raised when: a value cannot reach the command safely: a placeholder where the shell cannot receive a
    value (``UNSAFE_PLACEHOLDER``), or a value over what one environment variable holds (``VALUE_TOO_LARGE``)."""

    code = "UNSAFE_PLACEHOLDER"


VALUE_TOO_LARGE = "VALUE_TOO_LARGE"  # the code of an UnsafeCommandError whose value is too large


class WorktreeTamperedError(ProviderError):
    """Raised when: an attempt replaced or rewrote its worktree's ``.git`` file, or wrote the git directory
    (its ``HEAD``, the repository's config...): not retried; Alphred restores what it recorded (SPEC §14)."""

    code = "WORKTREE_TAMPERED"
    kind = "worktree_tampered"
    retryable = False


class ArtifactsTooLargeError(ProviderError):
    """Raised when: a run's ``$ALPHRED_ARTIFACTS`` (or ``$ALPHRED_MEMORY``) holds more than
    ``limits.max_artifact_bytes`` when a phase ends (SPEC §17): not retried, nothing of it is stored."""

    code = "ARTIFACTS_TOO_LARGE"
    kind = "artifacts_too_large"
    retryable = False


FAILURE_KINDS: dict[str, type[ProviderError]] = {
    cls.kind: cls
    for cls in (
        AuthError,
        RateLimitError,
        UsageLimitError,
        AttemptTimeoutError,
        IdleTimeoutError,
        TransportError,
        InvalidRequestError,
        InternalProviderError,
        WorktreeTamperedError,
        ArtifactsTooLargeError,
    )
}
"""Each failure kind's class: what ``ProviderError(message, kind=...)`` builds."""

_OWN_KINDS = (IdleTimeoutError.kind, WorktreeTamperedError.kind, ArtifactsTooLargeError.kind, UsageLimitError.kind)
KINDS = tuple(kind for kind in FAILURE_KINDS if kind not in _OWN_KINDS)
"""The kinds a provider reports (SPEC §4); ``idle_timeout`` is Alphred's own (and so is ``worktree_tampered``,
``WorktreeTamperedError``, and ``artifacts_too_large``, which no provider reports: the runtime finds them after
the attempt). A usage limit (SPEC §15) is a ``rate_limit`` with its reset time, raised as ``UsageLimitError``."""


class RuntimeFailure(AlphredError):
    """Raised when: never; its ``code`` names an attempt failed by an unexpected (non-Alphred) exception."""

    code = "RUNTIME_ERROR"
