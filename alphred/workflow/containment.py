"""The containment keys of a workflow (SPEC §14): ``sandbox:`` and ``env:`` of a phase, ``git:`` at the top.

- ``sandbox: {network: false}`` (or ``true``, the same; ``false`` or ``null`` for none, to override a
  default) runs the phase's processes under Alphred's sandbox; a string is the codex provider's own mode.
- ``env: [NAME, ...]`` the secret variables (names the redaction rule calls secret) the phase's processes
  may see; every other secret variable is dropped from their environment.
- ``git: {hooks: true}`` lets Alphred's own commits and merges run the repository's hooks (off by default).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import yaml

from alphred.workflow import fields as f
from alphred.workflow.yaml_source import Collector, is_null, known_keys, scalar_value

if TYPE_CHECKING:
    from alphred.workflow.options import SandboxPolicy

SANDBOX_KEYS = ("network",)
GIT_KEYS = ("hooks",)
VARIABLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")

SANDBOX_SCHEMA: dict[str, Any] = {
    "description": "Run the phase's processes sandboxed (bubblewrap): the worktree and a private /tmp writable, "
    "the rest read-only, own PID namespace, no network unless network: true (SPEC §14)",
    "oneOf": [
        {"type": "boolean"},
        {"type": "null"},
        {
            "type": "object",
            "additionalProperties": False,
            "properties": {"network": {"type": "boolean"}},
        },
    ],
}
ENV_SCHEMA: dict[str, Any] = {
    "type": "array",
    "uniqueItems": True,
    "items": {"type": "string", "pattern": VARIABLE_NAME.pattern},
    "description": "Secret environment variables this phase's processes may see (every other is dropped)",
}
GIT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"hooks": {"type": "boolean", "description": "Alphred's commits run the repository's hooks"}},
}


def is_mode_string(node: yaml.Node) -> bool:
    """Whether a ``sandbox:`` value is a string (a provider's own sandbox mode, codex's) rather than ours."""
    return isinstance(node, yaml.ScalarNode) and isinstance(scalar_value(node), str) and not is_null(node)


def switched_off(node: yaml.Node) -> bool:
    """Whether a ``sandbox:`` value asks for no sandbox (``false`` or ``null``)."""
    return isinstance(node, yaml.ScalarNode) and (is_null(node) or scalar_value(node) is False)


def enforces(keys: object, capability: str) -> bool:
    """Whether a provider (its declared keys: a ``ProviderDescriptor``) can enforce ``capability`` on a phase;
    a provider that declares no capabilities enforces nothing."""
    return bool(getattr(getattr(keys, "capabilities", None), capability, False))


def read_sandbox(node: yaml.Node, out: Collector) -> SandboxPolicy | None:
    """``sandbox:`` as a policy; None for ``false``/``null`` (no sandbox)."""
    from alphred.workflow.options import SandboxPolicy  # here: a file without ``sandbox:`` never needs it

    if isinstance(node, yaml.ScalarNode):
        value = scalar_value(node)
        if is_null(node) or value is False:
            return None
        if value is True:
            return SandboxPolicy()
        out.error(node, "'sandbox' must be a mapping ({network: false}), true or false")
        return None
    fields = known_keys(node, SANDBOX_KEYS, "sandbox", out)
    network = bool(f.read_bool(fields["network"], "network", out)) if "network" in fields else False
    return SandboxPolicy(network=network)


def read_env(node: yaml.Node, out: Collector) -> tuple[str, ...]:
    """``env:``: a list of environment variable names."""
    items = f.read_str_list(node, "env", out)
    names: list[str] = []
    for text, item in items or ():
        if not VARIABLE_NAME.match(text):
            out.error(item, f"'{text}' is not an environment variable name")
        elif text not in names:
            names.append(text)
    return tuple(names)


def read_git(node: yaml.Node, out: Collector) -> bool:
    """``git: {hooks: true}``: whether Alphred's commits run the repository's hooks."""
    fields = known_keys(node, GIT_KEYS, "git", out)
    return bool(f.read_bool(fields["hooks"], "hooks", out)) if "hooks" in fields else False


def refused_prompt_file(rel: str) -> str | None:
    """Why ``prompt_file`` must not be ``rel`` (git's own files, ``.env*`` files), or None."""
    parts = rel.replace("\\", "/").split("/")
    if ".git" in parts:
        return "is under .git/ (git's own files can hold credentials, a remote URL's token): refused"
    if parts[-1].startswith(".env"):
        return f"is a {parts[-1]} file (environment files hold secrets): refused"
    return None
