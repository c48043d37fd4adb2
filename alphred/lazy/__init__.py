"""Loading on first use, for what the start of a command does not need (issue 29).

``forwarded``: names a module gives from another module, loaded when first asked for (PEP 562's module
``__getattr__``). A module keeps classes its callers rarely need in a module of their own, so that importing it
does not create them, and still gives them by name::

    _FORWARDED = dict.fromkeys(("RareRecord",), "alphred.store.read_records")

    def __getattr__(name: str) -> Any:
        return forwarded(globals(), name, _FORWARDED)

``imported_meanwhile``: modules imported on a thread of their own while a block waits for another process (a new
run's ``git worktree add``), so that what comes after the block finds them loaded.

``deferred_dataclass``: ``dataclasses.dataclass``, made as the class is first used. The class exists at once
(``isinstance``, ``match``, a dispatch table keyed on it all work). When its first instance is made, it gets
the methods ``made.py`` holds for it (``gen.py`` writes them from dataclass's own text; ``source.py`` makes the
class with them, ~0.3 M instructions), or, for a class ``made.py`` does not hold as it is now, dataclass makes its
``__init__``, a frozen class's ``__setattr__``/``__delattr__``, its fields and ``__match_args__`` in one pass on a
twin of the class body, moved onto the class (``__init__`` last, in one assignment, so that the class is never
without one), and ``__repr__``, ``__eq__`` and ``__hash__`` when one of them is first called (on a twin class of the
same fields: they read nothing but ``self``). On Python 3.11 dataclass compiles each method with its own ``exec``:
~3.5 M instructions for a frozen class of four fields, 12.6 M for thirty (repr 1.6 M of it, eq and hash 2.6 M),
against ~0.1 M for the bare class; a class a run never makes costs it nothing more, and one it never prints or
compares costs it its ``__init__`` only (issue 29). Type checkers see ``dataclasses.dataclass``. The class must not
be subclassed, nor read as a dataclass before an instance exists (``dataclasses.fields(cls)``,
``inspect.signature(cls)``), nor made without ``__init__`` first (unpickled in a fresh process), nor have
``InitVar`` fields; ``materialised(cls)`` makes its ``__init__`` at once.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import threading
import types
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

__all__ = ["deferred_dataclass", "forwarded", "imported_meanwhile", "materialised"]

_T = TypeVar("_T")
_MAKING = threading.RLock()  # one thread makes a class's methods; the others wait for them
DECLARED: list[tuple[type[Any], dict[str, Any]]] = []  # every deferred class and its parameters (``gen.py``)


def forwarded(namespace: dict[str, Any], name: str, sources: Mapping[str, str]) -> Any:
    """``name`` from its module in ``sources`` (name -> module), kept in ``namespace`` (the asking module's
    ``globals()``) so that the next lookup is a plain one; ``AttributeError`` for a name it does not forward."""
    source = sources.get(name)
    if source is None:
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(source), name)
    namespace[name] = value
    return value


@contextlib.contextmanager
def imported_meanwhile(*names: str) -> Iterator[None]:
    """Import the modules ``names`` on a thread of their own while the block runs, then wait for that thread.

    For a block that mostly waits for another process (``git worktree add`` as a run starts): the imports run
    on another core meanwhile, the GIL being free while the block waits (issue 29). The block must import
    nothing itself (two threads importing at once could meet in a circular import); an import that fails on the
    thread is left for the caller to meet where it imports the module itself, as it would have without this."""
    thread = threading.Thread(target=_import_each, args=(names,), name="alphred-imports", daemon=True)
    thread.start()
    try:
        yield
    finally:
        thread.join()


def _import_each(names: tuple[str, ...]) -> None:
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:
            continue


def materialised(cls: type[_T]) -> type[_T]:
    """``cls`` with its dataclass methods made (at once for a ``deferred_dataclass`` not made yet): from
    ``made.py`` where it holds the class as it is (``source.made_from_source``), else by dataclass, whose
    ``__repr__``, ``__eq__`` and ``__hash__`` are then made when first called.

    The class keeps an ``__init__`` at every instant: dataclass makes the class without one (``init=False``,
    its stand-in stays), then the generated ``__init__`` (made on a twin class) replaces the stand-in in one
    assignment. A thread that makes an instance meanwhile calls the stand-in, which waits for the lock; had the
    stand-in been deleted first, that thread would meet ``object.__init__`` ("takes no arguments")."""
    params = cls.__dict__.get("__deferred_dataclass__")
    if params is not None:
        with _MAKING:
            if "__deferred_dataclass__" in cls.__dict__ and _made_alike(cls, params) and made_from_source(cls, params):
                del cls.__deferred_dataclass__  # type: ignore[attr-defined]
            elif "__deferred_dataclass__" in cls.__dict__:  # another thread may have made it meanwhile
                later = {"repr": "__repr__", "eq": "__eq__"}
                later = {param: name for param, name in later.items() if params.get(param, True)}
                later = {param: name for param, name in later.items() if name not in cls.__dict__}
                now = {**params, **dict.fromkeys(later, False)}
                if not _made_from_twin(cls, now):
                    dataclasses.dataclass(cls, **{**now, "init": False})
                    if params.get("init", True):
                        cls.__init__ = twin_class(cls, {**params, "repr": False, "eq": False}).__dict__["__init__"]  # type: ignore[method-assign]
                del cls.__deferred_dataclass__  # type: ignore[attr-defined]
                if later:
                    _make_later(cls, params, [*later.values(), *(["__hash__"] if "eq" in later else [])])
    return cls


def made_from_source(cls: type[Any], params: dict[str, Any]) -> bool:
    """``source.made_from_source``: ``cls`` made with the methods ``made.py`` holds for it, or False."""
    from alphred.lazy.source import made_from_source as made

    return made(cls, params)


# What dataclass writes into a class besides ``__init__`` (a class defining one of them itself is made in two passes).
WRITTEN = frozenset(
    {"__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__lt__", "__le__", "__gt__", "__ge__"}
    | {"__match_args__", "__getstate__", "__setstate__", "__slots__", "__dataclass_fields__"}
)


def _made_from_twin(cls: type[Any], params: dict[str, Any]) -> bool:
    """Make ``cls`` in one dataclass pass, on a twin of its class body, and move what that pass wrote onto ``cls``
    (``__init__`` last, replacing the stand-in in one assignment); False, having done nothing, for a class this
    does not cover (a base class, ``init=False``, a method dataclass would write defined by the class itself).

    Half the cost of making ``cls`` itself then a twin for its ``__init__`` (issue 29: the one pass makes
    ``__init__`` and a frozen class's ``__setattr__``/``__delattr__``, each an ``exec``). The functions the pass
    made name the twin where they name their class (a frozen ``__setattr__`` checks ``type(self) is cls``): they
    are rebuilt with ``cls`` in its place. The class attributes end as dataclass leaves them: a field's default,
    none for a ``default_factory``."""
    if not _made_alike(cls, params):
        return False
    twin = twin_class(cls, params)
    made = twin.__dict__
    for name, value in made.items():
        if name in WRITTEN or name == "__dataclass_params__":
            setattr(cls, name, _rebound(value, twin, cls))
    field_defaults(cls, made["__dataclass_fields__"])
    write_doc(cls, made["__init__"])
    cls.__init__ = _rebound(made["__init__"], twin, cls)
    return True


def write_doc(cls: type[Any], init: Any) -> None:
    """Give ``cls`` the docstring dataclass writes for a class without one (its signature)."""
    if cls.__doc__ is None:
        import inspect

        text = f"{cls.__name__}{inspect.signature(init)}".replace(" -> None", "")
        cls.__doc__ = text.replace("(self, ", "(", 1).replace("(self)", "()", 1)


def _made_alike(cls: type[Any], params: dict[str, Any]) -> bool:
    """Whether ``cls`` is made by one dataclass pass on a twin of its body (no base class, an ``__init__``, no
    method dataclass would write defined by the class itself)."""
    body = cls.__dict__
    return cls.__bases__ == (object,) and params.get("init", True) and not any(name in body for name in WRITTEN)


def twin_namespace(cls: type[Any]) -> dict[str, Any]:
    """The body of a class like ``cls`` for dataclass to make: its fields (from its annotations, or from its
    dataclass fields once made), ``__post_init__``, and a docstring (dataclass would write one from the
    signature, printing the defaults)."""
    body = cls.__dict__
    namespace: dict[str, Any] = {"__module__": cls.__module__, "__qualname__": cls.__qualname__}
    namespace["__doc__"] = cls.__doc__ or cls.__name__
    made = body.get("__dataclass_fields__")
    if made is None:
        annotations = body.get("__annotations__", {})
        namespace["__annotations__"] = dict(annotations)
        namespace.update((name, body[name]) for name in annotations if name in body)
    else:  # the fields ``dataclasses.fields`` gives (no ClassVar or InitVar pseudo-field)
        fields = dataclasses.fields(cls)
        namespace["__annotations__"] = {field.name: field.type for field in fields}
        namespace.update((field.name, field) for field in fields)
    if "__post_init__" in body:
        namespace["__post_init__"] = body["__post_init__"]
    return namespace


def field_defaults(cls: type[Any], fields: Mapping[str, dataclasses.Field[Any]]) -> None:
    """Leave ``cls``'s class attributes as dataclass leaves them: a field's default, none for a factory."""
    body = cls.__dict__
    for field in fields.values():
        if isinstance(body.get(field.name), dataclasses.Field):
            if field.default is dataclasses.MISSING:
                delattr(cls, field.name)
            else:
                setattr(cls, field.name, field.default)


def _rebound(value: Any, twin: type, cls: type) -> Any:
    """``value``, or for a function whose closure holds ``twin``, the same function with ``cls`` there instead."""
    closure = getattr(value, "__closure__", None)
    if not isinstance(value, types.FunctionType) or not closure:
        return value
    cells = tuple(types.CellType(cls) if _holds(cell, twin) else cell for cell in closure)
    if all(new is old for new, old in zip(cells, closure, strict=True)):
        return value
    rebuilt = types.FunctionType(value.__code__, value.__globals__, value.__name__, value.__defaults__, cells)
    rebuilt.__kwdefaults__ = value.__kwdefaults__
    rebuilt.__qualname__ = value.__qualname__
    rebuilt.__annotations__ = value.__annotations__
    rebuilt.__doc__ = value.__doc__
    return rebuilt


def _holds(cell: Any, value: Any) -> bool:
    try:
        return cell.cell_contents is value
    except ValueError:  # an empty cell
        return False


def twin_class(cls: type[Any], params: dict[str, Any]) -> type:
    """A dataclass made with ``params`` of a twin of ``cls``'s body (``twin_namespace``): its generated methods read
    nothing but ``self`` and the fields' defaults, so ``cls`` can take them."""
    twin: type = dataclasses.dataclass(type(cls.__name__, (), twin_namespace(cls)), **params)
    return twin


def _make_later(cls: type[_T], params: dict[str, Any], names: list[str]) -> None:
    """Give ``cls`` stand-ins for the methods ``names``: the first call of any has dataclass make them all (on a
    twin class of the same fields, whose methods read nothing but ``self``), then calls the real one."""

    def make() -> type[_T]:
        with _MAKING:
            if any(cls.__dict__.get(name) is stand_ins[name] for name in names):  # not made by another thread
                twin = twin_class(cls, {**params, "init": False})
                for name in names:
                    setattr(cls, name, twin.__dict__[name])
        return cls

    def __repr__(self: Any) -> str:
        return make().__repr__(self)

    def __eq__(self: Any, other: Any) -> Any:
        return make().__eq__(self, other)

    def __hash__(self: Any) -> int:
        real = make().__hash__
        if real is None:  # an unfrozen class with ``__eq__``, as dataclass makes it
            raise TypeError(f"unhashable type: {cls.__name__!r}")
        return real(self)

    stand_ins = {name: {"__repr__": __repr__, "__eq__": __eq__, "__hash__": __hash__}[name] for name in names}
    for name, stand_in in stand_ins.items():
        setattr(cls, name, stand_in)


def _deferred(**params: Any) -> Callable[[type[_T]], type[_T]]:
    if params.get("slots"):
        raise TypeError("a deferred dataclass cannot have slots: dataclass would make another class")

    def defer(cls: type[_T]) -> type[_T]:
        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            materialised(cls).__init__(self, *args, **kwargs)  # the generated one from now on

        cls.__deferred_dataclass__ = params  # type: ignore[attr-defined]
        DECLARED.append((cls, params))
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
