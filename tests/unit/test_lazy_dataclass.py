"""``alphred.lazy.deferred_dataclass``: a dataclass whose methods dataclasses makes as the class is first used (issue
29), and which behaves as ``dataclasses.dataclass`` from then on."""

from __future__ import annotations

import dataclasses
import pickle
import sys
import threading
from typing import Any

import pytest

from alphred.engine import MergeConflicted, RunState, initial_state
from alphred.lazy import deferred_dataclass, materialised


def _made(cls: type) -> str:
    """How far a deferred class is made: ``bare``, ``init`` (its ``__init__``) or ``full`` (repr/eq too)."""
    if "__dataclass_fields__" not in cls.__dict__:
        return "bare"
    return "full" if "_make_later" not in cls.__dict__["__eq__"].__qualname__ else "init"


def _classes() -> tuple[type[Any], type[Any]]:
    """A deferred frozen class and the same class made by ``dataclasses.dataclass``, fresh for each test."""

    class Plain:
        """A frozen record."""

        name: str
        count: int = 0
        tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
        note: str | None = dataclasses.field(default=None, compare=False)

    namespace = {k: v for k, v in vars(Plain).items() if k not in ("__dict__", "__weakref__")}
    deferred = deferred_dataclass(frozen=True)(type("Record", (), dict(namespace)))
    eager = dataclasses.dataclass(frozen=True)(type("Record", (), dict(namespace)))
    return deferred, eager


def test_a_deferred_dataclass_is_made_in_two_steps_and_then_is_what_dataclass_makes() -> None:
    deferred, eager = _classes()
    assert _made(deferred) == "bare"
    made = deferred("a", 2)
    assert _made(deferred) == "init"
    assert made.tags == () and made.note is None and deferred.__match_args__ == eager.__match_args__
    assert [f.name for f in dataclasses.fields(deferred)] == [f.name for f in dataclasses.fields(eager)]
    assert repr(made) == repr(eager("a", 2)).replace(eager.__qualname__, deferred.__qualname__)
    assert _made(deferred) == "full"
    assert made == deferred("a", 2, note="ignored by eq") and made != deferred("a", 3) and made != eager("a", 2)
    assert hash(made) == hash(deferred("a", 2)) and {made: 1}[deferred("a", 2)] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.count = 3  # type: ignore[misc]
    assert dataclasses.replace(made, count=5) == deferred("a", 5)
    assert pickle.loads(pickle.dumps(MergeConflicted("j", "b", ()))) == MergeConflicted("j", "b", ())
    with pytest.raises(TypeError):
        deferred()
    match made:
        case deferred(name, count):  # type: ignore[misc]
            assert (name, count) == ("a", 2)


def test_equality_or_hashing_first_makes_the_methods_too() -> None:
    deferred, _ = _classes()
    first, second = deferred("x"), deferred("x")
    assert hash(first) == hash(second)
    assert first == second and _made(deferred) == "full"


def test_an_unfrozen_deferred_dataclass_is_unhashable_like_dataclasses_own() -> None:
    @deferred_dataclass
    class Counter:
        """An unfrozen record."""

        count: int = 0

    made = Counter()
    with pytest.raises(TypeError, match="unhashable"):
        hash(made)
    made.count = 2
    assert made == Counter(2) and Counter.__hash__ is None


def test_a_class_is_made_once_when_threads_make_its_first_instances_together() -> None:
    """Eight threads make the first instances of fresh classes at once, switching as often as the interpreter
    can (the old deletion of the stand-in failed 293 rounds of 300 this way)."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(20):
            deferred, _eager = _classes()
            start = threading.Barrier(8)
            made: list[Any] = []
            failed: list[BaseException] = []

            def make(
                deferred: Any = deferred,
                start: threading.Barrier = start,
                made: list[Any] = made,
                failed: list[BaseException] = failed,
            ) -> None:
                start.wait()
                try:
                    made.append(deferred("t", tags=("k",)))
                except TypeError as exc:
                    failed.append(exc)

            threads = [threading.Thread(target=make) for _ in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert not failed
            assert len(made) == 8 and all(item == deferred("t", tags=("k",)) for item in made)
            assert made[0].note is None and dataclasses.fields(deferred)[2].name == "tags"
    finally:
        sys.setswitchinterval(interval)


def test_materialised_makes_a_class_a_dataclass_before_any_instance() -> None:
    deferred, _ = _classes()
    assert not dataclasses.is_dataclass(deferred)
    assert dataclasses.is_dataclass(materialised(deferred)) and materialised(deferred) is deferred


def test_the_engine_classes_are_deferred_and_behave_as_before() -> None:
    """An engine event and the run state compare and print as the dataclasses they were."""
    event = MergeConflicted("join", "a", ("README.md",))
    assert event == MergeConflicted("join", "a", ("README.md",), None)
    assert repr(event) == "MergeConflicted(join='join', branch='a', conflicts=('README.md',), ref=None)"
    assert hash(event) == hash(MergeConflicted("join", "a", ("README.md",)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.join = "other"  # type: ignore[misc]
    state = initial_state_of_nothing()
    assert dataclasses.is_dataclass(RunState) and "workflow=" not in repr(state) and state == state


def initial_state_of_nothing() -> RunState:
    """The run state of a one-phase workflow (its ``workflow`` field is left out of the repr)."""
    from alphred.providers import default_registry
    from alphred.workflow import load_workflow

    text = "alphred: 1\nkey: w\nphases:\n  a: {type: command, run: echo}\n"
    return initial_state(load_workflow("w.yaml", text, providers=default_registry()), {})


def test_a_class_being_made_keeps_an_init_that_waits_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """While dataclass makes a deferred class, the class still has an ``__init__`` (the stand-in, which waits
    for the lock). It once deleted the stand-in first: a worker thread making the run's state at that instant
    met ``object.__init__`` and failed with "RunState() takes no arguments" (seen in CI, racing workers)."""
    deferred, _ = _classes()
    made = dataclasses.dataclass
    seen: list[bool] = []

    def watching(cls: Any = None, /, **params: Any) -> Any:
        if cls is deferred or getattr(cls, "__qualname__", None) == deferred.__qualname__:  # itself or its twin
            seen.append("__init__" in deferred.__dict__)
        return made(cls, **params)

    monkeypatch.setattr(dataclasses, "dataclass", watching)
    record = deferred("a", 2)
    assert seen and all(seen)
    assert (record.name, record.count, record.tags) == ("a", 2, ())


def test_a_class_made_from_its_twin_is_what_dataclass_makes_of_it() -> None:
    """Made in one pass on a twin of its body (issue 29), the class has dataclass's fields, class attributes
    (a default, none for a default_factory), docstring and frozen ``__setattr__``, which names the class itself:
    an attribute that is not a field is refused as dataclass refuses it, not by the twin's ``super()``."""
    deferred, eager = _classes()
    made = deferred("a")
    assert (deferred.count, deferred.note) == (eager.count, eager.note) == (0, None)
    assert "tags" not in deferred.__dict__ and "tags" not in eager.__dict__
    assert deferred.__dataclass_params__.frozen and deferred.__doc__ == eager.__doc__
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.other = 1  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del made.name  # type: ignore[misc]

    @deferred_dataclass(frozen=True)
    class Bare:
        size: int
        kinds: list[str] = dataclasses.field(default_factory=list)

    assert Bare(1).kinds == [] and Bare.__doc__ == "Bare(size: 'int', kinds: 'list[str]' = <factory>)"


def test_a_class_writing_its_own_dataclass_method_is_made_in_two_passes() -> None:
    """A class that defines a method dataclass would write (here ``__setattr__``) is made as before: dataclass on
    the class itself, then its ``__init__`` from a twin; its own method stays."""

    @deferred_dataclass
    class Logged:
        """Records what is set."""

        value: int = 0

        def __setattr__(self, name: str, value: Any) -> None:
            object.__setattr__(self, name, value * 2)

    assert Logged(3).value == 6 and "__setattr__" in Logged.__dict__ and Logged.__dataclass_fields__
