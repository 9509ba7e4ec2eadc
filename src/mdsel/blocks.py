"""The blocks of a document: Block values made on demand from columns, and the questions their
nesting answers (a block's siblings, its children, the top-level blocks in a byte range).

Blocks are kept in document (pre)order; a block's descendants are the contiguous run
`blocks[i+1 : last[i]+1]`, so every walk is a slice or a skip, never recursion — a document of
10,000 nested lists costs no Python stack.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterator, Mapping, Sequence

from mdsel.columns import KINDS, QUOTE, Block, Scan

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import overload

_QUOTE_CODE = KINDS.index(QUOTE)


class Blocks(Sequence[Block]):
    """The blocks of a document in (pre)order, one column per Block field; `blocks[i]` builds a
    Block."""

    COLUMNS = ("ends", "kinds", "last", "parents", "starts")
    """The columns the blocks are kept in (what a Document keeps for them), besides `top`."""

    __slots__ = (*COLUMNS, "_ordinals", "top")

    def __init__(self, found: Scan) -> None:
        self.kinds = found.kinds
        self.starts = found.starts
        self.ends = found.ends
        self.parents = found.parents
        self.last = found.last
        """last[i] = index of block i's last descendant (i itself when it has none): block i's
        descendants are blocks[i+1 : last[i]+1]."""
        self.top: Mapping[str, Sequence[int]] = dict(zip(KINDS, found.top, strict=True))
        """Kind → indices of the top-level blocks of that kind, in document order."""
        self._ordinals: array[int] | None = None  # see ordinal

    def __len__(self) -> int:
        return len(self.kinds)

    if TYPE_CHECKING:

        @overload
        def __getitem__(self, index: int) -> Block: ...
        @overload
        def __getitem__(self, index: slice) -> list[Block]: ...

    def __getitem__(self, index: int | slice) -> Block | list[Block]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.kinds)))]
        fields = (
            KINDS[self.kinds[index]],
            self.starts[index],
            self.ends[index],
            self.parents[index],
        )
        return tuple.__new__(Block, fields)  # in C, skipping the NamedTuple's Python __new__

    def __iter__(self) -> Iterator[Block]:
        kinds = map(KINDS.__getitem__, self.kinds)
        for fields in zip(kinds, self.starts, self.ends, self.parents, strict=True):
            yield tuple.__new__(Block, fields)

    def quoted(self, index: int) -> tuple[int, int]:
        """How many blockquotes block `index` is or is inside (0: none), and where the
        outermost of them starts (-1: none)."""
        kinds, parents, starts = self.kinds, self.parents, self.starts
        depth, outermost = 0, -1
        while index >= 0:
            if kinds[index] == _QUOTE_CODE:
                depth += 1
                outermost = starts[index]
            index = parents[index]
        return depth, outermost

    def ordinal(self, index: int) -> int:
        """0-based position of block `index` among the blocks of its kind with the same parent."""
        if self.parents[index] < 0:  # top level: its place among them, without the table
            return bisect_left(self.top[KINDS[self.kinds[index]]], index)
        ordinals = self._ordinals
        if ordinals is None:
            # One pass for all blocks, on first use: parsing skips it (indexing never needs it),
            # and per-block sibling walks would be quadratic in a list of 20,000 items.
            counters: dict[tuple[int, int], int] = {}
            values = array(self.last.typecode)
            for key in zip(self.parents, self.kinds, strict=True):
                ordinal = counters.get(key, 0)
                counters[key] = ordinal + 1
                values.append(ordinal)
            ordinals = self._ordinals = values
        return ordinals[index]

    def children(self, container: int, kind: str) -> list[int]:
        """Indices of the blocks of `kind` directly inside list or quote `container`'s items."""
        result = []
        child = container + 1
        last = self.last
        end = last[container]
        code = KINDS.index(kind)
        kinds = self.kinds
        while child <= end:
            if kinds[child] == code:
                result.append(child)
            child = last[child] + 1  # skip the child's own descendants
        return result

    def top_between(self, kind: str, start: int, end: int) -> Sequence[int]:
        """Indices of the top-level blocks of `kind` starting in bytes [start, end) (a slice of
        `top[kind]`, copied in C)."""
        indices = self.top[kind]
        starts = self.starts
        lo = bisect_left(indices, start, key=starts.__getitem__)
        hi = bisect_left(indices, end, lo, key=starts.__getitem__)
        return indices[lo:hi]

    def resident_bytes(self) -> int:
        """What the ordinals take once built (whether built yet or not)."""
        return self.last.itemsize * len(self.kinds) + 64

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Blocks):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.COLUMNS)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Blocks({len(self)})"
