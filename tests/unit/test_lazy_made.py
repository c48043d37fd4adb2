"""``alphred/lazy/made.py``: the methods dataclass makes for each ``deferred_dataclass``, written once as source by
``python -m alphred.lazy.gen`` (issue 29: a class is made without dataclass's ``exec``s). These tests fail when the
file drifts from the classes, or a class made from it differs from what dataclass makes."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path
from typing import Any

import pytest

from alphred.lazy import deferred_dataclass, materialised, twin_class
from alphred.lazy import made as made_py
from alphred.lazy.gen import _classes, render_made

pytestmark = pytest.mark.quick

_FACTORY_MADE = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__lt__", "__le__")


@pytest.mark.skipif(not hasattr(dataclasses, "_create_fn"), reason="made.py is written from Python 3.11's dataclass")
def test_made_py_is_what_gen_writes() -> None:
    current = Path(made_py.__file__).read_text(encoding="utf-8") == render_made()
    assert current, "alphred/lazy/made.py is out of date: run `python -m alphred.lazy.gen` and commit it"


def _code(function: Any, twin: type | None = None, cls: type | None = None) -> tuple[Any, ...]:
    """What makes a method what it is; ``twin`` named in its closure reads as ``cls``."""
    function = getattr(function, "__wrapped__", function)
    code = function.__code__
    cells = tuple(cell.cell_contents for cell in function.__closure__ or ())
    cells = tuple(cls if value is twin and twin is not None else value for value in cells)
    return (code.co_code, code.co_consts, code.co_names, code.co_varnames, function.__defaults__, cells)


def _fields(cls: type) -> list[tuple[Any, ...]]:
    """Every attribute of each of the class's ``Field``s, as dataclass's own ``__repr__`` of a field lists them."""
    made: dict[str, Any] = cls.__dict__["__dataclass_fields__"]
    attributes = ("name", "type", "default", "default_factory", "init", "repr", "hash", "compare", "metadata")
    return [(key, *(getattr(f, a) for a in (*attributes, "kw_only", "_field_type"))) for key, f in made.items()]


def test_every_class_made_from_made_py_has_the_methods_dataclass_makes_of_it() -> None:
    """Each method's bytecode, constants, names, defaults and closure (the class itself for a frozen class's
    ``__setattr__``), against a twin of the class made by ``dataclasses.dataclass`` now."""
    classes = _classes()
    assert len(classes) > 90
    from_source = 0
    for cls, params in classes:
        materialised(cls)
        key = f"{cls.__module__}.{cls.__qualname__}"
        twin: Any = twin_class(cls, params)
        for name in _FACTORY_MADE:
            mine, theirs = cls.__dict__.get(name), twin.__dict__.get(name)
            if theirs is None or key not in made_py.MADE:
                continue
            assert mine is not None, (key, name)
            assert _code(mine) == _code(theirs, twin, cls), (key, name)
            assert mine.__qualname__ == f"{cls.__qualname__}.{name}"
        if key in made_py.MADE:
            from_source += 1
            assert cls.__init__.__code__.co_filename == made_py.__file__, key  # not dataclass's exec
            assert cls.__init__.__globals__ is vars(__import__(cls.__module__, fromlist=["_"])), key
            assert cls.__dataclass_params__.frozen == params.get("frozen", False)  # type: ignore[attr-defined]
            assert cls.__dataclass_params__.eq == params.get("eq", True)  # type: ignore[attr-defined]
            assert _fields(cls) == _fields(twin), key
            assert cls.__dict__.get("__match_args__") == twin.__dict__.get("__match_args__"), key
            assert ("__hash__" in cls.__dict__) == ("__hash__" in twin.__dict__), key
            assert cls.__dict__.get("__hash__", 0) is None or twin.__dict__.get("__hash__") is not None, key
    assert from_source > 90


def test_a_class_made_from_made_py_behaves_as_dataclass_makes_it() -> None:
    from alphred.engine import MergeConflicted
    from alphred.workflow.yaml_source import Collector

    assert "alphred.engine.events.MergeConflicted" in made_py.MADE
    made = MergeConflicted("j", "b", ("a.txt",))
    assert made == MergeConflicted("j", "b", ("a.txt",)) and made != MergeConflicted("j", "c", ("a.txt",))
    assert hash(made) == hash(MergeConflicted("j", "b", ("a.txt",)))
    assert repr(made).startswith("MergeConflicted(") and "'a.txt'" in repr(made)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.join = "k"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del made.join  # type: ignore[misc]
    assert dataclasses.replace(made, join="k") == MergeConflicted("k", "b", ("a.txt",))
    assert pickle.loads(pickle.dumps(made)) == made
    assert dataclasses.astuple(made) == ("j", "b", ("a.txt",), None)
    with pytest.raises(TypeError):
        MergeConflicted("j")  # type: ignore[call-arg]
    # an unfrozen class with default factories: each instance its own list, unhashable, its fields settable
    first, second = Collector("a.yaml"), Collector("a.yaml")
    assert first.diagnostics == [] and first.diagnostics is not second.diagnostics and first == second
    first.file = "b.yaml"
    assert first != second
    with pytest.raises(TypeError, match="unhashable"):
        hash(first)
    assert "_said" not in repr(first) and "diagnostics=[]" in repr(first)


def test_a_class_whose_fields_changed_since_made_py_was_written_is_made_by_dataclass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``made.py`` holds methods for another shape under this class's name: its fingerprint tells them apart."""

    @deferred_dataclass(frozen=True)
    class Changed:
        name: str
        count: int = 0

    from alphred.engine.events import MergeConflicted

    materialised(MergeConflicted)
    stale = made_py.MADE["alphred.engine.events.MergeConflicted"]
    monkeypatch.setitem(made_py.MADE, f"{Changed.__module__}.{Changed.__qualname__}", stale)
    made = Changed("a")
    assert (
        (made.name, made.count) == ("a", 0) and made == Changed("a", 0) and repr(made).endswith("(name='a', count=0)")
    )
    assert [f.name for f in dataclasses.fields(Changed)] == ["name", "count"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.name = "b"  # type: ignore[misc]


def _fresh_twin_of_merge_conflicted() -> type[Any]:
    """A class not made yet, with the body, module and name of ``engine.events.MergeConflicted`` (so made.py's
    entry for it is the one used)."""
    namespace = {
        "__module__": "alphred.engine.events",
        "__qualname__": "MergeConflicted",
        "__doc__": "A twin.",
        "__annotations__": {"join": "str", "branch": "str", "conflicts": "tuple[str, ...]", "ref": "str | None"},
        "ref": None,
    }
    made: type[Any] = deferred_dataclass(frozen=True)(type("MergeConflicted", (), namespace))
    return made


def test_a_class_made_from_made_py_is_made_once_when_threads_make_its_first_instances_together() -> None:
    import threading

    twin = _fresh_twin_of_merge_conflicted()
    start, made, failures = threading.Barrier(8), [], []

    def make(index: int) -> None:
        start.wait()
        try:
            made.append(twin("j", str(index), ()))
        except Exception as exc:  # any failure fails the test below
            failures.append(exc)

    threads = [threading.Thread(target=make, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and len(made) == 8
    assert twin.__init__.__code__.co_filename == made_py.__file__  # from made.py, not dataclass's exec
    assert sorted(item.branch for item in made) == [str(index) for index in range(8)]
    assert made[0] == twin("j", made[0].branch, ()) and made[0].ref is None
