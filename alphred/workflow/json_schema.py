"""The JSON Schema of workflow files (draft 2020-12), assembled from the key lists and a provider catalogue.

Shapes only: references, guards and templates need ``alphred validate``. The format's own keys (``keys``)
get their fragments here; an agent phase's provider-specific keys come from each provider's declaration
(``provider_keys``), so a provider added by an entry point appears in ``alphred schema`` too.
``schemas/workflow.schema.json`` is ``alphred schema`` with Alphred's own providers (a test keeps them equal).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from alphred.workflow.containment import ENV_SCHEMA, GIT_SCHEMA, SANDBOX_SCHEMA
from alphred.workflow.keys import (
    AGENT_KEYS,
    APPROVAL_KEYS,
    CHECK_KINDS,
    CI_KEYS,
    COMMAND_KEYS,
    COMMON_DEFAULTABLE_KEYS,
    COMMON_PHASE_KEYS,
    INPUT_KEYS,
    LIMIT_KEYS,
    PULL_REQUEST_KEYS,
    PULL_REQUEST_PHASE_KEYS,
    TOP_KEYS,
    TRANSITION_KEYS,
    WORKFLOW_COMMON_KEYS,
    WORKFLOW_KEYS,
)
from alphred.workflow.provider_keys import OPTIONS_KEY, JsonSchema, ProviderCatalogue, ProviderKeys
from alphred.workflow.tooling import MCP_SCHEMA, TOOLS_SCHEMA

SCHEMA_ID = "alphred-workflow-1.schema.json"
PHASE_KEY_PATTERN = "^[a-z_][a-z0-9_]{0,63}$"
STRING = {"type": "string"}
DURATION = {"$ref": "#/$defs/duration"}
NOT_AGENT = {"required": ["type"], "properties": {"type": {"not": {"const": "agent"}}}}

KEY_SCHEMAS: dict[str, JsonSchema] = {
    # top level
    "alphred": {"const": 1},
    "key": {"type": "string", "pattern": "^[a-z0-9][a-z0-9_-]{0,63}$"},
    "name": STRING,
    "description": STRING,
    "start": STRING,
    # every phase
    "transitions": {"type": "array", "items": {"$ref": "#/$defs/transition"}},
    "max_retries": {"type": "integer", "minimum": 0},
    "max_visits": {"type": "integer", "minimum": 1},
    "timeout": DURATION,
    "idle_timeout": DURATION,
    "context": {
        "oneOf": [
            {"type": "boolean"},
            {"type": "null"},
            {"type": "array", "items": STRING},
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "from": {"type": "array", "items": STRING},
                    "max_reports": {"type": "integer", "minimum": 1, "maximum": 32},
                },
            },
        ]
    },
    "join": {
        "enum": ["all", "any", "all_done"],
        "description": "Fan-in: run once every branch (all) or the first branch (any) arrived, or once every "
        "branch ended, merging the ones that arrived (all_done)",
    },
    "on_conflict": {"type": "string", "description": "The phase that resolves a merge conflict at this join"},
    # agent, command and approval phases
    "provider": STRING,
    "model": STRING,
    "prompt": STRING,
    "prompt_file": STRING,
    "decisions": {
        "type": "array",
        "minItems": 1,
        "uniqueItems": True,
        "items": {"type": "string", "pattern": "^[A-Za-z0-9_.-]+$"},
    },
    "checks": {"$ref": "#/$defs/checks"},
    "run": STRING,
    "allow_failure": {"type": "boolean"},
    "shell": {"enum": ["sh", "bash"], "description": "The shell of a command phase: sh (/bin/sh, the default) or bash"},
    "message": STRING,
    "sandbox": SANDBOX_SCHEMA,
    "env": ENV_SCHEMA,
    "tools": TOOLS_SCHEMA,
    "mcp": MCP_SCHEMA,
    "output": {
        "$ref": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"const": "object"}},
        "description": "JSON Schema (draft 2020-12) of the phase's report object (SPEC §12)",
    },
    "git": GIT_SCHEMA,
    "fallback": {
        "type": "array",
        "minItems": 1,
        "items": {
            "oneOf": [
                STRING,
                {"type": "object", "required": ["provider"], "properties": {"provider": STRING, "model": STRING}},
            ]
        },
        "description": "Providers the next attempt moves to after a usage limit, an auth failure or an outage",
    },
    "memory": {
        "type": "string",
        "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$",
        "description": "$ALPHRED_MEMORY: a directory restored from the last completed run of this workflow and "
        "memory name in the repository, saved when the run completes",
    },
}
SECTION_KEYS: dict[str, dict[str, JsonSchema]] = {
    "inputs": {
        "required": {"type": "boolean"},
        "default": {"type": ["string", "number", "boolean", "null"]},
        "description": STRING,
    },
    "limits": {
        "max_steps": {"type": "integer", "minimum": 1},
        "max_tokens": {"type": "integer", "minimum": 1},
        "max_cost_usd": {"type": "number", "exclusiveMinimum": 0},
        "max_parallel": {
            "type": "integer",
            "minimum": 1,
            "description": "Phases executing at the same moment (default 4)",
        },
        "max_wait": {
            **DURATION,
            "description": "Total time a run may wait out provider usage limits before it fails (default 6h)",
        },
        "max_stalls": {
            "type": "integer",
            "minimum": 1,
            "description": "Consecutive stalled visits of a phase before the run fails 'stalled' (default 3)",
        },
        "max_artifact_bytes": {
            "type": "integer",
            "minimum": 1,
            "description": "Bytes a run may keep in $ALPHRED_ARTIFACTS, and in $ALPHRED_MEMORY (default 50 MiB)",
        },
        "max_items": {
            "type": "integer",
            "minimum": 1,
            "description": "The longest list a for_each may fan out over (default 20)",
        },
        "timeout": {
            "$ref": "#/$defs/duration",
            "description": "Run-wide wall clock from the run's start; past it the run fails with reason timeout",
        },
    },
    "pull_request": {
        "title": STRING,
        "body_from": STRING,
        "draft": {"type": "boolean"},
        "base": STRING,
        "provider": {"enum": ["github", "azure"]},
        "when": {
            "type": "string",
            "description": "Guard over the final state: open the pull request only when it holds",
        },
        "required": {
            "type": "boolean",
            "description": "Fail the run when there is nothing to deliver (default: complete without a pull request)",
        },
    },
    "pull_request_phase": {
        "title": {"type": "string", "description": "The pull request's title (templated)"},
        "body_from": {"type": "string", "description": "Phase whose latest report becomes the body"},
        "draft": {"type": "boolean"},
        "base": STRING,
        "labels": {"type": "array", "items": STRING},
        "reviewers": {"type": "array", "items": STRING},
        "existing": {
            "type": "string",
            "description": "An open pull request (a number or URL, templated): its head branch is checked out into "
            "the run's worktree and the run's commits are pushed to it; no new pull request is opened",
        },
        "allow_forks": {
            "type": "boolean",
            "description": "Accept an existing pull request from a fork (default false)",
        },
        "branch": {
            "type": "string",
            "description": "Open this phase's pull request from its own branch (templated, sanitised), cut from the "
            "run branch when the phase runs: several such phases open several pull requests",
        },
    },
    "workflow": {
        "uses": {
            "type": "string",
            "minLength": 1,
            "description": "The child workflow: a file relative to this one (inside its directory or repository), "
            "or template:NAME for a bundled one",
        },
        "with": {
            "type": "object",
            "additionalProperties": {"type": ["string", "number", "boolean", "null"]},
            "description": "The child's inputs: values or {{ templates }} of this run, rendered when the phase starts",
        },
    },
    "ci": {
        "poll": {"$ref": "#/$defs/duration", "description": "How often the checks are looked at (default 30s)"},
        "required_only": {"type": "boolean", "description": "Wait for the required checks only (default true)"},
    },
    "transition": {
        "to": {
            "oneOf": [
                {"type": "string", "description": "A phase key, $end or $fail"},
                {
                    "type": "array",
                    "minItems": 2,
                    "uniqueItems": True,
                    "items": {
                        "oneOf": [
                            {"type": "string", "pattern": PHASE_KEY_PATTERN},
                            {
                                "type": "object",
                                "additionalProperties": False,
                                "required": ["phase"],
                                "properties": {
                                    "phase": {"type": "string", "pattern": PHASE_KEY_PATTERN},
                                    "when": {"type": "string", "description": "The branch starts only when it holds"},
                                },
                            },
                        ]
                    },
                    "description": "A fan-out: each listed phase starts a parallel branch",
                },
            ]
        },
        "when": {"type": "string", "description": "Guard expression; without it the transition is auto"},
        "max": {"type": "integer", "minimum": 1, "description": "How often this edge may be taken in one run"},
        "priority": {"type": "integer", "minimum": 0},
        "for_each": {"type": "string", "description": "A guard path yielding a list: one branch per item"},
        "as": {"type": "string", "pattern": "^[a-z_][a-z0-9_]{0,31}$", "description": "The item's path name"},
    },
}
CHECK_SCHEMAS: dict[str, JsonSchema] = {
    "run": {
        "type": "string",
        "minLength": 1,
        "description": "A shell command in the worktree that must exit 0 (templated and shell-quoted like a "
        "command phase)",
    },
    "changed": {"$ref": "#/$defs/path_globs", "description": "At least one path changed by the attempt must match"},
    "unchanged": {
        "$ref": "#/$defs/path_globs",
        "description": "No path changed by the attempt may match; such paths are restored",
    },
    "report": {
        "type": "object",
        "additionalProperties": False,
        "required": ["required"],
        "properties": {"required": {"type": "array", "minItems": 1, "items": STRING}},
        "description": "The structured report must be an object with these keys",
    },
}


def workflow_schema(providers: ProviderCatalogue) -> dict[str, Any]:
    """The JSON Schema of a workflow file whose agent phases may use the providers of ``providers``."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Alphred workflow (format 1)",
        "type": "object",
        "additionalProperties": False,
        "required": ["alphred", "key", "phases"],
        "properties": {key: _top(key, providers) for key in TOP_KEYS},
        "$defs": {
            "duration": {
                "oneOf": [
                    {"type": "number", "exclusiveMinimum": 0},
                    {"type": "string", "pattern": "^\\s*\\d+(\\.\\d+)?\\s*(s|m|h)?\\s*$"},
                ],
                "description": "90s, 20m, 2h or a number of seconds",
            },
            "transition": _closed(_section("transition", TRANSITION_KEYS), required=["to"]),
            "phase": {"oneOf": _phase_variants(providers)},
            "check_name": {
                "type": "string",
                "pattern": PHASE_KEY_PATTERN,
                "description": "Default: check<N> by position; readable in guards as checks.<name>.passed|exit_code",
            },
            "path_globs": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "string",
                    "minLength": 1,
                    "pattern": "^[^/\\\\]",
                    "description": "A path glob relative to the repository root: * and ? within a segment, ** for "
                    "any number of segments; a directory covers what is inside it",
                },
            },
            "checks": _checks(
                CHECK_KINDS,
                "Checks Alphred runs after the phase's work and before its commit (SPEC §9); any failure fails the "
                "attempt",
            ),
            "command_checks": _checks(
                [kind for kind in CHECK_KINDS if kind != "report"],
                "Checks of a command phase (no report check: a command has no structured report)",
            ),
        },
    }


def schema_text(providers: ProviderCatalogue) -> str:
    """The schema as ``alphred schema`` prints it (and ``schemas/workflow.schema.json`` holds it)."""
    return json.dumps(workflow_schema(providers), indent=2) + "\n"


def _top(key: str, providers: ProviderCatalogue) -> JsonSchema:
    if key == "inputs":
        entry = _closed(_section("inputs", INPUT_KEYS))
        return {
            "type": "object",
            "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_]{0,63}$"},
            "additionalProperties": {"oneOf": [{"type": "null"}, entry]},
        }
    if key == "defaults":
        return _closed({**_keys(COMMON_DEFAULTABLE_KEYS), **_provider_keys(providers.values())})
    if key == "limits":
        return _closed(_section("limits", LIMIT_KEYS))
    if key == "pull_request":
        return _closed(_section("pull_request", PULL_REQUEST_KEYS))
    if key == "phases":
        return {
            "type": "object",
            "minProperties": 1,
            "propertyNames": {"pattern": PHASE_KEY_PATTERN},
            "additionalProperties": {"$ref": "#/$defs/phase"},
        }
    return KEY_SCHEMAS[key]


def _phase_variants(providers: ProviderCatalogue) -> list[JsonSchema]:
    """One variant per registered provider, one for any other provider, one for a provider set in defaults,
    then command and approval phases."""
    agent = [key for key in AGENT_KEYS if key != "checks"]
    tail = {"checks": KEY_SCHEMAS["checks"], **_keys(("join", "on_conflict"))}
    common = _keys(k for k in COMMON_PHASE_KEYS if k not in ("type", "join", "on_conflict"))
    variants: list[JsonSchema] = []
    for name, keys in providers.items():
        properties = {**common, "type": {"const": "agent"}, **_keys(agent), "provider": {"const": name}}
        properties |= _provider_keys([keys], options=False) | tail
        variants.append(_closed(properties, title=f"agent phase ({name})", required=["provider"], **{"not": NOT_AGENT}))
    other = {**common, "type": {"const": "agent"}, **_keys(agent), "provider": {"type": "string"}}
    if providers:
        other["provider"] = {"type": "string", "not": {"enum": list(providers)}}
    other |= {OPTIONS_KEY.name: OPTIONS_KEY.schema} | tail
    variants.append(
        _closed(other, title="agent phase (a third-party provider)", required=["provider"], **{"not": NOT_AGENT})
    )
    unnamed = {**common, "type": {"const": "agent"}, **_keys(a for a in agent if a != "provider")}
    unnamed |= _provider_keys(providers.values()) | tail
    variants.append(
        _closed(
            unnamed,
            title="agent phase (provider set in defaults)",
            **{"not": {"anyOf": [{"required": ["provider"]}, NOT_AGENT]}},
        )
    )
    command = {**common, "type": {"const": "command"}, **_keys(k for k in COMMAND_KEYS if k != "checks")}
    command |= {"checks": {"$ref": "#/$defs/command_checks"}, **_keys(("join", "on_conflict"))}
    variants.append(_closed(command, title="command phase", required=["type", "run"]))
    approval = {**common, "type": {"const": "approval"}, **_keys(APPROVAL_KEYS), **_keys(("join", "on_conflict"))}
    variants.append(_closed(approval, title="approval phase", required=["type"]))
    joins = _keys(("join", "on_conflict"))
    opened = {**common, "type": {"const": "pull_request"}, **_section("pull_request_phase", PULL_REQUEST_PHASE_KEYS)}
    variants.append(_closed(opened | joins, title="pull request phase", required=["type"]))
    waits = {**common, "type": {"const": "ci"}, **_section("ci", CI_KEYS)} | joins
    variants.append(_closed(waits, title="ci phase (waits for the pull request's checks)", required=["type"]))
    own = _keys(k for k in WORKFLOW_COMMON_KEYS if k not in ("type", "join", "on_conflict"))
    child = {**own, "type": {"const": "workflow"}, **_section("workflow", WORKFLOW_KEYS)} | joins
    variants.append(_closed(child, title="workflow phase (runs a sub-workflow)", required=["type", "uses"]))
    return variants


def _provider_keys(providers: Iterable[ProviderKeys], *, options: bool = True) -> dict[str, JsonSchema]:
    """The keys the given providers declare with their fragments (and ``options``, which any other provider
    takes, unless ``options`` is False); fragments differing for one key: anyOf."""
    found: dict[str, list[JsonSchema]] = {}
    for keys in providers:
        for key in keys.phase_keys:
            fragments = found.setdefault(key.name, [])
            if key.schema not in fragments:
                fragments.append(key.schema)
    if options:
        found.setdefault(OPTIONS_KEY.name, [OPTIONS_KEY.schema])
    return {name: (frags[0] if len(frags) == 1 else {"anyOf": frags}) for name, frags in found.items()}


def _checks(kinds: Iterable[str], description: str) -> JsonSchema:
    variants = []
    for kind in kinds:
        properties = {"name": {"$ref": "#/$defs/check_name"}, kind: CHECK_SCHEMAS[kind]}
        if kind == "run":
            properties["timeout"] = DURATION
        variants.append(_closed(properties, required=[kind]))
    return {"type": "array", "minItems": 1, "description": description, "items": {"oneOf": variants}}


def _keys(names: Iterable[str]) -> dict[str, JsonSchema]:
    return {name: KEY_SCHEMAS[name] for name in names}


def _section(section: str, names: Iterable[str]) -> dict[str, JsonSchema]:
    return {name: SECTION_KEYS[section][name] for name in names}


def _closed(properties: Mapping[str, JsonSchema], *, title: str | None = None, **more: Any) -> dict[str, Any]:
    """An object with exactly ``properties`` (``more``: required, not...)."""
    head: dict[str, Any] = {"title": title} if title else {}
    return {**head, "type": "object", "additionalProperties": False, "properties": dict(properties), **more}
