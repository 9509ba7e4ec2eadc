"""`NamedTuple` for the engine's records: `typing.NamedTuple` for type checkers, and at run time
the same thing built without importing `typing`.

Importing `typing` costs about 2 ms of a `mdsel index` run of about 30 ms, which otherwise needs
nothing from it (measured with `python -X importtime`). `class Point(NamedTuple): x: int; y: int
= 0` becomes a `collections.namedtuple` with those fields and defaults, keeping the class body's
docstring, methods and properties, exactly as `typing.NamedTuple` does; a test holds the two to
the same behaviour. Modules write `from mdsel._record import NamedTuple`: the switch is here only.
"""

from __future__ import annotations

__all__ = ["NamedTuple"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from collections import namedtuple

    _NOT_COPIED = frozenset(
        {"__module__", "__qualname__", "__annotations__", "__dict__", "__weakref__"}
    )

    class _RecordMeta(type):
        def __new__(mcls, name, bases, namespace):
            if not bases:  # the NamedTuple base class itself
                return super().__new__(mcls, name, bases, namespace)
            annotations = namespace.get("__annotations__", {})
            fields = list(annotations)
            defaults = [namespace[field] for field in fields if field in namespace]
            if any(field not in namespace for field in fields[len(fields) - len(defaults) :]):
                # Where typing.NamedTuple fails too: namedtuple would shift the defaults.
                raise TypeError(f"{name}: a field without a default follows one with a default")
            module = namespace.get("__module__")
            record = namedtuple(name, fields, defaults=defaults, module=str(module))
            record.__annotations__ = dict(annotations)
            for key, value in namespace.items():
                if key not in _NOT_COPIED and key not in fields:
                    setattr(record, key, value)
            return record

    class NamedTuple(metaclass=_RecordMeta):
        """Base for immutable records: subclasses are namedtuples (see the module docstring)."""
