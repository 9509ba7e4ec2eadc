"""Selectors × documents → matched nodes, and misses with a reason.

A selector's first segment is resolved in each document it applies to; each later segment inside
every node the previous one matched. An index item is resolved when it matches something in at
least one document; only items that match nothing anywhere become misses. Ranges are clamped to
what exists before any loop, so `h2.0-999999999` costs as much as `h2.0-7`.
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Sequence

from mdsel._record import NamedTuple
from mdsel.address import LINES, locate, miss_reason
from mdsel.errors import NAMESPACE_NOT_FOUND, SELECTOR_NOT_FOUND
from mdsel.names import heading_selector
from mdsel.parse import KINDS
from mdsel.selector import ANCHOR, LINE, Item, Segment, Selector, format_items, format_segments
from mdsel.titles import shown_title
from mdsel.tree import BLOCK_KINDS, Document, Source

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


class Miss(NamedTuple):
    """A selector item that matched nothing, or a namespace that named no document."""

    type: str
    selector: str
    """The missing item in short form, e.g. `readme::h2.9` or `h2.1/code.3`."""
    reason: str
    scope: tuple[int, ...]
    """Indices of the sources the selector applied to (for suggestions)."""
    segment: Segment


class Resolution(NamedTuple):
    selector: Selector
    nodes: tuple[Node, ...]
    misses: tuple[Miss, ...]


def namespace_sources(namespace: str | None, sources: Sequence[Source]) -> list[int]:
    """Indices of the sources a namespace names (all of them for None)."""
    if namespace is None:
        return list(range(len(sources)))
    hits = [i for i, s in enumerate(sources) if s.namespace == namespace]
    if not hits and len(sources) == 1:
        # With one document, `readme-2` from a multi-file index still means `readme`.
        base, dash, suffix = namespace.rpartition("-")
        if dash and suffix.isdigit() and sources[0].namespace == base:
            hits = [0]
    return hits


def link_sources(link: str, sources: Sequence[Source]) -> list[int]:
    """Indices of the sources a link's path names: those whose path ends with it, compared by
    whole components (`./` and `../` at its start dropped, as a link is relative to the page
    that holds it), in the same letter case if any match so, else in any case."""
    parts = [part for part in link.split("/") if part not in ("", ".")]
    while parts and parts[0] == "..":
        parts.pop(0)
    wanted = "/".join(parts)
    if not wanted:
        return []
    paths = [
        "/" + os.path.normpath(s.path).replace(os.sep, "/") if s.path != "-" else ""
        for s in sources
    ]
    hits = [i for i, path in enumerate(paths) if path.endswith("/" + wanted)]
    if not hits:
        folded = "/" + wanted.casefold()
        hits = [i for i, path in enumerate(paths) if path.casefold().endswith(folded)]
    return hits


def resolve(selector: Selector, sources: Sequence[Source]) -> Resolution:
    if selector.link and len(sources) > 1:
        return _resolve_link(selector, sources)
    return _resolve_in(selector, sources, namespace_sources(selector.namespace, sources))


def _resolve_link(selector: Selector, sources: Sequence[Source]) -> Resolution:
    """A link names one document by its path; one that names none, or several, is a miss that
    says which documents there are, never an answer from another document."""
    docs = link_sources(selector.link, sources)
    if len(docs) == 1:
        return _resolve_in(selector, sources, docs)
    if docs:
        shown = ", ".join(shown_title(sources[d].path) for d in docs[:5])
        reason = (
            f"the link names {len(docs)} documents of this call ({shown}); write more of its "
            "path, or name the document with its namespace"
        )
    else:
        reason = f"no document of this call is at {shown_title(selector.link)}"
    miss = Miss(
        NAMESPACE_NOT_FOUND,
        selector.source,
        reason,
        tuple(docs or range(len(sources))),
        selector.segments[0],
    )
    return Resolution(selector, (), (miss,))


def _resolve_in(selector: Selector, sources: Sequence[Source], docs: list[int]) -> Resolution:
    prefix = f"{selector.namespace}::" if selector.namespace else ""
    if not docs:
        names = ", ".join(s.namespace for s in sources)
        miss = Miss(
            NAMESPACE_NOT_FOUND,
            selector.source,
            f"no document has namespace {selector.namespace!r}; namespaces: {names}",
            tuple(range(len(sources))),
            selector.segments[0],
        )
        return Resolution(selector, (), (miss,))

    scopes = [Node(d, ROOT, -1) for d in docs]
    misses: list[Miss] = []
    done: list[Segment] = []
    for segment in selector.segments:
        if segment.type == ROOT:
            done.append(segment)
            continue
        if segment.type in (LINE, LINES, ANCHOR):  # first segment only: see mdsel.address
            scopes = [Node(*found) for found in locate(segment, sources, docs)]
            if not scopes:
                reason = miss_reason(segment, sources, docs)
                selected = prefix + format_segments((segment,))
                misses.append(Miss(SELECTOR_NOT_FOUND, selected, reason, tuple(docs), segment))
                break
            done.append(segment)
            continue
        per_scope = [(scope, candidates(sources, scope, segment.type)) for scope in scopes]
        found: dict[Node, None] = {}
        if segment.items is None or not any(len(nodes) for _scope, nodes in per_scope):
            # All of them; or nothing of this type anywhere, which is one miss for the whole
            # index list rather than one per item.
            if segment.items is None:
                for _scope, nodes in per_scope:
                    found.update(dict.fromkeys(nodes))
            if not found:
                misses.append(
                    Miss(
                        SELECTOR_NOT_FOUND,
                        prefix + format_segments((*done, segment)),
                        _none_reason(sources, scopes, segment.type),
                        tuple(docs),
                        segment,
                    )
                )
        else:
            for item in segment.items:
                for _scope, nodes in per_scope:
                    # Clamped slice: never iterates past what exists. Heading numbers are the
                    # document's own (as the index prints them), so a scope's headings start
                    # at the number of its first one.
                    first, last = (
                        item.first - _first_number(nodes),
                        item.last - _first_number(nodes),
                    )
                    if last >= 0:
                        found.update(dict.fromkeys(nodes[max(first, 0) : last + 1]))
                if not _item_hit(per_scope, item):
                    misses.append(
                        Miss(
                            SELECTOR_NOT_FOUND,
                            prefix + format_segments((*done, Segment(segment.type, (item,)))),
                            _range_reason(sources, per_scope, segment.type, item),
                            tuple(docs),
                            Segment(segment.type, (item,)),
                        )
                    )
        done.append(segment)
        scopes = sorted(found, key=lambda node: node.position(sources))
        if not scopes:
            break
    return Resolution(selector, tuple(scopes), tuple(misses))


def _item_hit(per_scope: list[tuple[Node, Sequence[Node]]], item: Item) -> bool:
    for _scope, nodes in per_scope:
        start = _first_number(nodes)
        if item.first < start + len(nodes) and item.last >= start:
            return True
    return False


def _first_number(nodes: Sequence[Node]) -> int:
    """The number the first of `nodes` goes by: its document-wide ordinal for the headings of
    one level inside a scope, else 0 (blocks and sections count within their scope)."""
    return nodes.offset if isinstance(nodes, _NodeRange) else 0


def candidates(sources: Sequence[Source], scope: Node, kind: str) -> Sequence[Node]:
    """The nodes of `kind` inside `scope`, in document order, as an indexable sequence."""
    document = sources[scope.doc].document
    doc = scope.doc
    if scope.kind == LINES:  # a heading inside a list or quote, named by its anchor
        return (
            ()
            if kind == SECTION or kind.startswith("h")
            else _blocks_in_lines(scope, kind, document)
        )
    if kind == SECTION or kind.startswith("h"):
        if scope.kind == ROOT:
            first, last = 0, len(document.headings) - 1
        elif scope.kind in (HEADING, SECTION):
            first, last = scope.ref + 1, document.headings[scope.ref].last
        else:
            return ()
        if kind == SECTION:
            return _NodeRange(doc, SECTION, range(first, last + 1))
        level_indices = document.headings.numbers.by_level[int(kind[1])]
        lo = _bisect(level_indices, first)
        hi = _bisect(level_indices, last + 1)
        # by_level[n][k] is the heading numbered hN.k: those in the scope are numbered from lo.
        return _NodeRange(doc, HEADING, level_indices[lo:hi], lo)
    if scope.kind == ROOT:
        return _NodeRange(doc, kind, document.blocks.top[kind])
    if scope.kind in (HEADING, SECTION):
        heading = document.headings[scope.ref]
        indices = document.blocks.top_between(kind, heading.start, heading.section_end)
        return _NodeRange(doc, kind, indices)
    return _NodeRange(doc, kind, document.blocks.children(scope.ref, kind))


def _blocks_in_lines(scope: Node, kind: str, document: Document) -> Sequence[Node]:
    """The outermost blocks of `kind` that start inside the lines of `scope` (a line span)."""
    starts = document.lines.starts
    start, end = starts[scope.ref - 1], starts[scope.line]
    blocks = document.blocks
    inside: list[int] = []
    # Blocks are in document order, so their starts are sorted.
    for index in range(bisect_left(blocks.starts, start), len(blocks)):
        begin = blocks.starts[index]
        if begin >= end:
            break
        if begin < start or KINDS[blocks.kinds[index]] != kind:
            continue
        parent = blocks.parents[index]
        while parent >= 0 and blocks.starts[parent] >= start:
            if KINDS[blocks.kinds[parent]] == kind:
                break
            parent = blocks.parents[parent]
        else:
            inside.append(index)
    return _NodeRange(scope.doc, kind, inside)


class _NodeRange(Sequence[Node]):
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


def _bisect(values: Sequence[int], target: int) -> int:
    lo, hi = 0, len(values)
    while lo < hi:
        mid = (lo + hi) // 2
        if values[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo


def kind_label(kind: str, count: int = 2) -> str:
    """`h2 headings`, `code blocks`, `sections`, singular when count == 1."""
    names = {
        "section": "section",
        "para": "paragraph",
        "code": "code block",
        "list": "list",
        "table": "table",
        "quote": "blockquote",
    }
    name = f"{kind} heading" if kind.startswith("h") else names.get(kind, kind)
    return name if count == 1 else name + "s"


def describe_scope(sources: Sequence[Source], scope: Node) -> str:
    """How a reason names a scope: the namespace for a document, else the node's selector."""
    if scope.kind == ROOT:
        return sources[scope.doc].namespace
    return node_selector(sources[scope.doc].document, scope)


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


def _none_reason(sources: Sequence[Source], scopes: list[Node], kind: str) -> str:
    if len(scopes) == 1:
        return f"{describe_scope(sources, scopes[0])} has no {kind_label(kind)}"
    return f"none of the {len(scopes)} scopes has {kind_label(kind)}"


def _range_reason(
    sources: Sequence[Source],
    per_scope: list[tuple[Node, Sequence[Node]]],
    kind: str,
    item: Item,
) -> str:
    what = f"index {item.first}" if item.first == item.last else f"range {format_items((item,))}"
    if len(per_scope) == 1:
        scope, nodes = per_scope[0]
        count = len(nodes)
        if count == 0:
            return f"{describe_scope(sources, scope)} has no {kind_label(kind)}"
        start = _first_number(nodes)
        if start or (kind.startswith("h") and scope.kind != ROOT):
            # Heading numbers are the document's: say which this scope holds.
            held = f"{kind}.{start}" if count == 1 else f"{kind}.{start}-{start + count - 1}"
            return (
                f"{kind}.{format_items((item,))} is not inside {describe_scope(sources, scope)}, "
                f"which holds {held} (heading numbers are the document's, as the index prints "
                "them)"
            )
        return (
            f"{what} out of range: {describe_scope(sources, scope)} has {count} "
            f"{kind_label(kind, count)}"
        )
    most = max(len(nodes) for _scope, nodes in per_scope)
    if most == 0:
        return f"none of the {len(per_scope)} scopes has {kind_label(kind)}"
    if kind.startswith("h"):
        return (
            f"{kind}.{format_items((item,))} is inside none of the {len(per_scope)} scopes "
            "(heading numbers are the document's, as the index prints them)"
        )
    return (
        f"{what} out of range: each of the {len(per_scope)} scopes has at most "
        f"{most} {kind_label(kind, most)}"
    )


__all__ = ["BLOCK_KINDS", "Miss", "Node", "Resolution", "candidates", "resolve"]
