"""The ``codex`` provider described (its entry point names ``CODEX``): keys, schema, codes, capabilities.

Cheap to import: the adapter (``alphred.providers.codex``) loads only when a phase runs or the preflight
checks.
"""

from __future__ import annotations

from alphred.providers.codex_errors import CODES
from alphred.providers.descriptor import Capabilities, ProviderDescriptor, adapter
from alphred.workflow.provider_keys import PhaseKey, text

CODEX = ProviderDescriptor(
    name="codex",
    factory=adapter("alphred.providers.codex:CodexProvider"),
    summary="the Codex CLI, `codex exec --json` as a subprocess",
    phase_keys=(PhaseKey("sandbox", {"type": "string"}, text),),
    error_codes=CODES,
    capabilities=Capabilities(sandbox=True),
)
