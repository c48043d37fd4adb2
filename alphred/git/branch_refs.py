"""The local branches a new run's branch could clash with, read from the refs files without spawning git.

A run's start names its branch (``alphred/<workflow>/<run>``) and takes the first of ``branch``, ``branch-2``...
that no local branch blocks. Reading the loose refs and ``packed-refs`` saves the start a ``git for-each-ref``
process (issue 29: run start); a repository whose refs are not files (reftable), or a file that cannot be read,
is left to git.
"""

from __future__ import annotations

import os
from pathlib import Path

_HEADS = "refs/heads/"


def branches_like(common_dir: Path, branch: str) -> set[str] | None:
    """The local branches named ``branch`` or ``branch-<anything>``, or below either (``branch/...``), from the
    loose refs and ``packed-refs`` of the shared git directory ``common_dir``; None where git must be asked."""
    if (common_dir / "reftable").exists():
        return None
    found: set[str] = set()
    try:
        packed = (common_dir / "packed-refs").read_bytes().decode("utf-8", "replace")
    except FileNotFoundError:
        packed = ""
    except OSError:
        return None
    wanted = _HEADS + branch
    for line in packed.splitlines():
        _sha, _, ref = line.partition(" ")
        if ref.startswith(wanted) and not line.startswith(("#", "^")):
            found.add(ref[len(_HEADS) :])
    parent, _, leaf = branch.rpartition("/")
    folder = common_dir / "refs" / "heads" / parent if parent else common_dir / "refs" / "heads"
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):  # no branch below ``parent`` (or ``parent`` is one itself)
        entries = []
    except OSError:
        return None
    heads = common_dir / "refs" / "heads"
    for entry in entries:
        if entry.name != leaf and not entry.name.startswith(leaf + "-"):
            continue
        if entry.is_dir(follow_symlinks=False):
            for root, _dirs, files in os.walk(entry.path):
                found.update(Path(root, name).relative_to(heads).as_posix() for name in files)
        else:
            found.add(Path(entry.path).relative_to(heads).as_posix())
    return {
        name
        for name in found
        if not name.endswith(".lock") and (name == branch or name.startswith((branch + "/", branch + "-")))
    }
