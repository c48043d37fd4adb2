"""Failure kinds are ``ProviderError`` classes, each saying whether it is retried: one retry rule."""

from __future__ import annotations

import pytest

from alphred.errors import (
    FAILURE_KINDS,
    KINDS,
    RETRYABLE_KINDS,
    AlphredError,
    ArtifactsTooLargeError,
    AttemptInterruptedError,
    AttemptTimeoutError,
    AuthError,
    CommandError,
    CommandTimeoutError,
    GitLockedError,
    IdleTimeoutError,
    InternalProviderError,
    InvalidRequestError,
    ProviderError,
    RateLimitError,
    TransportError,
    UnsafeCommandError,
    UsageLimitError,
    WorktreeTamperedError,
)

# The rule as SPEC §4 and docs/providers.md state it, and as the stored ``kind`` strings spell it.
RETRIED = {
    "auth": False,
    "rate_limit": True,
    "usage_limit": False,  # not retried: the run waits for the reset (SPEC §15)
    "timeout": True,
    "idle_timeout": True,
    "transport": True,
    "invalid_request": False,
    "internal": True,
    "worktree_tampered": False,  # found by the runtime after an attempt (SPEC §14), never by a provider
    "artifacts_too_large": False,  # found by the runtime as an attempt ends (SPEC §17)
}


def test_the_kinds_and_their_strings_did_not_change() -> None:
    assert KINDS == ("auth", "rate_limit", "timeout", "transport", "invalid_request", "internal")
    assert {kind: cls.retryable for kind, cls in FAILURE_KINDS.items()} == RETRIED
    assert [FAILURE_KINDS[k] for k in RETRIED] == [
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
    ]


def test_the_backoff_set_is_read_off_the_classes() -> None:
    assert (
        frozenset({"rate_limit", "transport", "timeout", "idle_timeout", "internal", "git_locked"}) == RETRYABLE_KINDS
    )
    assert GitLockedError.kind == "git_locked" and GitLockedError.retryable


@pytest.mark.parametrize("kind", sorted(RETRIED))
def test_naming_a_kind_builds_its_class(kind: str) -> None:
    error = ProviderError("it broke", kind=kind, code="X_CODE", retry_after=3.0)
    assert type(error) is FAILURE_KINDS[kind] and isinstance(error, ProviderError | AlphredError)
    assert (error.kind, error.retryable, error.code, error.retry_after, str(error)) == (
        kind,
        RETRIED[kind],
        "X_CODE",
        3.0,
        "it broke",
    )


def test_defaults_and_a_kind_alphred_does_not_know() -> None:
    plain = ProviderError("boom")
    assert type(plain) is InternalProviderError and plain.retryable and plain.code == "PROVIDER_ERROR"
    odd = ProviderError("odd", kind="quota_of_the_moon")
    assert type(odd) is ProviderError and odd.kind == "quota_of_the_moon" and not odd.retryable
    assert ProviderError.kind == "internal"  # an instance's own kind never leaks into the class


def test_a_class_keeps_its_kind() -> None:
    assert AuthError("x", kind="auth").kind == "auth"
    with pytest.raises(TypeError, match="AuthError is kind 'auth', not 'timeout'"):
        AuthError("x", kind="timeout")


def test_an_interrupted_attempt_is_internal_and_never_retried() -> None:
    error = AttemptInterruptedError("cancelled", code="CLAUDE_INTERRUPTED")
    assert isinstance(error, InternalProviderError)
    assert (error.kind, error.retryable, error.code) == ("internal", False, "CLAUDE_INTERRUPTED")


def test_command_errors_are_their_kinds_too() -> None:
    late = CommandTimeoutError("command timed out after 1s (process group killed)")
    assert isinstance(late, CommandError) and isinstance(late, AttemptTimeoutError)
    assert (late.kind, late.retryable, late.code, late.exit_code) == ("timeout", True, "COMMAND_TIMEOUT", 1)
    unsafe = UnsafeCommandError("{{ x }} stands where the shell cannot receive a value")
    assert isinstance(unsafe, CommandError) and isinstance(unsafe, InvalidRequestError)
    assert (unsafe.kind, unsafe.retryable, unsafe.code) == ("invalid_request", False, "UNSAFE_PLACEHOLDER")
    assert UnsafeCommandError("too large", code="VALUE_TOO_LARGE").code == "VALUE_TOO_LARGE"


def _subclasses(cls: type[ProviderError]) -> list[type[ProviderError]]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def test_every_failure_class_agrees_with_its_kind() -> None:
    """A subclass may refine its kind's rule only where the tree says so (a cancelled attempt)."""
    refined = {AttemptInterruptedError}
    for cls in _subclasses(ProviderError):
        if cls in refined or cls is CommandError:
            continue
        assert cls.kind in FAILURE_KINDS, cls
        assert cls.retryable is FAILURE_KINDS[cls.kind].retryable, cls
