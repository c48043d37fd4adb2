"""Who takes a queued run: which workflows a worker takes (``alphred worker --allow-workflows GLOB``, SPEC
§14: whoever can submit a workflow runs code on the workers that take it, with their credentials), and why
a queued run waits (``alphred status``)."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from typing import TYPE_CHECKING

from alphred.store.enums import RunStatus
from alphred.store.owners import lease_ttl

if TYPE_CHECKING:
    from alphred.store import RunRecord, SqlRunStore

WORKFLOW_LABEL = "workflow:"
"""A worker with ``--allow-workflows`` registers each glob as the capability ``workflow:GLOB``, so that
``alphred status`` can say why a run no live worker may take waits."""


def workflow_allowed(tree_key: str | None, capabilities: Iterable[str]) -> bool:
    """Whether a worker offering ``capabilities`` takes runs of workflow ``tree_key`` (no ``workflow:``
    capability: every workflow)."""
    globs = [c[len(WORKFLOW_LABEL) :] for c in capabilities if c.startswith(WORKFLOW_LABEL)]
    return not globs or (tree_key is not None and any(fnmatch.fnmatchcase(tree_key, g) for g in globs))


def waiting_reason(store: SqlRunStore, record: RunRecord) -> str | None:
    """Why a queued run waits (SPEC §10: the requirement no live worker offers), or None."""
    if not record.queued or record.status is not RunStatus.PENDING or record.lease_owner:
        return None
    offers = store.live_capabilities(2 * lease_ttl())
    if not offers:
        return "waiting: no live worker"
    offers = [caps for caps in offers if workflow_allowed(record.tree_key, caps)]
    if not offers:
        return f"waiting: no live worker takes workflow {record.tree_key} (alphred worker --allow-workflows)"
    needed = set(record.requires)
    missing = min((sorted(needed - caps) for caps in offers), key=len)
    if not missing:
        return "waiting for a free worker"
    return f"waiting: no live worker offers {', '.join(missing)}"
