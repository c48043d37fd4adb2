"""Loading on first use, for what the start of a command does not need (issue 29).

``forwarded``: names a module gives from another module, loaded when first asked for (PEP 562's module
``__getattr__``). A module keeps classes its callers rarely need in a module of their own, so that importing it
does not create them, and still gives them by name::

    _FORWARDED = dict.fromkeys(("RareRecord",), "alphred.store.read_records")

    def __getattr__(name: str) -> Any:
        return forwarded(globals(), name, _FORWARDED)

``deferred_dataclass``: ``dataclasses.dataclass`` for a class that is named at import but rarely made. The class
exists at once (``isinstance``, ``match``, a dispatch table keyed on it all work), but its generated methods
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, a frozen class's ``__setattr__``/``__delattr__``) are
made by ``dataclasses.dataclass`` itself when its first instance is: on Python 3.11 that is six ``exec`` calls,
~3.5 M instructions for a frozen class of four fields, against ~0.1 M for the bare class. Type checkers see
``dataclasses.dataclass``. The class must not be subclassed, nor read as a dataclass before an instance exists
(``dataclasses.fields(cls)``, ``inspect.signature(cls)``), nor made without ``__init__`` first (unpickled in a
fresh process); ``materialised(cls)`` makes it one at once.
"""

from __future__ import annotations

import dataclasses
import importlib
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

__all__ = ["deferred_dataclass", "forwarded", "materialised"]

_T = TypeVar("_T")
_MAKING = threading.RLock()  # one thread makes a class's methods; the others wait for them


def forwarded(namespace: dict[str, Any], name: str, sources: Mapping[str, str]) -> Any:
    """``name`` from its module in ``sources`` (name -> module), kept in ``namespace`` (the asking module's
    ``globals()``) so that the next lookup is a plain one; ``AttributeError`` for a name it does not forward."""
    source = sources.get(name)
    if source is None:
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(source), name)
    namespace[name] = value
    return value


def materialised(cls: type[_T]) -> type[_T]:
    """``cls`` with its dataclass methods made (at once for a ``deferred_dataclass`` not made yet)."""
    params = cls.__dict__.get("__deferred_dataclass__")
    if params is not None:
        with _MAKING:
            if "__deferred_dataclass__" in cls.__dict__:  # another thread may have made it meanwhile
                del cls.__init__  # dataclass keeps an __init__ the class defines
                del cls.__deferred_dataclass__  # type: ignore[attr-defined]
                dataclasses.dataclass(cls, **params)
    return cls


def _deferred(**params: Any) -> Callable[[type[_T]], type[_T]]:
    if params.get("slots"):
        raise TypeError("a deferred dataclass cannot have slots: dataclass would make another class")

    def defer(cls: type[_T]) -> type[_T]:
        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            materialised(cls).__init__(self, *args, **kwargs)  # the generated one from now on

        cls.__deferred_dataclass__ = params  # type: ignore[attr-defined]
        cls.__init__ = __init__  # type: ignore[method-assign]
        return cls

    return defer


if TYPE_CHECKING:
    from dataclasses import dataclass as deferred_dataclass
else:

    def deferred_dataclass(cls=None, /, **params):
        """``dataclasses.dataclass(cls, **params)``, made when the first instance of ``cls`` is."""
        defer = _deferred(**params)
        return defer if cls is None else defer(cls)
