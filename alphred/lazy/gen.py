"""Write ``made.py``: the methods ``dataclasses.dataclass`` makes for every ``deferred_dataclass``, as source.

On Python 3.11 dataclass compiles each method it makes with its own ``exec`` (~3.4 M instructions a class,
~120 M for the ~36 classes a run's start makes: issue 29). ``made.py`` holds the same functions, written once
from dataclass's own text and compiled with the package (its bytecode is cached like any module's): making a
class then costs dataclass's field pass alone (no ``exec``) and a call of each factory.

Each method is a factory taking what dataclass hands its generated function (the fields' types and defaults,
``cls``, ...) and returning the function, exactly as dataclass's ``_create_fn`` builds it. Each class's entry
carries a fingerprint of its fields and parameters: a class whose fields changed since ``made.py`` was written
is made by dataclass as before (slower, never wrong). A test checks that ``made.py`` is what this module writes.
Run ``python -m alphred.lazy.gen`` after adding or changing a ``deferred_dataclass``.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import sys
from pathlib import Path
from typing import Any

import alphred
from alphred.lazy import DECLARED, WRITTEN, materialised, twin_class
from alphred.lazy.source import field_shape, shape

TARGET = Path(__file__).with_name("made.py")

_HEADER = '''"""The methods dataclass makes for each ``deferred_dataclass`` (generated: do not edit by hand).

Written by ``python -m alphred.lazy.gen`` from dataclass's own text for each class: see ``gen.py``.
"""
# mypy: ignore-errors
# fmt: off
# ruff: noqa

'''


def _classes() -> list[tuple[type[Any], dict[str, Any]]]:
    """Every ``deferred_dataclass`` of the package with its parameters, in a stable order."""
    root = Path(alphred.__file__).parent
    for info in pkgutil.walk_packages([str(root)], "alphred."):
        path = root.joinpath(*info.name.split(".")[1:])
        source = path / "__init__.py" if info.ispkg else path.with_suffix(".py")
        if source.is_file() and "deferred_dataclass" in source.read_text(encoding="utf-8"):
            importlib.import_module(info.name)
    found = {
        f"{cls.__module__}.{cls.__qualname__}": (cls, params)
        for cls, params in DECLARED
        if cls.__module__.startswith("alphred.") and "<locals>" not in cls.__qualname__  # not a test's own
    }
    return [found[key] for key in sorted(found)]


def _covered(cls: type[Any], params: dict[str, Any]) -> bool:
    """Whether ``source.made_from_source`` makes ``cls``: no base class, an ``__init__``, no method dataclass
    writes defined by the class itself, and fields only (no ClassVar, no InitVar), annotated as text."""
    if cls.__bases__ != (object,) or not params.get("init", True):
        return False
    own = sys.modules[cls.__module__].__file__
    for name in WRITTEN:
        if getattr(getattr(cls.__dict__.get(name), "__code__", None), "co_filename", None) == own:
            return False
    fields = cls.__dict__["__dataclass_fields__"].values()
    return all(f._field_type is dataclasses._FIELD and isinstance(f.type, str) for f in fields)  # type: ignore[attr-defined]


def _captured(cls: type[Any], params: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """What dataclass writes into a twin of ``cls`` and the ``_create_fn`` calls that made its functions."""
    calls: list[tuple[Any, ...]] = []
    create = dataclasses._create_fn  # type: ignore[attr-defined]

    def recording(name: str, args: Any, body: Any, *, globals: Any = None, locals: Any = None, **rest: Any) -> Any:
        made = create(name, args, body, globals=globals, locals=locals, **rest)
        calls.append((made, name, list(args), list(body), list(locals or {}), "return_type" in rest))
        return made

    dataclasses._create_fn = recording  # type: ignore[attr-defined]
    try:
        twin = twin_class(cls, params)
    finally:
        dataclasses._create_fn = create  # type: ignore[attr-defined]
    return dict(twin.__dict__), calls


def _factory(number: int, call: tuple[Any, ...]) -> str:
    _, name, args, body, local_names, returns = call
    if returns:
        local_names = [*local_names, "_return_type"] if "_return_type" not in local_names else local_names
    annotation = "->_return_type" if returns else ""
    lines = [f"def _{number}({', '.join(local_names)}):", f" def {name}({','.join(args)}){annotation}:"]
    lines += [f"  {line}" for line in body]
    lines.append(f" return {name}")
    return "\n".join(lines)


def render_made() -> str:
    """The text of ``made.py`` for the package's ``deferred_dataclass``es as they are now."""
    if not hasattr(dataclasses, "_create_fn"):
        raise RuntimeError("made.py is written from Python 3.11's dataclasses (_create_fn)")
    factories: list[str] = []
    entries: list[str] = []
    for cls, params in _classes():
        materialised(cls)
        if not _covered(cls, params):
            continue
        made, calls = _captured(cls, params)
        by_function = {id(call[0]): call for call in calls}
        methods: list[str] = []
        for name, value in made.items():
            if name not in WRITTEN | {"__init__"} or name in ("__match_args__", "__dataclass_fields__"):
                continue
            function = getattr(value, "__wrapped__", value)
            if value is None:
                methods.append(f"({name!r}, None)")
            elif id(function) in by_function:
                factories.append(_factory(len(factories), by_function[id(function)]))
                methods.append(f"({name!r}, _{len(factories) - 1})")
        key = f"{cls.__module__}.{cls.__qualname__}"
        found = tuple(field_shape(f, f.kw_only) for f in made["__dataclass_fields__"].values())
        written = shape(params, "__post_init__" in made, found)
        entries.append(f"    {key!r}: (\n        {written!r},\n        ({', '.join(methods)},),\n    ),")
    return _HEADER + "\n\n".join(factories) + "\n\n\nMADE = {\n" + "\n".join(entries) + "\n}\n"


if __name__ == "__main__":
    TARGET.write_text(render_made(), encoding="utf-8")
    print(f"wrote {TARGET}")
