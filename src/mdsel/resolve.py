"""Selectors × documents → matched nodes (see nodes), and misses with a reason (see reasons).

A selector's first segment is resolved in each document it applies to; each later segment inside
every node the previous one matched. An index item is resolved when it matches something in at
least one document; only items that match nothing anywhere become misses. Ranges are clamped to
what exists before any loop, so `h2.0-999999999` costs as much as `h2.0-7`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from mdsel._record import NamedTuple
from mdsel.address import LINES, locate, miss_reason
from mdsel.columns import KINDS
from mdsel.errors import NAMESPACE_NOT_FOUND, SELECTOR_NOT_FOUND
from mdsel.grep_paths import grep_paths
from mdsel.links import link_paths, may_be_at, shown_root, site_root
from mdsel.nodes import HEADING, ROOT, SECTION, Node, NodeRange, first_number, joined
from mdsel.reasons import none_reason, range_reason
from mdsel.selector import ANCHOR, LINE, Item, Segment, Selector, format_segments
from mdsel.titles import shown_title
from mdsel.tree import BLOCK_KINDS, Document, Source


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
    nodes: Sequence[Node]
    """In document order, each once: a lazy sequence (a scope may hold a million nodes)."""
    misses: tuple[Miss, ...]


def namespace_sources(namespace: str | None, sources: Sequence[Source], alone: bool) -> list[int]:
    """Indices of the sources a namespace names (all of them for None). `alone`: the call named
    its one document and nothing else."""
    if namespace is None:
        return list(range(len(sources)))
    hits = [i for i, s in enumerate(sources) if s.namespace == namespace]
    if not hits and alone:
        # With one document, `readme-2` from a multi-file index still means `readme`; not when
        # the call named others that did not load (`readme-2` may be one of them).
        base, dash, suffix = namespace.rpartition("-")
        if dash and suffix.isdigit() and sources[0].namespace == base:
            hits = [0]
    return hits


def resolve(
    selector: Selector,
    sources: Sequence[Source],
    alone: bool | None = None,
    left_out: Sequence[str] = (),
) -> Resolution:
    """`alone`: the call named its one document and nothing else, neither a file that failed
    nor one a limit left out (default: it has one document); `left_out`: the files a limit
    left out, which a link may name too."""
    alone = len(sources) == 1 if alone is None else alone and len(sources) == 1
    if selector.file:
        return _resolve_file(selector, sources, left_out)
    # A link to a Markdown file names the one document of a call by as much of its path as
    # both give (the link may be relative to another page, the path to the working folder);
    # any other link, and any in a call of several documents, by its path.
    if selector.link and (not alone or selector.namespace is None):
        return _resolve_link(selector, sources, left_out)
    if selector.link:
        if may_be_at(selector.link, sources[0].path):
            return _resolve_in(selector, sources, [0])
        reason = (
            f"the call's one document, {shown_title(sources[0].path)}, is not at "
            f"{shown_title(selector.link)}; name the document the link is to"
        )
        miss = Miss(NAMESPACE_NOT_FOUND, selector.source, reason, (0,), selector.segments[0])
        return Resolution(selector, (), (miss,))
    return _resolve_in(selector, sources, namespace_sources(selector.namespace, sources, alone))


def _resolve_link(
    selector: Selector, sources: Sequence[Source], left_out: Sequence[str] = ()
) -> Resolution:
    """A link names one document by its path; one that names none, or several, or one a limit
    left out, is a miss that says which documents there are, never an answer from another
    document."""
    named = [source.path for source in sources]
    docs = link_paths(selector.link, [*named, *left_out])
    unread = [left_out[d - len(named)] for d in docs if d >= len(named)]
    if unread:
        shown = ", ".join(shown_title(path) for path in unread[:5])
        also = " also" if len(unread) < len(docs) else ""
        reason = (
            f"the link{also} names {shown}, which this call did not read (left out by a limit, "
            "or not readable: see the warning or problem above); name a subdirectory, raise "
            "the limit, or fix that file"
        )
        miss = Miss(NAMESPACE_NOT_FOUND, selector.source, reason, (), selector.segments[0])
        return Resolution(selector, (), (miss,))
    if len(docs) == 1:
        return _resolve_in(selector, sources, docs)
    if docs:
        shown = ", ".join(shown_title(sources[d].path) for d in docs[:5])
        reason = (
            f"the link names {len(docs)} documents of this call ({shown}); write more of its "
            "path, or name the document with its namespace"
        )
    elif selector.link.startswith("/"):
        reason = (
            f"no document of this call is at {shown_title(selector.link)} from the site's root, "
            f"read as {shown_title(shown_root(site_root(sources)))} (the folder holding them "
            "all); name the site's own folder, or write the link from the linking page"
        )
    else:
        reason = f"no document of this call is at {shown_title(selector.link)}"
        if "/" not in selector.link and "." not in selector.link:
            anchor = shown_title(selector.segments[0].name)
            reason += f" (read as a link to that page; an anchor alone is #{anchor})"
    miss = Miss(
        NAMESPACE_NOT_FOUND,
        selector.source,
        reason,
        tuple(docs or range(len(sources))),
        selector.segments[0],
    )
    return Resolution(selector, (), (miss,))


def _resolve_file(
    selector: Selector, sources: Sequence[Source], left_out: Sequence[str] = ()
) -> Resolution:
    """`docs/a.md:23` in the one document at that path (mdsel.grep_paths); none, several, or
    one a limit left out is a miss saying so, never the line of another document."""
    named = [source.path for source in sources]
    docs = grep_paths(selector.file, [*named, *left_out])
    written = shown_title(selector.file)
    if len(docs) == 1 and docs[0] < len(named):
        found = _resolve_in(selector, sources, docs)
        # A miss names the line as written (`docs/a.md:900`), not as `L900` of any document.
        misses = tuple(
            miss._replace(selector=f"{selector.file}:{miss.selector[1:]}") for miss in found.misses
        )
        return found._replace(misses=misses)
    if any(doc >= len(named) for doc in docs):
        unread = ", ".join(shown_title(left_out[doc - len(named)]) for doc in docs[:5])
        reason = (
            f"{written} is {unread}, which this call did not read (left out by a limit, or "
            "not readable: see the warning or problem above); name that file"
        )
    elif docs:
        shown = ", ".join(shown_title(sources[doc].path) for doc in docs[:5])
        reason = (
            f"{written} may be any of {len(docs)} documents of this call ({shown}); write "
            "more of its path, as grep was given it"
        )
    else:
        reason = (
            f"no document of this call is at {written} (read as path:line, as grep -n prints "
            "it); name that file, or the folder holding it"
        )
    miss = Miss(
        NAMESPACE_NOT_FOUND,
        selector.source,
        reason,
        tuple(doc for doc in docs if doc < len(named)) or tuple(range(len(sources))),
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

    scopes: Sequence[Node] = [Node(d, ROOT, -1) for d in docs]
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
        found: Sequence[Node] = ()
        none_of_type = False
        if segment.items is None:
            # All of them: the nodes of the scopes no other scope holds (a section inside
            # another adds nothing to it), one scope's after another's, never one list.
            found = _all_in(scopes, sources, segment.type)
            none_of_type = not found
        else:
            per_scope = [(scope, candidates(sources, scope, segment.type)) for scope in scopes]
            # Nothing of this type anywhere: one miss for the whole index list rather than
            # one per item.
            none_of_type = not any(len(nodes) for _scope, nodes in per_scope)
            if not none_of_type:
                found = _items_in(segment.items, per_scope, sources)
                for item in segment.items:
                    if not _item_hit(per_scope, item):
                        misses.append(
                            Miss(
                                SELECTOR_NOT_FOUND,
                                prefix + format_segments((*done, Segment(segment.type, (item,)))),
                                range_reason(sources, per_scope, segment.type, item),
                                tuple(docs),
                                Segment(segment.type, (item,)),
                            )
                        )
        if none_of_type:
            misses.append(
                Miss(
                    SELECTOR_NOT_FOUND,
                    prefix + format_segments((*done, segment)),
                    none_reason(sources, scopes, segment.type),
                    tuple(docs),
                    segment,
                )
            )
        done.append(segment)
        scopes = found
        if not scopes:
            break
    return Resolution(selector, scopes, tuple(misses))


def _all_in(scopes: Sequence[Node], sources: Sequence[Source], kind: str) -> Sequence[Node]:
    """Every node of `kind` inside any of the scopes (in document order), each once, one
    scope's after another's, never one list: a scope inside another adds nothing to it, and
    sections next to one another hold their blocks as one span does. Each scope costs a few
    column reads (a selector may name millions of them); a document with no node of `kind` none."""
    headings_kind = kind == SECTION or kind.startswith("h")
    parts: list[Sequence[Node]] = []
    span = [-1, -1, -1]  # document, first byte, end: sections next to one another, for blocks

    def end_span() -> None:
        if span[0] >= 0:
            blocks = sources[span[0]].document.blocks
            indices = blocks.top_between(kind, span[1], span[2])
            parts.append(NodeRange(span[0], kind, indices, siblings=True))
        span[0] = -1

    present: dict[int, bool] = {}
    last = (-1, -1)  # the document and last heading of the latest scope kept
    for scope in scopes:
        doc = scope.doc
        document = sources[doc].document
        if doc not in present:
            present[doc] = _holds_any(document, kind)
        if not present[doc]:
            continue
        if scope.kind not in (HEADING, SECTION):
            end_span()
            parts.append(candidates(sources, scope, kind))
            continue
        headings = document.headings
        ref = scope.ref
        if (doc, ref) <= last:
            continue  # inside the scope before: its nodes are that one's
        last = (doc, headings.lasts[ref])
        if headings_kind:
            if last[1] > ref:  # a section with headings inside
                parts.append(candidates(sources, scope, kind))
            continue
        start, end = headings.starts[ref], headings.section_ends[ref]
        if span[0] == doc and span[2] == start:
            span[2] = end
        else:
            end_span()
            span[:] = [doc, start, end]
    end_span()
    return joined(parts)


def _holds_any(document: Document, kind: str) -> bool:
    """Whether the document has any node of `kind` at all."""
    if kind == SECTION:
        return len(document.headings) > 0
    if kind.startswith("h"):
        return len(document.headings.numbers.by_level[int(kind[1])]) > 0
    return len(document.blocks.top[kind]) > 0 or any(
        KINDS[code] == kind for code in set(document.blocks.kinds)
    )


def _outermost(scopes: Sequence[Node], sources: Sequence[Source]) -> Sequence[Node]:
    """The scopes (in document order) that no earlier one holds: a section inside another
    section of the list is left out, the nodes it holds being the outer one's too."""
    if not scopes or scopes[0].kind not in (HEADING, SECTION):
        return scopes
    kept: list[Node] = []
    doc, last = -1, -1
    for scope in scopes:
        if scope.kind in (HEADING, SECTION):
            if scope.doc == doc and scope.ref <= last:
                continue
            doc, last = scope.doc, sources[scope.doc].document.headings.lasts[scope.ref]
        kept.append(scope)
    return scopes if len(kept) == len(scopes) else kept


def _items_in(
    items: Sequence[Item], per_scope: list[tuple[Node, Sequence[Node]]], sources: Sequence[Source]
) -> Sequence[Node]:
    """The nodes the index items name in each scope, in document order, each once."""
    if len(_outermost([scope for scope, _nodes in per_scope], sources)) == len(per_scope):
        # Scopes apart: each one's slices, merged and in order, after the scope before.
        parts: list[Sequence[Node]] = []
        for _scope, nodes in per_scope:
            # Clamped: never iterates past what exists. Heading numbers are the document's
            # own (as the index prints them), so a scope's headings start at the number of
            # its first one.
            start = first_number(nodes)
            spans = sorted(
                (max(item.first - start, 0), min(item.last - start, len(nodes) - 1))
                for item in items
            )
            merged: list[list[int]] = []
            for first, last in spans:
                if first > last:
                    continue
                if merged and first <= merged[-1][1] + 1:
                    merged[-1][1] = max(merged[-1][1], last)
                else:
                    merged.append([first, last])
            parts.extend(nodes[first : last + 1] for first, last in merged)
        return joined(parts)
    # Sections inside sections of the list: a node may be in several, so each once, sorted.
    found: dict[Node, None] = {}
    for item in items:
        for _scope, nodes in per_scope:
            first, last = item.first - first_number(nodes), item.last - first_number(nodes)
            if last >= 0:
                found.update(dict.fromkeys(nodes[max(first, 0) : last + 1]))
    return tuple(sorted(found, key=lambda node: node.position(sources)))


def _item_hit(per_scope: list[tuple[Node, Sequence[Node]]], item: Item) -> bool:
    for _scope, nodes in per_scope:
        start = first_number(nodes)
        if item.first < start + len(nodes) and item.last >= start:
            return True
    return False


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
            first, last = scope.ref + 1, document.headings.lasts[scope.ref]
        else:
            return ()
        if kind == SECTION:
            return NodeRange(doc, SECTION, range(first, last + 1), siblings=True)
        level_indices = document.headings.numbers.by_level[int(kind[1])]
        lo = _bisect(level_indices, first)
        hi = _bisect(level_indices, last + 1)
        # by_level[n][k] is the heading numbered hN.k: those in the scope are numbered from lo.
        return NodeRange(doc, HEADING, level_indices[lo:hi], lo, siblings=True)
    if scope.kind == ROOT:
        return NodeRange(doc, kind, document.blocks.top[kind], siblings=True)
    if scope.kind in (HEADING, SECTION):
        headings = document.headings  # its columns: a Heading value would work out its lines
        start, end = headings.starts[scope.ref], headings.section_ends[scope.ref]
        return NodeRange(doc, kind, document.blocks.top_between(kind, start, end), siblings=True)
    return NodeRange(doc, kind, document.blocks.children(scope.ref, kind), siblings=True)


def _blocks_in_lines(scope: Node, kind: str, document: Document) -> Sequence[Node]:
    """The outermost blocks of `kind` inside the lines of `scope`, a heading inside a list or
    quote: those after the heading whose lines all lie in its lines. The list or quote holding
    the heading is not one of them (`> ## a` / `> text` / `> ## b`: `#a/quote` is a miss), nor
    is a block that runs on past them (into the next heading's lines, or after its container).
    """
    lines, blocks = document.lines, document.blocks
    start, end = lines.starts[scope.ref - 1], lines.starts[scope.line]
    nested = document.nested
    # The heading is the first nested one on the scope's first line: only container markup
    # comes before a heading on its line, so every block starting before it holds it.
    heading = nested[bisect_left(nested, start, key=lambda found: found.start)].start
    starts, ends, kinds, last = blocks.starts, blocks.ends, blocks.kinds, blocks.last
    code = KINDS.index(kind)
    inside: list[int] = []
    # Blocks are in document (pre)order, so their starts are sorted and a block's descendants
    # follow it: one taken, its own are skipped (they are not the outermost).
    index = bisect_left(starts, start)
    while index < len(blocks) and starts[index] < end:
        if (
            kinds[index] == code
            and starts[index] > heading
            and (ends[index] <= end or document.block_lines(index)[1] <= scope.line)
        ):
            inside.append(index)
            index = last[index] + 1
        else:
            index += 1
    return NodeRange(scope.doc, kind, inside)


def _bisect(values: Sequence[int], target: int) -> int:
    lo, hi = 0, len(values)
    while lo < hi:
        mid = (lo + hi) // 2
        if values[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo


__all__ = ["BLOCK_KINDS", "Miss", "Resolution", "candidates", "resolve"]
