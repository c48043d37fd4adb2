"""Which keys each part of a workflow file may hold (format 1); a provider's own keys come from the
catalogue of providers the loader is given (``provider_keys``)."""

from __future__ import annotations

from alphred.workflow.model import PhaseType
from alphred.workflow.provider_keys import ProviderKeys, names

TOP_KEYS = (
    "alphred",
    "key",
    "name",
    "description",
    "inputs",
    "defaults",
    "limits",
    "start",
    "pull_request",
    "git",
    "memory",
    "phases",
)
INPUT_KEYS = ("required", "default", "description")
LIMIT_KEYS = (
    "max_steps", "max_tokens", "max_cost_usd", "max_parallel", "max_wait", "max_stalls", "max_artifact_bytes",
    "max_items", "timeout",
)  # fmt: skip
PULL_REQUEST_KEYS = ("title", "body_from", "draft", "base", "provider", "when", "required")
TRANSITION_KEYS = ("to", "when", "max", "priority", "for_each", "as")
BRANCH_KEYS = ("phase", "when")  # a guarded branch of a static fan-out (SPEC §13)
CHECK_KINDS = ("run", "changed", "unchanged", "report")
CHECK_KEYS = (*CHECK_KINDS, "name", "timeout")
REPORT_CHECK_KEYS = ("required",)

COMMON_PHASE_KEYS = (
    "type",
    "transitions",
    "max_retries",
    "max_visits",
    "timeout",
    "idle_timeout",
    "context",
    "join",
    "on_conflict",
)
AGENT_KEYS = (
    "provider",
    "model",
    "prompt",
    "prompt_file",
    "decisions",
    "checks",
    "sandbox",
    "env",
    "output",
    "tools",
    "mcp",
    "fallback",
)
COMMAND_KEYS = ("run", "allow_failure", "checks", "sandbox", "env", "output", "shell")
SHELLS = ("sh", "bash")  # ``shell:`` of a command phase: /bin/sh (the default) or bash
APPROVAL_KEYS = ("message",)
PULL_REQUEST_PHASE_KEYS = (
    "title", "body_from", "draft", "base", "labels", "reviewers", "existing", "allow_forks", "branch",
)  # fmt: skip
CI_KEYS = ("poll", "required_only")
WORKFLOW_KEYS = ("uses", "with")  # ``type: workflow`` (SPEC §13): the child workflow and its inputs
# a workflow phase's own common keys: no idle timeout (its child's phases have theirs), no upstream context
WORKFLOW_COMMON_KEYS = ("type", "transitions", "max_retries", "max_visits", "timeout", "join", "on_conflict")

# `defaults:` may set any phase field that is not specific to one phase, and any key a provider declares
# (``provider_keys.declares``); a phase takes a default only where it may hold that key.
COMMON_DEFAULTABLE_KEYS = (
    "provider",
    "model",
    "max_retries",
    "max_visits",
    "timeout",
    "idle_timeout",
    "allow_failure",
    "shell",
    "sandbox",
    "env",
    "tools",
    "mcp",
)


def allowed_phase_keys(ptype: PhaseType, provider: ProviderKeys) -> tuple[str, ...]:
    """Every key a phase of this type may hold (an agent phase: with ``provider``'s own keys)."""
    if ptype is PhaseType.COMMAND:
        return COMMON_PHASE_KEYS + COMMAND_KEYS
    if ptype is PhaseType.APPROVAL:
        return COMMON_PHASE_KEYS + APPROVAL_KEYS
    if ptype is PhaseType.PULL_REQUEST:
        return COMMON_PHASE_KEYS + PULL_REQUEST_PHASE_KEYS
    if ptype is PhaseType.CI:
        return COMMON_PHASE_KEYS + CI_KEYS
    if ptype is PhaseType.WORKFLOW:
        return WORKFLOW_COMMON_KEYS + WORKFLOW_KEYS
    return COMMON_PHASE_KEYS + AGENT_KEYS + names(provider)
