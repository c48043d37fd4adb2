"""Making a ``deferred_dataclass`` from ``made.py``: what dataclass would make of it, without dataclass (issue 29).

``made.py`` (written by ``gen.py``) holds, for each deferred class, the shape of its fields as dataclass saw them
and a factory for each method dataclass made. A class whose body still has that shape (its annotations, in
order and as written, each field's default or ``field(...)`` flags, its parameters, ``__post_init__``) gets its
``Field`` objects as dataclass makes them and the factories' functions, handed the values dataclass hands its
generated code; any other class is made by dataclass as before (slower, never wrong). A class of three frozen
fields costs ~0.2 M instructions this way, against ~3.4 M through dataclass's ``exec`` of each method and ~0.6 M
through its field pass alone.
"""

from __future__ import annotations

import dataclasses
import sys
import types
from collections.abc import Mapping
from typing import Any

from alphred.lazy import field_defaults, write_doc

_MISSING = dataclasses.MISSING
_FIELD = getattr(dataclasses, "_FIELD", None)  # the kind of a field that is neither a ClassVar nor an InitVar


class _Factory:
    """A field's default in ``__init__``'s signature when it has a default factory (dataclass's own sentinel
    where it has one: any object the generated ``__init__`` alone is handed would do)."""

    def __repr__(self) -> str:
        return "<factory>"


# What a generated method's factory is handed, by its parameter's name; ``_type_x`` and ``_dflt_x`` are field
# ``x``'s type and default (or default factory), ``cls`` the class.
_HANDED = {
    "MISSING": _MISSING,
    "_HAS_DEFAULT_FACTORY": getattr(dataclasses, "_HAS_DEFAULT_FACTORY", None) or _Factory(),
    "__dataclass_builtins_object__": object,
    "_return_type": None,
    "FrozenInstanceError": dataclasses.FrozenInstanceError,
}

Shape = tuple[tuple[tuple[str, Any], ...], bool, tuple[tuple[Any, ...], ...]]


def field_shape(field: dataclasses.Field[Any], kw_only: bool) -> tuple[Any, ...]:
    """What dataclass's methods for a class depend on in one of its fields (besides the values handed over)."""
    has_default, has_factory = field.default is not _MISSING, field.default_factory is not _MISSING
    flags = (field.init, field.repr, field.hash, field.compare, bool(field.metadata))
    return (field.name, field.type, has_default, has_factory, *flags, kw_only)


def shape(params: Mapping[str, Any], post_init: bool, fields: tuple[tuple[Any, ...], ...]) -> Shape:
    return tuple(sorted(params.items())), post_init, fields


def made_from_source(cls: type[Any], params: dict[str, Any]) -> bool:
    """Make ``cls`` (a class ``lazy._made_alike`` covers) from its entry in ``made.py``: ``__init__`` last, in one
    assignment, so that the class is never without one; False, having changed nothing, for a class ``made.py``
    does not hold as it is now."""
    from alphred.lazy.made import MADE

    entry = MADE.get(f"{cls.__module__}.{cls.__qualname__}")
    if entry is None or _FIELD is None:
        return False
    written, methods = entry
    fields = _fields(cls, params)
    if fields is None:
        return False
    kw_only = params.get("kw_only", False)
    found = tuple(field_shape(f, kw_only if f.kw_only is _MISSING else f.kw_only) for f in fields.values())
    if shape(params, "__post_init__" in cls.__dict__, found) != written:
        return False
    for field in fields.values():  # as dataclass's field pass leaves them
        field._field_type = _FIELD  # type: ignore[attr-defined]
        if field.kw_only is _MISSING:
            field.kw_only = kw_only
    module = sys.modules[cls.__module__].__dict__
    made = {name: None if factory is None else _function(cls, factory, fields, module) for name, factory in methods}
    setattr(cls, "__dataclass_fields__", fields)  # noqa: B010  # (mypy: the class declares none)
    setattr(cls, "__dataclass_params__", _params(params))  # noqa: B010
    if params.get("match_args", True):
        match = tuple(f.name for f in fields.values() if f.init and not f.kw_only)
        setattr(cls, "__match_args__", match)  # noqa: B010
    field_defaults(cls, fields)
    init = made.pop("__init__")
    write_doc(cls, init)
    for name, value in made.items():
        setattr(cls, name, value)
    cls.__init__ = init  # last: the stand-in waits for the lock until now
    return True


def _fields(cls: type[Any], params: Mapping[str, Any]) -> dict[str, dataclasses.Field[Any]] | None:
    """The ``Field`` of each annotation of ``cls``'s body, named and typed as dataclass makes it (its kind and
    ``kw_only`` are set once the shape is checked); None where dataclass would refuse a default."""
    body = cls.__dict__
    fields: dict[str, dataclasses.Field[Any]] = {}
    for name, annotation in body.get("__annotations__", {}).items():
        value = body.get(name, _MISSING)
        if isinstance(value, dataclasses.Field):
            field = value
        elif value is _MISSING:
            field = dataclasses.field()
        else:
            field = dataclasses.field(default=value)
        if field.default is not _MISSING and type(field.default).__hash__ is None:  # a mutable default
            return None
        field.name, field.type = name, annotation
        fields[name] = field
    return fields


def _function(cls: type[Any], factory: Any, fields: Mapping[str, Any], module: dict[str, Any]) -> Any:
    """The method ``factory`` makes for ``cls``, its globals ``cls``'s module's as dataclass makes them."""
    code = factory.__code__
    handed: dict[str, Any] = {}
    for name in code.co_varnames[: code.co_argcount]:
        if name == "cls":
            handed[name] = cls
        elif name.startswith("_type_"):
            handed[name] = fields[name[6:]].type
        elif name.startswith("_dflt_"):
            field = fields[name[6:]]
            handed[name] = field.default if field.default_factory is _MISSING else field.default_factory
        else:
            handed[name] = _HANDED[name]
    function = types.FunctionType(code, module, code.co_name)(**handed)
    function.__qualname__ = f"{cls.__qualname__}.{function.__name__}"
    if function.__name__ == "__repr__":
        function = _recursive_repr(function)
    return function


def _recursive_repr(function: Any) -> Any:
    wrap = getattr(dataclasses, "_recursive_repr", None)
    if wrap is None:  # Python 3.13 and later: dataclass wraps it with reprlib's
        import reprlib

        return reprlib.recursive_repr()(function)
    return wrap(function)


def _params(params: Mapping[str, Any]) -> Any:
    """The ``__dataclass_params__`` dataclass gives a class made with ``params``."""
    made = object.__new__(dataclasses._DataclassParams)  # type: ignore[attr-defined]
    defaults = {"init": True, "repr": True, "eq": True, "match_args": True}
    for name in type(made).__slots__:
        setattr(made, name, params.get(name, defaults.get(name, False)))
    return made
