"""Names a module gives from another module, loaded when first asked for (PEP 562's module ``__getattr__``).

A module keeps classes its callers rarely need in a module of their own, so that importing it does not create
them (issue 29: each frozen dataclass costs ~3-5 M instructions to create), and still gives them by name::

    _FORWARDED = dict.fromkeys(("RareRecord",), "alphred.store.read_records")

    def __getattr__(name: str) -> Any:
        return forwarded(globals(), name, _FORWARDED)
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any


def forwarded(namespace: dict[str, Any], name: str, sources: Mapping[str, str]) -> Any:
    """``name`` from its module in ``sources`` (name -> module), kept in ``namespace`` (the asking module's
    ``globals()``) so that the next lookup is a plain one; ``AttributeError`` for a name it does not forward."""
    source = sources.get(name)
    if source is None:
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(source), name)
    namespace[name] = value
    return value
