"""`NamedTuple` for run time without importing `typing`, which alone costs a quarter of a bare
interpreter start — paid on every `mdsel` run.

`class Point(NamedTuple): x: int; y: int = 0` becomes a `collections.namedtuple` with those
fields and defaults, keeping the class body's docstring, methods and properties, exactly as
`typing.NamedTuple` does. Modules import it behind a `TYPE_CHECKING` switch, so type checkers
see `typing.NamedTuple` itself.
"""

from __future__ import annotations

from collections import namedtuple

_NOT_COPIED = frozenset(
    {"__module__", "__qualname__", "__annotations__", "__dict__", "__weakref__"}
)


class _RecordMeta(type):
    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, object]) -> type:
        if not bases:  # the NamedTuple base class itself
            return super().__new__(mcls, name, bases, namespace)
        annotations = namespace.get("__annotations__", {})
        assert isinstance(annotations, dict)
        fields = list(annotations)
        defaults = [namespace[field] for field in fields if field in namespace]
        module = namespace.get("__module__")
        record: type = namedtuple(name, fields, defaults=defaults, module=str(module))  # type: ignore[misc]
        record.__annotations__ = dict(annotations)
        for key, value in namespace.items():
            if key not in _NOT_COPIED and key not in fields:
                setattr(record, key, value)
        return record


class NamedTuple(metaclass=_RecordMeta):
    """Base for immutable records: subclasses are namedtuples (see the module docstring)."""
