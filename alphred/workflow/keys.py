"""Which keys each part of a workflow file may hold (format 1)."""

from __future__ import annotations

from alphred.workflow.model import PhaseType

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
    "phases",
)
INPUT_KEYS = ("required", "default", "description")
LIMIT_KEYS = ("max_steps", "max_tokens", "max_cost_usd", "max_parallel")
PULL_REQUEST_KEYS = ("title", "body_from", "draft", "base", "provider")
TRANSITION_KEYS = ("to", "when", "max", "priority")
SCRIPT_ENTRY_KEYS = ("decision", "report", "files", "fail", "tokens", "sleep")
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
AGENT_KEYS = ("provider", "model", "prompt", "prompt_file", "decisions", "checks")
COMMAND_KEYS = ("run", "allow_failure", "checks")
APPROVAL_KEYS = ("message",)

# Provider-specific keys of the built-in providers; any other provider takes a free-form `options:` mapping.
PROVIDER_KEYS: dict[str, tuple[str, ...]] = {
    "scripted": ("script",),
    "claude": ("permission_mode", "max_turns", "allowed_tools", "disallowed_tools", "system_prompt"),
    "codex": ("sandbox",),
    "openai": ("base_url", "api", "api_key_env", "max_turns", "system_prompt", "price_per_mtok"),
}
ALL_PROVIDER_KEYS = tuple(sorted({k for keys in PROVIDER_KEYS.values() for k in keys} | {"options"}))

# `defaults:` may set any phase field that is not specific to one phase.
DEFAULTABLE_KEYS = (
    "provider",
    "model",
    "max_retries",
    "max_visits",
    "timeout",
    "idle_timeout",
    "allow_failure",
    *ALL_PROVIDER_KEYS,
)


def allowed_phase_keys(ptype: PhaseType, provider: str | None) -> tuple[str, ...]:
    """Every key a phase of this type (and provider, for agents) may hold."""
    if ptype is PhaseType.COMMAND:
        return COMMON_PHASE_KEYS + COMMAND_KEYS
    if ptype is PhaseType.APPROVAL:
        return COMMON_PHASE_KEYS + APPROVAL_KEYS
    specific = PROVIDER_KEYS.get(provider or "", ("options",))
    return COMMON_PHASE_KEYS + AGENT_KEYS + specific
