"""``tools:`` and ``mcp:`` of SPEC §14: read per phase and from defaults, the old claude keys as deprecated
aliases, and every setting a provider cannot enforce refused at validate (never ignored)."""

from __future__ import annotations

import textwrap

import jsonschema
import yaml

from alphred.providers import default_registry
from alphred.workflow import McpServer, ToolPolicy, check_workflow, load_workflow
from alphred.workflow.json_schema import workflow_schema
from alphred.workflow.provider_keys import FREE_FORM

PROVIDERS = default_registry(builtin_only=True)

WORKFLOW = """\
alphred: 1
key: wf
defaults:
  tools: {deny: [WebFetch]}
phases:
  implement:
    provider: claude
    tools: {allow: [Read, Edit, "Bash(pytest:*)", mcp__issues]}
    mcp:
      issues: {command: python, args: [-m, my_server], env: [GITHUB_TOKEN], cwd: tools}
      web: {url: "https://mcp.example.test/mcp", env: [WEB_TOKEN], headers: {Authorization: "Bearer ${WEB_TOKEN}"}}
    transitions: [{to: review}]
  review:
    provider: claude
    allowed_tools: [Read]
    transitions: [{to: local}]
  local:
    provider: openai
    model: m
    tools: {allow: [read_file, shell], deny: [mcp__calc__drop]}
    mcp: {calc: {command: calc-server}}
"""


def diagnostics(text: str, severity: str = "error") -> list[str]:
    _, found = check_workflow("wf.yaml", textwrap.dedent(text), providers=PROVIDERS)
    return [d.format() for d in found if d.severity == severity]


def test_tools_and_mcp_are_read_per_phase_with_defaults_and_aliases() -> None:
    phases = {p.key: p for p in load_workflow("wf.yaml", WORKFLOW, providers=PROVIDERS).phases}
    assert phases["implement"].tools == ToolPolicy(allow=("Read", "Edit", "Bash(pytest:*)", "mcp__issues"))
    assert phases["implement"].mcp == (
        McpServer(name="issues", command="python", args=("-m", "my_server"), env=("GITHUB_TOKEN",), cwd="tools"),
        McpServer(
            name="web",
            url="https://mcp.example.test/mcp",
            env=("WEB_TOKEN",),
            headers=(("Authorization", "Bearer ${WEB_TOKEN}"),),
        ),
    )
    assert phases["review"].tools == ToolPolicy(allow=("Read",))  # the alias, over the default
    assert "allowed_tools" not in phases["review"].options
    assert phases["local"].tools == ToolPolicy(allow=("read_file", "shell"), deny=("mcp__calc__drop",))
    warnings = diagnostics(WORKFLOW, "warning")
    assert any("'allowed_tools' of phase 'review' is deprecated" in w for w in warnings)
    assert diagnostics(WORKFLOW) == []


def test_the_policy_matches_names_and_whole_servers() -> None:
    policy = ToolPolicy(allow=("Read", "mcp__issues"), deny=("mcp__issues__delete",))
    assert policy.permits("Read") and policy.permits("mcp__issues__get")
    assert not policy.permits("mcp__issues__delete") and not policy.permits("Write")
    assert not policy.permits("mcp__issuesx__get")
    assert ToolPolicy().permits("anything") and not ToolPolicy(deny=("x",)).permits("x")


def test_what_a_provider_cannot_enforce_is_refused() -> None:
    errors = diagnostics(
        """\
        alphred: 1
        key: wf
        phases:
          a:
            provider: codex
            tools: {allow: [shell], deny: [apply_patch, mcp__s__ok]}
            mcp: {s: {command: srv}}
            transitions: [{to: b}]
          b:
            provider: openai
            model: m
            tools: {allow: [shel, "shell(ls:*)"]}
        """
    )
    assert any(
        "provider 'codex' of phase 'a' cannot enforce 'tools.allow' (codex cannot switch off" in e for e in errors
    )
    assert any("cannot enforce 'tools.deny' of 'apply_patch'" in e for e in errors)
    assert not any("mcp__s__ok" in e for e in errors)  # codex filters MCP tools
    assert any("provider 'openai' has no tool 'shel'" in e and "did you mean 'shell'" in e for e in errors)
    assert any("does not check tool patterns such as 'shell(ls:*)'" in e for e in errors)


def test_a_third_party_provider_that_declares_nothing_gets_neither_key() -> None:
    errors = diagnostics(
        """\
        alphred: 1
        key: wf
        phases:
          a: {provider: someone_elses, tools: {deny: [x]}, mcp: {s: {command: srv}}}
        """
    )
    assert any("cannot connect MCP servers" in e for e in errors)
    assert any("cannot enforce 'tools.deny' of 'x'" in e for e in errors)


def test_bad_mcp_servers_are_located_errors() -> None:
    errors = diagnostics(
        """\
        alphred: 1
        key: wf
        phases:
          a:
            provider: scripted
            script: [{}]
            tools: {allow: [x], deny: [y], other: [z]}
            mcp:
              two__parts: {command: x}
              both: {command: x, url: "http://h/"}
              neither: {env: [A]}
              ftp: {url: "ftp://h/", cwd: sub}
              escape: {command: x, cwd: ../up, headers: {A: b}}
              hdr: {url: "http://h/", headers: {Authorization: "Bearer ${MISSING}"}}
              badenv: {command: x, env: [not-a-name]}
        """
    )
    joined = "\n".join(errors)
    assert "unknown key 'other'" in joined
    assert "MCP server name 'two__parts'" in joined
    assert "MCP server 'both' needs either 'command' (stdio) or 'url'" in joined
    assert "MCP server 'neither' needs either" in joined
    assert "'url' of MCP server 'ftp' must be an http:// or https:// URL" in joined
    assert "'cwd' belongs to a stdio server" in joined
    assert "'cwd' of MCP server 'escape' must be a path inside the worktree" in joined
    assert "'headers' belongs to a server at a url" in joined
    assert "refers to ${MISSING}, which is not in the env list of MCP server 'hdr'" in joined
    assert "'not-a-name' is not an environment variable name" in joined
    assert all(e.startswith("wf.yaml:") and e.split(":")[1].isdigit() for e in errors)


def test_the_schema_takes_the_keys() -> None:
    schema = workflow_schema(PROVIDERS)
    jsonschema.validate(yaml.safe_load(WORKFLOW), schema)
    bad = yaml.safe_load(WORKFLOW)
    bad["phases"]["implement"]["mcp"]["issues"]["url"] = "http://x/"
    try:
        jsonschema.validate(bad, schema)
    except jsonschema.ValidationError:
        pass
    else:
        raise AssertionError("a server with both command and url passed the schema")


def test_a_header_codex_cannot_send_is_refused_at_validate_where_it_is_written() -> None:
    """codex takes a header's value as written, from one variable, or as ``Bearer ${NAME}`` (Authorization):
    a mix such as ``key ${TOKEN}`` used to be refused only when the phase ran."""
    text = """\
        alphred: 1
        key: wf
        defaults:
          mcp:
            docs: {url: "https://h.test/mcp", env: [T], headers: {X-Key: "key ${T}", Authorization: "Bearer ${T}"}}
        phases:
          a:
            provider: codex
            prompt: hi
            mcp:
              web:
                url: "https://h.test/mcp"
                env: [T, U]
                headers: {X-Plain: "v", X-Env: "${T}", Authorization: "Bearer ${T}", X-Two: "${T}${U}"}
          b:
            provider: codex
            prompt: hi
          c:
            provider: claude
            prompt: hi
        """
    errors = diagnostics(text)
    assert errors == [
        "wf.yaml:5:66: error: codex takes a header of MCP server 'docs' either literal, '${NAME}' or "
        "(Authorization) 'Bearer ${NAME}', not 'key ${T}'",
        "wf.yaml:14:85: error: codex takes a header of MCP server 'web' either literal, '${NAME}' or "
        "(Authorization) 'Bearer ${NAME}', not '${T}${U}'",
    ], errors  # phase b gets the default (refused there), claude (phase c) sends any header


def test_a_header_a_codex_fallback_cannot_send_is_refused_at_validate() -> None:
    """SPEC §15: a claude phase whose ``fallback`` is codex runs its MCP servers on codex after a fail-over;
    a header codex cannot send used to pass validate and fail the fallback's attempt (CODEX_BAD_SETTINGS).
    The same header on a codex phase with a codex fallback is said once."""
    text = """\
        alphred: 1
        key: wf
        phases:
          a:
            provider: claude
            prompt: hi
            mcp:
              web: {url: "https://h.test/mcp", env: [T], headers: {X-Key: "key ${T}"}}
            fallback: [scripted, {provider: codex, model: gpt-5-codex}]
          b:
            provider: codex
            prompt: hi
            mcp:
              web: {url: "https://h.test/mcp", env: [T], headers: {X-Key: "${T}/v1"}}
            fallback: [codex]
          c:
            provider: claude
            prompt: hi
            mcp:
              web: {url: "https://h.test/mcp", env: [T], headers: {X-Key: "key ${T}"}}
            fallback: [openai]
        """
    assert diagnostics(text) == [
        "wf.yaml:8:67: error: codex takes a header of MCP server 'web' either literal, '${NAME}' or "
        "(Authorization) 'Bearer ${NAME}', not 'key ${T}'",
        "wf.yaml:14:67: error: codex takes a header of MCP server 'web' either literal, '${NAME}' or "
        "(Authorization) 'Bearer ${NAME}', not '${T}/v1'",
        "wf.yaml:21:16: error: openai phase 'c' needs a 'model' (the name the server knows the model by)",
    ]  # phase c: openai sends any header; its fallback entry still needs its own model


def test_a_fallback_that_cannot_enforce_the_phase_sandbox_is_refused() -> None:
    """SPEC §14/§15: the phase's ``sandbox:`` mapping binds its fallbacks too; a provider that declares no
    sandbox capability is refused as a fallback at the ``fallback`` entry (it was checked against the
    provider's own mode string instead, and never against the mapping)."""
    text = """\
        alphred: 1
        key: wf
        phases:
          a:
            provider: codex
            prompt: hi
            sandbox: {network: false}
            fallback: [plain]
          b:
            provider: codex
            prompt: hi
            sandbox: read-only
            fallback: [plain]
        """
    _, found = check_workflow("wf.yaml", textwrap.dedent(text), providers={**PROVIDERS, "plain": FREE_FORM})
    assert [d.format() for d in found if d.severity == "error"] == [
        "wf.yaml:8:16: error: fallback provider 'plain' of phase 'a' cannot enforce the phase's 'sandbox'"
    ]
