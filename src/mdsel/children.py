"""What a node contains, as a select's JSON lists it and the index counts it: direct subsections,
child blocks, and the short previews that name them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from mdsel.names import heading_selector
from mdsel.nodes import HEADING, ROOT, SECTION, Node, node_selector
from mdsel.results import Child
from mdsel.tree import Document

PREVIEW_CHARS = 80
MAX_CHILDREN = 100
"""children_available entries per match: a list of 20,000 items is not a menu."""

BLOCK_TYPE = {
    "para": "paragraph",
    "code": "code",
    "list": "list",
    "table": "table",
    "quote": "blockquote",
}
"""Block kind → the name in a node type (`block:paragraph`)."""


def direct_subsections(document: Document, node: Node, most: int | None = None) -> list[int]:
    """Indices into document.headings of the sections directly inside a heading (or the root),
    the first `most` of them: each found in C (the next heading with it as parent)."""
    parents = document.headings.parents
    parent, first, end = _span(document, node)
    found: list[int] = []
    position = first
    while position < end and (most is None or len(found) < most):
        try:
            position = parents.index(parent, position, end)
        except ValueError:
            break
        found.append(position)
        position += 1
    return found


def _span(document: Document, node: Node) -> tuple[int, int, int]:
    """(parent, first, end): the headings directly inside `node` are those of first..end-1
    whose parent is `parent`."""
    if node.kind == ROOT:
        return -1, 0, len(document.headings)
    return node.ref, node.ref + 1, document.headings.lasts[node.ref] + 1


class Subsections(Sequence[str]):
    """The selectors of the sections directly inside a node, counted in C and named when asked
    (a page trailer names twelve of what may be a million)."""

    __slots__ = ("_count", "_document", "_node")

    def __init__(self, document: Document, node: Node) -> None:
        self._document, self._node = document, node
        self._count: int | None = None

    def __len__(self) -> int:
        if self._count is None:
            parent, first, end = _span(self._document, self._node)
            parents = self._document.headings.parents
            self._count = parents[first:end].count(parent) if end > first else 0
        return self._count

    def __getitem__(self, key):  # type: ignore[no-untyped-def]
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            picked = direct_subsections(self._document, self._node, stop)[start:stop:step]
            return tuple(self._selector(index) for index in picked)
        if key < 0:
            key += len(self)
        if not 0 <= key < len(self):
            raise IndexError("subsection index out of range")
        return self._selector(direct_subsections(self._document, self._node, key + 1)[key])

    def __iter__(self) -> Iterator[str]:
        return map(self._selector, direct_subsections(self._document, self._node))

    def _selector(self, index: int) -> str:
        headings = self._document.headings
        return heading_selector(headings.levels[index], headings.numbers.ordinal(index))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Subsections, tuple, list)):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Subsections({len(self)})"


def subsection_selectors(document: Document, node: Node) -> Sequence[str]:
    if node.kind not in (HEADING, SECTION, ROOT):
        return ()
    return Subsections(document, node)


def children(document: Document, node: Node) -> tuple[Child, ...]:
    """The first MAX_CHILDREN of: direct subsections after the outermost blocks before the first
    of them (for a heading or the root), or the blocks directly in a list's or quote's items."""
    found: list[Child] = []
    if node.kind in (HEADING, SECTION, ROOT):
        subs = direct_subsections(document, node, MAX_CHILDREN)
        begin = 0 if node.kind == ROOT else document.headings[node.ref].start
        if subs:
            end = document.headings[subs[0]].start
        elif node.kind == ROOT:
            end = len(document.data)
        else:
            end = document.headings[node.ref].section_end
        for index in _top_blocks_between(document, begin, end)[:MAX_CHILDREN]:
            found.append(_block_child(document, index))
        for index in subs[: MAX_CHILDREN - len(found)]:
            heading = document.headings[index]
            selector = heading_selector(heading.level, heading.ordinal)
            found.append(
                Child(selector, f"heading:h{heading.level}", heading.title[:PREVIEW_CHARS])
            )
    elif node.kind in ("list", "quote"):
        child = node.ref + 1
        while child <= document.blocks.last[node.ref] and len(found) < MAX_CHILDREN:
            found.append(_block_child(document, child))
            child = document.blocks.last[child] + 1  # skip the child's own descendants
    return tuple(found)


def children_counts(document: Document) -> tuple[list[int], int]:
    """How many children `children` would list (before the cap) for each heading, and for the
    root, in one linear merge: the outermost blocks between a heading and the next heading,
    plus its direct subsections."""
    # Columns, not Heading and Block values: this runs over every heading and block.
    parents, heading_starts = document.headings.parents, document.headings.starts
    block_starts = document.blocks.starts
    top = sorted(i for indices in document.blocks.top.values() for i in indices)
    counts = [0] * len(parents)
    position = 0
    for index, parent in enumerate(parents):
        if parent >= 0:
            counts[parent] += 1
        start = heading_starts[index]
        end = heading_starts[index + 1] if index + 1 < len(parents) else len(document.data)
        while position < len(top) and block_starts[top[position]] < start:
            position += 1
        count_start = position
        while position < len(top) and block_starts[top[position]] < end:
            position += 1
        counts[index] += position - count_start
    first_heading = heading_starts[0] if len(parents) else len(document.data)
    root = parents.count(-1)
    root += sum(1 for i in top if block_starts[i] < first_heading)
    return counts, root


def _top_blocks_between(document: Document, start: int, end: int) -> list[int]:
    found: list[int] = []
    for kind in document.blocks.top:
        found.extend(document.blocks.top_between(kind, start, end))
    return sorted(found)


def _block_child(document: Document, index: int) -> Child:
    kind = document.blocks[index].kind
    selector = node_selector(document, Node(0, kind, index))
    text, _cut = preview_cut(document, *document.block_lines(index))
    return Child(selector, f"block:{BLOCK_TYPE[kind]}", text)


def preview_cut(document: Document, first: int, last: int) -> tuple[str, bool]:
    """The first PREVIEW_CHARS characters of lines first..last, whitespace collapsed, and whether
    anything of those lines was left out of it."""
    if last < first:
        return "", False
    start = document.lines.starts[first - 1]
    stop = document.lines.starts[last]
    end = min(stop, start + PREVIEW_CHARS * 8)
    text = " ".join(document.data[start:end].decode("utf-8", errors="ignore").split())
    more = end < stop and document.lines.mask.find(b"x", end, stop) >= 0
    return text[:PREVIEW_CHARS], len(text) > PREVIEW_CHARS or more
