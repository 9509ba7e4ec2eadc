"""What a node contains, as a select's JSON lists it and the index counts it: direct subsections,
child blocks, and the short previews that name them."""

from __future__ import annotations

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


def direct_subsections(document: Document, node: Node) -> list[int]:
    """Indices into document.headings of the sections directly inside a heading (or the root)."""
    headings = document.headings
    if node.kind == ROOT:
        return [i for i, parent in enumerate(headings.parents) if parent == -1]
    result = []
    i = node.ref + 1
    last = headings[node.ref].last
    while i <= last:
        result.append(i)
        i = headings[i].last + 1  # skip the subsection's own descendants
    return result


def subsection_selectors(document: Document, node: Node) -> tuple[str, ...]:
    if node.kind not in (HEADING, SECTION, ROOT):
        return ()
    headings = document.headings
    return tuple(
        heading_selector(headings[i].level, headings[i].ordinal)
        for i in direct_subsections(document, node)
    )


def children(document: Document, node: Node) -> tuple[Child, ...]:
    """The first MAX_CHILDREN of: direct subsections after the outermost blocks before the first
    of them (for a heading or the root), or the blocks directly in a list's or quote's items."""
    found: list[Child] = []
    if node.kind in (HEADING, SECTION, ROOT):
        subs = direct_subsections(document, node)
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
