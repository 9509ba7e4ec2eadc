"""What a selector matches: Node values, the kinds of node, their canonical selectors, and lazy
ranges of them (a scope's h2 headings, blocks or sections), which cost nothing to make or slice
however many nodes they span.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate, chain, repeat

from mdsel._record import NamedTuple
from mdsel.address import LINES
from mdsel.names import heading_selector
from mdsel.tree import Document, Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import overload

ROOT = "root"
SECTION = "section"
HEADING = "heading"


class Node(NamedTuple):
    """A matched node: which document, what kind, which index in that document's tuple."""

    doc: int
    """Index into the call's sources."""
    kind: str
    """root, section (a heading matched as section.N), heading, lines (`L800-850`), or a block
    kind."""
    ref: int
    """Index into Document.headings (heading, section) or Document.blocks; -1 for root; the
    first line for lines."""
    line: int = 0
    """For lines, the last line. For a heading or root that `L812` named, the line asked for
    (its page is the one shown); 0 otherwise."""

    def position(self, sources: Sequence[Source]) -> tuple[int, int, int]:
        """Sort key: document order, an enclosing node before what it encloses."""
        if self.kind == ROOT:
            return (self.doc, -1, 0)
        document = sources[self.doc].document
        if self.kind in (HEADING, SECTION):
            return (self.doc, document.headings[self.ref].start, 0)
        if self.kind == LINES:
            return (self.doc, document.lines.starts[self.ref - 1], 0)
        return (self.doc, document.blocks[self.ref].start, 1 + self.ref)


class NodeRange(Sequence[Node]):
    """Nodes over a sequence of indices, built lazily so slicing a huge range costs nothing
    (a slice is a NodeRange over the indices' slice: a range stays a range, an array is copied
    in C)."""

    __slots__ = ("doc", "indices", "kind", "offset", "siblings")

    def __init__(
        self,
        doc: int,
        kind: str,
        indices: Sequence[int],
        offset: int = 0,
        siblings: bool = False,
    ) -> None:
        self.doc, self.kind, self.indices = doc, kind, indices
        self.offset = offset
        """The document-wide number of the first node (headings of one level), else 0."""
        self.siblings = siblings
        """Whether the nodes' selectors are one run, `stem.k` to `stem.k+n-1` (blocks of one
        parent, headings of one level, sections), which listing them can use."""

    def __len__(self) -> int:
        return len(self.indices)

    if TYPE_CHECKING:

        @overload
        def __getitem__(self, key: int) -> Node: ...
        @overload
        def __getitem__(self, key: slice) -> NodeRange: ...

    def __getitem__(self, key: int | slice) -> Node | NodeRange:
        if isinstance(key, slice):
            start = key.indices(len(self.indices))[0]
            offset = self.offset + start if self.kind == HEADING else 0
            return NodeRange(self.doc, self.kind, self.indices[key], offset, self.siblings)
        # tuple.__new__ builds the Node in C, skipping the NamedTuple's Python-level __new__.
        return tuple.__new__(Node, (self.doc, self.kind, self.indices[key], 0))

    def __iter__(self) -> Iterator[Node]:
        fields = zip(repeat(self.doc), repeat(self.kind), self.indices, repeat(0))
        return map(tuple.__new__, repeat(Node), fields)  # in C, as __getitem__


class NodeChain(Sequence[Node]):
    """Sequences of nodes one after the other, as one sequence: what a selector matched across
    scopes and documents, never copied into one list (a scope may hold a million nodes)."""

    __slots__ = ("_ends", "parts")

    def __init__(self, parts: Sequence[Sequence[Node]]) -> None:
        self.parts = [part for part in parts if len(part)]
        self._ends = list(accumulate(len(part) for part in self.parts))

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    if TYPE_CHECKING:

        @overload
        def __getitem__(self, key: int) -> Node: ...
        @overload
        def __getitem__(self, key: slice) -> NodeChain: ...

    def __getitem__(self, key: int | slice) -> Node | NodeChain:
        size = len(self)
        if isinstance(key, slice):
            start, stop, step = key.indices(size)
            if step != 1:
                return NodeChain([tuple(self)[key]])
            parts: list[Sequence[Node]] = []
            begin = 0
            for part, end in zip(self.parts, self._ends, strict=True):
                if end > start and begin < stop:
                    parts.append(part[max(start - begin, 0) : min(stop, end) - begin])
                begin = end
            return NodeChain(parts)
        if key < 0:
            key += size
        if not 0 <= key < size:
            raise IndexError("node index out of range")
        number = bisect_right(self._ends, key)
        return self.parts[number][key - (self._ends[number - 1] if number else 0)]

    def __iter__(self) -> Iterator[Node]:
        return chain.from_iterable(self.parts)


def node_pieces(nodes: Sequence[Node]) -> Iterator[Sequence[Node]]:
    """`nodes` in pieces of one document and kind each, in order: a NodeRange whole, a chain's
    parts, any other sequence cut where its document or kind changes."""
    if isinstance(nodes, NodeRange):
        yield nodes
    elif isinstance(nodes, NodeChain):
        for part in nodes.parts:
            yield from node_pieces(part)
    else:
        piece: list[Node] = []
        for node in nodes:
            if piece and (piece[-1].doc, piece[-1].kind) != (node.doc, node.kind):
                yield tuple(piece)
                piece = []
            piece.append(node)
        if piece:
            yield tuple(piece)


def joined(parts: Sequence[Sequence[Node]]) -> Sequence[Node]:
    """The parts as one sequence: nothing, the one part itself, or a chain of them."""
    kept = [part for part in parts if len(part)]
    if not kept:
        return ()
    return kept[0] if len(kept) == 1 else NodeChain(kept)


def first_number(nodes: Sequence[Node]) -> int:
    """The number the first of `nodes` goes by: its document-wide ordinal for the headings of
    one level inside a scope, else 0 (blocks and sections count within their scope)."""
    return nodes.offset if isinstance(nodes, NodeRange) else 0


def node_selector(document: Document, node: Node) -> str:
    """The canonical short selector of a node, unique within its document."""
    if node.kind == ROOT:
        return ROOT
    if node.kind == LINES:
        return f"L{node.ref}-{node.line}"
    if node.kind == SECTION:
        return f"section.{node.ref}"
    if node.kind == HEADING:  # from the columns: a Heading value would count its lines
        headings = document.headings
        return heading_selector(headings.levels[node.ref], headings.numbers.ordinal(node.ref))
    parts = []
    index = node.ref
    while index >= 0:
        block = document.blocks[index]
        parts.append(f"{block.kind}.{document.blocks.ordinal(index)}")
        index = block.parent
    return "/".join(reversed(parts))
