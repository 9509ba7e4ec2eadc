"""The run-time NamedTuple of mdsel._record behaves as typing.NamedTuple does."""

from __future__ import annotations

import pickle
import types
import typing

import pytest

from mdsel import _record


class Shim(_record.NamedTuple):
    """A point on a grid."""

    x: int
    y: int = 0
    """Defaults to the axis."""
    label: str = "p"

    def norm(self) -> int:
        return abs(self.x) + abs(self.y)

    @property
    def swapped(self) -> tuple[int, int]:
        return (self.y, self.x)


class Typed(typing.NamedTuple):
    """A point on a grid."""

    x: int
    y: int = 0
    """Defaults to the axis."""
    label: str = "p"

    def norm(self) -> int:
        return abs(self.x) + abs(self.y)

    @property
    def swapped(self) -> tuple[int, int]:
        return (self.y, self.x)


def test_it_is_not_typing_at_run_time() -> None:
    assert _record.NamedTuple is not typing.NamedTuple
    assert type(Shim) is type  # a plain namedtuple class, no metaclass left behind


@pytest.mark.parametrize("record", [Shim, Typed])
def test_fields_defaults_docstring_and_annotations(record: type[Shim]) -> None:
    assert record._fields == ("x", "y", "label")
    assert record._field_defaults == {"y": 0, "label": "p"}
    assert record.__doc__ == "A point on a grid."
    assert record.__module__ == __name__
    assert list(record.__annotations__) == ["x", "y", "label"]
    assert record.__match_args__ == ("x", "y", "label")
    assert issubclass(record, tuple)


@pytest.mark.parametrize("record", [Shim, Typed])
def test_values_behave_alike(record: type[Shim]) -> None:
    point = record(3, -4)
    assert point == (3, -4, "p") and point == record(x=3, y=-4, label="p")
    assert hash(point) == hash((3, -4, "p"))
    assert point.norm() == 7
    assert point.swapped == (-4, 3)
    assert point._replace(label="q") == record(3, -4, "q")
    assert point._asdict() == {"x": 3, "y": -4, "label": "p"}
    assert record._make([1, 2, "r"]) == record(1, 2, "r")
    assert repr(point) == f"{record.__name__}(x=3, y=-4, label='p')"
    # Annotated: `type(Any) is record` would narrow `record` to type[Any] for the rest.
    restored: Shim = pickle.loads(pickle.dumps(point))
    assert restored == point
    assert type(restored) is record
    with pytest.raises(AttributeError):
        point.x = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        record()  # type: ignore[call-arg]


def test_shim_and_typing_give_equal_values() -> None:
    assert Shim(1, 2) == Typed(1, 2)  # type: ignore[comparison-overlap]  # equal as tuples
    assert Shim(1)._replace(y=9).swapped == Typed(1)._replace(y=9).swapped


def make(base: type, defaults: dict[str, object]) -> type:
    def body(namespace: dict[str, object]) -> None:
        namespace.update({"__module__": __name__, "__annotations__": {"a": int, "b": int}})
        namespace.update(defaults)

    return types.new_class("Made", (base,), exec_body=body)


@pytest.mark.parametrize("base", [_record.NamedTuple, typing.NamedTuple])
def test_a_field_without_default_after_one_with_default_is_refused(base: type) -> None:
    with pytest.raises(TypeError, match="default"):
        make(base, {"a": 1})
    assert make(base, {"b": 1})(5)._asdict() == {"a": 5, "b": 1}


@pytest.mark.parametrize("record", [Shim, Typed])
def test_arguments_bind_as_a_signature_would(record: type[Shim]) -> None:
    assert record(1, label="q") == (1, 0, "q")
    assert record(y=2, x=1) == (1, 2, "p")
    assert record(*(1, 2, "r")) == (1, 2, "r")
    for args, kwargs in [
        ((1, 2, "r", 4), {}),  # too many
        ((1,), {"x": 2}),  # given twice
        ((1,), {"z": 2}),  # no such field
        ((), {"y": 2}),  # x missing
    ]:
        with pytest.raises(TypeError):
            record(*args, **kwargs)  # type: ignore[arg-type]  # each call is wrong on purpose
    with pytest.raises(ValueError, match="unexpected field"):
        record(1)._replace(z=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        record._make([1, 2])
    assert record._make(iter([1, 2, "r"])) == (1, 2, "r")
