"""`NamedTuple` for the engine's records: `typing.NamedTuple` for type checkers, and at run time
the same thing built without importing `typing` and without compiling code per class.

Importing `typing` costs about 2 ms of a `mdsel index` run of about 30 ms, which otherwise needs
nothing from it (measured with `python -X importtime`); `collections.namedtuple` compiles a
`__new__` for each class, about 80 µs for each of the twenty records a run defines. Here `class
Point(NamedTuple): x: int; y: int = 0` becomes a tuple subclass with those fields and defaults,
keeping the class body's docstring, methods and properties, and the API of a namedtuple
(`_fields`, `_field_defaults`, `_make`, `_replace`, `_asdict`, its repr and pickling); one
`__new__` serves every class. A test holds it to typing.NamedTuple's behaviour. Modules write
`from mdsel._record import NamedTuple`: the switch is here only.
"""

from __future__ import annotations

__all__ = ["NamedTuple"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from operator import itemgetter

    try:  # the C field descriptor collections.namedtuple uses too
        from _collections import _tuplegetter
    except ImportError:  # pragma: no cover (other interpreters)

        def _tuplegetter(index, doc):
            return property(itemgetter(index), doc=doc)

    _NOT_COPIED = frozenset(
        {"__module__", "__qualname__", "__annotations__", "__dict__", "__weakref__"}
    )

    def _new(cls, *args, **kwargs):
        fields = cls._fields
        if not kwargs:
            if len(args) == len(fields):  # the usual call: every field, in order
                return tuple.__new__(cls, args)
            tail = cls._default_tail  # the defaults of the last fields, in order
            missing = len(fields) - len(args)
            if 0 < missing <= len(tail):  # the next commonest: the rest left to their defaults
                return tuple.__new__(cls, args + tail[len(tail) - missing :])
        if len(args) > len(fields):
            raise TypeError(
                f"{cls.__name__}() takes {len(fields)} positional arguments "
                f"but {len(args)} were given"
            )
        values = list(args)
        defaults = cls._field_defaults
        for name in fields[len(args) :]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif name in defaults:
                values.append(defaults[name])
            else:
                raise TypeError(f"{cls.__name__}() missing required argument: {name!r}")
        for name in kwargs:
            if name in fields:
                raise TypeError(f"{cls.__name__}() got multiple values for argument {name!r}")
            raise TypeError(f"{cls.__name__}() got an unexpected keyword argument {name!r}")
        return tuple.__new__(cls, values)

    @classmethod
    def _make(cls, iterable):
        result = tuple.__new__(cls, iterable)
        if len(result) != len(cls._fields):
            raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(result)}")
        return result

    def _replace(self, /, **changes):
        result = self._make(map(changes.pop, self._fields, self))
        if changes:
            raise ValueError(f"Got unexpected field names: {list(changes)!r}")
        return result

    def _asdict(self):
        return dict(zip(self._fields, self, strict=True))

    def _repr(self):
        pairs = zip(self._fields, self, strict=True)
        shown = ", ".join(f"{name}={value!r}" for name, value in pairs)
        return f"{self.__class__.__name__}({shown})"

    def _getnewargs(self):
        return tuple(self)

    class _RecordMeta(type):
        def __new__(mcls, name, bases, namespace):
            if not bases:  # the NamedTuple base class itself
                return super().__new__(mcls, name, bases, namespace)
            annotations = namespace.get("__annotations__", {})
            fields = tuple(annotations)
            defaults = {field: namespace[field] for field in fields if field in namespace}
            if any(field not in namespace for field in fields[len(fields) - len(defaults) :]):
                # Where typing.NamedTuple fails too: the defaults would shift.
                raise TypeError(f"{name}: a field without a default follows one with a default")
            body = {
                "__slots__": (), "__doc__": f"{name}({', '.join(fields)})",
                "__module__": str(namespace.get("__module__")),
                "__qualname__": namespace.get("__qualname__", name),
                "_fields": fields, "_field_defaults": defaults, "__match_args__": fields,
                "_default_tail": tuple(defaults[field] for field in fields if field in defaults),
                "__new__": _new, "_make": _make, "_replace": _replace, "_asdict": _asdict,
                "__repr__": _repr, "__getnewargs__": _getnewargs,
            }  # fmt: skip
            for index, field in enumerate(fields):
                body[field] = _tuplegetter(index, f"Alias for field number {index}")
            record = type(name, (tuple,), body)
            record.__annotations__ = dict(annotations)
            for key, value in namespace.items():
                if key not in _NOT_COPIED and key not in fields:
                    setattr(record, key, value)
            return record

    class NamedTuple(metaclass=_RecordMeta):
        """Base for immutable records: subclasses are tuples (see the module docstring)."""
