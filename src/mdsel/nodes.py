"""What a selector matches: Node values, the kinds of node, their canonical selectors, and lazy
ranges of them (a scope's h2 headings, blocks or sections), which cost nothing to make or slice
however many nodes they span.
"""

from __future__ import annotations

from collections.abc import Sequence

from mdsel._record import NamedTuple
from mdsel.address import LINES
from mdsel.names import heading_selector
from mdsel.tree import Document, Source

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
    """Nodes over a sequence of indices, built lazily so slicing a huge range costs nothing."""

    __slots__ = ("_doc", "_indices", "_kind", "offset")

    def __init__(self, doc: int, kind: str, indices: Sequence[int], offset: int = 0) -> None:
        self._doc, self._kind, self._indices = doc, kind, indices
        self.offset = offset
        """The document-wide number of the first node (headings of one level), else 0."""

    def __len__(self) -> int:
        return len(self._indices)

    def __getitem__(self, key):  # type: ignore[no-untyped-def]
        if isinstance(key, slice):
            return [Node(self._doc, self._kind, i) for i in self._indices[key]]
        return Node(self._doc, self._kind, self._indices[key])


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
    if node.kind == HEADING:
        heading = document.headings[node.ref]
        return heading_selector(heading.level, heading.ordinal)
    parts = []
    index = node.ref
    while index >= 0:
        block = document.blocks[index]
        parts.append(f"{block.kind}.{document.blocks.ordinal(index)}")
        index = block.parent
    return "/".join(reversed(parts))
