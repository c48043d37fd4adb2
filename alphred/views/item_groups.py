"""A for_each's items shown as one group (SPEC §13 output): ``implement ×12: 9 done, 2 running, 1 failed``.

Pure string work on phase keys, so read commands import no workflow model for it.
"""

from __future__ import annotations


def item_base(key: str) -> str | None:
    """The phase a for_each item's phase ``<phase>-<index>`` runs, else None (phase keys hold no ``-``)."""
    base, dash, index = key.rpartition("-")
    return base if dash and index.isdigit() else None


def counted(words: list[str]) -> str:
    """``2 completed, 1 failed``: how many of each word, in order of first appearance."""
    counts: dict[str, int] = {}
    for word in words:
        counts[word] = counts.get(word, 0) + 1
    return ", ".join(f"{n} {word}" for word, n in counts.items())
