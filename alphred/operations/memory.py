"""Memory across runs (SPEC §17): which repository a memory belongs to, ``alphred memory NAME [--clear]``.

A memory is keyed by repository, workflow key and memory name. The repository is named by its root
commit, the same in every clone on every machine (its path when it has no commit yet), so a run taken
by a worker in another clone reads and saves the same memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from alphred.operations.clones import identity
from alphred.store import SqlRunStore

if TYPE_CHECKING:
    from alphred.store import MemoryRecord


def repository_key(root: Path) -> str:
    """The name memories of the repository at ``root`` are kept under."""
    found = identity(root).root
    return f"root:{found}" if found else f"path:{root.resolve()}"


def list_memories(store: SqlRunStore, root: Path, name: str, tree_key: str | None = None) -> list[MemoryRecord]:
    """The memories called ``name`` in the repository at ``root`` (of one workflow, or of each)."""
    return store.memories(repository_key(root), name, tree_key)


def clear_memories(store: SqlRunStore, root: Path, name: str, tree_key: str | None = None) -> int:
    """Forget the memories called ``name`` in the repository at ``root``; return how many were forgotten."""
    return store.clear_memory(repository_key(root), name, tree_key)
